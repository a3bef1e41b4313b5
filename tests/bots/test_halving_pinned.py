"""The ladder's halving search (``hard``'s) values as recorded (issue 42): the same worlds, the
same playouts, the same values to the sixth digit and the same shares, in both builds (``make
test`` runs this file on the compiled core and again on the pure modules). Its settings each
change the numbers: the defaults (successive halving from an eighth of the worlds); the
informed policy's look and worlds drawn by inference; every class on every world (no
halving); the match's weight, near a match's end too; exact endgames in some worlds. A change
to the search's algorithm changes these on purpose: recompute them then (the generator is the
test's own loop)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from fives.bots import search
from fives.bots.search import halving_values
from fives.compiled import build
from fives.core.games import Config
from fives.core.sampling import SamplingError
from fives.core.state import State
from fives.core.view import View
from recordkit import endgame_views, near_target_view
from results_digest import decision_views

#: (game, players, settings beyond worlds=96 and eps=0.1)
CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("all-fives", 2, {}),
    ("fives-and-threes", 2, {"look": 0.5, "beta": 0.7}),
    ("muggins", 3, {"halving": False}),
    ("draw", 4, {"match_weight": 0.8}),
]

PINNED = [
    ('all-fives', 0, {'1-6': -14.583333, '2-3': 13.697917, '3-3': 5.0, '3-4': 7.083333, '3-6': 1.041667, '4-6': -5.833333, '5-5': 12.5, '5-6': -2.916667, '6-6': 19.322917}, {'cut': 0.0, 'ess_share': 1.0, 'exact_share': 0.0}),
    ('all-fives', 1, {'1-4@W': 2.8125, '2-6@E': -0.15625, '4-5@W': -4.166667}, {'cut': 0.0, 'ess_share': 1.0, 'exact_share': 0.0}),
    ('fives-and-threes', 0, {'1-6': -1.75, '3-3': 3.8125, '3-4': -0.5, '3-6': 2.46875, '4-6': 0.166667, '5-5': 0.208333, '5-6': -0.916667}, {'cut': 0.0, 'ess_share': 1.0, 'exact_share': 0.0}),
    ('fives-and-threes', 1, {'2-3@W': -1.583333, '3-5@W': 0.760417, '6-6@E': 6.322917}, {'cut': 0.0, 'ess_share': 0.979323, 'exact_share': 0.0}),
    ('muggins', 0, {'0-6@W': -12.8125, '0-6@E': -12.8125, '1-6@W': -3.4375, '1-6@E': -3.4375}, {'cut': 0.0, 'ess_share': 1.0, 'exact_share': 0.0}),
    ('muggins', 1, {'1-4@E': -2.682292, '3-6@W': -1.25, '4-6@W': 2.369792}, {'cut': 0.0, 'ess_share': 1.0, 'exact_share': 0.0}),
    ('draw', 0, {'2-6@W': 0.0, '2-6@E': 0.0}, {'exact_share': 0.0}),
    ('draw', 1, {'0-2@E': 0.291667, '2-2@E': 4.715278}, {'cut': 0.0, 'ess_share': 1.0, 'exact_share': 0.0}),
    ('late', 0, {'2-4@E': -12.958333, '4-6@E': -10.854167}, {'cut': 0.0, 'ess_share': 1.0, 'exact_share': 1.0}),
    ('late', 1, {'2-2@W': -3.322917, '2-4@W': -2.583333, '2-5@W': -10.666667}, {'cut': 0.0, 'ess_share': 1.0, 'exact_share': 0.0}),
    ('near', 0, {'0-6@E': -23.229167, '2-6@E': -25.0, '3-6@E': -16.09375}, {'cut': 0.0, 'ess_share': 1.0, 'exact_share': 0.0}),
]


def _row(name: str, k: int, view: View, **settings: Any) -> tuple[Any, ...]:
    stats: dict[str, float] = {}
    values = halving_values(view, random.Random(k), worlds=96, eps=0.1, stats=stats, **settings)
    return (name, k, {str(a): round(v, 6) for a, v in values.items()},
            {s: round(v, 6) for s, v in sorted(stats.items())})


def test_the_halving_search_values_and_shares_are_those_recorded() -> None:
    found = []
    for game, players, settings in CASES:
        for k, view in enumerate(decision_views(Config.make(game, players), 30 + players, 2)):
            found.append(_row(game, k, view, **settings))
    # exact in the first, not the second
    for k, view in enumerate(endgame_views("block", 2, 7, 6, 10, 2)):
        found.append(_row("late", k, view, endgame_tiles=8))
    found.append(_row("near", 0, near_target_view("all-fives", 50, 5, choices=3)))
    assert found == PINNED


def test_a_move_time_keeps_the_final_two_taking_worlds() -> None:
    """``move_time`` (CPU seconds): past its worlds, the search goes on with new ones."""
    view = decision_views(Config.make("all-fives", 2), 32, 1)[0]
    plain = halving_values(view, random.Random(0), worlds=16, eps=0.1)
    longer = halving_values(view, random.Random(0), worlds=16, eps=0.1, move_time=0.1)
    assert plain != longer  # the final two's means moved with the worlds they took


FEW_WORLDS = [
    {'1-6': -2.5, '2-3': -10.0, '3-3': -50.0, '3-4': 6.25, '3-6': 0.833332, '4-6': 0.833332, '5-5': 0.0, '5-6': 0.833333, '6-6': -10.0},
    {'1-6': -65.0, '2-3': -7.500001, '3-3': 10.833333, '3-4': -7.500001, '3-6': -7.500001, '4-6': -7.500001, '5-5': -7.500001, '5-6': -7.5, '6-6': -7.500001},
]


def test_a_few_worlds_start_the_halving_on_one_and_batch_the_inference_by_one() -> None:
    """Under 16 worlds the first stage is a single world (an eighth, at least one, rounded
    down) and worlds drawn by inference come in batches of one: pinned, both builds."""
    view = decision_views(Config.make("all-fives", 2), 32, 1)[0]
    found = [
        {str(a): round(v, 6) for a, v in
         halving_values(view, random.Random(3), worlds=12, eps=0.1).items()},
        {str(a): round(v, 6) for a, v in
         halving_values(view, random.Random(3), worlds=12, eps=0.1, beta=0.7).items()},
    ]
    assert found == FEW_WORLDS


@pytest.mark.skipif(build().compiled, reason="a stand-in stream: the pure build's")
def test_a_world_that_cannot_be_drawn_counts_as_drawn_and_the_rest_are_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every third draw fails (SamplingError): the search asks for its 12 worlds, no more, and
    values every class over the 8 that came exactly as a search over those 8 alone; none is
    dropped on the way (no halving asked)."""
    view = next(v for v in decision_views(Config.make("all-fives", 2), 32, 6)
                if len(v.legal) >= 4)
    real_next = search.WorldStream.next
    calls = 0

    def flaky(stream: search.WorldStream, rng: random.Random) -> State:
        nonlocal calls
        calls += 1
        if calls % 3 == 0:
            raise SamplingError("no consistent world found")
        return real_next(stream, rng)

    plain = halving_values(view, random.Random(4), worlds=8, eps=0.1, halving=False)
    monkeypatch.setattr(search.WorldStream, "next", flaky)
    got = halving_values(view, random.Random(4), worlds=12, eps=0.1, halving=False)
    assert calls == 12
    assert got == plain


def test_the_exact_share_of_a_single_world_solved_exactly_is_one() -> None:
    view = endgame_views("block", 2, 7, 6, 10, 1)[0]
    stats: dict[str, float] = {}
    halving_values(view, random.Random(0), worlds=1, eps=0.1, endgame_tiles=10, stats=stats)
    assert stats["exact_share"] == 1.0


@pytest.mark.skipif(build().compiled, reason="a stand-in stream: the pure build's")
def test_no_world_at_all_leaves_the_halving_search_valuing_every_play_at_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    view = decision_views(Config.make("all-fives", 2), 32, 1)[0]

    def never(_stream: search.WorldStream, _rng: random.Random) -> State:
        raise SamplingError("no consistent world found")

    monkeypatch.setattr(search.WorldStream, "next", never)
    got = halving_values(view, random.Random(1), worlds=6, eps=0.0, halving=False)
    assert got == dict.fromkeys(view.legal, 0.0)
