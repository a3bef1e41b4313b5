"""The layout as plain text (``fives.core.render``: the PettingZoo bridge's text mode): a
line, its spinner, side arms, doubles crosswise, each open end with its number and what it counts,
and the sentence of the total; every character pinned for a few layouts."""

from __future__ import annotations

import pytest

from fives.core.layout import Layout
from fives.core.render import render_layout
from recordkit import layout_of

CASES = [
    (True, ('5-5', '5-0@W', '5-1@E', '5-6@N', '6-6@N', '5-2@S'),
     '              N:6 (12)\n              [6:6]\n              [6]\n              [5]\nW:0 (0) [0|5]<5:5>[5|1] E:1 (1)\n              [5]\n              [2]\n              S:2 (2)\nends: 0 + 1 + 12 + 2 = 15'),
    (False, ('2-3', '3-5@E', '2-4@W', '4-4@W'),
     'W:4 (8) [4:4][4|2][2|3][3|5] E:5 (5)\nends: 8 + 5 = 13'),
    (True, ('3-6', '6-6@E', '6-2@E', '6-1@N'),
     '              N:1 (1)\n              [1]\n              [6]\nW:3 (3) [3|6]<6:6>[6|2] E:2 (2)\n              S:6 (0)\nends: 3 + 2 + 1 = 6'),
    (False, ('1-1',),
     'W:1 (2) [1:1] E:1 (0)\nends: 2 = 2'),
    # the double blank is a spinner too (tile number 0); its side arms closed until both
    # straight arms hold a tile (SP-3), then open
    (True, ('0-0',),
     'W:0 (0) <0:0> E:0 (0)\nends: 0 = 0'),
    (True, ('0-0', '0-1@W'),
     'W:1 (1) [1|0]<0:0> E:0 (0)\nends: 1 + 0 = 1'),
    (True, ('0-0', '0-1@W', '0-2@E', '0-3@N'),
     '              N:3 (3)\n              [3]\n              [0]\nW:1 (1) [1|0]<0:0>[0|2] E:2 (2)\n              S:0 (0)\nends: 1 + 2 + 3 = 6'),
]


@pytest.mark.parametrize(("spinner", "plays", "text"), CASES)
def test_a_layout_is_drawn_as_text_to_the_character(spinner: bool, plays: tuple[str, ...],
                                                   text: str) -> None:
    assert render_layout(layout_of(spinner, *plays)) == text


def test_an_empty_layout_is_drawn_as_nothing_played() -> None:
    text = render_layout(Layout(spinner_rules=True))
    assert text == render_layout(Layout(spinner_rules=False)) == "(no tile played yet)"
