"""The events a table tells are built per seat (issue 12, item 3): a draw's tile is in the
event built for the one who drew it, never in the one everyone else (spectators included)
shares, and never in a shared event stripped on the way out (C-2)."""

from __future__ import annotations

import random

from fives.core.games import Config
from fives.core.state import State
from fives.core.tiles import DRAW
from fives.server.events import deal_event, event_of


def a_draw() -> tuple[State, int]:
    for seed in range(200):
        state = State(Config.make("draw", 2))
        state.deal_next(random.Random(seed))
        while state.round_end is None:
            codes = state.legal_codes()
            if int(DRAW) in codes:
                return state, state.turn
            state.apply_code(codes[0])
    raise AssertionError("no deal with a draw")


def test_a_drawn_tile_is_told_only_to_the_drawer_C_2() -> None:
    state, drawer = a_draw()
    entry = state.apply_code(int(DRAW))
    event = event_of(state, entry, "player", 7)
    other = 1 - drawer
    assert "tile" not in event.public and "drawn" not in event.public
    assert event.for_seat(other) == event.public == event.for_seat(None)
    mine = event.for_seat(drawer)
    assert mine["tile"] in {str(t) for t in state.hand(drawer)}
    assert {k: v for k, v in mine.items() if k != "tile"} == event.public
    assert event.full == mine  # the replay of a finished match shows it


def test_plays_and_deals_are_the_same_for_everyone() -> None:
    state = State(Config.make("all-fives", 2))
    state.deal_next(random.Random(3))
    deal = deal_event(state, 1)
    assert deal.public == {"n": 1, "kind": "deal", "round": 0, "leader": state.leader}
    entry = state.apply_code(state.legal_codes()[0])
    play = event_of(state, entry, "bot", 2)
    assert play.private is None
    assert play.for_seat(0) == play.for_seat(1) == play.for_seat(None) == play.public
    assert play.public["kind"] == "lead" and play.public["tile"]


def test_a_fives_and_threes_play_carries_the_step_from_its_total_to_its_points_FT_6() -> None:
    """Issue 40: "12 = 12, 4 points" read as a contradiction; every page writes the step."""
    seen = set()
    for seed in range(40):
        state = State(Config.make("fives-and-threes", 2))
        state.deal_next(random.Random(seed))
        while state.round_end is None and not state.over:
            entry = state.apply_code(state.legal_codes()[0])
            event = event_of(state, entry, "player", 1).public
            if event.get("points"):
                total, points = event["total"], event["points"]
                steps = [f"{total} ÷ {d}" for d in (3, 5) if total % d == 0]
                assert event["division"] == " + ".join(steps)
                assert points == sum(total // d for d in (3, 5) if total % d == 0)
                seen.add(len(steps))
    assert seen == {1, 2}  # one division, and both (15, 30)
    state = State(Config.make("all-fives", 2))
    state.deal_next(random.Random(3))
    entry = state.apply_code(state.legal_codes()[0])
    assert event_of(state, entry, "player", 1).public["division"] == ""  # the total is the points
