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
:data:`fives.bots.search.MEDIUM_WEIGHTS`, weight 0). The decisions, their values and the least
regret fit are :mod:`fives.bots.mediumfit`'s (``fives train medium-weights`` ships its fits);
this prints both fits side by side, with or without the extra terms.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from fives.bots.mediumfit import (
    Row,
    label_all,
    least_regret,
    least_squares,
    positions,
    regrets,
)
from fives.bots.search import MEDIUM_WEIGHTS, RULE_TERMS
from fives.core.games import Config


def _names(extra: bool) -> tuple[str, ...]:
    """medium's terms, and with ``extra`` those it does not weigh (its weight 0)."""
    return RULE_TERMS if extra else tuple(t for t in RULE_TERMS if MEDIUM_WEIGHTS[t])


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
    names = _names(args.extra)
    columns = [RULE_TERMS.index(t) for t in names]
    rows: list[Row] = [(v, [[x[i] for i in columns] for x in terms], pips) for v, terms, pips
                       in label_all(positions(config, args.decisions, args.seed), args.worlds,
                                    args.seed, args.jobs)]
    order = np.random.default_rng(args.seed).permutation(len(rows))
    held = [rows[i] for i in order[: len(rows) // 4]]
    train = [rows[i] for i in order[len(rows) // 4:]]
    medium = np.array([MEDIUM_WEIGHTS[t] for t in names])
    fits = {"medium's": medium, "least squares": least_squares(train),
            "least regret": least_regret(train, medium.copy())}
    print(f"{args.game}, {args.players} players{' in partnerships' if args.teams else ''}: "
          f"{len(rows)} decisions of medium-hand's matches (seed {args.seed}), {args.worlds} worlds "
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
