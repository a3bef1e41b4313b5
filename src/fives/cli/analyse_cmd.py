"""``fives analyse RECORD [--seat S] [--bot hard] [--round R] [--json] [--lang en|hi]``: a bot
reviews a match.

The record is replayed; at every decision of the seat (a turn with more than one legal action)
the bot is shown that seat's view and estimates the value of every legal action
(``Bot.values``). The account gives the action played, the bot's choice (its best-valued
action) and every value, and flags the plays that lost the most (the value of the best action
minus the value of the action played). Identical actions (a fresh spinner's N and S arms, two
ends showing the same number: :mod:`fives.bots.transpose`) are one choice: the text shows
them as one line naming both, the JSON lists them under ``same``, and playing either agrees
with a choice of the other. The text account and the errors are in the reader's
language (``--lang``, else the locale's); ``--json`` is language-neutral.

People number seats from 1, as every screen does: ``--seat 2`` is the record's seat 1, and the
JSON document counts seats, rounds and decisions from 1 as well (records number seats from 0,
RECORD.md; only the record is read that way).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from fives.bots import Bot, BotError, make_bot
from fives.bots.host import Seeds
from fives.bots.ladder import CheatBot
from fives.bots.transpose import action_classes
from fives.cli.errors import UsageError
from fives.core.record import Record, RecordError, replay_state
from fives.core.state import State
from fives.core.tiles import Action
from fives.core.view import view_of
from fives.i18n import LANGUAGES, default_language
from fives.phrasing import Names, Tr, os_error_text, record_error_text, seat_number

DEFAULT_BOT = "hard"
FALLBACK_BOT = "easy"


def register(sub: Any) -> None:
    at = Tr(default_language(), "replay.analyse.")
    p = sub.add_parser(
        "analyse", aliases=["analyze"], help=at("cli.help"), description=at("cli.description")
    )
    p.add_argument("record", metavar="RECORD", help=at("cli.record"))
    p.add_argument("--seat", type=int, metavar="S", help=at("cli.seat"))
    p.add_argument("--bot", metavar="NAME", help=at("cli.bot", bot=DEFAULT_BOT))
    p.add_argument("--round", type=int, metavar="R", help=at("cli.round"))
    p.add_argument("--top", type=int, default=3, metavar="K", help=at("cli.top"))
    p.add_argument("--seed", type=int, default=0, metavar="S", help=at("cli.seed"))
    p.add_argument("--json", action="store_true", help=at("cli.json"))
    p.add_argument("--lang", choices=list(LANGUAGES), help=at("cli.lang"))
    p.set_defaults(func=run)


def _load(path: str, lang: str) -> Record:
    rt = Tr(lang, "replay.")
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except FileNotFoundError:
        raise UsageError(rt("err.missing", path=path), rt.lang) from None
    except UnicodeDecodeError:
        raise UsageError(rt("err.not_utf8", path=path), rt.lang) from None
    except OSError as exc:
        raise UsageError(rt("err.read", path=path, why=os_error_text(exc, lang)), rt.lang) from None
    try:
        record = Record.from_json(text)
        replay_state(record)  # checked whole before any analysis
    except RecordError as exc:
        raise UsageError(rt("err.record", path=path, why=record_error_text(exc, lang)), rt.lang) from None
    return record


def _bot(name: str | None, at: Tr) -> tuple[Bot, str]:
    if name is not None:
        try:
            return make_bot(name), name
        except BotError:
            raise UsageError(at("err.bot", name=name), at.lang) from None
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
    same = [[str(a) for a in g] for g in action_classes(view.layout, legal) if len(g) > 1]
    twins = next((g for g in same if str(played) in g), [str(played)])
    return {
        "round": i,
        "action_no": k,
        "seat": seat,
        "played": str(played),
        "choice": choice,
        "agrees": choice in twins,
        "same": same,
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
    lang = args.lang or default_language()
    at = Tr(lang, "replay.analyse.")
    record = _load(args.record, lang)
    n = record.config.players
    if args.seat is not None and not 1 <= args.seat <= n:
        raise UsageError(at("err.seat", max=n, seat=args.seat), lang)
    rounds = len(record.rounds)
    if args.round is not None and not 1 <= args.round <= rounds:
        raise UsageError(at("err.round", max=rounds, round=args.round), lang)
    if args.top < 0:
        raise UsageError(at("err.top", top=args.top), lang)
    seats = [args.seat - 1] if args.seat is not None else list(range(n))
    bot, bot_name = _bot(args.bot, at)
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
            "seats": [seat_number(s) for s in seats],
            "round": args.round,
            "decisions": [
                {
                    **d,
                    "round": d["round"] + 1,
                    "action_no": d["action_no"] + 1,
                    "seat": seat_number(d["seat"]),
                }
                for d in decisions
            ],
            "summary": [{**s, "seat": seat_number(s["seat"])} for s in summary],
        }
        print(json.dumps(doc, indent=1))
        return 0
    print("\n".join(account(record, bot_name, decisions, summary, args.record, lang)))
    return 0


def _fmt(v: float | None) -> str:
    return "-" if v is None else f"{v:+.2f}"


def account(
    record: Record,
    bot_name: str,
    decisions: Sequence[dict[str, Any]],
    summary: Sequence[dict[str, Any]],
    path: str,
    lang: str = "en",
) -> list[str]:
    """The review told in ``lang``."""
    at = Tr(lang, "replay.analyse.")
    tr = Tr(lang)
    cfg = record.config
    names = Names(tr, cfg, record.seats, None)
    bot = names.bot(bot_name)

    def who(seat: int) -> str:
        return names.seat(seat)

    head = at("teams_head" if cfg.teams else "head", path=path, game=names.game(), name=cfg.game.name, players=cfg.players, bot=bot)
    lines = [head, at("legend")]
    current = None
    for d in decisions:
        if d["round"] != current:
            current = d["round"]
            lines.append("")
            lines.append(at("round", n=current + 1))
        flag = f"  ?? (#{d['flag']})" if d["flag"] else ""
        if d["agrees"]:
            verdict = at("agrees", bot=bot)
        else:
            verdict = at("prefers", bot=bot, choice=d["choice"], loss=_fmt(d["loss"]))
        lines.append(
            "  "
            + at("decision", n=d["action_no"] + 1, who=who(d["seat"]), played=d["played"], verdict=verdict)
            + flag
        )
        ordered = sorted(d["values"].items(), key=lambda kv: (kv[1] is None, -(kv[1] or 0.0)))
        group_of = {a: g for g in d.get("same", []) for a in g}
        for action, value in ordered:
            group = group_of.get(action, [action])
            if action != group[0]:
                continue  # an identical action: shown on its class's line
            marks = []
            if d["choice"] in group:
                marks.append(at("mark_bot"))
            if d["played"] in group:
                marks.append(at("mark_played"))
            label = " = ".join(group)
            lines.append(f"      {label:<7} {_fmt(value):>9}  {', '.join(marks)}".rstrip())
    if not decisions:
        lines.append("")
        lines.append(at("none"))
    lines.append("")
    for s in summary:
        mean = "-" if s["mean_loss"] is None else f"{s['mean_loss']:.2f}"
        lines.append(
            at(
                "summary",
                who=who(s["seat"]),
                n=s["decisions"],
                agrees=s["agrees"],
                bot=bot,
                total=f"{s['total_loss']:.2f}",
                mean=mean,
            )
        )
    flagged = sorted((d for d in decisions if d["flag"]), key=lambda d: d["flag"])
    if flagged:
        lines.append(at("costliest"))
        for d in flagged:
            lines.append(
                "  "
                + at(
                    "costly",
                    flag=d["flag"],
                    round=d["round"] + 1,
                    n=d["action_no"] + 1,
                    who=who(d["seat"]),
                    played=d["played"],
                    best=d["choice"],
                    loss=f"{d['loss']:.2f}",
                )
            )
    return lines
