"""The search bots decide as they did before the core was compiled and tuned: same worlds,
same playouts, same values to the last digit kept, in both builds (``make test`` runs this file
on the compiled core and again on the pure modules)."""

from __future__ import annotations

import random

from fives.bots.ladder import SearchBot
from fives.core.games import Config
from results_digest import decision_views

#: The search bot's choices and values (30 worlds, 1500 playouts, as ``hard`` played before
#: the compiled core) on the views ``decision_views`` makes, computed by the pure engine before
#: it was tuned for the compiler. A change to the search's algorithm changes these on purpose:
#: recompute them then; tuning must not.
SEARCH_BEFORE = [
    ('all-fives', 0, '2-2', {'0-0': -2.65, '0-6': -11.616667, '1-1': -7.183333, '1-3': -11.75, '1-6': -12.158333, '2-2': 6.416667, '2-5': -11.425, '2-6': -1.0, '3-6': -7.825}),
    ('all-fives', 1, '6-6@E', {'3-4@W': 12.25, '5-6@E': -13.697917, '6-6@E': 21.616667}),
    ('all-fives', 2, '1-3@W', {'0-6@E': -10.430556, '1-3@W': 5.002778, '1-6@E': -5.111111, '2-6@E': 3.247222}),
    ('fives-and-threes', 0, '0-0', {'0-0': 3.32381, '0-3': 2.107143, '0-4': -0.47381, '2-4': 2.75, '2-6': -1.32619, '3-5': -1.42381, '4-6': 2.57381}),
    ('fives-and-threes', 1, '3-4@W', {'1-6@E': 2.214583, '3-4@W': 3.633333, '4-5@W': -1.620833}),
    ('fives-and-threes', 2, '0-3@W', {'0-3@W': 2.439583, '2-6@E': 0.941667, '3-5@W': -1.352083}),
    ('muggins', 0, '3-6@E', {'3-6@W': 21.141667, '3-6@E': 21.531667}),
    ('muggins', 1, '0-6@W', {'0-6@W': 3.196667, '4-6@W': 3.016667}),
    ('muggins', 2, '1-3@E', {'1-3@E': 14.297917, '1-4@W': 1.672917, '1-6@N': 5.714583, '1-6@S': 5.558333, '2-3@E': 0.283333, '4-5@W': -0.841667}),
    ('block', 0, '2-6@W', {'2-6@W': -3.297111, '2-6@E': -4.775333}),
    ('block', 1, '2-2@W', {'1-2@W': -1.709028, '2-2@W': 1.695139, '3-6@E': -2.175694}),
    ('block', 2, '2-5@W', {'1-5@E': 6.542593, '2-3@W': 6.043519, '2-5@W': 16.52037, '2-5@E': 15.362963}),
]


def test_the_search_decides_as_it_did_before_the_core_was_tuned() -> None:
    bot = SearchBot("hard", worlds=30, budget=1500, eps=0.1, prior=0.5)
    found = []
    for game, players, seed in (("all-fives", 2, 1), ("fives-and-threes", 2, 2),
                                ("muggins", 3, 3), ("block", 4, 4)):
        for k, view in enumerate(decision_views(Config.make(game, players), seed, 3)):
            values = bot.values(view, random.Random(k))
            choice = bot.choose(view, random.Random(k))
            found.append((game, k, str(choice), {str(a): round(v, 6) for a, v in values.items()}))
    assert found == SEARCH_BEFORE
