"""Determinized search: sample worlds consistent with the view, play each legal action out in
each world with a fast greedy policy, and pick the action with the best average outcome.

The outcome of a playout is the change in the point difference between the bot's side and the
others over the rest of the round, plus a match bonus when the playout ends the match: points
matter early in a match, winning it matters near the target.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from fives.core.sampling import SamplingError, WorldSampler
from fives.core.state import Score, State
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
    table = state._points
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


def search_values(
    view: View,
    rng: random.Random,
    *,
    worlds: int,
    budget: int,
    eps: float,
    world_source: Callable[[random.Random], State] | None = None,
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
    if world_source is None:
        try:
            sampler = WorldSampler(view)
        except SamplingError:
            return {a: 0.0 for a in legal}
        world_source = sampler.sample
    per = max(1, budget // (worlds * len(legal)))
    match_weight = view.config.target * 0.5
    totals = [0.0] * len(legal)
    count = 0
    for _ in range(worlds):
        try:
            world = world_source(rng)
        except SamplingError:
            continue
        before = world.scores[:]
        for _k in range(per):
            seed = rng.getrandbits(32)
            for i, action in enumerate(legal):
                st = world.copy()
                st.apply_code(int(action))
                playout(st, random.Random(seed), eps)
                totals[i] += outcome_value(st, before, side, match_weight)
            count += 1
    if not count:
        return {a: 0.0 for a in legal}
    return {a: totals[i] / count for i, a in enumerate(legal)}


_PIPS = tuple(ACTIONS[LEAD_BASE + t].tile.pips for t in range(28))  # type: ignore[union-attr]
