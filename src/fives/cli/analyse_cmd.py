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

from fives.analysis import analyse, document, summary
from fives.bots import Bot, BotError, BotName
from fives.bots.ladder import CheatBot
from fives.cli.errors import UsageError
from fives.core.record import Record, RecordError, replay_state
from fives.i18n import LANGUAGES, default_language
from fives.phrasing import Names, Tr, os_error_text, record_error_text

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
    # by counts, no clock: the same record and seed give the same analysis on any machine
    if name is not None:
        try:
            return BotName.parse(name).make_by_counts(), name
        except BotError:
            raise UsageError(at("err.bot", name=name), at.lang) from None
    try:
        return BotName.parse(DEFAULT_BOT).make_by_counts(), DEFAULT_BOT
    except BotError:
        return BotName.parse(FALLBACK_BOT).make_by_counts(), FALLBACK_BOT


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
    round_no = None if args.round is None else args.round - 1
    # the measuring bot alone sees the record's hidden tiles
    peek = bot.peek if isinstance(bot, CheatBot) else None
    try:
        decisions = analyse(record, bot, seats=seats, round_no=round_no, seed=args.seed,
                            top=args.top, peek=peek)
    finally:
        bot.close()
    if args.json:
        doc = {"record": args.record, **document(record, bot_name, decisions, seats, round_no)}
        print(json.dumps(doc, indent=1))
        return 0
    print("\n".join(account(record, bot_name, decisions, summary(decisions, seats),
                            args.record, lang)))
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
        if "effective_share" in s:
            lines.append("  " + at("effective", share=f"{100 * s['effective_share']:.0f}%"))
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
