"""Screens of the full-screen game kept as SVG snapshots (``__snapshots__/``) for a person to
review: open them in a browser. A change to a screen fails here until the new screen is looked
at and accepted with ``pytest tests/tui/test_tui_snapshots.py --snapshot-update``.

Each screen is a fixed deal (a seed) played by keys up to an interesting moment, against the
``easy`` bot; the record is written to ``match.json`` in a scratch folder, so the log's first
lines read the same everywhere."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from app_harness import make_app, play_round, settle
from textual.pilot import Pilot

from fives.tui.app import MoveInput
from fives.tui.match import Handover, Turn

pytestmark = pytest.mark.timeout(300)

Compare = Callable[..., bool]


def moves(count: int, *extra: str) -> Callable[[Pilot[Any]], Awaitable[None]]:
    """Play ``count`` of the person's turns by Enter, then press ``extra``."""

    async def run(pilot: Pilot[Any]) -> None:
        app = pilot.app
        app.query_one(MoveInput).cursor_blink = False
        done = 0
        await settle(pilot)
        while done < count:
            need = getattr(app, "need", None)
            if not isinstance(need, Turn | Handover):
                break
            await pilot.press("enter")
            await settle(pilot)
            done += isinstance(need, Turn)
        if extra:
            await pilot.press(*extra)
            await pilot.pause()

    return run


def round_end() -> Callable[[Pilot[Any]], Awaitable[None]]:
    async def run(pilot: Pilot[Any]) -> None:
        pilot.app.query_one(MoveInput).cursor_blink = False
        await play_round(pilot)
        await pilot.pause()

    return run


@pytest.fixture(autouse=True)
def _scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize(
    ("game", "lang", "size", "seed", "turns"),
    [
        ("all-fives", "en", (80, 24), 3, 6),
        ("all-fives", "hi", (80, 24), 3, 6),
        ("all-fives", "en", (120, 40), 3, 6),
        ("fives-and-threes", "en", (120, 40), 7, 3),
        ("fives-and-threes", "hi", (80, 24), 7, 3),
        ("muggins", "en", (80, 24), 4, 4),
        ("draw", "hi", (120, 40), 2, 4),
        ("block", "en", (80, 24), 2, 5),
    ],
    ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple) else str(v),
)
def test_table_mid_round(
    snap_compare: Compare, game: str, lang: str, size: tuple[int, int], seed: int, turns: int
) -> None:
    app, match = make_app(game, lang=lang, seed=seed)
    try:
        assert snap_compare(app, terminal_size=size, run_before=moves(turns))
    finally:
        match.close()


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_round_end_panel(snap_compare: Compare, lang: str) -> None:
    app, match = make_app(lang=lang, seed=1)
    try:
        assert snap_compare(app, terminal_size=(80, 24), run_before=round_end())
    finally:
        match.close()


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_rules_panel(snap_compare: Compare, lang: str) -> None:
    app, match = make_app("fives-and-threes", lang=lang, seed=7)
    try:
        assert snap_compare(app, terminal_size=(80, 24), run_before=moves(1, "r"))
    finally:
        match.close()


def test_help_panel(snap_compare: Compare) -> None:
    app, match = make_app(seed=3)
    try:
        assert snap_compare(app, terminal_size=(80, 24), run_before=moves(1, "h"))
    finally:
        match.close()


def until_handover(count: int) -> Callable[[Pilot[Any]], Awaitable[None]]:
    """Press Enter until the ``count``-th hot-seat hand-over is up."""

    async def run(pilot: Pilot[Any]) -> None:
        app = pilot.app
        app.query_one(MoveInput).cursor_blink = False
        seen = 0
        await settle(pilot)
        while True:
            need = getattr(app, "need", None)
            if isinstance(need, Handover):
                seen += 1
                if seen == count:
                    return
            await pilot.press("enter")
            await settle(pilot)

    return run


def test_hot_seat_hand_over(snap_compare: Compare) -> None:
    """Ravi takes the keyboard: nothing of the table shows, only what happened since."""
    app, match = make_app(seats=("human", "human"), people=("Asha", "Ravi"), seed=1)
    try:
        assert snap_compare(app, terminal_size=(80, 24), run_before=until_handover(3))
    finally:
        match.close()
