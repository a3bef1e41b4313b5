"""Determinized search: sample worlds consistent with the view, play each legal action out in
each world with a fast greedy policy, and pick the action with the best average outcome.

The outcome of a playout is the change in the point difference between the bot's side and the
others over the rest of the round, plus a match bonus when the playout ends the match: points
matter early in a match, winning it matters near the target.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from fives.core.outcome import Score
from fives.core.sampling import SamplingError, WorldSampler
from fives.core.state import State
from fives.core.tiles import ACTIONS, LEAD_BASE, Action
from fives.core.view import View

__all__ = ["greedy_code", "outcome_value", "playout", "search_values"]

_PLAY_LIMIT = LEAD_BASE + 28


def greedy_code(state: State, codes: Sequence[int], rng: random.Random, eps: float) -> int:
    """The playout policy: most points now, then the heaviest tile; random with ``eps``."""
    if len(codes) == 1:
        return codes[0]
    if rng.random() < eps:
        return codes[int(rng.random() * len(codes))]
    lay = state.layout
    table = state.config.game.play_points
    best = codes[0]
    best_key = -1
    for code in codes:
        if code < LEAD_BASE:
            tid = code >> 2
            total = lay.total_after(tid, code & 3)
        else:
            tid = code - LEAD_BASE
            total = lay.total_after(tid, 0)
        key = table[total] * 64 + _PIPS[tid]
        if key > best_key:
            best_key = key
            best = code
    return best


def playout(state: State, rng: random.Random, eps: float) -> None:
    """Play the round in ``state`` to its end with the greedy policy."""
    legal = state.legal_codes
    apply = state.apply_code
    while state.turn >= 0:
        codes = legal()
        apply(greedy_code(state, codes, rng, eps) if len(codes) > 1 else codes[0])


def outcome_value(
    state: State, before: Sequence[Score], side: int, match_weight: float
) -> float:
    """The bot side's gain over the others' average since ``before``, plus the match bonus."""
    scores = state.scores
    nsides = len(scores)
    mine = float(scores[side] - before[side])
    others = sum(float(scores[s] - before[s]) for s in range(nsides) if s != side)
    value = mine - others / (nsides - 1)
    if state.over:
        if state.winner == side:
            value += match_weight
        elif state.winner is not None:
            value -= match_weight
    return value


def greedy_log_likelihood(beta: float) -> Callable[[State, int], float]:
    """A model of the others' play: a softmax over the greedy policy's key (points now, then
    weight), as a log-likelihood of the action they took."""

    def log_likelihood(state: State, code: int) -> float:
        codes = state.legal_codes()
        if len(codes) < 2:
            return 0.0
        keys = [_greedy_key(state, c) for c in codes]
        top = max(keys)
        taken = _greedy_key(state, code)
        norm = sum(math.exp(beta * (k - top)) for k in keys)
        return beta * (taken - top) - math.log(norm)

    return log_likelihood


def _greedy_key(state: State, code: int) -> float:
    if code < LEAD_BASE:
        tid = code >> 2
        total = state.layout.total_after(tid, code & 3)
    else:
        tid = code - LEAD_BASE
        total = state.layout.total_after(tid, 0)
    return state.config.game.play_points[total] + _PIPS[tid] / 12.0


def endgame_ready(state: State, max_tiles: int) -> bool:
    """Exact search pays off once nothing is left to draw and few tiles remain in hands."""
    if state.config.sides != 2:
        return False
    if state.stock_left() > 0:
        return False
    return sum(h.bit_count() for h in state.hands) <= max_tiles


def exact_value(state: State, before: Sequence[Score], side: int, match_weight: float,
                alpha: float = -1e9, beta: float = 1e9) -> float:
    """Perfect-information minimax (alpha-beta) of the rest of the round, two sides only."""
    if state.turn < 0:
        return outcome_value(state, before, side, match_weight)
    codes = state.legal_codes()
    if len(codes) == 1:
        st = state.copy()
        st.apply_code(codes[0])
        return exact_value(st, before, side, match_weight, alpha, beta)
    maximize = state.side[state.turn] == side
    best = -1e9 if maximize else 1e9
    for code in codes:
        st = state.copy()
        st.apply_code(code)
        value = exact_value(st, before, side, match_weight, alpha, beta)
        if maximize:
            if value > best:
                best = value
            alpha = max(alpha, best)
        else:
            if value < best:
                best = value
            beta = min(beta, best)
        if alpha >= beta:
            break
    return best


def search_values(
    view: View,
    rng: random.Random,
    *,
    worlds: int,
    budget: int,
    eps: float,
    world_source: Callable[[random.Random], State] | None = None,
    endgame_tiles: int = 0,
    beta: float = 0.0,
) -> dict[Action, float]:
    """Average playout outcome of each legal action over sampled worlds.

    ``budget`` is the number of playouts shared among worlds and actions (fixed counts, not a
    clock, so the bot stays deterministic given its seed).
    """
    legal = list(view.legal)
    if len(legal) == 1:
        return {legal[0]: 0.0}
    assert view.seat is not None
    side = view.config.side_of(view.seat)
    weighted = None
    if world_source is None:
        try:
            sampler = WorldSampler(view)
        except SamplingError:
            return {a: 0.0 for a in legal}
        world_source = sampler.sample
        if beta > 0:
            model = greedy_log_likelihood(beta)

            def weighted(r: random.Random) -> tuple[State, float]:
                return sampler.sample_weighted(r, model)
    per = max(1, budget // (worlds * len(legal)))
    match_weight = view.config.target * 0.5
    samples: list[tuple[State, float]] = []
    for _ in range(worlds):
        try:
            samples.append(weighted(rng) if weighted else (world_source(rng), 0.0))
        except SamplingError:
            continue
    if not samples:
        return {a: 0.0 for a in legal}
    top = max(logw for _, logw in samples)
    totals = [0.0] * len(legal)
    norm = 0.0
    for world, logw in samples:
        weight = math.exp(logw - top)
        before = world.scores[:]
        if endgame_tiles and endgame_ready(world, endgame_tiles):
            for i, action in enumerate(legal):
                st = world.copy()
                st.apply_code(int(action))
                totals[i] += weight * exact_value(st, before, side, match_weight)
            norm += weight
            continue
        for _k in range(per):
            seed = rng.getrandbits(32)
            for i, action in enumerate(legal):
                st = world.copy()
                st.apply_code(int(action))
                playout(st, random.Random(seed), eps)
                totals[i] += weight * outcome_value(st, before, side, match_weight)
        norm += weight * per
    return {a: totals[i] / norm for i, a in enumerate(legal)}


_PIPS = tuple(ACTIONS[LEAD_BASE + t].tile.pips for t in range(28))  # type: ignore[union-attr]
