"""Identical actions (bots/transpose.py): plays that leave layouts no rule can tell apart are
one class; anything a later rule could see (the number shown, a double, an empty arm, the
points) keeps them apart. The search values a class once, so its members get one value."""

from __future__ import annotations

import random

from fives.bots.ladder import HalvingBot
from fives.bots.transpose import action_classes, canonical_actions
from fives.core.games import Config
from fives.core.layout import Layout
from fives.core.state import State
from fives.core.tiles import ALL_TILES, Action
from fives.core.view import view_of


def _layout(spinner: bool, *plays: str) -> Layout:
    lay = Layout(spinner_rules=spinner)
    for text in plays:
        action = Action.parse(text)
        tile = action.tile
        assert tile is not None
        lay.place(tile.id, action.end if action.end is not None else 0)
    return lay


def _classes(lay: Layout, *texts: str) -> list[list[str]]:
    return [[str(a) for a in group] for group in action_classes(lay, [Action.parse(t) for t in texts])]


def test_a_fresh_spinners_side_arms_are_one_action() -> None:
    lay = _layout(True, "5-5", "5-0@W", "5-1@E")
    assert lay.side_arms_open()
    assert _classes(lay, "5-6@N", "5-6@S") == [["5-6@N", "5-6@S"]]


def test_two_ends_with_the_same_number_are_one_action() -> None:
    lay = _layout(False, "3-3")
    assert _classes(lay, "3-5@W", "3-5@E") == [["3-5@W", "3-5@E"]]


def test_ends_with_different_numbers_stay_apart() -> None:
    lay = _layout(False, "2-3", "3-6@E")  # W shows 2, E shows 6
    assert _classes(lay, "2-6@W", "2-6@E") == [["2-6@W"], ["2-6@E"]]


def test_a_double_at_one_end_keeps_the_ends_apart() -> None:
    lay = _layout(False, "4-4", "4-1@W", "4-1@E")  # both ends show a plain 1: a mirror
    assert _classes(lay, "1-1@W", "1-1@E") == [["1-1@W", "1-1@E"]]
    lay = _layout(False, "1-4", "4-4@E")  # W shows 1, E the double 4-4
    assert _classes(lay, "1-4@W", "1-4@E") == [["1-4@W"], ["1-4@E"]]


def test_an_empty_line_arm_beside_the_spinner_differs_from_a_played_one() -> None:
    # the spinner 5-5 with W played: E (empty, joins on the spinner) and W (played, shows 5)
    lay = _layout(True, "5-5", "5-6@W", "6-5@W")
    assert lay.ends == [(0, 5), (1, 5)]
    assert _classes(lay, "2-5@W", "2-5@E") == [["2-5@W"], ["2-5@E"]]


def test_different_tiles_are_never_one_action() -> None:
    lay = _layout(False, "3-3")
    assert len(canonical_actions(lay, [Action.parse(t) for t in ("3-5@W", "3-4@W")])) == 2


def test_the_search_gives_identical_actions_one_value() -> None:
    rng = random.Random(3)
    found = 0
    for seed in range(40):
        state = State(Config.make("all-fives", 2))
        state.deal_next(random.Random(seed))
        while state.turn >= 0 and not found:
            view = view_of(state, state.turn)
            groups = action_classes(view.layout, view.legal)
            if any(len(g) > 1 for g in groups):
                values = HalvingBot("h", worlds=8, eps=0.0).values(view, rng)
                assert set(values) == set(view.legal)
                for g in groups:
                    assert len({values[a] for a in g}) == 1
                found += 1
            state.apply_code(state.legal_codes()[0])
        if found:
            break
    assert found


def _next_plays(state: State) -> list[tuple[int, int]]:
    """What any next play could be after a play, whoever holds the tiles: each tile not on
    the table, placed on each open end it fits, and the ends total it leaves (the ends' names
    do not count: mirror arms are alike; their numbers, the side arms' gate and the spinner's
    count do)."""
    lay = state.layout
    placed = {t.id for t in lay.tiles()}
    out = []
    for tile in ALL_TILES:
        if tile.id in placed:
            continue
        for end, value in lay.ends:
            if tile.has(value):
                after = lay.copy()
                out.append((tile.id, after.place(tile.id, end)))
    return sorted(out)


def test_plays_taken_as_one_leave_the_same_next_turn_in_every_game() -> None:
    """Over random positions of every game and player count: the plays of one class score the
    same and leave the next seat the same plays with the same totals (an arm's emptiness, the
    side arms' gate and the spinner's count included), so merging them loses nothing."""
    checked = 0
    for game in ("all-fives", "muggins", "fives-and-threes", "draw", "block"):
        for players in (2, 3, 4):
            rng = random.Random(players * 7 + len(game))
            for _ in range(40):
                state = State(Config.make(game, players))
                state.deal_next(rng)
                while state.turn >= 0:
                    legal = state.legal_actions()
                    for group in action_classes(state.layout, legal):
                        if len(group) < 2:
                            continue
                        seen = set()
                        for action in group:
                            after = state.copy()
                            after.play(action)
                            seen.add((tuple(after.scores), tuple(_next_plays(after))))
                        assert len(seen) == 1, ([str(a) for a in group], seen)
                        checked += 1
                    state.apply_code(rng.choice(state.legal_codes()))
    assert checked > 200


def test_an_empty_arm_and_a_played_one_showing_one_plain_number_stay_apart() -> None:
    """The spinner 0-0 with only E played (E ends in a plain 0): W is empty and joins on the
    spinner. A tile on W opens the side arms' gate; on E it does not: two games."""
    lay = _layout(True, "0-0", "0-3@E", "3-0@E")
    assert lay.ends == [(0, 0), (1, 0)] and not lay.side_arms_open()
    assert _classes(lay, "0-4@W", "0-4@E") == [["0-4@W"], ["0-4@E"]]


def test_arms_of_different_lengths_showing_one_number_are_one_action() -> None:
    """An arm's length beyond "any tile at all" never matters: W two tiles long and E one,
    both showing a plain 5, are mirrors."""
    lay = _layout(False, "2-3", "3-5@E", "2-4@W", "4-5@W")
    assert lay.ends == [(0, 5), (1, 5)]
    assert _classes(lay, "5-6@W", "5-6@E") == [["5-6@W", "5-6@E"]]
