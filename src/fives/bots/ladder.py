"""Our bots, weakest first: random, easy, medium, hard, expert (and cheat, for measurement)."""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable
from importlib import resources

from fives.bots.base import Bot
from fives.bots.playmodel import play_model
from fives.bots.search import (
    RULE_TERMS,
    MediumRule,
    halving_values,
    ismcts_values,
    search_values,
)
from fives.bots.valuenet import action_values, shipped_net, world_leaf
from fives.core.games import Config
from fives.core.sampling import proven_voids
from fives.core.state import State
from fives.core.tiles import Action, mask_of
from fives.core.view import View

__all__ = [
    "CheatBot", "CheatHardBot", "EasyBot", "HalvingBot", "IsmctsBot", "MediumBot", "RandomBot", "SearchBot", "fitted_weights",
    "play_points", "table_key", "true_deal_worlds",
]


def play_points(view: View, action: Action) -> int:
    """What a play would score now for the player's side (0 for draws and passes).

    Fives and Threes points that would pass the target are worth nothing (FT-10).
    """
    tile = action.tile
    if tile is None:
        return 0
    if view.seat is None:
        return 0
    end = action.end if action.end is not None else 0
    total = view.layout.total_after(tile.id, end)
    cfg = view.config
    return cfg.counted_points(total, view.scores[cfg.side_of(view.seat)])


def _weight(action: Action) -> int:
    tile = action.tile
    return tile.pips if tile is not None else -1


class RandomBot(Bot):
    """A uniformly random legal action."""

    name = "random"

    def choose(self, view: View, rng: random.Random) -> Action:
        return view.legal[int(rng.random() * len(view.legal))]


class EasyBot(Bot):
    """Greedy: the play that scores most now; ties (and games without play points) go to the
    heaviest tile; remaining ties at random."""

    name = "easy"

    def choose(self, view: View, rng: random.Random) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        best: list[Action] = []
        best_key = (-1, -1)
        for action in legal:
            key = (play_points(view, action), _weight(action))
            if key > best_key:
                best_key = key
                best = [action]
            elif key == best_key:
                best.append(action)
        return best[int(rng.random() * len(best))]

    def values(self, view: View, rng: random.Random) -> dict[Action, float]:
        return {a: float(play_points(view, a)) + _weight(a) / 100 for a in view.legal}


def _pick_best(values: dict[Action, float], rng: random.Random) -> Action:
    """The best-valued action; near-ties go to the heaviest tile, then at random."""
    top = max(values.values())
    best = [a for a, v in values.items() if v >= top - 1e-9]
    heaviest = max(_weight(a) for a in best)
    best = [a for a in best if _weight(a) == heaviest]
    return best[int(rng.random() * len(best))]


def rule_values(rule: MediumRule, view: View) -> dict[Action, float]:
    """``rule``'s value of each legal action of ``view``, from what the seat knows: its hand,
    the table, the next seat's hand size and proven voids, every opponent's proven voids."""
    cfg = view.config
    seat = view.seat
    assert seat is not None
    n = cfg.players
    nxt = (seat + 1) % n
    while view.out and view.out[nxt] and nxt != seat:
        nxt = (nxt + 1) % n
    void_all = 0x7F
    for s in range(n):
        if cfg.side_of(s) != cfg.side_of(seat):
            void_all &= proven_voids(view, s)
    found = rule.values(
        [int(a) for a in view.legal], mask_of(view.hand), view.layout,
        mask_of(view.layout.tiles()), proven_voids(view, nxt),
        void_all, view.hand_sizes[nxt],
        bool(cfg.teams) and cfg.side_of(nxt) == cfg.side_of(seat),
        view.scores[cfg.side_of(seat)],
        max(sc for side, sc in enumerate(view.scores) if side != cfg.side_of(seat)),
        view.stock == 0,
    )
    return dict(zip(view.legal, found))


#: medium's fitted weights, beside this module (``fives train medium-weights``)
WEIGHTS_FILE = "medium_weights.json"


def table_key(config: Config) -> str:
    """A table's key in the weights file: the game, the players, ``/teams`` for partnerships."""
    return f"{config.game.name}/{config.players}" + ("/teams" if config.teams else "")


@functools.lru_cache(maxsize=1)
def _kept_weights() -> dict[str, tuple[tuple[str, float], ...]]:
    try:
        text = resources.files(__package__).joinpath(WEIGHTS_FILE).read_text("utf-8")
    except OSError:  # no file: the hand-set weights everywhere
        return {}
    found = {}
    for key, entry in json.loads(text)["tables"].items():
        if entry["kept"]:
            weights = entry["weights"]
            found[key] = tuple((t, float(weights[t])) for t in RULE_TERMS)
    return found


def fitted_weights(config: Config) -> dict[str, float] | None:
    """The weights of medium's terms fitted to the search for ``config``'s table, where the
    shipped file keeps a fit (it chose better on held-out decisions); else None."""
    found = _kept_weights().get(table_key(config))
    return dict(found) if found is not None else None


#: the fitted rule of each setting met (a Config holds dicts: not hashable itself)
_FITTED_RULES: dict[tuple[str, int, int, bool], MediumRule | None] = {}


def _fitted_rule(config: Config) -> MediumRule | None:
    cache_key = (table_key(config), config.target, config.hand_size, config.side_arm_gate)
    if cache_key not in _FITTED_RULES:
        weights = fitted_weights(config)
        _FITTED_RULES[cache_key] = (MediumRule.weighted(config, weights)
                                    if weights is not None else None)
    return _FITTED_RULES[cache_key]


class MediumBot(Bot):
    """A fast heuristic: points now, minus what the next opponent may score in reply and the
    chance it can answer at all (each tile it may hold, not proven void, held with the same
    chance), plus shedding heavy tiles and doubles, keeping numbers varied, leaving ends the
    opponents are void in, and in Fives and Threes steering to exactly 61. The hand-set weights
    were chosen by tournaments against the heuristic before them (README, "medium in every
    game"); where ``fives train medium-weights`` found weights for more terms that choose
    better by the search's own values (:mod:`fives.bots.mediumfit`), medium plays by those."""

    name = "medium"
    #: scales the terms other than points by the game's smallest scoring play over All Fives'
    #: (5): 1 in All Fives and Muggins, a fifth in Fives and Threes (where plays score 1 to 8)
    unit_scaled = True
    #: the reply as its expectation over the tiles the next seat may hold (else the best one's)
    expected_reply = True
    reply_weight = 1.0
    #: per pip of a tile shed, where the hands left count at the round's end
    pips_weight = 0.25
    #: points (scaled as above) against a play by the chance the next seat can answer it
    block_weight = 12.0

    def __init__(self, fitted: bool = True) -> None:
        #: play by the weights fitted to the search where the file keeps them (``medium``);
        #: else the hand-set weights everywhere (``medium-hand``, medium before 2026-12-07)
        self.fitted = fitted
        if not fitted:
            self.name = "medium-hand"

    def values(self, view: View, rng: random.Random) -> dict[Action, float]:
        fitted = _fitted_rule(view.config) if self.fitted else None
        if fitted is not None:
            return rule_values(fitted, view)
        rule = MediumRule(
            view.config, reply_weight=self.reply_weight, pips_weight=self.pips_weight,
            block_weight=self.block_weight, unit_scaled=self.unit_scaled,
            expected_reply=self.expected_reply,
        )
        return rule_values(rule, view)

    def choose(self, view: View, rng: random.Random) -> Action:
        if len(view.legal) == 1:
            return view.legal[0]
        return _pick_best(self.values(view, rng), rng)


class SearchBot(Bot):
    """Determinized search over sampled worlds (``hard`` and ``expert``)."""

    def __init__(
        self,
        name: str,
        worlds: int,
        budget: int,
        eps: float,
        endgame_tiles: int = 0,
        beta: float = 0.0,
        prior: float = 0.0,
    ) -> None:
        self.name = name
        self.prior = prior
        self.worlds = worlds
        self.budget = budget
        self.eps = eps
        self.endgame_tiles = endgame_tiles
        self.beta = beta

    def values(self, view: View, rng: random.Random) -> dict[Action, float]:
        found = search_values(
            view, rng, worlds=self.worlds, budget=self.budget, eps=self.eps,
            world_source=self._worlds(view), endgame_tiles=self.endgame_tiles,
            beta=self.beta,
        )
        if self.prior and len(found) > 1:
            # the heuristic steadies the playouts' noisy averages where moves are close
            hint = _MEDIUM.values(view, rng)
            found = {a: v + self.prior * hint[a] for a, v in found.items()}
        return found

    def _worlds(self, view: View) -> Callable[[random.Random], State] | None:
        return None

    def choose(self, view: View, rng: random.Random) -> Action:
        if len(view.legal) == 1:
            return view.legal[0]
        return _pick_best(self.values(view, rng), rng)


#: the search bots' prior: medium with the hand-set weights (the prior hard was measured with)
_MEDIUM = MediumBot(fitted=False)


class IsmctsBot(Bot):
    """Information-set MCTS (``expert``): :func:`fives.bots.search.ismcts_values`."""

    def __init__(
        self,
        name: str,
        iterations: int,
        eps: float,
        *,
        look: float = 0.0,
        answer: float = 0.0,
        explore: float = 0.7,
        pool: int = 400,
        endgame_tiles: int = 0,
        move_time: float = 0.0,
        prior: float = 0.0,
        infer: bool = False,
        hint: str = "medium",
        leaf_after: int = -1,
        others_by_policy: bool = False,
        playouts: str = "greedy",
    ) -> None:
        self.name = name
        self.prior = prior
        #: how the playouts play: ``greedy`` or by ``medium``'s rule of thumb
        self.playouts = playouts
        #: the other seats play in the tree by the playouts' policy from their own hands (a trial)
        self.others_by_policy = others_by_policy
        #: whose values the prior adds: ``medium``'s heuristic or the learned ``net``'s
        self.hint = hint
        #: with 0 or more, playouts stop that many moves in and the learned network values
        #: the rest of the round (issue 27's leaves); -1 plays every round out
        self.leaf_after = leaf_after
        #: worlds drawn by how well they explain the others' plays (the fitted play model);
        #: what the last decision's search saw of them (``ess_share``)
        self.infer = infer
        self.last_stats: dict[str, float] = {}
        self.iterations = iterations
        self.eps = eps
        self.look = look
        #: points a playout's move gains when the next seat, an opponent, cannot answer it
        self.answer = answer
        self.explore = explore
        self.pool = pool
        self.endgame_tiles = endgame_tiles
        #: CPU seconds a decision may take beyond ``iterations`` (0: counts only, as tests use)
        self.move_time = move_time

    def values(self, view: View, rng: random.Random) -> dict[Action, float]:
        model, beta = _play_model(view, self.infer)
        found = ismcts_values(
            view, rng, iterations=self.iterations, eps=self.eps, look=self.look,
            answer=self.answer,
            explore=self.explore, pool=self.pool, endgame_tiles=self.endgame_tiles,
            move_time=self.move_time, beta=beta, stats=self.last_stats, model=model,
            leaf=_leaf(view, self.leaf_after), leaf_after=max(0, self.leaf_after),
            others_by_policy=self.others_by_policy, playouts=self.playouts,
        )
        return _with_prior(found, view, rng, self.prior, self.last_stats, self.hint)

    def choose(self, view: View, rng: random.Random) -> Action:
        if len(view.legal) == 1:
            return view.legal[0]
        return _pick_best(self.values(view, rng), rng)


class HalvingBot(Bot):
    """The ladder's search (``pimc``, ``hard``, ``expert``): many sampled worlds, one informed
    playout of each distinct action per world, successive halving over the actions and an
    exact endgame (:func:`fives.bots.search.halving_values`)."""

    def __init__(
        self,
        name: str,
        worlds: int,
        eps: float,
        *,
        look: float = 0.0,
        answer: float = 0.0,
        endgame_tiles: int = 0,
        match_weight: float = 0.5,
        halving: bool = True,
        move_time: float = 0.0,
        prior: float = 0.0,
        infer: bool = False,
        hint: str = "medium",
        leaf_after: int = -1,
        replies: bool = False,
        playouts: str = "greedy",
        max_time: float = 0.0,
    ) -> None:
        self.name = name
        self.worlds = worlds
        #: CPU seconds after which no new world is taken (0: ``worlds`` always, as tests use)
        self.max_time = max_time
        #: how the playouts play: ``greedy`` or by ``medium``'s rule of thumb
        self.playouts = playouts
        #: whose values the prior adds: ``medium``'s heuristic or the learned ``net``'s
        self.hint = hint
        #: with 0 or more, playouts stop that many moves in and the learned network values
        #: the rest of the round (issue 27's leaves); -1 plays every round out
        self.leaf_after = leaf_after
        #: each answer of the next opponent played out, the action worth the worst (a trial)
        self.replies = replies
        #: worlds drawn by how well they explain the others' plays (the fitted play model);
        #: what the last decision's search saw of them (``ess_share``)
        self.infer = infer
        self.last_stats: dict[str, float] = {}
        self.eps = eps
        self.look = look
        #: points a playout's move gains when the next seat, an opponent, cannot answer it
        self.answer = answer
        self.endgame_tiles = endgame_tiles
        self.match_weight = match_weight
        self.halving = halving
        #: CPU seconds a decision may take beyond ``worlds`` (0: counts only, as tests use)
        self.move_time = move_time
        self.prior = prior

    def values(self, view: View, rng: random.Random) -> dict[Action, float]:
        model, beta = _play_model(view, self.infer)
        found = halving_values(
            view, rng, worlds=self.worlds, eps=self.eps, look=self.look, answer=self.answer,
            endgame_tiles=self.endgame_tiles, match_weight=self.match_weight,
            halving=self.halving, move_time=self.move_time, beta=beta, model=model,
            stats=self.last_stats, leaf=_leaf(view, self.leaf_after),
            leaf_after=max(0, self.leaf_after), replies=self.replies, playouts=self.playouts,
            max_time=self.max_time,
        )
        return _with_prior(found, view, rng, self.prior, self.last_stats, self.hint)

    def choose(self, view: View, rng: random.Random) -> Action:
        if len(view.legal) == 1:
            return view.legal[0]
        return _pick_best(self.values(view, rng), rng)


def _play_model(view: View, infer: bool) -> tuple[str, float]:
    """The key and beta of the play model fitted for this game (beta 0, worlds uniform, if
    the bot does not draw its worlds by inference)."""
    model, beta = play_model(view.config.game.name)
    return model, beta if infer else 0.0


def _leaf(view: View, leaf_after: int) -> Callable[[State], float] | None:
    """The learned network's value of a world's rest of round for the view's seat, if the bot
    cuts its playouts (``leaf_after`` >= 0) and the network is shipped."""
    net = shipped_net() if leaf_after >= 0 else None
    return world_leaf(view, net) if net is not None else None


def _with_prior(
    found: dict[Action, float], view: View, rng: random.Random, prior: float,
    stats: dict[str, float] | None = None, hint_from: str = "medium",
) -> dict[Action, float]:
    """The search's values plus ``prior`` times medium's (or, with ``hint_from`` ``net``, the
    learned evaluation's one-ply values, :func:`fives.bots.valuenet.action_values`): the hint
    steadies the playouts' noisy averages where moves are close. Values the endgame solved
    exactly are not noisy: the prior weighs only as much as the share of values that came from
    playouts (in an endgame with every tile known, a heuristic's liking for points now
    overturned a solved margin)."""
    if stats is not None:
        prior *= 1.0 - stats.get("exact_share", 0.0)
    if not prior or len(found) < 2:
        return found
    net = shipped_net() if hint_from == "net" else None
    hint = action_values(view, net) if net is not None else _MEDIUM.values(view, rng)
    return {a: v + prior * hint[a] for a, v in found.items()}


#: ``hard`` before issue 15 (``hard-old``, and ``cheat``'s search): worlds sampled, playouts
#: shared among them and the actions (fixed counts, so a seed decides).
OLD_HARD_WORLDS = 120
OLD_HARD_BUDGET = 6000
#: ``hard``: worlds for the actions that survive the halving, played out by medium's rule of
#: thumb (README, Bots), and the CPU seconds after which it takes no new world (issue 27's
#: 0.3 s of wall clock, with another table on the other core)
HARD_WORLDS = 600
HARD_MAX_TIME = 0.25
#: ``hard`` before 2026-12-07 (``hard-greedy``, and the candidates measured against it):
#: worlds for greedy playouts
GREEDY_WORLDS = 1000
#: ``expert``: worlds for the actions that survive the halving, played out as ``hard``'s and
#: drawn by how well they explain the others' plays, and its time cap (issue 27's 1 s)
EXPERT_WORLDS = 1200
EXPERT_MAX_TIME = 0.8
#: ``expert-tree`` (``expert`` before 2026-12-07, and its candidates): ISMCTS iterations at
#: least, and the CPU seconds it may go on for
EXPERT_ITERATIONS = 3000
EXPERT_MOVE_TIME = 0.3


class CheatBot(SearchBot):
    """Knows the other hands (never the stock order): the ceiling a search could reach.

    For measurement only: the host shows it the state through :meth:`peek`; it is never
    offered to players.
    """

    def __init__(self) -> None:
        super().__init__(
            "cheat", worlds=OLD_HARD_WORLDS, budget=OLD_HARD_BUDGET, eps=0.1, prior=0.5
        )
        self._state: State | None = None

    def peek(self, state: State) -> None:
        self._state = state

    def _worlds(self, view: View) -> Callable[[random.Random], State] | None:
        return None if self._state is None else true_deal_worlds(self._state)


def true_deal_worlds(state: State) -> Callable[[random.Random], State]:
    """Worlds that are ``state`` itself but for the undrawn stock's order, shuffled anew in
    each (what ``cheat`` searches: every hand seen, the stock not)."""

    def world(rng: random.Random) -> State:
        st = state.copy()
        rest = st.stock[st.stock_pos :]
        rng.shuffle(rest)
        st.stock = st.stock[: st.stock_pos] + rest
        return st

    return world


class CheatHardBot(CheatBot):
    """``hard``'s search seeing the other hands (never the stock's order): the ceiling of
    today's search, where :class:`CheatBot` is the old one's. For measurement only.

    With nothing left to draw every world is the true deal itself, so a few suffice."""

    def __init__(self) -> None:
        super().__init__()
        self.name = "cheat-hard"
        self.last_stats: dict[str, float] = {}

    def values(self, view: View, rng: random.Random) -> dict[Action, float]:
        state = self._state
        source = self._worlds(view)
        worlds = HARD_WORLDS if state is not None and state.stock_left() > 0 else 8
        found = halving_values(
            view, rng, worlds=worlds, eps=0.0, endgame_tiles=6, playouts="medium",
            stats=self.last_stats, world_source=source,
        )
        return _with_prior(found, view, rng, 0.5, self.last_stats)

