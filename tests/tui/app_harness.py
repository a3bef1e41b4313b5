"""Driving the full-screen game (:class:`fives.tui.app.FivesApp`) with Textual's test pilot, as
a player would: keys, clicks, and the screen as a terminal of that size shows it."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from fives.core.games import Config
from fives.i18n import catalogue
from fives.tui.app import FivesApp
from fives.tui.match import Handover, Match, MatchOver, RoundOver, Setup, Turn
from fives.tui.widths import VIRAMA, install, width

install()

GAMES = ("all-fives", "fives-and-threes", "muggins", "draw", "block")
SIZES = ((80, 24), (120, 40))
DEVANAGARI = re.compile(r"[\u0900-\u0963\u0966-\u097f\u200c\u200d]+")


def make_app(
    game: str = "all-fives",
    *,
    lang: str = "en",
    players: int = 2,
    seats: Sequence[str] = ("human", "easy"),
    seed: int = 3,
    record: Path = Path("match.json"),
    people: Sequence[str | None] = (),
    target: int | None = None,
    timer: float | None = None,
) -> tuple[FivesApp, Match]:
    setup = Setup(
        Config.make(game, players, target=target), tuple(seats), seed, record, lang, timer,
        tuple(people),
    )
    match = Match(setup)
    match.open_bots()
    return FivesApp.for_match(match, pace=0), match


async def settle(pilot: Pilot[Any]) -> None:
    """Wait until the bots have moved and the app waits for a person."""
    app = pilot.app
    for _ in range(200):
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        if isinstance(app, FivesApp) and not app.busy and app.need is not None:
            return
        if isinstance(app, FivesApp) and app.need is None and not app.workers:
            return
    raise AssertionError("the app never settled")


def screen_rows(app: FivesApp) -> list[str]:
    """The screen's rows as plain text, as a terminal of the app's size shows them (the panel
    on top, the table under it)."""
    strips = app.screen._compositor.render_strips()
    return [strip.text for strip in strips]


@cache
def hindi_words() -> frozenset[str]:
    """Every Devanagari word the Hindi catalogue uses."""
    words: set[str] = set()
    for text in catalogue("hi").values():
        words.update(DEVANAGARI.findall(text))
    return frozenset(words)


def width_faults(rows: Sequence[str], columns: int, names: Sequence[str] = ()) -> list[str]:
    """What is wrong with a screen's rows: a row wider than the terminal (counted as terminals
    draw text), a cluster cut in two, or a Hindi word cut (not one of the catalogue's words,
    nor of the people's ``names``)."""
    faults = []
    words = hindi_words() | set(names)
    for n, row in enumerate(rows):
        if width(row) > columns:
            faults.append(f"row {n} takes {width(row)} columns: {row!r}")
        for token in DEVANAGARI.findall(row):
            if unicodedata.category(token[0]).startswith("M"):
                faults.append(f"row {n}: {token!r} starts with a mark cut from its letter")
            if token.endswith(VIRAMA):
                faults.append(f"row {n}: {token!r} ends with a virama cut from its consonant")
            if token not in words:
                faults.append(f"row {n}: {token!r} is not a whole Hindi word")
    return faults


async def play_round(
    pilot: Pilot[Any],
    *,
    on_screen: Callable[[FivesApp], None] | None = None,
    answer: Callable[[FivesApp, Turn], Sequence[str]] | None = None,
) -> RoundOver | MatchOver:
    """Play one round by keys: at each turn ``answer`` gives the keys (default Enter: the
    chosen tile on its first end, or the forced action); hand-overs are accepted. Returns the
    round's end. ``on_screen`` looks at every screen."""
    app = pilot.app
    assert isinstance(app, FivesApp)
    for _ in range(400):
        await settle(pilot)
        if on_screen is not None:
            on_screen(app)
        need = app.need
        if isinstance(need, RoundOver | MatchOver):
            return need
        if isinstance(need, Handover):
            await pilot.press("enter")
            continue
        assert isinstance(need, Turn), need
        keys = answer(app, need) if answer is not None else ["enter"]
        await pilot.press(*keys)
    raise AssertionError("the round never ended")
