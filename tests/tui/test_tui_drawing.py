"""The layout drawn to fit (issue 16 item 1): every tile drawn whole, within the width asked
for, arms turning corners instead of hiding tiles (the old drawing elided them as ``…2…``)."""

from __future__ import annotations

import random
import re

import pytest

from fives.core.games import GAMES, Config
from fives.core.layout import Layout
from fives.core.state import State
from fives.tui.drawing import draw

FLAT = re.compile(r"\[\d│\d\]")


def _final_layouts(game: str, seeds: range) -> list[Layout]:
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        state = State(Config.make(game, 2))
        state.deal_next(rng)
        while state.round_end is None:
            state.play(rng.choice(state.legal_actions()))
        out.append(state.layout)
    return out


def _tiles_drawn(lines: list[str]) -> int:
    text = "\n".join(lines)
    return len(FLAT.findall(text)) + text.count("├─┤") + text.count("╠═╣")


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize(("width", "height"), [(44, 13), (52, 15), (78, 30), (118, 36)])
def test_every_tile_is_drawn_whole_within_the_width(game: str, width: int, height: int) -> None:
    scoring = Config.make(game, 2).game.ends_score
    for layout in _final_layouts(game, range(12)):
        lines = draw(layout, width=width, scoring=scoring, height=height).lines()
        assert _tiles_drawn(lines) == layout.count, "\n".join(lines)
        assert max(len(line) for line in lines) <= width, "\n".join(lines)
        assert "…" not in "\n".join(lines)


def test_side_arms_turn_sooner_when_rows_are_few() -> None:
    """SP-3's side arms run up and down from the spinner; with few rows they turn aside after
    one tile, with many they run on."""
    lay = Layout(spinner_rules=True)
    for a in ("5-5", "2-5@W", "2-3@W", "3-5@E", "5-1@S", "1-6@S", "6-4@S", "5-2@N", "2-0@N"):
        lay.place_text(a)
    short = draw(lay, width=50, height=13).lines()
    tall = draw(lay, width=50, height=30).lines()
    assert len(short) <= 13 < len(tall)
    assert _tiles_drawn(short) == _tiles_drawn(tall) == lay.count
