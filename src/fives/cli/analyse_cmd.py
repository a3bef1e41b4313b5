"""``fives analyse RECORD [--seat S] [--bot hard] [--round R] [--json]``: a bot reviews a match.

The record is replayed; at every decision of the seat (a turn with more than one legal action)
the bot is shown that seat's view and estimates the value of every legal action
(``Bot.values``). The account gives the action played, the bot's choice (its best-valued
action) and every value, and flags the plays that lost the most (the value of the best action
minus the value of the action played).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from fives.bots import Bot, BotError, make_bot
from fives.bots.host import Seeds
from fives.bots.ladder import CheatBot
from fives.cli.errors import UsageError
from fives.core.record import Record, RecordError, replay_state
from fives.core.state import State
from fives.core.tiles import Action
from fives.core.view import view_of

DEFAULT_BOT = "hard"
FALLBACK_BOT = "easy"


def register(sub: Any) -> None:
    p = sub.add_parser(
        "analyse",
        aliases=["analyze"],
        help="a bot's review of a record: the value of every legal action at each decision",
        description="Replay a record (RECORD.md) and, at every decision of a seat, show the "
        "bot's choice and its estimated value of every legal action; flag the plays that lost "
        "the most.",
    )
    p.add_argument("record", metavar="RECORD", help="a record file (RECORD.md)")
    p.add_argument("--seat", type=int, metavar="S", help="the seat to review (default: every seat)")
    p.add_argument("--bot", metavar="NAME", help=f"the reviewing bot (default: {DEFAULT_BOT})")
    p.add_argument("--round", type=int, metavar="R", help="only round R (counting from 1)")
    p.add_argument("--top", type=int, default=3, metavar="K", help="flag the K costliest plays (default 3)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the bot's seed (default 0)")
    p.add_argument("--json", action="store_true", help="one JSON document on standard output")
    p.set_defaults(func=run)


def _load(path: str) -> Record:
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read: {exc}") from None
    try:
        record = Record.from_json(text)
        replay_state(record)  # checked whole before any analysis
    except RecordError as exc:
        raise UsageError(f"{path}: {exc}") from None
    return record


def _bot(name: str | None) -> tuple[Bot, str]:
    if name is not None:
        try:
            return make_bot(name), name
        except BotError as exc:
            raise UsageError(str(exc)) from None
    try:
        return make_bot(DEFAULT_BOT), DEFAULT_BOT
    except BotError:
        return make_bot(FALLBACK_BOT), FALLBACK_BOT


def analyse(
    record: Record,
    bot: Bot,
    *,
    seats: Sequence[int],
    round_no: int | None = None,
    seed: int = 0,
    top: int = 3,
) -> list[dict[str, Any]]:
    """The decisions of ``seats`` (in ``round_no`` only, 0-based, if given), each with the bot's
    values; the ``top`` costliest plays get ``flag`` 1, 2, 3..."""
    state = State(record.config)
    decisions: list[dict[str, Any]] = []
    for i, rnd in enumerate(record.rounds):
        if round_no is not None and i > round_no:
            break
        state.start_round(rnd.hands, rnd.stock, rnd.leader)
        for k, text in enumerate(rnd.actions):
            seat = state.turn
            action = Action.parse(text)
            legal = state.legal_actions()
            if seat in seats and len(legal) > 1 and (round_no is None or i == round_no):
                decisions.append(_decision(state, bot, seat, action, legal, i, k, seed))
            state.play(action)
    costly = sorted(
        (d for d in decisions if d["loss"] is not None and d["loss"] > 1e-9),
        key=lambda d: (-d["loss"], d["round"], d["action_no"]),
    )
    for rank, d in enumerate(costly[: max(0, top)], 1):
        d["flag"] = rank
    return decisions


def _decision(
    state: State, bot: Bot, seat: int, played: Action, legal: list[Action], i: int, k: int, seed: int
) -> dict[str, Any]:
    view = view_of(state, seat)
    if isinstance(bot, CheatBot):  # the measuring bot sees the record's hidden tiles
        bot.peek(state.copy())
    rng = Seeds(seed).of("analyse").decision(seat, i, k)
    raw = bot.values(view, rng)
    values: dict[str, float | None] = {}
    for a in legal:
        v = raw.get(a)
        values[str(a)] = None if v is None else float(v)
    known = {a: v for a, v in values.items() if v is not None}
    choice = max(known, key=lambda a: known[a]) if known else None  # first of the best
    best = known[choice] if choice is not None else None
    mine = values.get(str(played))
    loss = best - mine if best is not None and mine is not None else None
    return {
        "round": i,
        "action_no": k,
        "seat": seat,
        "played": str(played),
        "choice": choice,
        "agrees": choice == str(played),
        "loss": loss,
        "values": values,
        "flag": None,
    }


def _summary(decisions: Sequence[dict[str, Any]], seats: Sequence[int]) -> list[dict[str, Any]]:
    out = []
    for seat in seats:
        mine = [d for d in decisions if d["seat"] == seat]
        losses = [d["loss"] for d in mine if d["loss"] is not None]
        out.append(
            {
                "seat": seat,
                "decisions": len(mine),
                "agrees": sum(1 for d in mine if d["agrees"]),
                "total_loss": sum(losses),
                "mean_loss": sum(losses) / len(losses) if losses else None,
            }
        )
    return out


def run(args: argparse.Namespace) -> int:
    record = _load(args.record)
    n = record.config.players
    if args.seat is not None and not 0 <= args.seat < n:
        raise UsageError(f"--seat must be a seat from 0 to {n - 1}, not {args.seat}")
    rounds = len(record.rounds)
    if args.round is not None and not 1 <= args.round <= rounds:
        raise UsageError(f"--round must be from 1 to {rounds}, not {args.round}")
    if args.top < 0:
        raise UsageError(f"--top must be 0 or more, not {args.top}")
    seats = [args.seat] if args.seat is not None else list(range(n))
    bot, bot_name = _bot(args.bot)
    try:
        decisions = analyse(
            record,
            bot,
            seats=seats,
            round_no=None if args.round is None else args.round - 1,
            seed=args.seed,
            top=args.top,
        )
    finally:
        bot.close()
    summary = _summary(decisions, seats)
    if args.json:
        doc = {
            "record": args.record,
            "game": record.config.game.name,
            "players": n,
            "names": record.seats,
            "bot": bot_name,
            "seats": seats,
            "round": args.round,
            "decisions": [
                {**d, "round": d["round"] + 1, "action_no": d["action_no"] + 1} for d in decisions
            ],
            "summary": summary,
        }
        print(json.dumps(doc, indent=1))
        return 0
    print("\n".join(account(record, bot_name, decisions, summary, args.record)))
    return 0


def _fmt(v: float | None) -> str:
    return "-" if v is None else f"{v:+.2f}"


def account(
    record: Record,
    bot_name: str,
    decisions: Sequence[dict[str, Any]],
    summary: Sequence[dict[str, Any]],
    path: str,
) -> list[str]:
    cfg = record.config
    names = record.seats

    def who(seat: int) -> str:
        return f"seat {seat}" + (f" ({names[seat]})" if names else "")

    lines = [
        f"{path}: {cfg.game.title} ({cfg.game.name}), {cfg.players} players"
        f"{', teams' if cfg.teams else ''}; reviewed by {bot_name}",
        "values are the bot's estimates (higher is better); loss = best value - value played; "
        "?? flags the costliest plays",
    ]
    current = None
    for d in decisions:
        if d["round"] != current:
            current = d["round"]
            lines.append("")
            lines.append(f"round {current + 1}")
        flag = f"  ?? (#{d['flag']})" if d["flag"] else ""
        if d["agrees"]:
            verdict = f"{bot_name} agrees"
        else:
            verdict = f"{bot_name} prefers {d['choice']}, loss {_fmt(d['loss'])}"
        lines.append(
            f"  action {d['action_no'] + 1}: {who(d['seat'])} played {d['played']}; {verdict}{flag}"
        )
        ordered = sorted(
            d["values"].items(), key=lambda kv: (kv[1] is None, -(kv[1] or 0.0))
        )
        for action, value in ordered:
            marks = []
            if action == d["choice"]:
                marks.append("bot")
            if action == d["played"]:
                marks.append("played")
            lines.append(f"      {action:<7} {_fmt(value):>9}  {', '.join(marks)}".rstrip())
    if not decisions:
        lines.append("")
        lines.append("no decisions to review (every action there was forced)")
    lines.append("")
    for s in summary:
        mean = "-" if s["mean_loss"] is None else f"{s['mean_loss']:.2f}"
        lines.append(
            f"{who(s['seat'])}: {s['decisions']} decisions, {s['agrees']} as {bot_name} would, "
            f"total loss {s['total_loss']:.2f}, mean loss {mean}"
        )
    flagged = sorted((d for d in decisions if d["flag"]), key=lambda d: d["flag"])
    if flagged:
        lines.append("costliest plays:")
        for d in flagged:
            lines.append(
                f"  #{d['flag']}: round {d['round'] + 1}, action {d['action_no'] + 1}, "
                f"{who(d['seat'])} played {d['played']} (best {d['choice']}): loss {d['loss']:.2f}"
            )
    return lines

