"""Training the learned evaluation (``fives train value-net``, :mod:`fives.bots.valuenet`).

Positions come from matches the engine plays itself, in every game and player count (nothing
is downloaded): at a share of the turns, every seat's view, and the position the mover's play
leaves; each is labelled, once its round is over, with what its seat's side scored from there
to the round's end less the others' average. The network (one hidden layer) is fitted to
those labels by Adam on the squared error, numpy in float64 on one thread, every random choice
from the seed: the same seed, matches and bots write the same file. The last tenth of each
game's matches is held out, and the file says how much of the labels' variance the network
explains there.
"""

from __future__ import annotations

import hashlib
import os
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from fives.bots.host import Seeds, deal_round
from fives.bots.registry import BotName
from fives.bots.search import outcome_value, playout
from fives.bots.valuenet import FEATURES, SCALE, features, features_after
from fives.core.games import GAMES, Config
from fives.core.sampling import SamplingError, WorldSampler
from fives.core.state import State
from fives.core.view import View, view_of

__all__ = ["CONFIGS", "positions", "train_value_net"]

#: every game with every player count it allows (four players in partnerships where the game
#: has them, as the tables seat them by default)
CONFIGS: tuple[tuple[str, int], ...] = tuple(
    (game, n) for game in sorted(GAMES) for n in (2, 3, 4)
)

#: the matches of each config whose positions the weights file also digests on their own: a
#: test makes them again in seconds (the whole config's take minutes)
FIRST_MATCHES = 12

Sample = tuple[dict[int, float], float]


def positions(config: Config, bots: Sequence[str], matches: int, seed: int, keep: float,
              worlds: int = 0) -> Iterator[tuple[int, Sample]]:
    """(match, (inputs, label)) for the positions kept from ``matches`` matches of ``bots``;
    with ``worlds`` > 0 each is labelled by a search instead of the round's own outcome."""
    for m in range(matches):
        # by counts alone (no clock): the same seed plays the same matches on any machine
        seated = [BotName.parse(bots[(i + m) % len(bots)]).make_by_counts()
                  for i in range(config.players)]
        try:
            yield from ((m, s) for s in _match(config, seated, seed * 100_003 + m, keep,
                                               worlds))
        finally:
            for bot in seated:
                bot.close()


def search_label(view: View, worlds: int, rng: random.Random) -> float | None:
    """The mean outcome for ``view``'s seat of greedy playouts of the rest of the round in
    ``worlds`` worlds consistent with the view (None if there is none): the round's own
    outcome averaged over what the seat cannot see."""
    try:
        sampler = WorldSampler(view)
    except SamplingError:
        return None
    assert view.seat is not None
    side = view.config.side_of(view.seat)
    total = 0.0
    found = 0
    for _ in range(worlds):
        try:
            world = sampler.sample(rng)
        except SamplingError:
            continue
        before = world.scores[:]
        playout(world, rng, 0.0)
        total += outcome_value(world, before, side, 0.0)
        found += 1
    return total / found if found else None


def _match(config: Config, seated: Sequence[Any], match_seed: int, keep: float,
           worlds: int = 0) -> Iterator[Sample]:
    state = State(config)
    seeds = Seeds(match_seed)
    rng = random.Random(match_seed)
    pick = random.Random(match_seed ^ 0x5EED)
    pending: list[tuple[dict[int, float], int, list[float]]] = []
    rounds = 0
    while not state.over and rounds < 40:
        if state.needs_deal():
            deal_round(state, seeds)
            rounds += 1
            pending = []
            continue
        mover = state.turn
        kept = pick.random() < keep
        if kept:
            scores = [float(s) for s in state.scores]
            for seat in range(config.players):
                seen = view_of(state, seat)
                label = search_label(seen, worlds, pick) if worlds else None
                if label is not None:
                    yield features(seen), label
                else:
                    pending.append((features(seen), seat, scores))
        view = view_of(state, mover)
        action = seated[mover].choose(view, rng) if len(view.legal) > 1 else view.legal[0]
        state.play(action)
        if kept and action.tile is not None:
            x, _ = features_after(view, action)
            label = (search_label(view_of(state, mover), worlds, pick)
                     if worlds and state.turn >= 0 else None)
            if label is not None:
                yield x, label
            else:
                pending.append((x, mover, [float(s) for s in state.scores]))
        if state.turn < 0:  # the round is over: label what was kept
            final = [float(s) for s in state.scores]
            for x, seat, before in pending:
                side = config.side_of(seat)
                gains = [f - b for f, b in zip(final, before, strict=True)]
                others = [g for i, g in enumerate(gains) if i != side]
                yield x, gains[side] - sum(others) / len(others)
            pending = []


def train_value_net(
    seed: int, matches: int, bots: Sequence[str], *, hidden: int = 48, epochs: int = 12,
    keep: float = 0.35, configs: Sequence[tuple[str, int]] = CONFIGS, worlds: int = 0,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """The weights file's content: ``matches`` matches of each config, a network of ``hidden``
    units fitted for ``epochs`` passes."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one order of sums: the same floats
    import numpy as np

    train: list[Sample] = []
    held: list[Sample] = []
    digests: dict[str, str] = {}
    firsts: dict[str, str] = {}
    cut = matches - max(1, matches // 10)
    for k, (game, n) in enumerate(configs):
        found = config_positions(seed, k, (game, n), bots, matches, keep, worlds)
        digests[f"{game}/{n}"] = digest(found)
        firsts[f"{game}/{n}"] = digest([s for s in found if s[0] < FIRST_MATCHES])
        for m, sample in found:
            (train if m < cut else held).append(sample)
        if progress is not None:
            progress(f"{game} {n}p: {len(found)} positions")

    def arrays(samples: Sequence[Sample]) -> tuple[Any, Any]:
        x = np.zeros((len(samples), FEATURES))
        for row, (inputs, _) in enumerate(samples):
            for i, v in inputs.items():
                x[row, i] = v
        y = np.array([label / SCALE for _, label in samples])
        return x, y

    x, y = arrays(train)
    xh, yh = arrays(held)
    gen = np.random.default_rng(seed)
    w1 = gen.normal(0.0, np.sqrt(2.0 / FEATURES), (FEATURES, hidden))
    b1 = np.zeros(hidden)
    w2 = gen.normal(0.0, np.sqrt(1.0 / hidden), hidden)
    b2 = np.array(float(y.mean()))
    params = [w1, b1, w2, b2]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    batch = 256
    step = 0
    for epoch in range(epochs):
        rate = 3e-3 * (0.5 ** (epoch / max(1, epochs / 3)))
        order = gen.permutation(len(y))
        for start in range(0, len(y), batch):
            idx = order[start:start + batch]
            xb, yb = x[idx], y[idx]
            pre = xb @ w1 + b1
            h = np.maximum(pre, 0.0)
            err = h @ w2 + b2 - yb
            g_out = 2.0 * err / len(yb)
            g_w2 = h.T @ g_out
            g_b2 = np.array(g_out.sum())
            g_h = np.outer(g_out, w2) * (pre > 0.0)
            grads = [xb.T @ g_h, g_h.sum(axis=0), g_w2, g_b2]
            step += 1
            for p, g, m1, m2 in zip(params, grads, moments, squares, strict=True):
                m1 *= 0.9
                m1 += 0.1 * g
                m2 *= 0.999
                m2 += 0.001 * g * g
                p -= rate * (m1 / (1 - 0.9 ** step)) / (
                    np.sqrt(m2 / (1 - 0.999 ** step)) + 1e-8)
        if progress is not None:
            progress(f"epoch {epoch + 1}: held-out error {_mse(np, params, xh, yh):.4f}")

    mse = _mse(np, params, xh, yh)
    variance = float(np.var(yh)) if len(yh) else 0.0
    return {
        "model": "rest of the round's point margin for the seat's side, from its view "
                 f"(tens of points; {FEATURES} inputs, {hidden} rectified units)",
        "seed": seed, "matches": matches, "bots": list(bots), "hidden": hidden,
        "epochs": epochs, "keep": keep, "worlds": worlds, "configs": [f"{g}/{n}" for g, n in configs],
        "positions": {"train": len(y), "held_out": len(yh)},
        # what each config's positions were, to check one without training again
        "positions_sha256": digests,
        # and of each config's first matches alone, to check one in seconds
        "first_matches": FIRST_MATCHES,
        "first_matches_sha256": firsts,
        "held_out": {"mse_points2": round(mse * SCALE * SCALE, 3),
                     "variance_points2": round(variance * SCALE * SCALE, 3),
                     "explained": round(1.0 - mse / variance, 4) if variance else None},
        "net": {"w1": [[round(float(v), 6) for v in row] for row in w1],
                "b1": [round(float(v), 6) for v in b1],
                "w2": [round(float(v), 6) for v in w2],
                "b2": round(float(b2), 6)},
    }


def config_positions(seed: int, k: int, config: tuple[str, int], bots: Sequence[str],
                     matches: int, keep: float, worlds: int) -> list[tuple[int, Sample]]:
    """The positions of the ``k``-th config of a training run, as it makes them."""
    game, n = config
    return list(positions(Config.make(game, n), bots, matches, seed * 31 + k, keep, worlds))


def digest(found: Sequence[tuple[int, Sample]]) -> str:
    """A SHA-256 of positions and labels (to nine decimals: the same floats, the same text)."""
    h = hashlib.sha256()
    for m, (x, label) in found:
        h.update(f"{m}|{sorted(x.items())!r}|{label:.9f}\n".encode())
    return h.hexdigest()


def _mse(np: Any, params: Sequence[Any], x: Any, y: Any) -> float:
    if not len(y):
        return 0.0
    w1, b1, w2, b2 = params
    pred = np.maximum(x @ w1 + b1, 0.0) @ w2 + b2
    return float(np.mean((pred - y) ** 2))
