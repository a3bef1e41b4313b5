"""A search's CPU-time cap (``max_time``, issue 27's time goals): once the time is spent no new
world is taken, and what it answers is then exactly what a search given only the worlds it
played answers; without a cap, or with one it never reaches, the count of worlds decides
alone and the answer is the uncapped one."""

from __future__ import annotations

import random
import time

import pytest

from fives.bots.ladder import HalvingBot
from fives.bots.search import halving_values
from fives.core.view import View, view_of
from recordkit import random_states


def _views(game: str) -> list[View]:
    found = [view_of(s, s.turn) for k, s in enumerate(random_states(game, 2, seed=5))
             if k % 3 == 1 and len(s.legal_codes()) > 2]
    assert found
    return found[:3]


@pytest.mark.parametrize("playouts", ["greedy", "medium"])
@pytest.mark.parametrize("game", ["all-fives", "fives-and-threes", "muggins"])
def test_a_search_out_of_time_answers_what_its_first_world_says(game: str, playouts: str) -> None:
    for view in _views(game):
        stats: dict[str, float] = {}
        capped = halving_values(view, random.Random(3), worlds=400, eps=0.0, playouts=playouts,
                                max_time=1e-9, stats=stats)
        one = halving_values(view, random.Random(3), worlds=1, eps=0.0, playouts=playouts)
        assert capped == one
        assert stats["cut"] == 1.0


@pytest.mark.parametrize("game", ["all-fives", "block"])
def test_a_cap_never_reached_changes_nothing(game: str) -> None:
    for view in _views(game):
        stats: dict[str, float] = {}
        free = halving_values(view, random.Random(4), worlds=40, eps=0.05, playouts="medium")
        roomy = halving_values(view, random.Random(4), worlds=40, eps=0.05, playouts="medium",
                               max_time=3600.0, stats=stats)
        assert roomy == free
        assert stats["cut"] == 0.0


def test_the_bot_passes_its_cap_to_the_search() -> None:
    view = _views("all-fives")[0]
    bot = HalvingBot("capped", worlds=400, eps=0.0, playouts="medium", max_time=1e-9)
    bot.values(view, random.Random(2))
    assert bot.last_stats["cut"] == 1.0
    assert HalvingBot("free", worlds=8, eps=0.0).max_time == 0.0


def test_a_capped_search_stops_only_once_its_own_time_is_spent() -> None:
    # the clock read is the search's own CPU time since it began, not the process's
    view = _views("all-fives")[0]
    stats: dict[str, float] = {}
    began = time.thread_time()
    halving_values(view, random.Random(6), worlds=1_000_000, eps=0.0, playouts="medium",
                   max_time=0.05, stats=stats)
    assert stats["cut"] == 1.0
    assert time.thread_time() - began >= 0.05
