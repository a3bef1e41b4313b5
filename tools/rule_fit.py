"""``python tools/rule_fit.py GAME PLAYERS [--teams] [--extra] [--decisions N] [--worlds W]``:
would other weights for medium's terms make better playouts? (issue 27)

``hard`` and ``expert`` play their worlds out by medium's rule of thumb, a weighted sum of terms
(:data:`fives.bots.search.MEDIUM_WEIGHTS`: the points now, the chance of a reply, the reply's
points, the pips shed, ...). Here those weights are fitted to what the search itself says of
each play. Decisions come from matches of ``medium`` against itself (the positions a playout
meets), seeded; at each kept decision with a real choice, every legal action is valued by
``hard``'s search from the seat's view with no limit but ``W`` worlds (every action on every
world, medium's playouts, the exact endgame), and each term of each action is worked out from
the view. Two fits on three quarters of the decisions: least squares on the values less their
mean at each decision, and the weights (from medium's) that minimise the expected regret of a
softmax over the rule's values. On the held-out quarter, each set of weights' choice is scored
by its regret (the search's best value less that of the choice), paired with medium's weights.
With ``--extra`` the fits may also weigh the terms medium gives no weight (in
:data:`fives.bots.search.MEDIUM_WEIGHTS`, weight 0).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time

import numpy as np

from fives.bots.host import Seeds, deal_round
from fives.bots.ladder import MediumBot, rule_values
from fives.bots.search import MEDIUM_WEIGHTS, RULE_TERMS, MediumRule, halving_values
from fives.bots.transpose import action_classes
from fives.core.games import Config
from fives.core.state import State
from fives.core.view import View, view_of

Row = tuple[list[float], list[list[float]], list[int]]


def positions(config: Config, wanted: int, seed: int) -> list[View]:
    """``wanted`` views with more than one distinct action, from matches of medium, seeded."""
    medium = MediumBot()
    pick = random.Random(seed)
    found: list[View] = []
    match = 0
    while len(found) < wanted:
        state = State(config)
        seeds = Seeds(seed + match)
        match += 1
        while not state.over and len(found) < wanted:
            deal_round(state, seeds)
            while state.turn >= 0:
                view = view_of(state, state.turn)
                if (len(action_classes(view.layout, view.legal)) > 1 and pick.random() < 0.3
                        and len(found) < wanted):
                    found.append(view)
                state.play(medium.choose(view, pick) if len(view.legal) > 1 else view.legal[0])
    return found


def label(job: tuple[View, int, int, bool]) -> Row:
    """The search's value, each term and the tile's pips of every legal action of a view."""
    view, worlds, seed, extra = job
    values = halving_values(view, random.Random(seed), worlds=worlds, eps=0.0, endgame_tiles=6,
                            playouts="medium", halving=False)
    terms = [rule_values(MediumRule.weighted(view.config,
                                             {u: float(u == t) for u in RULE_TERMS}), view)
             for t in _names(extra)]
    acts = list(view.legal)
    return ([values[a] for a in acts], [[column[a] for column in terms] for a in acts],
            [a.tile.pips if a.tile is not None else -1 for a in acts])


def _names(extra: bool) -> tuple[str, ...]:
    """medium's terms, and with ``extra`` those it does not weigh (its weight 0)."""
    return RULE_TERMS if extra else tuple(t for t in RULE_TERMS if MEDIUM_WEIGHTS[t])


def choices(w: np.ndarray, rows: list[Row]) -> list[int]:
    """The action each decision's rule picks: the best value (to a rounding), the heaviest."""
    out = []
    for _values, terms, pips in rows:
        scores = np.asarray(terms) @ w
        top = scores.max() - 1e-9
        out.append(max((i for i in range(len(pips)) if scores[i] >= top), key=lambda i: pips[i]))
    return out


def regrets(w: np.ndarray, rows: list[Row]) -> np.ndarray:
    return np.array([max(r[0]) - r[0][c] for r, c in zip(rows, choices(w, rows), strict=True)])


def least_squares(rows: list[Row]) -> np.ndarray:
    """Weights whose values, less their mean at each decision, best match the search's."""
    xs = [np.asarray(t) - np.mean(t, axis=0) for _v, t, _p in rows]
    ys = [np.asarray(v) - np.mean(v) for v, _t, _p in rows]
    x, y = np.vstack(xs), np.concatenate(ys)
    return np.linalg.solve(x.T @ x + 1e-3 * np.eye(x.shape[1]), x.T @ y)


def least_regret(rows: list[Row], start: np.ndarray, steps: int = 3000) -> np.ndarray:
    """Weights (from ``start``) minimising the mean expected regret of a softmax over the
    rule's values, by Adam in units of each term's typical size."""
    sizes = [len(r[0]) for r in rows]
    starts = np.cumsum([0, *sizes[:-1]])
    seg = np.repeat(np.arange(len(rows)), sizes)
    values = np.concatenate([r[0] for r in rows])
    regret = np.maximum.reduceat(values, starts)[seg] - values
    terms = np.vstack([np.asarray(r[1]) for r in rows])
    scale = np.abs(terms).mean(axis=0) + 1e-9
    g = terms / scale
    u = start * scale
    m = np.zeros_like(u)
    v = np.zeros_like(u)
    for t in range(1, steps + 1):
        z = g @ u
        z -= np.maximum.reduceat(z, starts)[seg]
        e = np.exp(z)
        p = e / np.add.reduceat(e, starts)[seg]
        expected = np.add.reduceat(p * regret, starts)
        grad = ((p * (regret - expected[seg]))[:, None] * g).sum(axis=0) / len(rows)
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad**2
        u -= 0.02 * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return u / scale


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("players", type=int)
    parser.add_argument("--teams", action="store_true")
    parser.add_argument("--decisions", type=int, default=3000)
    parser.add_argument("--worlds", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--extra", action="store_true",
                        help="fit the extra terms too (medium's weight for them: 0)")
    args = parser.parse_args(argv)
    config = Config.make(args.game, args.players, teams=args.teams)
    started = time.time()
    views = positions(config, args.decisions, args.seed)
    jobs = [(view, args.worlds, args.seed + k, args.extra) for k, view in enumerate(views)]
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            rows = pool.map(label, jobs, chunksize=8)
    else:
        rows = [label(job) for job in jobs]
    order = np.random.default_rng(args.seed).permutation(len(rows))
    held = [rows[i] for i in order[: len(rows) // 4]]
    train = [rows[i] for i in order[len(rows) // 4:]]
    names = _names(args.extra)
    medium = np.array([MEDIUM_WEIGHTS[t] for t in names])
    fits = {"medium's": medium, "least squares": least_squares(train),
            "least regret": least_regret(train, medium.copy())}
    print(f"{args.game}, {args.players} players{' in partnerships' if args.teams else ''}: "
          f"{len(rows)} decisions of medium's matches (seed {args.seed}), {args.worlds} worlds "
          f"each, {len(held)} held out; {time.time() - started:.0f} s")
    base = regrets(medium, held)
    for name, w in fits.items():
        found = regrets(w, held)
        line = f"  {name:<14} regret {found.mean():.3f} a decision"
        if name != "medium's":
            d = found - base
            half = 1.96 * d.std(ddof=1) / np.sqrt(len(d))
            line += f", against medium's {d.mean():+.3f} [{d.mean() - half:+.3f}, {d.mean() + half:+.3f}]"
        scale = w[0] if w[0] > 0 else 1.0
        line += f"; weights{' (now = 1)' if w[0] > 0 else ''}: " + ", ".join(f"{t} {x / scale:.2f}"
                                                     for t, x in zip(names, w, strict=True))
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
