"""``fives play``: play a whole match in the terminal against our bots (or friends at the same
keyboard), in English or Hindi. See :mod:`fives.tui`.

The match is written to its record (RECORD.md) after every action; ``--resume FILE`` carries
on an unfinished match from its record.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from fives.bots import BOT_NAMES, BotError, BotName
from fives.cli.errors import print_error
from fives.core.games import GAMES, Config, RulesError
from fives.core.record import Record, RecordError, replay_state
from fives.core.state import State
from fives.i18n import LANGUAGES, default_language, t
from fives.phrasing import (
    HUMAN,
    Tr,
    os_error_text,
    record_error_text,
    seat_number,
)


class SetupError(Exception):
    """Bad options for ``fives play``, already phrased in the player's language."""


def register(sub: Any) -> None:
    tr = Tr(default_language())
    p = sub.add_parser("play", help=tr("cli.help"), description=tr("cli.description"))
    p.add_argument("--game", choices=list(GAMES), help=tr("cli.game"))
    p.add_argument("--players", type=int, metavar="N", help=tr("cli.players"))
    p.add_argument(
        "--teams", action=argparse.BooleanOptionalAction, default=None, help=tr("cli.teams")
    )
    p.add_argument("--seat", type=int, metavar="S", help=tr("cli.seat"))
    p.add_argument("--bots", metavar="LIST", help=tr("cli.bots"))
    p.add_argument("--names", metavar="LIST", help=tr("cli.names"))
    p.add_argument("--target", type=int, metavar="N", help=tr("cli.target"))
    p.add_argument("--seed", type=int, metavar="S", help=tr("cli.seed"))
    p.add_argument("--timer", type=float, metavar="SECONDS", help=tr("cli.timer"))
    p.add_argument("--record", metavar="FILE", help=tr("cli.record"))
    p.add_argument("--resume", metavar="FILE", help=tr("cli.resume"))
    p.add_argument("--plain", action="store_true", help=tr("cli.plain"))
    p.add_argument("--lang", choices=list(LANGUAGES), help=tr("cli.lang"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    lang = args.lang or default_language()
    tr = Tr(lang)
    try:
        setup, state = build(args, tr)
    except SetupError as exc:
        print_error(str(exc))
        return 2
    except ImportError:
        print_error(tr("err.rich"))
        return 2
    return play(setup, state, tr, full_screen=full_screen_wanted(args.plain))


def full_screen_wanted(plain: bool, env: Mapping[str, str] | None = None) -> bool:
    """The full-screen game unless the transcript is asked for (``--plain``) or fits better:
    input or output not a terminal (a pipe, a screen reader's capture), ``NO_COLOR``, a dumb
    terminal, or Textual missing."""
    env = os.environ if env is None else env
    if plain or env.get("NO_COLOR") or env.get("TERM", "dumb") in ("dumb", ""):
        return False
    try:
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            return False
    except (AttributeError, ValueError):
        return False
    try:
        import textual  # noqa: F401
    except ImportError:
        return False
    return True


def play(setup: Any, state: State | None, tr: Tr, full_screen: bool = False) -> int:
    from fives.tui.match import BotStartError, Match, Stop
    from fives.tui.widths import install

    install()
    while True:
        match = Match(setup, state)
        try:
            match.open_bots()
        except BotStartError as exc:
            match.close()
            print_error(str(exc))
            return 2
        try:
            outcome = _run_app(match) if full_screen else _run_transcript(match)
        except Stop as stop:
            key = "record.saved_eof" if stop.kind == "eof" else "record.saved_quit"
            print(tr(key, path=setup.record_path), flush=True)
            return 0
        except KeyboardInterrupt:
            print("\n" + tr("record.saved_interrupt", path=setup.record_path), flush=True)
            return 130
        finally:
            match.close()
        if outcome != "again":
            return 0
        setup = setup.again(_next_path(setup.record_path))
        state = None


def _run_app(match: Any) -> str:
    from fives.tui.app import FivesApp
    from fives.tui.match import Stop

    app = FivesApp.for_match(match)
    outcome = app.run()
    if outcome in ("quit", "eof"):
        raise Stop(outcome)
    if outcome == "interrupt":
        raise KeyboardInterrupt
    return str(outcome or "over")


def _run_transcript(match: Any) -> str:
    from rich.console import Console

    from fives.tui.inputs import make_reader
    from fives.tui.match import Stop
    from fives.tui.session import Session

    console = Console(highlight=False, emoji=False)
    session = Session(match, console, make_reader())
    session.run()
    try:
        answer = session.ask(match.tr("prompt.again"))
    except Stop:
        return "over"
    yes = ("y", "yes", "j", "हाँ", "हां", "ha", "haan")
    return "again" if str(answer).strip().lower() in yes else "over"


# -- options -----------------------------------------------------------------------------------


def default_record_path(game: str) -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    stamp = time.strftime("%Y%m%d-%H%M%S")
    folder = Path(base) / "fives" / "records"
    path = folder / f"{game}-{stamp}.json"
    n = 2
    while path.exists():
        path = folder / f"{game}-{stamp}-{n}.json"
        n += 1
    return path


def _next_path(path: Path) -> Path:
    """``match.json`` -> ``match-2.json`` -> ``match-3.json`` (not overwriting a finished match)."""
    stem = path.stem
    head, _, tail = stem.rpartition("-")
    if head and tail.isdigit():
        stem, n = head, int(tail) + 1
    else:
        n = 2
    candidate = path.with_name(f"{stem}-{n}{path.suffix}")
    while candidate.exists():
        n += 1
        candidate = path.with_name(f"{stem}-{n}{path.suffix}")
    return candidate


def default_bot() -> str:
    return "medium"


def _is_bot(name: str) -> bool:
    try:
        BotName.parse(name)
    except BotError:
        return False
    return True


def seat_names(
    tr: Tr,
    players: int,
    seat: int | None,
    bots_arg: str | None,
    recorded: list[str] | None = None,
) -> list[str]:
    """Who sits where: ``human`` at ``seat``; ``--bots`` lists the other seats in order (the
    last name repeats), or every seat (``human`` where a person sits). Resuming, the record's
    seats are kept; a name that is no bot there (a person's) is a person at this keyboard.
    ``--seat`` counts from 1, as every screen numbers the seats."""
    if seat is not None and not 1 <= seat <= players:
        raise SetupError(tr("err.seat", seat=seat, max=players))
    seat = seat - 1 if seat is not None else None
    if bots_arg is None:
        if recorded is not None:
            names = [name if name != HUMAN and _is_bot(name) else HUMAN for name in recorded]
            if seat is not None:
                names[seat] = HUMAN
            elif HUMAN not in names:
                names[0] = HUMAN
            return names
        names = [default_bot()] * players
        names[seat or 0] = HUMAN
        return names
    seat = seat or 0
    given = [b.strip() for b in bots_arg.split(",")]
    if not given or any(not b for b in given):
        raise SetupError(tr("err.bots_empty"))
    for name in given:
        if name == HUMAN:
            continue
        try:
            BotName.parse(name)
        except BotError as exc:
            if exc.key in ("bot_cmd_empty", "bot_cmd_unreadable"):
                raise SetupError(tr("err.bot_cmd")) from None
            known = ", ".join([*BOT_NAMES, HUMAN, "cmd:..."])
            raise SetupError(tr("err.bot_unknown", name=name, known=known)) from None
    if len(given) == players:
        if given[seat] != HUMAN:
            raise SetupError(tr("err.bots_seat", seat=seat_number(seat)))
        return given
    if len(given) > players - 1:
        raise SetupError(tr("err.bots_count", players=players, n=len(given)))
    others = [s for s in range(players) if s != seat]
    names = [HUMAN] * players
    for i, s in enumerate(others):
        names[s] = given[min(i, len(given) - 1)]
    return names


def build(args: argparse.Namespace, tr: Tr) -> tuple[Any, State | None]:
    from fives.tui.match import Setup

    lang = tr.lang
    if args.timer is not None and not args.timer > 0:
        raise SetupError(tr("err.timer"))
    if args.resume is not None:
        clash = [
            f"--{name}"
            for name in ("game", "players", "teams", "target")
            if getattr(args, name) is not None
        ]
        if clash:
            raise SetupError(tr("err.resume_options", options=", ".join(clash)))
        path = Path(args.resume)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise SetupError(tr("err.record_read", path=path, why=os_error_text(exc, lang))) from None
        except UnicodeDecodeError:
            why = t("engine.reason.not_utf8", lang)
            raise SetupError(tr("err.record_read", path=path, why=why)) from None
        try:
            record = Record.from_json(text)
            state = replay_state(record)
        except RecordError as exc:
            why = record_error_text(exc, tr.lang)
            raise SetupError(tr("err.record_bad", path=path, why=why)) from None
        config = record.config
        seats = seat_names(tr, config.players, args.seat, args.bots, record.seats)
        seed = args.seed if args.seed is not None else record.extra.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            seed = random.SystemRandom().randrange(2**31)
        out = Path(args.record) if args.record else path
        if state.over:
            raise SetupError(tr("err.record_over", path=path))
        people = people_names(tr, seats, args.names, record.seats)
        return Setup(config, tuple(seats), seed, out, lang, args.timer, people), state
    game = args.game or "all-fives"
    players = args.players if args.players is not None else 2
    if players not in (2, 3, 4):
        raise SetupError(tr("err.players", n=players))
    if args.teams and players != 4:
        raise SetupError(tr("err.teams"))
    if args.target is not None and not 1 <= args.target <= 10000:
        raise SetupError(tr("err.target"))
    try:
        config = Config.make(game, players, teams=args.teams, target=args.target)
    except RulesError as exc:
        raise SetupError(str(exc)) from None
    seats = seat_names(tr, players, args.seat, args.bots)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    out = Path(args.record) if args.record else default_record_path(game)
    people = people_names(tr, seats, args.names)
    return Setup(config, tuple(seats), seed, out, lang, args.timer, people), None


#: the longest name a person may give (it shares a line with the scores)
NAME_LIMIT = 16


def people_names(
    tr: Tr, seats: list[str], names_arg: str | None, recorded: list[str] | None = None
) -> tuple[str | None, ...]:
    """The people's names by seat: ``--names`` in seat order for the seats where people sit,
    else (resuming) the names the record gives them."""
    out: list[str | None] = [None] * len(seats)
    people = [s for s, name in enumerate(seats) if name == HUMAN]
    if names_arg is None:
        if recorded is not None:
            for seat in people:
                name = recorded[seat] if seat < len(recorded) else HUMAN
                if name != HUMAN and not _is_bot(name):
                    out[seat] = name
        return tuple(out)
    given = [n.strip() for n in names_arg.split(",")]
    if len(given) > len(people):
        raise SetupError(tr("err.names_count", n=len(given), people=len(people)))
    for name in given:
        if not name or len(name) > NAME_LIMIT or not name.isprintable():
            raise SetupError(tr("err.name_bad", name=name, limit=NAME_LIMIT))
        if name == HUMAN or ":" in name or _is_bot(name):
            raise SetupError(tr("err.name_bot", name=name))
    if len(set(given)) != len(given):
        raise SetupError(tr("err.names_twice"))
    for seat, name in zip(people, given):
        out[seat] = name
    return tuple(out)
