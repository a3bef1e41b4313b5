"""The layout's own answers, checked against placing the tile (issue 42: a mutation run of
core/layout.py found them reached by no guarding test): ``total_after`` (what the bots ask of
every legal play without placing it) equals the ends total after placing it, in every layout of
random rounds of every game; ``explain`` (the JSON every view carries) is pinned field by field
for a spinner layout with side arms and a line; an arm's tile writes itself as the layout
shows it."""

from __future__ import annotations

import pytest

from fives.core.layout import ArmTile, Layout
from fives.core.state import State
from fives.core.tiles import ALL_TILES, Tile
from randommatch import CONFIGS, Spec, config_of, play_match
from recordkit import layout_of


@pytest.mark.parametrize("spec", CONFIGS[:19], ids=lambda s: f"{s[0]}-{s[1]}-{s[2]}-{bool(s[3])}")
def test_the_total_after_a_play_is_the_total_once_it_is_placed(spec: Spec) -> None:
    checked = 0

    def check(state: State, code: int | None) -> None:
        nonlocal checked
        if state.turn < 0:
            return
        lay = state.layout
        for action in state.legal_actions():
            if not action.is_play or action.tile is None:
                continue
            end = action.end if action.end is not None else 0
            after = lay.copy()
            total = after.place(action.tile.id, end)
            assert lay.total_after(action.tile.id, end) == total == after.ends_total(), (
                str(action), lay.explain())
            checked += 1

    play_match(config_of(spec), seed=len(spec[0]) * 31 + spec[1], check=check, max_rounds=2)
    assert checked > 20


def test_a_spinner_layout_explains_itself_field_by_field() -> None:
    """3-6 led, 6-6 on its east makes the spinner (a later double, SP-1), its side arm north
    opens once both straight arms hold a tile."""
    lay = layout_of(True, "3-6", "6-6@E", "2-6@E", "1-6@N")
    assert lay.explain() == {
        "tiles": ["6-6", "3-6", "2-6", "1-6"],  # the centre (the spinner) first
        "spinner": "6-6",
        "center": "6-6",
        "arms": {"W": [["3-6", 6, 3]], "E": [["2-6", 6, 2]], "N": [["1-6", 6, 1]], "S": []},
        "open_ends": [{"end": "W", "value": 3}, {"end": "E", "value": 2},
                      {"end": "N", "value": 1}, {"end": "S", "value": 6}],
        "contributions": [{"end": "W", "tile": "3-6", "counted": 3},
                          {"end": "E", "tile": "2-6", "counted": 2},
                          {"end": "N", "tile": "1-6", "counted": 1}],
        "ends_total": 6,
        "sentence": "3 + 2 + 1 = 6",
    }
    assert lay.side_arms_open() and lay.spinner_tile == Tile.parse("6-6")


def test_a_line_explains_itself_and_an_empty_layout_says_nothing() -> None:
    lay = layout_of(False, "2-3", "3-5@E", "2-4@W", "4-4@W")
    assert lay.explain() == {
        "tiles": ["2-3", "2-4", "4-4", "3-5"],
        "spinner": None,
        "center": "2-3",
        "arms": {"W": [["2-4", 2, 4], ["4-4", 4, 4]], "E": [["3-5", 3, 5]]},
        "open_ends": [{"end": "W", "value": 4}, {"end": "E", "value": 5}],
        "contributions": [{"end": "W", "tile": "4-4", "counted": 8},
                          {"end": "E", "tile": "3-5", "counted": 5}],
        "ends_total": 13,
        "sentence": "8 + 5 = 13",
    }
    empty = Layout(spinner_rules=True).explain()
    assert empty["tiles"] == [] and empty["sentence"] == "" and empty["open_ends"] == []
    assert not Layout(spinner_rules=False).side_arms_open()


def test_an_arm_tile_writes_its_halves_from_the_centre_outwards() -> None:
    assert str(ArmTile(Tile.parse("3-6"), 6, 3)) == "[6|3]"
    assert str(ArmTile(Tile.parse("4-4"), 4, 4)) == "[44]"
    assert all(str(ArmTile(t, t.high, t.low)).startswith(f"[{t.high}") for t in ALL_TILES)


def test_a_copy_is_the_same_layout_and_changes_alone() -> None:
    lay = layout_of(True, "5-5", "0-5@W", "1-5@E", "2-5@N")
    twin = lay.copy()
    assert twin.explain() == lay.explain() and twin.gate == lay.gate
    assert twin.spinner_rules == lay.spinner_rules
    twin.place(Tile.parse("2-2").id, 2)  # N: 2-2 on the north arm's 2
    assert twin.explain() != lay.explain() and lay.count == 4 and twin.count == 5


def test_the_double_blank_is_a_spinner_and_a_centre_like_any_tile() -> None:
    """Tile number 0 (0-0) led under spinner rules: the spinner and the centre (not "none");
    its straight arms listed empty, its side arms too once they open."""
    lone = layout_of(True, "0-0").explain()
    assert (lone["spinner"], lone["center"], lone["tiles"]) == ("0-0", "0-0", ["0-0"])
    assert lone["arms"] == {"W": [], "E": []} and lone["sentence"] == "0 = 0"
    opened = layout_of(True, "0-0", "0-1@W", "0-2@E").explain()
    assert opened["arms"] == {"W": [["0-1", 0, 1]], "E": [["0-2", 0, 2]], "N": [], "S": []}
    assert layout_of(True, "0-0", "0-1@W", "0-2@E").side_arms_open()
    # a line of the same tiles has no spinner and lists the arms it has
    line = layout_of(False, "0-0", "0-1@W").explain()
    assert line["spinner"] is None and line["arms"] == {"W": [["0-1", 0, 1]]}


def test_what_each_end_counts_names_its_tile() -> None:
    """A lone tile counts both halves (a double once, C-5); a spinner's empty straight arm
    counts the spinner itself."""
    assert [(c.name, str(c.tile), c.counted) for c in layout_of(False, "2-3").contributions()] == [
        ("W", "2-3", 2), ("E", "2-3", 3)]
    assert [(c.name, str(c.tile), c.counted) for c in layout_of(False, "1-1").contributions()] == [
        ("W", "1-1", 2)]
    one_arm = layout_of(True, "5-5", "0-5@W")
    assert [(c.name, str(c.tile), c.counted) for c in one_arm.contributions()] == [
        ("W", "0-5", 0), ("E", "5-5", 10)]
    other_arm = layout_of(True, "5-5", "1-5@E")
    assert [(c.name, str(c.tile), c.counted) for c in other_arm.contributions()] == [
        ("W", "5-5", 10), ("E", "1-5", 1)]


def test_an_empty_layout_counts_nothing_and_a_wrong_play_is_refused_by_name() -> None:
    empty = Layout(spinner_rules=True)
    assert empty.ends_total() == 0 and empty.sentence() == "0 = 0"
    # nothing is open before the lead: no end, no number (a bot's reply search reads both)
    assert empty.ends == [] and empty.open_mask == 0 and empty.tiles() == []
    with pytest.raises(ValueError, match=r"^not a play: 'draw'$"):
        empty.place_text("draw")
    with pytest.raises(ValueError, match=r"^the opening lead is written without an end: '1-2@W'$"):
        empty.place_text("1-2@W")
    assert empty.place_text("1-2") == 3 and empty.ends == [(0, 1), (1, 2)]
    with pytest.raises(ValueError, match=r"^'3-4@W' does not fit the layout$"):
        empty.place_text("3-4@W")
