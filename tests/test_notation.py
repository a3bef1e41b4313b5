"""RECORD.md's notation for tiles, ends and actions, read and written by one parser
(``fives.core.tiles``): every tile and action reads back as written, the ends are W E N S in
that order, and each wrong form is a NotationError that names its kind and quotes the input.
(A mutation run of core/tiles.py found these untested in process: issue 42.)"""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from fives.core.tiles import (
    ACTIONS,
    ALL_TILES,
    NUM_ACTIONS,
    Action,
    NotationError,
    Tile,
    _action_text,
    parse_end,
    pips_of_mask,
    tiles_of_mask,
)


def test_every_action_is_written_as_record_md_says_and_reads_back() -> None:
    expected = [f"{t.low}-{t.high}@{end}" for t in ALL_TILES for end in "WENS"]
    expected += [f"{t.low}-{t.high}" for t in ALL_TILES] + ["draw", "pass"]
    assert len(expected) == NUM_ACTIONS
    assert [_action_text(code) for code in range(NUM_ACTIONS)] == expected
    assert [str(a) for a in ACTIONS] == expected
    for code, text in enumerate(expected):
        assert Action.parse(text) == code and Action.parse(f" {text.upper()} ") == code
        assert pickle.loads(pickle.dumps(ACTIONS[code])) is ACTIONS[code]


def test_tiles_read_either_way_round_order_by_id_and_know_their_halves() -> None:
    assert Tile.parse("5-3") is Tile.parse("3-5") is Tile.parse(" 3-5 ")
    assert [str(t) for t in sorted(ALL_TILES, reverse=True)][:2] == ["6-6", "5-6"]
    assert Tile.parse("0-0") < Tile.parse("0-1") and not Tile.parse("0-1") < Tile.parse("0-1")
    five_three = Tile.parse("3-5")
    assert five_three.has(3) and five_three.has(5) and not five_three.has(4)
    assert Tile.parse("4-4").has(4) and not Tile.parse("4-4").has(0)


def test_the_ends_are_west_east_north_south() -> None:
    assert [parse_end(e) for e in ("W", "e", " n ", "S")] == [0, 1, 2, 3]


def test_a_mask_lists_its_tiles_and_counts_their_pips() -> None:
    tiles = [Tile.parse(t) for t in ("0-0", "2-5", "6-6")]
    mask = sum(t.mask for t in tiles)
    assert tiles_of_mask(mask) == tiles and pips_of_mask(mask) == 19
    assert tiles_of_mask(0) == [] and pips_of_mask(0) == 0


BAD: list[tuple[Any, Any, str]] = [
    (Tile.parse, 5, "tile_form"), (Tile.parse, "5", "tile_form"), (Tile.parse, "5-3-1", "tile_form"),
    (Tile.parse, "a-3", "tile_form"), (Tile.parse, "X-3", "tile_form"),
    (Tile.parse, "10-3", "tile_form"),
    (Tile.parse, "7-3", "no_such_tile"), (Tile.parse, "3-7", "no_such_tile"),
    (Tile.parse, "9-9", "no_such_tile"),
    (parse_end, "X", "end_form"), (parse_end, "WE", "end_form"), (parse_end, "", "end_form"),
    (Action.parse, None, "action_form"), (Action.parse, 53, "action_form"),
    (Action.parse, "5-3@X", "action_form"), (Action.parse, "0-1@W@E", "action_form"),
    (Action.parse, "5-9@W", "action_form"), (Action.parse, "5-3@", "action_form"),
    (Action.parse, "knock", "action_form"), (Action.parse, "7-7", "action_form"),
]


@pytest.mark.parametrize(("read", "text", "key"), BAD, ids=[repr(t) for _, t, _ in BAD])
def test_a_wrong_form_names_its_kind_and_quotes_the_input(read: Any, text: Any, key: str) -> None:
    with pytest.raises(NotationError) as refused:
        read(text)
    assert refused.value.key == key and refused.value.params == {"text": repr(text)}
    assert repr(text) in str(refused.value)
