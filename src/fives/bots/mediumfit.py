"""medium's weights fitted to the search's own values (issue 27; ``fives train medium-weights``).

``medium`` values a play by a weighted sum of terms (:data:`fives.bots.search.RULE_TERMS`: the
points now, the chance of a reply, the reply's points, the pips shed, ...; the hand-set weights
are :data:`fives.bots.search.MEDIUM_WEIGHTS`). Here every term's weight is fitted, per table, to
what ``hard``'s search says of each play: decisions come from matches of ``medium-hand`` (medium
with the hand-set weights) against itself, seeded; at each kept decision with a real choice,
every legal action is valued by the search from the seat's view with ``worlds`` worlds and no
other limit (every action on every world, medium's playouts, the exact endgame), and each term
of each action is worked out from the view. The weights that minimise the expected regret of a
softmax over the rule's values (the search's best value less the value of the choice) are fitted
on three quarters of the decisions, from the hand-set weights; on the held-out quarter the
fitted weights' choices are scored against the hand-set weights', paired. A table's fit is
*kept* (``medium`` plays by it) only when the held-out regret falls, the 95% interval of the
paired difference wholly below zero; elsewhere medium keeps its hand-set weights.

The file is written by :func:`train_medium_weights`; :func:`fives.bots.ladder.fitted_weights`
reads it at play time (without numpy). The same seed, decisions, worlds and tables write the
same file.
"""

from __future__ import annotations

import hashlib
import os
import random
from collections.abc import Callable, Sequence
from typing import Any

from fives.bots.host import Seeds, deal_round
from fives.bots.ladder import MediumBot, rule_values, table_key
from fives.bots.search import MEDIUM_WEIGHTS, RULE_TERMS, MediumRule, halving_values
from fives.bots.transpose import action_classes
from fives.core.games import Config, RulesError
from fives.core.state import State
from fives.core.view import View, view_of

__all__ = ["FIRST_ROWS", "TABLES", "choices", "fit_table", "label", "least_regret",
           "least_squares", "positions", "regrets", "rows_digest", "table_config",
           "train_medium_weights"]

#: the tables fitted by default: every game two-handed, All Fives in partnerships
TABLES: tuple[str, ...] = ("all-fives/2", "fives-and-threes/2", "muggins/2", "draw/2",
                           "block/2", "all-fives/4/teams")
#: the share of a match's decisions with a choice kept as positions (spread over many matches)
KEEP = 0.3
#: the rows each table's digest in the file covers on their own: a test labels them again in
#: seconds (the whole table takes minutes)
FIRST_ROWS = 24

#: one decision: each legal action's search value, its terms, its tile's pips (-1: no tile)
Row = tuple[list[float], list[list[float]], list[int]]


def table_config(key: str) -> Config:
    """The configuration a table key (:func:`fives.bots.ladder.table_key`) names; a
    :class:`ValueError` quoting the key when it names none."""
    parts = key.split("/")
    try:
        if len(parts) in (2, 3) and parts[1].isdigit():
            config = Config.make(parts[0], int(parts[1]), teams=len(parts) == 3)
            if table_key(config) == key:  # the third part is "teams" or nothing
                return config
    except RulesError:
        pass
    raise ValueError(f"no table {key!r}: a game, its players and /teams for partnerships, "
                     f"as in {', '.join(TABLES)}")


def positions(config: Config, wanted: int, seed: int) -> list[View]:
    """``wanted`` views with more than one distinct action, from matches of ``medium-hand``
    against itself, seeded."""
    medium = MediumBot(fitted=False)
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
                if (len(action_classes(view.layout, view.legal)) > 1 and pick.random() < KEEP
                        and len(found) < wanted):
                    found.append(view)
                state.play(medium.choose(view, pick) if len(view.legal) > 1 else view.legal[0])
    return found


def label(job: tuple[View, int, int]) -> Row:
    """The search's value, each term and the tile's pips of every legal action of a view
    (``job``: the view, the worlds, the seed)."""
    view, worlds, seed = job
    values = halving_values(view, random.Random(seed), worlds=worlds, eps=0.0, endgame_tiles=6,
                            playouts="medium", halving=False)
    terms = [rule_values(MediumRule.weighted(view.config,
                                             {u: float(u == t) for u in RULE_TERMS}), view)
             for t in RULE_TERMS]
    acts = list(view.legal)
    return ([values[a] for a in acts], [[column[a] for column in terms] for a in acts],
            [a.tile.pips if a.tile is not None else -1 for a in acts])


def rows_digest(rows: Sequence[Row]) -> str:
    """A SHA-256 of decisions (to nine decimals: the same floats, the same text)."""
    h = hashlib.sha256()
    for values, terms, pips in rows:
        h.update((" ".join(f"{v:.9f}" for v in values) + "|"
                  + ";".join(" ".join(f"{x:.9f}" for x in t) for t in terms) + "|"
                  + " ".join(map(str, pips)) + "\n").encode())
    return h.hexdigest()


def choices(w: Any, rows: Sequence[Row]) -> list[int]:
    """The action each decision's rule picks by weights ``w``: the best value (to a rounding),
    then the heaviest tile (as medium does)."""
    import numpy as np

    out = []
    for _values, terms, pips in rows:
        scores = np.asarray(terms) @ w
        top = scores.max() - 1e-9
        out.append(max((i for i in range(len(pips)) if scores[i] >= top), key=lambda i: pips[i]))
    return out


def regrets(w: Any, rows: Sequence[Row]) -> Any:
    """Each decision's regret under weights ``w``: the best value less that of the choice."""
    import numpy as np

    return np.array([max(r[0]) - r[0][c] for r, c in zip(rows, choices(w, rows), strict=True)])


def least_squares(rows: Sequence[Row]) -> Any:
    """Weights whose values, less their mean at each decision, best match the search's."""
    import numpy as np

    xs = [np.asarray(t) - np.mean(t, axis=0) for _v, t, _p in rows]
    ys = [np.asarray(v) - np.mean(v) for v, _t, _p in rows]
    x, y = np.vstack(xs), np.concatenate(ys)
    return np.linalg.solve(x.T @ x + 1e-3 * np.eye(x.shape[1]), x.T @ y)


def least_regret(rows: Sequence[Row], start: Any, steps: int = 3000) -> Any:
    """Weights (from ``start``) minimising the mean expected regret of a softmax over the
    rule's values, by Adam in units of each term's typical size."""
    import numpy as np

    sizes = [len(r[0]) for r in rows]
    starts = np.cumsum([0, *sizes[:-1]])
    seg = np.repeat(np.arange(len(rows)), sizes)
    values = np.concatenate([r[0] for r in rows])
    regret = np.maximum.reduceat(values, starts)[seg] - values
    terms = np.vstack([np.asarray(r[1]) for r in rows])
    scale = np.abs(terms).mean(axis=0) + 1e-9
    g = terms / scale
    u = np.asarray(start, dtype=float) * scale
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


def label_all(views: Sequence[View], worlds: int, seed: int, jobs: int) -> list[Row]:
    """Every view labelled (:func:`label`; the ``k``-th with seed ``seed + k``), on ``jobs``
    processes: the rows do not depend on how many."""
    work = [(view, worlds, seed + k) for k, view in enumerate(views)]
    if jobs <= 1 or len(work) < 2:
        return [label(job) for job in work]
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        return pool.map(label, work, chunksize=8)


def fit_table(rows: Sequence[Row], seed: int) -> dict[str, Any]:
    """A table's entry in the file: the weights fitted on three quarters of ``rows`` (chosen by
    ``seed``), scored on the rest against the hand-set weights, and whether they are kept
    (at least 8 rows: two held out, for an interval)."""
    import numpy as np

    if len(rows) < 8:
        raise ValueError(f"{len(rows)} decisions: a fit needs at least 8")
    order = np.random.default_rng(seed).permutation(len(rows))
    held = [rows[i] for i in order[: len(rows) // 4]]
    train = [rows[i] for i in order[len(rows) // 4:]]
    hand = np.array([MEDIUM_WEIGHTS[t] for t in RULE_TERMS])
    fitted = least_regret(train, hand.copy())
    base, found = regrets(hand, held), regrets(fitted, held)
    d = found - base
    half = float(1.96 * d.std(ddof=1) / np.sqrt(len(d)))
    mean = float(d.mean())
    return {
        "weights": {t: float(w) for t, w in zip(RULE_TERMS, fitted, strict=True)},
        "kept": mean + half < 0.0,
        "decisions": len(rows),
        "held_out": {"decisions": len(held), "hand_regret": round(float(base.mean()), 4),
                     "fitted_regret": round(float(found.mean()), 4),
                     "difference": round(mean, 4),
                     "interval": [round(mean - half, 4), round(mean + half, 4)]},
        "rows_sha256": rows_digest(rows),
        "first_rows_sha256": rows_digest(rows[:FIRST_ROWS]),
    }


def train_medium_weights(
    seed: int, decisions: int, worlds: int, tables: Sequence[str] = TABLES, jobs: int = 2,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """The weights file's content: each of ``tables`` fitted on ``decisions`` decisions
    labelled with ``worlds`` worlds (:func:`fit_table`)."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one order of sums: the same floats
    found: dict[str, Any] = {}
    for key in tables:  # each table from the same seed: fitted alone, the same entry
        rows = label_all(positions(table_config(key), decisions, seed), worlds, seed, jobs)
        found[key] = fit_table(rows, seed)
        if progress is not None:
            held = found[key]["held_out"]
            progress(f"{key}: {len(rows)} decisions, held-out regret {held['hand_regret']} "
                     f"(hand-set) → {held['fitted_regret']} (fitted), "
                     f"{'kept' if found[key]['kept'] else 'not kept'}")
    return {"seed": seed, "decisions": decisions, "worlds": worlds, "positions": "medium-hand",
            "first_rows": FIRST_ROWS, "tables": found}
