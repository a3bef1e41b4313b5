"""Playouts by medium's rule of thumb (issue 27): in every game and player count, each seat of a
playout plays what the ``medium`` bot would choose from that seat's view of the world (its own
hand, the table, the others' hand sizes, the numbers the plays prove they lack), ties to the
heaviest tile; the voids the playout tracks move by move are the ones a view proves from the
round's history; and a halving search or a tree search with these playouts values every legal
action, the same for the same seed."""

from __future__ import annotations

import random

import pytest

from fives.bots.ladder import MediumBot, rule_values
from fives.bots.search import (
    RULE_TERMS,
    MediumPolicy,
    MediumRule,
    halving_values,
    ismcts_values,
    open_numbers,
)
from fives.core.sampling import proven_voids
from fives.core.state import State
from fives.core.tiles import Action
from fives.core.view import view_of
from recordkit import random_states

#: every game, every player count, and partnerships
TABLES = [(g, n, False) for g in ("all-fives", "fives-and-threes", "muggins", "draw", "block")
          for n in (2, 3, 4)] + [("all-fives", 4, True), ("fives-and-threes", 4, True)]


def _medium_best(state: State) -> set[int]:
    """The codes ``medium`` may choose from the mover's view: the best value, then the
    heaviest tile (the rest of its tie is a coin)."""
    values = MediumBot(fitted=False).values(view_of(state, state.turn), random.Random(0))
    top = max(values.values())
    best = [a for a, v in values.items() if v >= top - 1e-9]

    def weight(a: Action) -> int:
        return a.tile.pips if a.tile is not None else -1

    heaviest = max(weight(a) for a in best)
    return {int(a) for a in best if weight(a) == heaviest}


@pytest.mark.parametrize(("game", "players", "teams"), TABLES)
def test_every_seat_of_a_playout_plays_what_medium_would_from_its_view(
        game: str, players: int, teams: bool) -> None:
    checked = 0
    for k, state in enumerate(random_states(game, players, seed=7, rounds=3, teams=teams)):
        if k % 4 or state.turn < 0:
            continue
        world = state.copy()
        policy = MediumPolicy(world, eps=0.0)
        policy.start(world)
        first = world.legal_codes()[0]
        played = world.copy()
        policy.playout(played, first, random.Random(k))
        # replay the playout from the world, checking each choice against medium's
        replay = world.copy()
        replay.apply_code(first)
        for entry in played.log[len(world.log) + 1:]:
            code = entry[1]
            if len(replay.legal_codes()) > 1:
                assert code in _medium_best(replay), (game, players, k, code)
                checked += 1
            replay.apply_code(code)
        assert replay.scores == played.scores
    assert checked >= 20


@pytest.mark.parametrize(("game", "players", "teams"), TABLES)
def test_the_voids_a_playout_tracks_are_the_ones_the_views_prove(
        game: str, players: int, teams: bool) -> None:
    for k, state in enumerate(random_states(game, players, seed=3, rounds=3, teams=teams)):
        if not state.log:
            policy = MediumPolicy(state, eps=0.0)
            policy.start(state)  # a new round: nothing proven
        view = view_of(state, state.turn)
        for seat in range(players):
            if seat != policy.pending:  # a drawer's own voids wait for its next move
                assert policy.voids[seat] == proven_voids(view, seat), (k, seat)
        # read afresh from the round's log: the same as tracked move by move
        fresh = MediumPolicy(state, eps=0.0)
        fresh.start(state)
        assert (fresh.voids, fresh.pending) == (policy.voids, policy.pending), k
        code = random.Random(k).choice(state.legal_codes())
        policy.note(state.turn, code, open_numbers(state.layout))


@pytest.mark.parametrize(("game", "players"), [("all-fives", 2), ("draw", 3),
                                               ("fives-and-threes", 4)])
def test_a_search_with_medium_playouts_values_every_action_alike_for_a_seed(
        game: str, players: int) -> None:
    views = [view_of(s, s.turn) for k, s in enumerate(random_states(game, players, seed=11))
             if k % 4 == 1 and len(s.legal_codes()) > 1][:4]
    assert views
    for view in views:
        found = halving_values(view, random.Random(1), worlds=24, eps=0.0, playouts="medium")
        again = halving_values(view, random.Random(1), worlds=24, eps=0.0, playouts="medium")
        assert set(found) == set(view.legal)
        assert found == again
        greedy = halving_values(view, random.Random(1), worlds=24, eps=0.0)
        assert set(greedy) == set(found)


def test_a_search_refuses_playouts_it_does_not_know() -> None:
    view = next(view_of(s, s.turn) for s in random_states("all-fives", 2, seed=1)
                if len(s.legal_codes()) > 1)
    with pytest.raises(ValueError, match="'clever'"):
        halving_values(view, random.Random(1), worlds=8, eps=0.0, playouts="clever")


def test_the_tree_search_with_medium_playouts_values_every_action_alike_for_a_seed() -> None:
    views = [view_of(s, s.turn) for k, s in enumerate(random_states("all-fives", 2, seed=5))
             if k % 4 == 1 and len(s.legal_codes()) > 1][:3]
    assert views
    for view in views:
        found = ismcts_values(view, random.Random(2), iterations=200, eps=0.0,
                              playouts="medium")
        again = ismcts_values(view, random.Random(2), iterations=200, eps=0.0,
                              playouts="medium")
        assert set(found) == set(view.legal)
        assert found == again
    with pytest.raises(ValueError, match="'clever'"):
        ismcts_values(views[0], random.Random(1), iterations=8, eps=0.0, playouts="clever")


@pytest.mark.parametrize(("game", "players", "teams"), [("all-fives", 2, False),
                                                        ("fives-and-threes", 4, True),
                                                        ("muggins", 3, False)])
def test_a_playout_by_other_weights_plays_what_that_rule_values_best(
        game: str, players: int, teams: bool) -> None:
    """Given a rule (the weights of a fit, the terms medium does not weigh among them), every
    seat of a playout plays that rule's best from its own view, not medium's."""
    weights = {t: (-1) ** i * (0.3 + 0.2 * i) for i, t in enumerate(RULE_TERMS)}
    differs = checked = 0
    for k, state in enumerate(random_states(game, players, seed=9, rounds=2, teams=teams)):
        if k % 5 or state.turn < 0:
            continue
        rule = MediumRule.weighted(state.config, weights)
        world = state.copy()
        policy = MediumPolicy(world, eps=0.0, rule=rule)
        policy.start(world)
        played = world.copy()
        policy.playout(played, world.legal_codes()[0], random.Random(k))
        replay = world.copy()
        replay.apply_code(world.legal_codes()[0])
        for entry in played.log[len(world.log) + 1:]:
            if len(replay.legal_codes()) > 1:
                view = view_of(replay, replay.turn)
                best = _best_of(rule_values(rule, view))
                assert entry[1] in best, (game, k)
                differs += entry[1] not in _medium_best(replay)
                checked += 1
            replay.apply_code(entry[1])
    assert checked >= 20 and differs >= 3


def _best_of(values: dict[Action, float]) -> set[int]:
    top = max(values.values())
    best = [a for a, v in values.items() if v >= top - 1e-9]
    heaviest = max(a.tile.pips if a.tile is not None else -1 for a in best)
    return {int(a) for a in best if (a.tile.pips if a.tile is not None else -1) == heaviest}


def test_with_an_equity_a_playout_is_worth_its_change() -> None:
    """With ``equity``, an action's value is what it says of the state a playout ends in less
    what it says of the scores now: an equity that is the score margin gives the values of
    the margin (no match bonus), to a rounding."""
    for state in list(random_states("all-fives", 2, seed=12, rounds=2))[5:40:7]:
        if state.turn < 0 or len(state.legal_codes()) < 2:
            continue
        view = view_of(state, state.turn)
        side = state.side[state.turn]

        def margin(st: State, side: int = side) -> float:
            return float(st.scores[side] - st.scores[1 - side])

        plain = halving_values(view, random.Random(3), worlds=24, eps=0.0, match_weight=0.0,
                               playouts="medium", halving=False)
        by_equity = halving_values(view, random.Random(3), worlds=24, eps=0.0,
                                   match_weight=0.0, playouts="medium", halving=False,
                                   equity=margin)
        assert by_equity == pytest.approx(plain, abs=1e-9)
        doubled = halving_values(view, random.Random(3), worlds=24, eps=0.0, match_weight=0.0,
                                 playouts="medium", halving=False,
                                 equity=lambda st, side=side: 2.0 * margin(st) + 7.0)
        assert doubled == pytest.approx({a: 2.0 * v for a, v in plain.items()}, abs=1e-9)
