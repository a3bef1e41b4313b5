"""How the other seats are taken to play, for the search bots' worlds (issue 27).

A seat's choice among its legal plays is modelled as a softmax over a key, ``P(play) ∝
exp(beta * key)``, with one of two keys (:func:`fives.bots.search.play_log_likelihood`):
``greedy``'s (the points the play scores now, then its weight in pips) or ``medium``'s values
of the plays, worked out from the seat's own hand (points now, the reply left, the tiles shed
and kept). ``beta`` says how surely a player takes the play its key ranks first; both are
fitted per game by maximum likelihood on the plays of matches the engine plays itself (the
ladder's bots against each other: nothing is downloaded), and the key that explains the plays
better is the game's model, shipped as ``play_model.json`` beside this module, written by
``fives train play-model`` (:mod:`fives.bots.training`). The same seed, matches and bots write
the same file.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any

from fives.bots.search import PLAY_MODELS, play_log_likelihood
from fives.core.state import State

__all__ = ["MODEL_FILE", "PLAY_MODELS", "fit_beta", "mean_log_likelihood", "play_beta",
           "play_model", "shipped_fits"]

#: the shipped model, beside this module
MODEL_FILE = "play_model.json"
#: beta's search interval (0: every legal play alike; 4: nearly always the greedy play)
_LO, _HI = 0.0, 4.0


def mean_log_likelihood(samples: Sequence[tuple[State, int]], beta: float,
                        model: str = "greedy") -> float:
    """The mean log-likelihood per play of ``samples`` under ``model`` at ``beta`` (0: every
    legal play alike)."""
    if not samples:
        return 0.0
    found = (play_log_likelihood(model, beta, samples[0][0].config) if beta > 0
             else _uniform)
    return sum(found(s, c) for s, c in samples) / len(samples)


def _uniform(state: State, code: int) -> float:
    return -math.log(len(state.legal_codes()))


def fit_beta(samples: Sequence[tuple[State, int]], tolerance: float = 1e-3,
             model: str = "greedy") -> float:
    """The beta of greatest likelihood of ``model`` on ``samples`` (golden-section search on
    [0, 4]; the likelihood of a softmax is concave in its temperature's inverse)."""
    f: Callable[[float], float] = functools.partial(_ll, samples, model)
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


def _ll(samples: Sequence[tuple[State, int]], model: str, beta: float) -> float:
    return mean_log_likelihood(samples, beta, model)


@functools.cache
def _shipped() -> dict[str, Any]:
    try:
        text = resources.files(__package__).joinpath(MODEL_FILE).read_text("utf-8")
    except (OSError, ValueError):
        return {}
    data: dict[str, Any] = json.loads(text)
    return data


def play_model(game: str) -> tuple[str, float]:
    """The shipped model of ``game``: its key (one of :data:`PLAY_MODELS`) and beta (0,
    worlds uniform, if the file has none)."""
    entry = _shipped().get("games", {}).get(game)
    if not isinstance(entry, dict):
        return "greedy", 0.0
    return str(entry.get("model", "greedy")), float(entry["beta"])


def shipped_fits(game: str) -> dict[str, float]:
    """The beta the shipped file fitted for each key of ``game`` (the one it chose, for a file
    written before both were fitted)."""
    entry = _shipped().get("games", {}).get(game)
    if not isinstance(entry, dict):
        return {}
    fits = entry.get("fits")
    if isinstance(fits, dict):
        return {str(k): float(v["beta"]) for k, v in fits.items()}
    return {str(entry.get("model", "greedy")): float(entry["beta"])}


def play_beta(game: str) -> float:
    """The shipped beta of ``game``'s model (0, worlds uniform, if the file has none)."""
    return play_model(game)[1]
