"""Worlds drawn by what the others' plays say (issue 27): a seat that played a tile scoring
nothing while it held one that scored is unlikely, so worlds in which it did are drawn less; a
world that contradicts a play is never drawn at all; with no model the draw is the plain one."""

from __future__ import annotations

import random

import pytest

from fives.bots.search import WorldStream, greedy_log_likelihood, inferred_worlds
from fives.core.games import Config
from fives.core.sampling import WorldSampler
from fives.core.state import State
from fives.core.tiles import ACTIONS
from fives.core.view import View, view_of


def passed_up_points(seed: int) -> tuple[View, int] | None:
    """A position at seat 0's turn right after seat 1 played for no points while another
    tile it still holds would have scored; the view, and that tile's id."""
    rng = random.Random(seed)
    state = State(Config.make("all-fives", 2))
    state.deal_next(rng)
    while state.turn >= 0:
        seat = state.turn
        codes = state.legal_codes()
        code = rng.choice(codes)
        before = state.copy()
        state.apply_code(code)
        if seat != 1 or state.turn != 0 or not ACTIONS[code].is_play or len(codes) < 2:
            continue
        if before.layout.ends_total() and state.scores[1] != before.scores[1]:
            continue  # it scored: nothing was passed up
        points = before.config.game.play_points
        for other in codes:
            act = ACTIONS[other]
            if other == code or not act.is_play or act.tile is None:
                continue
            tid = act.tile.id
            end = act.end if act.end is not None else 0
            if (points[before.layout.total_after(tid, end)] >= 10
                    and state.hands[1] >> tid & 1 and state.scores[1] == before.scores[1]):
                return view_of(state, 0), tid
    return None


def held_share(worlds: list[State], tid: int) -> float:
    return sum(w.hands[1] >> tid & 1 for w in worlds) / len(worlds)


def test_worlds_where_a_seat_passed_up_ten_points_are_drawn_less() -> None:
    cases = [c for c in (passed_up_points(s) for s in range(400)) if c is not None][:4]
    assert len(cases) >= 3
    for view, tid in cases:
        sampler = WorldSampler(view)
        plain = [sampler.sample(random.Random(k)) for k in range(300)]
        inferred, ess = inferred_worlds(sampler, random.Random(1), 300, beta=0.5)
        assert len(inferred) == 300 and 1.0 <= ess <= 600.0
        # with the tile, the seat would have scored 10 or more: such worlds fall away
        assert held_share(inferred, tid) < 0.5 * held_share(plain, tid), (
            str(view.hand), tid, held_share(inferred, tid), held_share(plain, tid))


def test_every_drawn_world_is_consistent_with_the_view() -> None:
    """Weighting never brings back a world the plays rule out: each one replays the round's
    public history to the same layout, hand sizes and turn."""
    case = next(c for c in (passed_up_points(s) for s in range(400)) if c is not None)
    view, _ = case
    worlds, _ = inferred_worlds(WorldSampler(view), random.Random(2), 100, beta=2.0)
    for w in worlds:
        seen = view_of(w, 0)
        assert seen.hand == view.hand and seen.layout.tiles() == view.layout.tiles()
        assert [len(h) for h in (w.hand(1),)] == [view.hand_sizes[1]]
        assert w.turn == view.turn


def test_a_play_the_model_finds_likelier_weighs_more() -> None:
    case = next(c for c in (passed_up_points(s) for s in range(400)) if c is not None)
    view, _ = case
    rng = random.Random(3)
    state = WorldSampler(view).sample(rng)
    codes = state.legal_codes()
    if len(codes) < 2:
        pytest.skip("one legal action")
    model = greedy_log_likelihood(0.5)
    logs = [model(state, c) for c in codes]
    # a probability distribution over the legal actions, highest for the greedy choice
    assert abs(sum(2.718281828459045 ** x for x in logs) - 1.0) < 1e-9
    points = state.config.game.play_points
    best = max(codes, key=lambda c: model(state, c))
    act = ACTIONS[best]
    assert act.tile is not None
    total = state.layout.total_after(act.tile.id, act.end if act.end is not None else 0)
    assert points[total] == max(
        points[state.layout.total_after(ACTIONS[c].tile.id,  # type: ignore[union-attr]
                                        ACTIONS[c].end or 0)]
        for c in codes if ACTIONS[c].is_play)


def test_without_a_model_the_stream_is_the_plain_sampler() -> None:
    case = next(c for c in (passed_up_points(s) for s in range(400)) if c is not None)
    view, _ = case
    sampler = WorldSampler(view)
    stream = WorldStream(sampler, 0.0, 50)
    a = [stream.next(random.Random(k)).hands for k in range(20)]
    b = [sampler.sample(random.Random(k)).hands for k in range(20)]
    assert a == b and stream.ess_share == 1.0
