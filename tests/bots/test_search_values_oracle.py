"""The plain determinized search's values against their definition (issue 42): each legal
action's value is the mean, over the sampled worlds, of the outcome of playing it and then
the round out with the greedy policy (the same playout seeds for every action of a world, as
many playouts per world as the budget allows), the outcome counting the match's end at half
the target; in a world whose endgame is exact, the minimax value instead; worlds weighted by
how well they explain the others' plays when ``beta`` is set. Computed here from the engine's
pieces, without the search's loop."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator

import pytest

from fives.bots.search import (
    greedy_log_likelihood,
    halving_values,
    ismcts_values,
    outcome_value,
    playout,
    search_values,
)
from fives.bots.transpose import action_classes
from fives.core.games import Config
from fives.core.sampling import SamplingError, WorldSampler
from fives.core.state import State
from fives.core.view import View, view_of
from minimax import plain_minimax
from recordkit import random_states


def _views(game: str, players: int, seed: int, count: int) -> Iterator[tuple[State, View]]:
    """Positions with a choice among several different plays, and their mover's view."""
    found = 0
    for state in random_states(game, players, seed, rounds=4):
        view = view_of(state, state.turn)
        if len(view.legal) > 2 and all(a.tile is not None for a in view.legal):
            yield state, view
            found += 1
            if found == count:
                return


def _in_turn(worlds: list[State]) -> Callable[[random.Random], State]:
    """A source of worlds that gives these ones, in turn (copies: the search plays on them)."""
    queue = list(worlds)
    return lambda _rng: queue.pop(0).copy()


def _playout_values(worlds: list[State], view: View, rng: random.Random, budget: int,
                    eps: float, asked: int = 0) -> list[float]:
    """``asked``: the worlds the search was asked for, when fewer could be drawn (the budget
    is shared among those asked for)."""
    codes = [int(a) for a in view.legal]
    side = view.config.side_of(view.seat or 0)
    per = max(1, budget // ((asked or len(worlds)) * len(codes)))
    weight = view.config.target * 0.5
    totals = [0.0] * len(codes)
    for world in worlds:
        for _ in range(per):
            seed = rng.getrandbits(32)
            for i, code in enumerate(codes):
                st = world.copy()
                st.apply_code(code)
                playout(st, random.Random(seed), eps)
                totals[i] += outcome_value(st, world.scores, side, weight)
    return [t / (per * len(worlds)) for t in totals]


@pytest.mark.parametrize(("game", "players"), [("all-fives", 2), ("fives-and-threes", 3),
                                               ("muggins", 4), ("draw", 2)])
@pytest.mark.parametrize("near_the_end", [False, True])
@pytest.mark.parametrize("budget", [160, 4])  # 4: fewer than one playout per world and play
def test_each_value_is_the_mean_outcome_of_its_playouts_over_the_worlds(
        game: str, players: int, near_the_end: bool, budget: int) -> None:
    for _state, view in _views(game, players, seed=players + len(game), count=3):
        sampler = WorldSampler(view)
        worlds = [sampler.sample(random.Random(k)) for k in range(5)]
        if near_the_end:  # the match can end in these playouts: its bonus counts
            for w in worlds:
                w.scores[:] = [view.config.target - 5 - s for s in range(len(w.scores))]
        got = search_values(view, random.Random(7), worlds=len(worlds), budget=budget,
                            eps=0.1, world_source=_in_turn(worlds))
        want = _playout_values(worlds, view, random.Random(7), budget, 0.1)
        assert list(got) == list(view.legal)
        assert [got[a] for a in view.legal] == pytest.approx(want, abs=1e-9)


@pytest.mark.parametrize("near_the_end", [False, True])
def test_a_world_whose_endgame_is_exact_is_valued_by_minimax(near_the_end: bool) -> None:
    checked = 0
    for state in random_states("block", 2, seed=4, rounds=6):
        view = view_of(state, state.turn)
        if len(view.legal) < 2 or sum(view.hand_sizes) > 7 or view.stock:
            continue
        sampler = WorldSampler(view)
        worlds = [sampler.sample(random.Random(k)) for k in range(3)]
        if near_the_end:  # this round ends the match: the match's weight counts
            for w in worlds:
                w.scores[:] = [view.config.target - 3, view.config.target - 4]
        got = search_values(view, random.Random(1), worlds=3, budget=30, eps=0.0,
                            world_source=_in_turn(worlds), endgame_tiles=7)
        side = view.config.side_of(view.seat or 0)
        for action in view.legal:
            exact = []
            for w in worlds:
                st = w.copy()
                st.apply_code(int(action))
                exact.append(plain_minimax(st, w.scores, side,
                                           match_weight=view.config.target * 0.5))
            assert got[action] == pytest.approx(sum(exact) / len(exact), abs=1e-9)
        checked += 1
    assert checked >= 3


def test_worlds_are_weighted_by_how_well_they_explain_the_others_plays() -> None:
    """beta > 0 (even under 1): worlds drawn with their log-likelihood under the greedy model,
    each counted in proportion to it (the best one counts 1)."""
    checked = 0
    for _state, view in _views("all-fives", 2, seed=12, count=3):
        model = greedy_log_likelihood(0.5)
        sampler = WorldSampler(view)
        rng = random.Random(3)
        samples = [sampler.sample_weighted(rng, model) for _ in range(6)]
        top = max(logw for _, logw in samples)
        codes = [int(a) for a in view.legal]
        per = max(1, 240 // (6 * len(codes)))
        totals, norm = [0.0] * len(codes), 0.0
        for world, logw in samples:
            weight = math.exp(logw - top)
            for _ in range(per):
                seed = rng.getrandbits(32)
                for i, code in enumerate(codes):
                    st = world.copy()
                    st.apply_code(code)
                    playout(st, random.Random(seed), 0.0)
                    totals[i] += weight * outcome_value(st, world.scores, 0 if view.seat == 0
                                                        else 1, view.config.target * 0.5)
            norm += weight * per
        got = search_values(view, random.Random(3), worlds=6, budget=240, eps=0.0, beta=0.5)
        assert [got[a] for a in view.legal] == pytest.approx([t / norm for t in totals], abs=1e-9)
        checked += len({round(logw, 6) for _, logw in samples}) > 1  # weights that differ
    assert checked >= 1


def test_one_legal_action_is_worth_nothing_to_search() -> None:
    state = State(Config.make("all-fives", 2))
    rng = random.Random(2)
    while True:
        state.deal_next(rng)
        while state.turn >= 0 and len(state.legal_codes()) > 1:
            state.apply_code(rng.choice(state.legal_codes()))
        if state.turn >= 0:
            break
    view = view_of(state, state.turn)
    assert len(view.legal) == 1
    nothing = {view.legal[0]: 0.0}
    assert search_values(view, random.Random(1), worlds=4, budget=40, eps=0.0) == nothing
    assert halving_values(view, random.Random(1), worlds=4, eps=0.0) == nothing
    assert ismcts_values(view, random.Random(1), iterations=4, eps=0.0) == nothing


def test_plays_that_are_one_play_are_worth_nothing_to_search() -> None:
    """Several legal actions that leave the same next turn (one class: a tile on two ends of
    the same number) are no choice: each is valued 0, whichever search is asked."""
    for state in random_states("all-fives", 2, 31, rounds=30):
        view = view_of(state, state.turn)
        if len(view.legal) > 1 and len(action_classes(view.layout, list(view.legal))) == 1:
            break
    else:
        raise AssertionError("no such position")
    nothing = dict.fromkeys(view.legal, 0.0)
    assert halving_values(view, random.Random(1), worlds=4, eps=0.0) == nothing
    assert ismcts_values(view, random.Random(1), iterations=4, eps=0.0) == nothing


def test_without_a_source_the_worlds_are_the_views_sampler_drawn_uniformly() -> None:
    for _state, view in _views("all-fives", 2, seed=21, count=2):
        rng = random.Random(5)
        sampler = WorldSampler(view)
        worlds = [sampler.sample(rng) for _ in range(4)]
        want = _playout_values(worlds, view, rng, 80, 0.05)
        got = search_values(view, random.Random(5), worlds=4, budget=80, eps=0.05)
        assert [got[a] for a in view.legal] == pytest.approx(want, abs=1e-9)


def test_a_world_that_cannot_be_drawn_is_passed_over() -> None:
    """A source that fails now and then (SamplingError): the worlds it gives count, and the
    search goes on past the failures."""
    _state, view = next(_views("muggins", 2, seed=3, count=1))
    sampler = WorldSampler(view)
    worlds = [sampler.sample(random.Random(k)) for k in range(3)]
    given = iter([None, worlds[0], None, worlds[1], worlds[2]])

    def flaky(_rng: random.Random) -> State:
        world = next(given)
        if world is None:
            raise SamplingError("no consistent world found")
        return world.copy()

    got = search_values(view, random.Random(2), worlds=5, budget=100, eps=0.2,
                        world_source=flaky)
    want = _playout_values(worlds, view, random.Random(2), 100, 0.2, asked=5)
    assert [got[a] for a in view.legal] == pytest.approx(want, abs=1e-9)


def test_no_world_at_all_values_every_play_at_nothing() -> None:
    _state, view = next(_views("all-fives", 2, seed=8, count=1))

    def never(_rng: random.Random) -> State:
        raise SamplingError("no consistent world found")

    got = search_values(view, random.Random(1), worlds=3, budget=30, eps=0.0,
                        world_source=never)
    assert got == dict.fromkeys(view.legal, 0.0)
