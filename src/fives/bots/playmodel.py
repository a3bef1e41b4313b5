"""How the other seats are taken to play, for the search bots' worlds (issue 27).

A seat's choice among its legal plays is modelled as a softmax over the greedy policy's key
(the points the play scores now, then its weight in pips): ``P(play) ∝ exp(beta * key)``
(:func:`fives.bots.search.greedy_log_likelihood`). ``beta`` says how surely a player takes the
play that scores most; it is fitted per game by maximum likelihood on the plays of matches the
engine plays itself (the ladder's bots against each other: nothing is downloaded), and shipped
as ``play_model.json`` beside this module, written by ``fives train play-model``
(:mod:`fives.bots.training`). The same seed, matches and bots write the same file.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any

from fives.bots.search import greedy_log_likelihood
from fives.core.state import State

__all__ = ["MODEL_FILE", "fit_beta", "mean_log_likelihood", "play_beta"]

#: the shipped model, beside this module
MODEL_FILE = "play_model.json"
#: beta's search interval (0: every legal play alike; 4: nearly always the greedy play)
_LO, _HI = 0.0, 4.0


def mean_log_likelihood(samples: Sequence[tuple[State, int]], beta: float) -> float:
    model = greedy_log_likelihood(beta) if beta > 0 else _uniform
    return sum(model(s, c) for s, c in samples) / max(1, len(samples))


def _uniform(state: State, code: int) -> float:
    return -math.log(len(state.legal_codes()))


def fit_beta(samples: Sequence[tuple[State, int]], tolerance: float = 1e-3) -> float:
    """The beta of greatest likelihood on ``samples`` (golden-section search on [0, 4]; the
    likelihood of a softmax is concave in its temperature's inverse)."""
    f: Callable[[float], float] = functools.partial(_ll, samples)
    ratio = (math.sqrt(5) - 1) / 2
    a, b = _LO, _HI
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    fc, fd = f(c), f(d)
    while b - a > tolerance:
        if fc > fd:
            b, d, fd = d, c, fc
            c = b - ratio * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + ratio * (b - a)
            fd = f(d)
    return round((a + b) / 2, 3)


def _ll(samples: Sequence[tuple[State, int]], beta: float) -> float:
    return mean_log_likelihood(samples, beta)


@functools.cache
def _shipped() -> dict[str, Any]:
    try:
        text = resources.files(__package__).joinpath(MODEL_FILE).read_text("utf-8")
    except (OSError, ValueError):
        return {}
    data: dict[str, Any] = json.loads(text)
    return data


def play_beta(game: str) -> float:
    """The shipped beta of ``game`` (0, worlds uniform, if the file has none)."""
    entry = _shipped().get("games", {}).get(game)
    return float(entry["beta"]) if isinstance(entry, dict) else 0.0
