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
from fives.cli.columns import ljust, rjust, width
from fives.cli.errors import UsageError, keyed_text
from fives.cli.options import add_match_options, config_from, lang_of
from fives.i18n import default_language, plural, t
from fives.phrasing import os_error_text
from fives.tournament.runner import Plan, default_jobs, run_tournament, seatings

DEFAULT_OUT = "tournament-results"


def register(sub: Any) -> None:
    lang = default_language()
    p = sub.add_parser(
        "tournament", help=t("cli.tournament.help", lang),
        description=t("cli.tournament.description", lang),
    )
    add_match_options(p, t("cli.tournament.teams", lang))
    p.add_argument("--bots", metavar="A,B[,C,D]", help=t("cli.tournament.bots", lang))
    p.add_argument("--bot", action="append", default=[], metavar="NAME",
                   help=t("cli.tournament.bot", lang))
    p.add_argument("--matches", type=int, default=100, metavar="M",
                   help=t("cli.tournament.matches", lang))
    p.add_argument("--seed", type=int, metavar="S", help=t("cli.opt.seed_fresh", lang))
    p.add_argument("--jobs", type=int, metavar="J",
                   help=t("cli.tournament.jobs", lang, jobs=default_jobs()))
    p.add_argument("--out", metavar="DIR", default=DEFAULT_OUT,
                   help=t("cli.tournament.out", lang, dir=DEFAULT_OUT))
    p.add_argument("--move-time", type=float, default=DEFAULT_MOVE_TIME, metavar="SECONDS",
                   help=t("cli.tournament.move_time", lang, seconds=f"{DEFAULT_MOVE_TIME:g}"))
    p.add_argument("--json", action="store_true", help=t("cli.tournament.json", lang))
    p.add_argument("--quiet", action="store_true", help=t("cli.tournament.quiet", lang))
    p.set_defaults(func=run)


def _bot_names(args: argparse.Namespace) -> list[str]:
    lang = lang_of(args)
    names: list[str] = []
    if args.bots:
        names.extend(part.strip() for part in args.bots.split(","))
    names.extend(b.strip() for b in args.bot)
    if not names:
        raise UsageError(t("cli.tournament.err.no_bots", lang), lang)
    for name in names:
        if not name:
            raise UsageError(t("cli.tournament.err.empty_name", lang), lang)
        try:
            bot = BotName.parse(name)
        except BotError as exc:
            raise UsageError(keyed_text("bot", exc, lang), lang) from None
        if not bot.program_found():
            raise UsageError(t("cli.tournament.err.no_program", lang, name=repr(name),
                               program=repr(bot.argv[0])), lang)
    return names


def build_plan(args: argparse.Namespace) -> Plan:
    config = config_from(args)
    lang = lang_of(args)
    names = _bot_names(args)
    try:
        seats = seatings(config.players, len(names))
    except ValueError:
        raise UsageError(t("cli.tournament.err.bot_count", lang, players=config.players,
                           count=len(names)), lang) from None
    if args.matches < 1:
        raise UsageError(t("cli.err.at_least", lang, option="--matches", low=1,
                           value=args.matches), lang)
    if not 0 < args.move_time <= 3600:
        raise UsageError(t("cli.err.range", lang, option="--move-time", low=0, high=3600,
                           value=f"{args.move_time:g}"), lang)
    seed = args.seed
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
        print(t("cli.seed", lang, seed=seed), file=sys.stderr)
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
    lang = lang_of(args)
    jobs = default_jobs() if args.jobs is None else args.jobs
    if jobs < 1:
        raise UsageError(t("cli.err.at_least", lang, option="--jobs", low=1, value=jobs), lang)
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".fives-write-test"
        probe.write_text("", encoding="utf-8")
        probe.unlink()
    except OSError as exc:
        raise UsageError(t("cli.err.write_dir", lang, path=args.out,
                           why=os_error_text(exc, lang)), lang) from None
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
        sets = plural("cli.tournament.sets", plan.deal_sets, lang)
        print(t("cli.tournament.rounded", lang, matches=plan.matches, sets=sets,
                seatings=len(plan.seats), asked=args.matches), file=sys.stderr)
    done = run_tournament(plan, jobs=jobs, out=out, progress=None if args.quiet else sys.stderr)
    results = done.results
    if args.json:
        print(json.dumps(results, indent=1))
    else:
        print(table(results, lang))
        print(t("cli.tournament.files", lang, results=out / "results.json",
                records=out / "records", chart=out / "standings.svg"))
    faults = sum(b["faults"]["count"] for b in results["bots"])
    if faults:
        print(plural("cli.tournament.faults", faults, lang, log=out / "faults.log"),
              file=sys.stderr)
    if done.interrupted:
        counted = plural("cli.tournament.complete_sets", results["deal_sets_counted"], lang)
        print(t("cli.tournament.interrupted", lang, played=results["matches_played"],
                planned=results["matches_planned"], counted=counted), file=sys.stderr)
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


#: the standings' columns, by their catalogue keys (``cli.tournament.col.<key>``)
COLUMNS = ("bot", "matches", "wdl", "score", "ci", "elo", "elo_ci", "points", "diff", "ci",
           "p95", "faults")


def table(results: dict[str, Any], lang: str = "en") -> str:
    """The standings as a plain-text table."""
    head = t(
        "cli.tournament.head", lang, game=results["game"], players=results["players"],
        teams=t("cli.tournament.head_teams", lang) if results["teams"] else "",
        target=results["target"], seed=results["seed"], matches=results["matches_counted"],
        sets=plural("cli.tournament.sets", results["deal_sets_counted"], lang),
        seatings=len(results["seatings"]), seconds=f"{results['seconds']:.1f}",
    )
    rows = [[t(f"cli.tournament.col.{key}", lang) for key in COLUMNS]]
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
    widths = [max(width(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [head]
    for k, r in enumerate(rows):
        cells = [
            ljust(c, widths[i]) if i == 0 else rjust(c, widths[i]) for i, c in enumerate(r)
        ]
        lines.append("  ".join(cells).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)
