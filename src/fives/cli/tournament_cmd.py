"""``fives tournament``: bots play whole matches on duplicate deals, in parallel processes.

Every deal set is played with the bots rotated through the seats so that the luck of the deal
cancels; the report gives, per bot, match wins with a 95% Wilson interval, points per round and
per round over the opponents, an Elo estimate with its interval, the 95th percentile of time per
move, and the faults of bots that broke the protocol. Results go to ``DIR/results.json``, every
match to ``DIR/records/`` (RECORD.md) and the chart to ``DIR/standings.svg``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path
from typing import Any

from fives.bots import BotError, BotName
from fives.bots.protocol import DEFAULT_MOVE_TIME
from fives.cli.errors import UsageError
from fives.cli.options import add_match_options, config_from
from fives.tournament.runner import Plan, default_jobs, run_tournament, seatings

DEFAULT_OUT = "tournament-results"


def register(sub: Any) -> None:
    p = sub.add_parser(
        "tournament",
        help="bots play matches on duplicate deals; statistics, records and a chart",
        description="Bots play whole matches to the target on duplicate deals (every deal set "
        "is replayed with the bots rotated through the seats), in parallel processes. "
        "A bot is one of ours (random, easy, ...) or cmd:COMMAND LINE for an outside program "
        "speaking the bot protocol.",
    )
    add_match_options(
        p,
        "partnerships (4 players; default: the game's rule); bots A,B are then the teams "
        "of seats 1+3 and 2+4",
    )
    p.add_argument(
        "--bots",
        metavar="A,B[,C,D]",
        help="the bots, comma-separated: one per seat, or two for four players",
    )
    p.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="NAME",
        help="a bot (repeatable; for a cmd: command line that holds a comma)",
    )
    p.add_argument("--matches", type=int, default=100, metavar="M",
                   help="matches to play, rounded up to whole deal sets (default 100)")
    p.add_argument("--seed", type=int, metavar="S", help="random seed (default: a fresh one)")
    p.add_argument("--jobs", type=int, metavar="J",
                   help=f"parallel processes (default: the CPU count, {default_jobs()})")
    p.add_argument("--out", metavar="DIR", default=DEFAULT_OUT,
                   help=f"where results, records and the chart go (default: {DEFAULT_OUT})")
    p.add_argument("--move-time", type=float, default=DEFAULT_MOVE_TIME, metavar="SECONDS",
                   help=f"time limit per decision for outside (cmd:) bots (default {DEFAULT_MOVE_TIME:g})")
    p.add_argument("--json", action="store_true", help="print results.json on stdout instead of a table")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def _bot_names(args: argparse.Namespace) -> list[str]:
    names: list[str] = []
    if args.bots:
        names.extend(part.strip() for part in args.bots.split(","))
    names.extend(b.strip() for b in args.bot)
    if not names:
        raise UsageError("name the bots with --bots A,B (one per seat, or two for four players)")
    for name in names:
        if not name:
            raise UsageError("--bots has an empty name")
        try:
            bot = BotName.parse(name)
        except BotError as exc:
            raise UsageError(str(exc)) from None
        if not bot.program_found():
            raise UsageError(f"{name!r}: no program {bot.argv[0]!r} found")
    return names


def build_plan(args: argparse.Namespace) -> Plan:
    config = config_from(args)
    names = _bot_names(args)
    try:
        seats = seatings(config.players, len(names))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.matches < 1:
        raise UsageError(f"--matches must be at least 1, not {args.matches}")
    if not 0 < args.move_time <= 3600:
        raise UsageError(f"--move-time must be between 0 and 3600 seconds, not {args.move_time:g}")
    seed = args.seed
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
        print(f"seed: {seed}", file=sys.stderr)
    deal_sets = math.ceil(args.matches / len(seats))
    return Plan(
        config=config,
        bots=tuple(names),
        deal_sets=deal_sets,
        seed=seed,
        move_time=args.move_time,
        seats=tuple(seats),
    )


def run(args: argparse.Namespace) -> int:
    plan = build_plan(args)
    jobs = default_jobs() if args.jobs is None else args.jobs
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {jobs}")
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".fives-write-test"
        probe.write_text("", encoding="utf-8")
        probe.unlink()
    except OSError as exc:
        raise UsageError(f"{args.out}: cannot write there: {exc}") from None
    plan = Plan(
        config=plan.config,
        bots=plan.bots,
        deal_sets=plan.deal_sets,
        seed=plan.seed,
        move_time=plan.move_time,
        bot_log=str(out / "bots.log"),
        seats=plan.seats,
    )
    if plan.matches != args.matches:
        print(
            f"note: {plan.matches} matches ({plan.deal_sets} deal sets x {len(plan.seats)} "
            f"seatings), not {args.matches}: every deal set is played in every seating",
            file=sys.stderr,
        )
    done = run_tournament(plan, jobs=jobs, out=out, progress=None if args.quiet else sys.stderr)
    results = done.results
    if args.json:
        print(json.dumps(results, indent=1))
    else:
        print(table(results))
        print(f"results: {out / 'results.json'}; records: {out / 'records'}; "
              f"chart: {out / 'standings.svg'}")
    faults = sum(b["faults"]["count"] for b in results["bots"])
    if faults:
        print(f"faults: {faults} forfeited decisions (see {out / 'faults.log'})", file=sys.stderr)
    if done.interrupted:
        print(
            f"interrupted: {results['matches_played']} of {results['matches_planned']} matches "
            f"finished; statistics over {results['deal_sets_counted']} complete deal sets",
            file=sys.stderr,
        )
        return 130
    return 0


def _num(x: float | None, fmt: str = "{:.1f}") -> str:
    return "-" if x is None else fmt.format(x)


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    ms = seconds * 1000
    return f"{ms:.1f} ms" if ms >= 10 else f"{ms:.2f} ms" if ms >= 0.1 else f"{ms * 1000:.0f} µs"


def table(results: dict[str, Any]) -> str:
    """The standings as a plain-text table."""
    head = (
        f"{results['game']}, {results['players']} players"
        f"{' (teams)' if results['teams'] else ''}, target {results['target']}, seed "
        f"{results['seed']}: {results['matches_counted']} matches on "
        f"{results['deal_sets_counted']} duplicate deal set{'s' if results['deal_sets_counted'] != 1 else ''} "
        f"({len(results['seatings'])} seatings), {results['seconds']:.1f} s"
    )
    rows = [
        [
            "bot", "matches", "W-D-L", "score", "95% CI", "Elo", "Elo 95% CI",
            "pts/round", "+/round", "95% CI", "p95 move", "faults",
        ]
    ]
    for b in results["bots"]:
        lo, hi = b["score_interval"]
        elo = b["elo"]
        diff = b["diff_per_round"]
        p95 = b["move_time"]["p95"]
        rows.append(
            [
                b["label"],
                str(b["matches"]),
                f"{b['wins']}-{b['draws']}-{b['losses']}",
                f"{b['score_rate'] * 100:.1f}%",
                f"{lo * 100:.1f}-{hi * 100:.1f}%",
                _num(elo["estimate"], "{:+.0f}"),
                f"{_num(elo['low'], '{:+.0f}')}..{_num(elo['high'], '{:+.0f}')}",
                _num(b["points_per_round"], "{:.2f}"),
                _num(diff["mean"], "{:+.2f}"),
                "-"
                if diff["low"] is None
                else f"{diff['low']:+.2f}..{diff['high']:+.2f}",
                _duration(p95),
                str(b["faults"]["count"]),
            ]
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [head]
    for k, r in enumerate(rows):
        cells = [
            c.ljust(widths[i]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(r)
        ]
        lines.append("  ".join(cells).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)
