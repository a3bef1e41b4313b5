"""World sampling at its edges (issue 42, core/sampling.py's survivors): a view that cannot come
from a real game is refused with what does not add up; before the lead, only the games that
lead with the highest double keep the other hands below the leader's; a world is a whole set
of tiles; the model of play is asked about every play of the other seats and only those; and the
mixing walk moves tiles without breaking a constraint."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from fives.core.games import Config
from fives.core.history import HistoryItem
from fives.core.sampling import SamplingError, WorldSampler, _Slot
from fives.core.state import State, lead_priority
from fives.core.tiles import ALL_TILES, DRAW, PASS, tiles_of_mask
from fives.core.view import View, view_of


def _round_start(game: str, players: int, seed: int) -> State:
    state = State(Config.make(game, players))
    state.deal_next(random.Random(seed))
    return state


def _played(game: str, players: int, seed: int, plays: int) -> State:
    """A round ``plays`` actions in, each the first legal one."""
    state = _round_start(game, players, seed)
    for _ in range(plays):
        if state.turn < 0:
            break
        state.apply_code(state.legal_codes()[0])
    return state


def _refused(view: View) -> str:
    with pytest.raises(SamplingError) as caught:
        WorldSampler(view).sample(random.Random(1))
    return str(caught.value)


def test_a_view_that_cannot_come_from_a_game_is_refused_with_what_does_not_add_up() -> None:
    state = _played("all-fives", 2, 3, 4)
    view = view_of(state, state.turn)
    other = 1 - view.seat  # type: ignore[operator]
    assert _refused(dataclasses.replace(view, seat=None)) == (
        "the public view has no seat to sample for")
    # the seat's own tiles and plays must make a whole hand as dealt
    short = dataclasses.replace(view, hand=view.hand[1:])
    assert _refused(short) == "the view's own hand and plays do not add up to a deal"
    # a view whose turn no deal can lead to: every world is built and thrown away
    wrong_turn = dataclasses.replace(view, turn=other)
    assert _refused(wrong_turn) == "no consistent world found"
    # more tiles drawn than the stock ever held
    draws = tuple(HistoryItem(other, DRAW) for _ in range(20))
    many = dataclasses.replace(view, history=view.history + draws)
    assert _refused(many) == "more draws than the stock held"


def test_a_view_hiding_its_own_draw_is_refused() -> None:
    rng = random.Random(5)
    for seed in range(200):
        state = _round_start("draw", 2, seed)
        while state.turn >= 0:
            view = view_of(state, state.turn)
            own = [k for k, h in enumerate(view.history)
                   if h.seat == view.seat and h.tile is not None]
            if own:
                k = own[0]
                hidden = list(view.history)
                hidden[k] = hidden[k]._replace(tile=None)
                bad = dataclasses.replace(view, history=tuple(hidden))
                assert _refused(bad) == "the view hides one of its own seat's draws"
                return
            state.apply_code(rng.choice(state.legal_codes()))
    pytest.fail("no kept draw of one's own in 200 rounds")


def test_a_seat_proven_void_in_the_tile_it_played_leaves_no_place_for_it() -> None:
    # a pass by a seat just before its own play on the same ends proves it held no such tile
    for seed in range(100):
        state = _played("all-fives", 2, seed, 3)
        if state.turn < 0:
            continue
        view = view_of(state, state.turn)
        k = next((k for k, h in enumerate(view.history)
                  if h.seat != view.seat and h.action.is_play and k > 0), None)
        if k is None:
            continue
        tile = view.history[k].action.tile
        history = (*view.history[:k], HistoryItem(view.history[k].seat, PASS),
                   *view.history[k:])
        message = _refused(dataclasses.replace(view, history=history))
        assert message == f"no place fits tile {tile}"
        return
    pytest.fail("no play by another seat after the lead")


def test_before_the_lead_only_the_highest_double_games_bound_the_other_hands() -> None:
    # Muggins leads the highest double (MG-3): seen from a seat that is not the leader, every
    # world gives the leader the best tile dealt. All Fives draws lots: other hands may hold
    # better tiles than the leader's, and do in some worlds.
    for game, bounded in (("muggins", True), ("all-fives", False)):
        above = 0
        for seed in range(4):
            state = _round_start(game, 3, seed)
            leader = state.turn
            me = (leader + 1) % 3
            sampler = WorldSampler(view_of(state, me))
            for k in range(30):
                world = sampler.sample(random.Random(k), check=True)
                best = max(tiles_of_mask(world.hands[leader]), key=lead_priority)
                others = [t for s in range(3) if s != leader
                          for t in tiles_of_mask(world.hands[s])]
                above += any(lead_priority(t) > lead_priority(best) for t in others)
        assert (above == 0) if bounded else (above > 0), game


def test_every_world_deals_the_whole_set_once() -> None:
    for game, players in (("draw", 2), ("all-fives", 3), ("block", 4), ("muggins", 2)):
        state = _played(game, players, 11, 6)
        if state.turn < 0:
            continue
        sampler = WorldSampler(view_of(state, state.turn))
        for k in range(20):
            world = sampler.sample(random.Random(k))
            tiles = [t for h in world.dealt for t in range(28) if h >> t & 1] + world.stock
            assert sorted(tiles) == list(range(28)), (game, players)
            # and the rest of the round plays out from it
            rng = random.Random(k)
            while world.turn >= 0:
                world.play(rng.choice(world.legal_actions()))


def test_the_model_is_asked_about_each_play_of_the_other_seats_only() -> None:
    # views where the other seats drew and passed as well as played: only their plays count
    checked = 0
    for seed in range(40):
        state = _played("draw", 2, seed, 16)
        if state.turn < 0:
            continue
        me = state.turn
        view = view_of(state, me)
        if not any(h.seat != me and not h.action.is_play for h in view.history):
            continue
        asked: list[tuple[int, int]] = []

        def model(world: State, code: int, asked: list[tuple[int, int]] = asked) -> float:
            asked.append((world.turn, code))
            return -0.5

        _world, weight = WorldSampler(view).sample_weighted(random.Random(2), model)
        expected = [(h.seat, int(h.action)) for h in view.history
                    if h.seat != me and h.action.is_play]
        assert asked == expected and expected
        assert weight == pytest.approx(-0.5 * len(expected))
        checked += 1
    assert checked >= 3


def test_mixing_moves_tiles_and_keeps_every_constraint() -> None:
    state = _played("all-fives", 3, 8, 5)
    sampler = WorldSampler(view_of(state, state.turn))
    start = sampler.assign(random.Random(0), swaps=0)
    capacity = Counter(start)
    moved = 0
    for k in range(50):
        where = list(start)
        sampler._mix(where, random.Random(k), 3 * len(where))
        assert Counter(where) == capacity  # every slot still holds as many tiles
        assert all(j in sampler.allowed_sets[i] for i, j in enumerate(where))
        moved += where != start
    assert moved >= 45
    assert len(sampler.tiles) == len(start) and all(0 <= t < len(ALL_TILES)
                                                    for t in sampler.tiles)


def test_a_fill_that_runs_into_a_dead_end_starts_again() -> None:
    # three tiles, three one-tile slots: if the tile that may go to slots 1 or 2 takes slot 1
    # first, the two that fit only slots 0 and 1 cannot both be placed: the fill must start
    # again, never hand back a half-filled deal
    state = _played("all-fives", 3, 8, 5)
    sampler = WorldSampler(view_of(state, state.turn))
    sampler.slots = [_Slot(-1, -1, 1, False), _Slot(-1, -1, 1, False),
                     _Slot(-1, -1, 1, False)]
    sampler.tiles = [0, 1, 2]
    sampler.allowed = [[0, 1], [0, 1], [1, 2]]
    sampler.allowed_sets = [frozenset(a) for a in sampler.allowed]
    fills: Counter[tuple[int, ...]] = Counter()
    for k in range(200):
        where = sampler.assign(random.Random(k), swaps=0)
        assert where[2] == 2 and sorted(where[:2]) == [0, 1], where
        fills[tuple(where)] += 1
    assert len(fills) == 2  # both ways of placing the first two are reached
