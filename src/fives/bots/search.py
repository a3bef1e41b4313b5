"""Determinized search: sample worlds consistent with the view, play each legal action out in
each world with a fast greedy policy, and pick the action with the best average outcome.

The outcome of a playout is the change in the point difference between the bot's side and the
others over the rest of the round, plus a match bonus when the playout ends the match: points
matter early in a match, winning it matters near the target.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from fives.bots.transpose import action_classes
from fives.core.games import Config
from fives.core.layout import Layout
from fives.core.outcome import Score
from fives.core.sampling import SamplingError, WorldSampler
from fives.core.state import State
from fives.core.tiles import ALL_TILES, LEAD_BASE, Action
from fives.core.view import View

__all__ = [
    "MediumPolicy", "MediumRule", "Policy", "WorldStream", "best_code", "greedy_code",
    "halving_values",
    "inferred_worlds", "ismcts_values", "leaf_value", "open_numbers", "outcome_value", "playout",
    "policy_playout", "search_values",
]

_PLAY_LIMIT: Final = LEAD_BASE + 28
_PIPS: Final = tuple(t.pips for t in ALL_TILES)


def greedy_code(state: State, codes: list[int], rng: random.Random, eps: float) -> int:
    """The playout policy: most points now, then the heaviest tile; random with ``eps``."""
    return _greedy(state, codes, rng.random, eps)


def _greedy(state: State, codes: list[int], rand: Callable[[], float], eps: float) -> int:
    # ``rand`` is bound once per playout: a method looked up on each call costs more than
    # the rest of a compiled decision.
    if len(codes) == 1:
        return codes[0]
    if rand() < eps:
        return codes[int(rand() * len(codes))]
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
    rand = rng.random
    while state.turn >= 0:
        codes = state.legal_codes()
        state.apply_code(_greedy(state, codes, rand, eps) if len(codes) > 1 else codes[0])


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


#: the models of the others' play a search can weigh its worlds by
PLAY_MODELS: Final = ("greedy", "medium")


def play_log_likelihood(model: str, beta: float,
                        config: Config) -> Callable[[State, int], float]:
    """The log-likelihood of a seat's play under ``model`` (one of :data:`PLAY_MODELS`)."""
    if model == "greedy":
        return greedy_log_likelihood(beta)
    if model == "medium":
        return medium_log_likelihood(beta, config)
    raise ValueError(f"unknown play model {model!r}: one of {', '.join(PLAY_MODELS)}")


def medium_log_likelihood(beta: float, config: Config) -> Callable[[State, int], float]:
    """A model of the others' play: a softmax over ``medium``'s values of the seat's legal
    plays, worked out from that seat's hand in the world (its points now, the reply it leaves,
    the tiles it sheds and keeps), as a log-likelihood of the action it took. The numbers the
    seat after it is proven void in are not tracked (taken as none): the model is fitted the
    same way (:mod:`fives.bots.playmodel`). The plays of players who look past the points of
    the moment (the search bots' are measured) are explained better than by the greedy key."""
    rule = MediumRule(config)
    teams = config.teams

    def log_likelihood(state: State, code: int) -> float:
        codes = state.legal_codes()
        if len(codes) < 2:
            return 0.0
        seat = state.turn
        nxt = next_in_round(state)
        side = state.side
        values = rule.values(
            codes, state.hands[seat], state.layout, _table_mask(state), 0, 0,
            state.hands[nxt].bit_count(), teams and side[nxt] == side[seat],
            state.scores[side[seat]],
        )
        top = max(values)
        taken = top
        norm = 0.0
        for c, v in zip(codes, values):
            norm += math.exp(beta * (v - top))
            if c == code:
                taken = v
        return beta * (taken - top) - math.log(norm)

    return log_likelihood


def inferred_worlds(
    sampler: WorldSampler, rng: random.Random, n: int, beta: float, factor: int = 2,
    model: str = "greedy",
) -> tuple[list[State], float]:
    """``n`` worlds drawn in proportion to how well each explains the others' plays.

    ``factor`` times ``n`` candidates are sampled (consistent with the view, as uniform as the
    sampler makes them), each weighted by the likelihood of every choice the other seats made
    in it under :func:`greedy_log_likelihood` (``beta``: how surely they take the play that
    scores most), and ``n`` are drawn from them by systematic resampling (sampling importance
    resampling). A world in which a seat held a tile that would have scored 10 and played one
    that scored nothing keeps little weight. With ``model`` ``"medium"`` the choices are
    weighed by :func:`medium_log_likelihood` instead. Also the candidates' effective number
    (Kish: (sum w)^2 / sum w^2): how many equally weighted worlds they are worth.
    """
    likelihood = play_log_likelihood(model, beta, sampler.config)
    found: list[State] = []
    logs: list[float] = []
    for _ in range(n * factor):
        try:
            world, logw = sampler.sample_weighted(rng, likelihood)
        except SamplingError:
            continue
        found.append(world)
        logs.append(logw)
    if not found:
        return [], 0.0
    top = max(logs)
    weights = [math.exp(x - top) for x in logs]
    total = 0.0
    squares = 0.0
    for w in weights:  # loops, not sum(): compiled, sum() of floats is taken for an int
        total += w
        squares += w * w
    ess = total * total / squares
    out: list[State] = []
    step = total / n
    point = rng.random() * step
    acc = weights[0]
    i = 0
    last = len(weights) - 1
    for _ in range(n):
        while acc < point and i < last:
            i += 1
            acc += weights[i]
        out.append(found[i])
        point += step
    return out, ess


class WorldStream:
    """The worlds a search takes one after another: plain samples of the view's worlds, or,
    with ``beta`` > 0, batches of ``batch`` worlds drawn by :func:`inferred_worlds`."""

    def __init__(
        self, sampler: WorldSampler, beta: float, batch: int,
        source: Callable[[random.Random], State] | None = None, model: str = "greedy",
    ) -> None:
        self.sampler = sampler
        #: the model of the others' play that weighs the worlds (:func:`play_log_likelihood`)
        self.model = model
        #: where the worlds come from instead, if given (``cheat``'s: the true deal)
        self.source = source
        self.beta = beta
        self.batch = max(1, batch)
        self.queue: list[State] = []
        #: effective worlds per candidate over the batches drawn (1.0: uniform sampling)
        self.ess_share = 1.0
        self._batches = 0

    def next(self, rng: random.Random) -> State:
        if self.source is not None:
            return self.source(rng)
        if self.beta <= 0:
            return self.sampler.sample(rng)
        if not self.queue:
            worlds, ess = inferred_worlds(self.sampler, rng, self.batch, self.beta,
                                          model=self.model)
            if not worlds:
                raise SamplingError("no consistent world found")
            share = ess / (2 * self.batch)
            self.ess_share = (self.ess_share * self._batches + share) / (self._batches + 1)
            self._batches += 1
            worlds.reverse()  # popped from the end: the order they were drawn in
            self.queue = worlds
        return self.queue.pop()


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


def endgame_view(view: View, max_tiles: int) -> bool:
    """:func:`endgame_ready` for every world of ``view`` (it depends on public counts only)."""
    return (view.config.sides == 2 and view.stock == 0
            and sum(view.hand_sizes) <= max_tiles)


def exact_value(state: State, before: Sequence[Score], side: int, match_weight: float,
                alpha: float = -1e9, beta: float = 1e9) -> float:
    """Perfect-information minimax (alpha-beta) of the rest of the round, two sides only.

    (A transposition table was tried and gained nothing: positions rarely repeat, the
    scores and the table's ends differ by the order the plays came in.)"""
    return _solve(state.copy(), before, side, match_weight, alpha, beta)


def _solve(state: State, before: Sequence[Score], side: int, match_weight: float,
           alpha: float, beta: float) -> float:
    """:func:`exact_value` of a state the call may change (each node copies only for the
    actions before its last: a forced move, and the last action tried, play on it)."""
    while state.turn >= 0:
        codes = state.legal_codes()
        if len(codes) > 1:
            break
        state.apply_code(codes[0])
    else:
        return outcome_value(state, before, side, match_weight)
    maximize = state.side[state.turn] == side
    best = -1e9 if maximize else 1e9
    # the plays that score most first: alpha-beta cuts most when the best reply comes first
    codes.sort(key=lambda c: -_greedy_key(state, c) if c < _PLAY_LIMIT else 1e9)
    last = len(codes) - 1
    for i, code in enumerate(codes):
        st = state.copy() if i < last else state
        st.apply_code(code)
        value = _solve(st, before, side, match_weight, alpha, beta)
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


def _search_start(
    view: View,
) -> dict[Action, float] | tuple[int, list[list[Action]], WorldSampler]:
    """What a search over worlds starts from: the seat's side, the classes of identical legal
    actions and a sampler of worlds; or, where there is nothing to search (one action, one
    class, no world consistent with the view), every legal action valued 0."""
    legal = list(view.legal)
    if len(legal) == 1:
        return {legal[0]: 0.0}
    assert view.seat is not None
    classes = action_classes(view.layout, legal)
    if len(classes) == 1:
        return {a: 0.0 for a in legal}
    try:
        sampler = WorldSampler(view)
    except SamplingError:
        return {a: 0.0 for a in legal}
    return view.config.side_of(view.seat), classes, sampler


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
            samples.append(weighted(rng) if weighted is not None else (world_source(rng), 0.0))
        except SamplingError:
            continue
    if not samples:
        return {a: 0.0 for a in legal}
    codes = [int(a) for a in legal]
    # One generator for every playout, reseeded through its C base: building random.Random(seed)
    # for each runs Random.__init__ and Random.seed, Python code, a tenth of a compiled decision.
    playout_rng = random.Random(0)
    reseed = super(random.Random, playout_rng).seed
    top = max(logw for _, logw in samples)
    totals = [0.0] * len(legal)
    norm = 0.0
    for world, logw in samples:
        weight = math.exp(logw - top)
        before = world.scores[:]
        if endgame_tiles and endgame_ready(world, endgame_tiles):
            for i, code in enumerate(codes):
                st = world.copy()
                st.apply_code(code)
                totals[i] += weight * exact_value(st, before, side, match_weight)
            norm += weight
            continue
        for _k in range(per):
            seed = rng.getrandbits(32)
            for i, code in enumerate(codes):
                st = world.copy()
                st.apply_code(code)
                reseed(seed)  # the draws of random.Random(seed), as each action's playout had
                playout(st, playout_rng, eps)
                totals[i] += weight * outcome_value(st, before, side, match_weight)
        norm += weight * per
    return {a: totals[i] / norm for i, a in enumerate(legal)}



# -- the ladder's search: many worlds, informed playouts, successive halving ---------------------


class Policy:
    """The playout policy of :func:`halving_values`, its settings read once per decision.

    Every seat plays the move that counts most now (in Fives and Threes, points that would
    pass the target count nothing and reaching it exactly counts most), then the heaviest tile;
    with ``look`` > 0 it also subtracts ``look`` times the best reply the next seat, if an
    opponent, could make from its hand in that world; with ``answer`` > 0 a play after which
    the next seat, an opponent, holds nothing that fits counts ``answer`` points more (it must
    pass or draw); a random legal move with ``eps``.
    """

    def __init__(self, state: State, eps: float, look: float, answer: float = 0.0) -> None:
        cfg = state.config
        game = cfg.game
        self.eps = eps
        self.look = look
        self.answer = answer
        self.table: list[int] = list(game.play_points)
        self.exact = game.exact_target
        self.target = cfg.target
        self.bonus = game.domino_bonus
        self.side: list[int] = list(state.side)
        self.n = state.n

    def counted(self, state: State, seat: int, points: int, last: bool) -> float:
        """What a play worth ``points`` counts for ``seat``'s side now."""
        if not self.exact:
            return float(points)
        event = points + (self.bonus if last else 0)
        if event == 0:
            return 0.0
        after = state.scores[self.side[seat]] + event
        if after > self.target:
            return -1.0  # discarded (FT-10): worse than a quiet play
        if after == self.target:
            return 1000.0
        return float(event)

    def choose(self, state: State, codes: list[int], rand: Callable[[], float]) -> int:
        if rand() < self.eps:
            return codes[int(rand() * len(codes))]
        lay = state.layout
        table = self.table
        seat = state.turn
        hand = state.hands[seat]
        last = hand.bit_count() == 1
        nxt = (seat + 1) % self.n
        foe = self.side[nxt] != self.side[seat]
        reply_hand = state.hands[nxt] if self.look > 0 and foe else 0
        answer_hand = state.hands[nxt] if self.answer > 0 and foe and not last else 0
        best = codes[0]
        best_key = -1e18
        for code in codes:
            if code < LEAD_BASE:
                tid = code >> 2
                end = code & 3
            else:
                tid = code - LEAD_BASE
                end = 0
            total = lay.total_after(tid, end)
            key = self.counted(state, seat, table[total], last) * 64.0 + _PIPS[tid]
            if (reply_hand and not last) or answer_hand:
                after = lay.copy()
                after.place(tid, end)
                if reply_hand and not last:
                    key -= self.look * 64.0 * _best_reply(after, reply_hand & ~(1 << tid), table)
                if answer_hand and not answer_hand & after.open_mask:
                    key += self.answer * 64.0
            if key > best_key:
                best_key = key
                best = code
        return best


def _best_reply(lay: Layout, hand: int, table: list[int]) -> int:
    """The most points a hand could score with one play on ``lay`` (0 if it cannot play)."""
    playable = hand & lay.open_mask
    best = 0
    while playable:
        low = playable & -playable
        playable ^= low
        tid = low.bit_length() - 1
        t = ALL_TILES[tid]
        for e, v in lay.ends:
            if t.low == v or t.high == v:
                p = table[lay.total_after(tid, e)]
                if p > best:
                    best = p
    return best


# -- medium's rule of thumb, for the medium bot and as a playout policy ------------------------

_ALL_TILES_MASK: Final = (1 << 28) - 1
#: each tile's numbers as a 7-bit mask
_NUMBERS: Final = tuple(1 << t.low | 1 << t.high for t in ALL_TILES)
_DOUBLES: Final = tuple(t.is_double for t in ALL_TILES)
_DOUBLES_MASK: Final = sum(1 << t.id for t in ALL_TILES if t.is_double)
#: the tiles that show each number, as masks
_NUMBER_TILES: Final = tuple(sum(1 << t.id for t in ALL_TILES if t.has(v)) for v in range(7))
_DRAW: Final = LEAD_BASE + 28
_PASS: Final = LEAD_BASE + 29


def open_numbers(lay: Layout) -> int:
    """The numbers showing at the open ends (a 7-bit mask)."""
    numbers = 0
    for _, v in lay.ends:
        numbers |= 1 << v
    return numbers


#: the terms of medium's rule of thumb, each with its own weight (:meth:`MediumRule.weighted`):
#: the points now (in Fives and Threes, with the steps to 61), the chance the next seat can
#: answer, the reply it may score (an opponent's; a partner's), the pips shed, a double shed,
#: the tiles kept that touch an open end, the numbers kept, every opponent void in the ends
MEDIUM_WEIGHTS: Final[dict[str, float]] = {
    "now": 1.0, "block": 12.0, "reply": 1.0, "partner_reply": 0.5, "pips": 0.25,
    "double": 2.0, "touch": 0.8, "kept": 0.3, "void": 4.0,
    # terms medium does not weigh (issue 27, ``tools/rule_fit.py --extra``): the most a kept
    # tile could score on the next turn, the open numbers no unseen tile has, a play that sets
    # the spinner, the doubles kept, the points now when the seat's side is within 50 of the
    # target, the unseen tiles that fit the ends (again when the stock is empty, and when
    # another side is within 50), the kept tiles that fit when one tile or none is left
    "follow": 0.0, "lock": 0.0, "spinner": 0.0, "doubles_kept": 0.0, "now_near": 0.0,
    "fit_stock_empty": 0.0, "fit": 0.0, "last_fits": 0.0, "fit_them_near": 0.0,
}
RULE_TERMS: Final = tuple(MEDIUM_WEIGHTS)
#: medium's own terms come first in :data:`RULE_TERMS`, then those it does not weigh
_OWN_TERMS: Final = 9


class MediumRule:
    """``medium``'s rule of thumb (:class:`fives.bots.ladder.MediumBot`, whose docstring and
    README section give its terms), compiled here so that playouts can afford it: the game's
    settings and the weights read once, the values of a seat's legal codes worked out from
    what that seat knows (its hand, the table, the tiles it cannot see, the next seat's hand
    size and proven voids).
    """

    def __init__(self, config: Config, *, reply_weight: float = 1.0, pips_weight: float = 0.25,
                 block_weight: float = 12.0, unit_scaled: bool = True,
                 expected_reply: bool = True, now_weight: float = 1.0,
                 partner_reply: float = 0.5, double_weight: float = 2.0,
                 touch_weight: float = 0.8, kept_weight: float = 0.3,
                 void_weight: float = 4.0, extra: Sequence[float] = ()) -> None:
        game = config.game
        self.table: list[int] = list(game.play_points)
        scoring = [p for p in self.table if p > 0]
        #: the terms other than points, scaled by the game's smallest scoring play over 5
        self.k = min(scoring) / 5.0 if scoring and unit_scaled else 1.0
        self.exact = game.exact_target
        self.target = config.target
        self.scoring = game.play_scoring != "none"
        self.pays_pips = game.remaining != "none"
        self.reply_weight = reply_weight
        self.pips_weight = pips_weight
        self.block_weight = block_weight
        self.expected_reply = expected_reply
        self.now_weight = now_weight
        self.partner_reply = partner_reply
        self.double_weight = double_weight
        self.touch_weight = touch_weight
        self.kept_weight = kept_weight
        self.void_weight = void_weight
        #: the weights of the terms after ``void`` in :data:`RULE_TERMS` (none: all 0)
        ex = list(extra) + [0.0] * (len(RULE_TERMS) - _OWN_TERMS - len(extra))
        self.extra_on = any(ex)
        (self.follow_weight, self.lock_weight, self.spinner_weight, self.doubles_kept_weight,
         self.now_near_weight, self.fit_stock_empty_weight, self.fit_weight,
         self.last_fits_weight, self.fit_them_near_weight) = ex

    @classmethod
    def weighted(cls, config: Config, weights: Mapping[str, float]) -> MediumRule:
        """The rule with ``weights`` for the terms :data:`RULE_TERMS` names (medium's for the
        others)."""
        unknown = sorted(set(weights) - set(RULE_TERMS))
        if unknown:
            raise ValueError(f"unknown terms {', '.join(unknown)}: {', '.join(RULE_TERMS)}")
        w = {**MEDIUM_WEIGHTS, **weights}
        return cls(config, now_weight=w["now"], block_weight=w["block"], reply_weight=w["reply"],
                   partner_reply=w["partner_reply"], pips_weight=w["pips"],
                   double_weight=w["double"], touch_weight=w["touch"], kept_weight=w["kept"],
                   void_weight=w["void"], extra=[w[t] for t in RULE_TERMS[_OWN_TERMS:]])

    def values(self, codes: list[int], hand: int, lay: Layout, on_table: int, void_next: int,
               void_all: int, next_size: int, partner: bool, my_score: Score,
               their_score: Score = 0, stock_empty: bool = False) -> list[float]:
        """The value of each of ``codes`` for a seat holding ``hand`` with ``on_table`` on the
        table ``lay`` (masks of tiles); the next seat, ``partner`` or not, holds ``next_size``
        tiles and none of the numbers in ``void_next``; every opponent none of ``void_all``;
        the best other side has ``their_score`` (read by the extra terms only, as is
        ``stock_empty``)."""
        table = self.table
        k = self.k
        out: list[float] = []
        # the tiles the next seat may hold: unseen, not proven void
        may_hold: list[int] = []
        rest_mask = _ALL_TILES_MASK & ~hand & ~on_table
        while rest_mask:
            low = rest_mask & -rest_mask
            rest_mask ^= low
            tid = low.bit_length() - 1
            if not _NUMBERS[tid] & void_next:
                may_hold.append(tid)
        held = len(may_hold)
        chance = min(1.0, next_size / held) if held else 0.0
        for code in codes:
            if code >= _DRAW:
                out.append(0.0)
                continue
            if code < LEAD_BASE:
                tid = code >> 2
                end = code & 3
            else:
                tid = code - LEAD_BASE
                end = 0
            after = lay.copy()
            total = after.place(tid, end)
            points = table[total]
            now = float(points)
            if self.exact:
                reached = my_score + points
                if reached > self.target:
                    now = -5.0
                elif reached == self.target:
                    now += 100.0
                elif self.target - reached <= 8:
                    now += 1.0  # close to 61: small steps are easier to land exactly
            value = self.now_weight * now
            # what the next seat may answer, each tile it may hold held with the same chance:
            # the tiles that fit an open end, and the scoring answers among them (a tile that
            # fits no end is skipped before its ends are tried: most are, and the loop is hot)
            showing = open_numbers(after)
            replies: list[int] = []
            fitting = 0
            ends = after.ends
            for t in may_hold:
                numbers = _NUMBERS[t]
                if not numbers & showing:
                    continue
                fitting += 1
                best_t = 0
                for e, v in ends:
                    if numbers >> v & 1:
                        p = table[after.total_after(t, e)]
                        if p > best_t:
                            best_t = p
                if best_t:
                    replies.append(best_t)
            if self.block_weight and held:
                can_play = 1.0 - (1.0 - chance) ** fitting
                value -= (-0.5 if partner else 1.0) * self.block_weight * k * can_play
            reply = 0.0
            if self.scoring and held and replies:
                if self.expected_reply:
                    # the best tile held is the one played
                    replies.sort(reverse=True)
                    miss = 1.0
                    for r in replies:
                        reply += r * chance * miss
                        miss *= 1.0 - chance
                else:
                    reply = float(max(replies))
            value += (self.partner_reply if partner else -self.reply_weight) * reply
            rest = hand & ~(1 << tid)
            if self.pays_pips:
                value += self.pips_weight * k * _PIPS[tid]
            if _DOUBLES[tid]:
                value += self.double_weight * k
            touching = 0
            kept_numbers = 0
            while rest:
                low = rest & -rest
                rest ^= low
                numbers = _NUMBERS[low.bit_length() - 1]
                if numbers & showing:
                    touching += 1
                kept_numbers |= numbers
            value += self.touch_weight * k * touching
            value += self.kept_weight * k * kept_numbers.bit_count()
            if void_all and not showing & ~void_all:
                value += self.void_weight * k  # every opponent is proven out of the open numbers
            if self.extra_on:
                value += self._extra(tid, points, hand & ~(1 << tid), touching, after, showing,
                                     _ALL_TILES_MASK & ~hand & ~on_table, lay.spinner < 0,
                                     my_score, their_score, stock_empty)
            out.append(value)
        return out

    def _extra(self, tid: int, points: int, rest: int, touching: int, after: Layout,
               showing: int, unseen: int, no_spinner: bool, my_score: Score,
               their_score: Score, stock_empty: bool) -> float:
        """The terms after ``void`` of one play, each times its weight."""
        table = self.table
        follow = 0
        kept = rest
        while kept:
            low = kept & -kept
            kept ^= low
            t = low.bit_length() - 1
            numbers = _NUMBERS[t]
            if numbers & showing:
                for e, v in after.ends:
                    if numbers >> v & 1:
                        p = table[after.total_after(t, e)]
                        if p > follow:
                            follow = p
        lock = 0
        fit_mask = 0
        for v in range(7):
            if showing >> v & 1:
                having = unseen & _NUMBER_TILES[v]
                fit_mask |= having
                if not having:
                    lock += 1
        fit = fit_mask.bit_count()
        doubles = (rest & _DOUBLES_MASK).bit_count()
        target = self.target
        value = (self.follow_weight * follow + self.lock_weight * lock
                 + self.doubles_kept_weight * doubles + self.fit_weight * fit)
        if no_spinner and after.spinner >= 0:
            value += self.spinner_weight
        if my_score >= target - 50:
            value += self.now_near_weight * points
        if stock_empty:
            value += self.fit_stock_empty_weight * fit
        if rest.bit_count() <= 1:
            value += self.last_fits_weight * touching
        if their_score >= target - 50:
            value += self.fit_them_near_weight * fit
        return value


class MediumPolicy:
    """Playouts in which every seat plays what ``medium`` would from its own view of the world:
    its hand, the table, the tiles it cannot see, the others' hand sizes and the numbers they
    are proven void in, proven along the playout as :func:`fives.core.sampling.proven_voids`
    proves them from a view (each draw or pass proves the hand of that moment held none of the
    open numbers; a tile drawn and kept is not covered until the seat's next draw or pass).
    Ties go to the heaviest tile, then to the first; a random legal move with ``eps``.
    """

    def __init__(self, state: State, eps: float, rule: MediumRule | None = None) -> None:
        cfg = state.config
        self.rule = rule if rule is not None else MediumRule(cfg)
        self.eps = eps
        self.n = state.n
        self.side: list[int] = list(state.side)
        self.teams = cfg.teams
        self.spinner = cfg.game.spinner
        self.gate = cfg.side_arm_gate
        # what a world proves at its start (:meth:`start`), before the first action
        self.root_voids: list[int] = [0] * self.n
        self.root_pending = -1
        self.root_pending_numbers = 0
        # the current playout's
        self.voids: list[int] = [0] * self.n
        self.pending = -1
        self.pending_numbers = 0

    def start(self, world: State) -> None:
        """Read what the round so far proves, from ``world``'s log (once per world)."""
        self.voids = [0] * self.n
        self.pending = -1
        self.pending_numbers = 0
        lay = Layout(self.spinner, self.gate)
        for entry in world.log:
            code = entry[1]
            self.note(entry[0], code, open_numbers(lay))
            if code < LEAD_BASE:
                lay.place(code >> 2, code & 3)
            elif code < _DRAW:
                lay.place(code - LEAD_BASE, 0)
        self.root_voids = self.voids[:]
        self.root_pending = self.pending
        self.root_pending_numbers = self.pending_numbers

    def note(self, seat: int, code: int, showing: int) -> None:
        """What ``seat``'s move ``code`` proves, the open numbers ``showing`` before it."""
        if self.pending >= 0:
            if seat == self.pending and code < _DRAW:
                self.voids[seat] |= self.pending_numbers  # the draw before a play proves
            else:
                self.voids[self.pending] = 0  # a tile drawn and kept, not covered yet
            self.pending = -1
        if code == _PASS:
            self.voids[seat] |= showing
        elif code == _DRAW:
            self.pending = seat
            self.pending_numbers = showing

    def playout(self, state: State, first: int, rng: random.Random) -> None:
        """Apply ``first`` to ``state`` (the world :meth:`start` read) and play the round out."""
        self.voids = self.root_voids[:]
        self.pending = self.root_pending
        self.pending_numbers = self.root_pending_numbers
        self._play(state, first, rng.random)

    def finish(self, state: State, rng: random.Random) -> None:
        """Play the round in ``state`` out, from what its log proves (a state not read yet)."""
        self.start(state)
        if state.turn >= 0:
            codes = state.legal_codes()
            rand = rng.random
            self._play(state, codes[0] if len(codes) == 1 else self.choose(state, codes, rand),
                       rand)

    def _play(self, state: State, first: int, rand: Callable[[], float]) -> None:
        code = first
        while True:
            self.note(state.turn, code, open_numbers(state.layout))
            state.apply_code(code)
            if state.turn < 0:
                return
            codes = state.legal_codes()
            code = codes[0] if len(codes) == 1 else self.choose(state, codes, rand)

    def choose(self, state: State, codes: list[int], rand: Callable[[], float]) -> int:
        if self.eps > 0.0 and rand() < self.eps:  # without noise no number is drawn at all
            return codes[int(rand() * len(codes))]
        n = self.n
        seat = state.turn
        side = self.side
        nxt = next_in_round(state)
        hands = state.hands
        hand = hands[seat]
        lay = state.layout
        void_all = 0x7F
        for s in range(n):
            if side[s] != side[seat]:
                void_all &= self.voids[s]
        scores = state.scores
        mine = side[seat]
        theirs: Score = 0
        if self.rule.extra_on:  # read by the terms medium does not weigh only
            for s in range(len(scores)):
                if s != mine and scores[s] > theirs:
                    theirs = scores[s]
        values = self.rule.values(
            codes, hand, lay, _table_mask(state), self.voids[nxt], void_all, hands[nxt].bit_count(),
            self.teams and side[nxt] == mine, scores[mine], theirs, state.stock_left() == 0,
        )
        return best_code(codes, values)


def best_code(codes: list[int], values: list[float]) -> int:
    """The code medium picks by its ``values``: the best value (to a rounding), then the
    heaviest tile (a draw or pass weighs -1), the first of those."""
    top = max(values) - 1e-9
    best = codes[0]
    best_weight = -2
    for i, code in enumerate(codes):
        if values[i] >= top:
            if code >= _DRAW:
                weight = -1
            else:
                weight = _PIPS[code >> 2 if code < LEAD_BASE else code - LEAD_BASE]
            if weight > best_weight:
                best = code
                best_weight = weight
    return best


def next_in_round(state: State) -> int:
    """The seat after the one to move that is still in the round (a partner who went out in
    Fives and Threes sits the rest out)."""
    seat = state.turn
    n = state.n
    out = state.out
    nxt = (seat + 1) % n
    while out[nxt] and nxt != seat:
        nxt = (nxt + 1) % n
    return nxt


def _table_mask(state: State) -> int:
    """The tiles on the table: every tile that is in no hand and not in the stock still to come."""
    held = 0
    for hand in state.hands:
        held |= hand
    stock = state.stock
    for i in range(state.stock_pos, len(stock)):
        held |= 1 << stock[i]
    return _ALL_TILES_MASK & ~held


def policy_playout(state: State, policy: Policy, rng: random.Random) -> None:
    """Play the round in ``state`` to its end with ``policy``."""
    rand = rng.random
    while state.turn >= 0:
        codes = state.legal_codes()
        state.apply_code(policy.choose(state, codes, rand) if len(codes) > 1 else codes[0])


def leaf_value(state: State, policy: Policy, rng: random.Random, plies: int,
               leaf: Callable[[State], float]) -> float:
    """Play ``plies`` moves of ``state`` with ``policy``, then ``leaf``'s value of the rest of
    the round (0 once it is over)."""
    rand = rng.random
    while plies > 0 and state.turn >= 0:
        codes = state.legal_codes()
        state.apply_code(policy.choose(state, codes, rand) if len(codes) > 1 else codes[0])
        plies -= 1
    return leaf(state) if state.turn >= 0 else 0.0


def halving_values(
    view: View,
    rng: random.Random,
    *,
    worlds: int,
    eps: float,
    look: float = 0.0,
    answer: float = 0.0,
    endgame_tiles: int = 0,
    match_weight: float = 0.5,
    halving: bool = True,
    move_time: float = 0.0,
    beta: float = 0.0,
    stats: dict[str, float] | None = None,
    leaf: Callable[[State], float] | None = None,
    leaf_after: int = 0,
    replies: bool = False,
    playouts: str = "greedy",
    max_time: float = 0.0,
    world_source: Callable[[random.Random], State] | None = None,
    model: str = "greedy",
    equity: Callable[[State], float] | None = None,
    rule: MediumRule | None = None,
) -> dict[Action, float]:
    """Mean outcome of each class of identical legal actions over sampled worlds.

    Every class is played out once in each world it is given, with the same world and the same
    playout seed for all (common random numbers, so differences are the actions' own). With
    ``halving``, the classes start on an eighth of the worlds and the worse half is dropped
    each time the worlds double, down to two (successive halving): the budget goes to the
    close choices. Worlds with an empty stock and at most ``endgame_tiles`` tiles in hands are
    solved exactly instead (two sides only). ``match_weight`` times the target is added for a
    match won in a playout. With ``move_time`` > 0 (CPU seconds) the final two keep taking
    new worlds, beyond ``worlds``, until the time is spent. Dropped classes are valued just
    below the worst survivor at most, so the best value is always a survivor's. With ``beta``
    > 0 the worlds are drawn by how well they explain the others' plays under ``model``
    (:func:`inferred_worlds`); ``stats`` then gets ``ess_share``, the effective worlds per
    candidate, and ``exact_share``, the share of the values solved exactly. With ``leaf``, a
    playout stops ``leaf_after`` moves after the action and ``leaf`` values the rest of the
    round (the bot side's margin still to come, as the learned evaluation estimates it). With
    ``replies``, where an opponent answers the action with a choice, each of its answers is
    played out and the action is worth the worst of them in that world. With ``playouts`` set
    to ``"medium"``, every seat plays the playouts by medium's rule of thumb from its own view
    (:class:`MediumPolicy`; by ``rule`` instead of medium's weights if given) instead of the
    greedy policy. With ``max_time`` > 0 (CPU seconds)
    no new world is taken once that much time is spent, however few were: the values are then
    the means over the worlds played (each survivor has played every world its stage gave it),
    and ``stats`` gets ``cut``, 1.0 when the search stopped short of ``worlds``. With
    ``world_source``, the worlds come from it instead of the view's sampler (``cheat``: the
    true deal, the stock shuffled). With ``equity``, a playout's value is what ``equity`` says
    of the state it ends in (the bot side's chance of winning the match, in points), less what
    it says of the scores now, instead of the margin and the match bonus (solved endgames keep
    those).
    """
    if playouts not in ("greedy", "medium"):
        raise ValueError(f"unknown playouts {playouts!r}: greedy or medium")
    started = time.thread_time()  # this thread's CPU: a server's other threads do not count
    if stats is not None:
        stats["exact_share"] = 0.0
    ready = _search_start(view)
    if isinstance(ready, dict):
        return ready
    side, classes, sampler = ready
    codes = [int(group[0]) for group in classes]
    solved_worlds = 0
    k = len(codes)
    bonus = view.config.target * match_weight
    totals = [0.0] * k
    counts = [0] * k
    alive = list(range(k))
    playout_rng = random.Random(0)
    reseed = super(random.Random, playout_rng).seed
    policy: Policy | None = None
    medium: MediumPolicy | None = None
    done = 0  # worlds drawn so far
    equity_now = math.nan  # what ``equity`` says of the scores now (read from the first world)
    stage = max(1, worlds // 8) if halving else worlds
    stream = WorldStream(sampler, beta, max(1, worlds // 8), world_source, model)
    cut = False
    while not cut:
        while done < stage:
            if max_time > 0.0 and done and time.thread_time() - started >= max_time:
                cut = True  # out of time: what the worlds so far say
                break
            try:
                world = stream.next(rng)
            except SamplingError:
                done += 1
                continue
            if policy is None:
                policy = Policy(world, eps, look, answer)
                if playouts == "medium":
                    medium = MediumPolicy(world, eps, rule)
            done += 1
            seed = rng.getrandbits(32)
            before = world.scores[:]
            if equity is not None and math.isnan(equity_now):
                equity_now = equity(world)
            exact = endgame_tiles > 0 and endgame_ready(world, endgame_tiles)
            if exact:
                solved_worlds += 1
            elif medium is not None:
                medium.start(world)
            for i in alive:
                st = world.copy()
                if medium is not None and not exact:
                    if eps > 0.0:  # medium's playouts draw numbers only for their noise
                        reseed(seed)
                    medium.playout(st, codes[i], playout_rng)
                    totals[i] += (outcome_value(st, before, side, bonus) if equity is None
                                  else equity(st) - equity_now)
                    counts[i] += 1
                    continue
                st.apply_code(codes[i])
                if exact:
                    value = exact_value(st, before, side, bonus)
                elif leaf is not None:
                    reseed(seed)
                    rest = leaf_value(st, policy, playout_rng, leaf_after, leaf)
                    value = outcome_value(st, before, side, bonus) + rest
                elif replies and st.turn >= 0 and st.side[st.turn] != side:
                    value = 1e18
                    for reply in st.legal_codes():
                        after = st.copy()
                        after.apply_code(reply)
                        reseed(seed)
                        policy_playout(after, policy, playout_rng)
                        value = min(value, outcome_value(after, before, side, bonus))
                else:
                    reseed(seed)
                    policy_playout(st, policy, playout_rng)
                    value = (outcome_value(st, before, side, bonus) if equity is None
                             else equity(st) - equity_now)
                totals[i] += value
                counts[i] += 1
        if cut:
            break
        if done >= worlds:
            if move_time <= 0 or time.thread_time() - started >= move_time:
                break
            stage = done + max(1, worlds // 8)
            continue
        if len(alive) > 2:
            alive.sort(key=lambda i: -totals[i] / max(1, counts[i]))
            alive = alive[: max(2, (len(alive) + 1) // 2)]
        stage = min(worlds, stage * 2)
    if stats is not None:
        stats["ess_share"] = stream.ess_share
        stats["exact_share"] = solved_worlds / max(1, done)
        stats["cut"] = 1.0 if cut else 0.0
    means = [totals[i] / counts[i] if counts[i] else 0.0 for i in range(k)]
    floor = min(means[i] for i in alive)
    out: dict[Action, float] = {}
    for i, group in enumerate(classes):
        value = means[i] if i in alive else min(means[i], floor - 1e-6)
        for a in group:
            out[a] = value
    return out


# -- expert: single-observer information-set MCTS ------------------------------------------------


class _Node:
    """A node of the information-set tree: reached by the same actions, whatever the world.

    ``total`` is the sum of outcomes for the side that made the move into this node, so a
    parent picks its best child whoever is to move; ``avail`` counts the visits of its parent
    in which this move was legal (a move legal in only some worlds is not penalised for the
    others)."""

    def __init__(self, side: int) -> None:
        self.side = side
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0


def ismcts_values(
    view: View,
    rng: random.Random,
    *,
    iterations: int,
    eps: float,
    look: float = 0.0,
    answer: float = 0.0,
    explore: float = 0.7,
    pool: int = 400,
    match_weight: float = 0.5,
    endgame_tiles: int = 0,
    move_time: float = 0.0,
    beta: float = 0.0,
    stats: dict[str, float] | None = None,
    leaf: Callable[[State], float] | None = None,
    leaf_after: int = 0,
    others_by_policy: bool = False,
    playouts: str = "greedy",
    model: str = "greedy",
) -> dict[Action, float]:
    """Mean outcome of each class of identical legal actions under SO-ISMCTS.

    Each iteration takes a world (from a pool of ``pool`` sampled ones, cycled), walks the tree
    from the root choosing among the moves legal in that world by UCB (``explore`` times the
    outcomes' running spread), adds one node, plays the rest out with the informed policy and
    backs the outcome up. Other seats choose by their own statistics, aggregated over worlds,
    so the search does not let them see the bot's tiles, the flaw of a search per world.
    Worlds that reach an empty stock with at most ``endgame_tiles`` tiles in hands (two sides)
    are valued exactly when expanded. At least ``iterations`` iterations; with ``move_time``
    > 0 (CPU seconds) more, until the time is spent. The values are the root moves' mean
    outcomes (a move never tried gets the worst of the others). With ``beta`` > 0 the pool is
    drawn by how well its worlds explain the others' plays under ``model``
    (:func:`inferred_worlds`); ``stats`` then gets ``ess_share``, the effective worlds per
    candidate, and ``exact_share``,
    the share of the iterations solved exactly, and ``others_by_tree``, the share of the other
    seats' choices in the tree that its statistics made. With ``leaf``, the playout from a new node
    stops after ``leaf_after`` moves and ``leaf`` values the rest of the round. With
    ``others_by_policy`` only the seat's own moves are chosen by the tree: every other seat
    (partner or opponent) plays in the tree as in the playouts, by the informed policy from its
    own hand in that world (a tree's node for another seat aggregates its worlds, so it chooses
    as if it did not know its own tiles, the more often the deeper the tree grows). With
    ``playouts`` set to ``"medium"`` the playouts from new nodes are medium's
    (:class:`MediumPolicy`), as in :func:`halving_values`.
    """
    if playouts not in ("greedy", "medium"):
        raise ValueError(f"unknown playouts {playouts!r}: greedy or medium")
    if endgame_tiles > 0 and endgame_view(view, endgame_tiles):
        # an endgame at the root: every world is solved exactly there, where the tree's means
        # (which average the replies it explored, the opponents' mistakes too) only estimate
        # the minimax value the solver knows
        return halving_values(view, rng, worlds=pool, eps=eps, look=look, answer=answer,
                              endgame_tiles=endgame_tiles, match_weight=match_weight,
                              beta=beta, stats=stats, model=model)
    started = time.thread_time()
    if stats is not None:
        stats["exact_share"] = 0.0
    ready = _search_start(view)
    if isinstance(ready, dict):
        return ready
    side, classes, sampler = ready
    me = view.seat
    roots = [int(g[0]) for g in classes]
    stream = WorldStream(sampler, beta, pool, model=model)
    worlds: list[State] = []
    for _ in range(pool):
        try:
            worlds.append(stream.next(rng))
        except SamplingError:
            continue
    if stats is not None:
        stats["ess_share"] = stream.ess_share
    if not worlds:
        return {a: 0.0 for a in view.legal}
    policy = Policy(worlds[0], eps, look, answer)
    medium = MediumPolicy(worlds[0], eps) if playouts == "medium" else None
    bonus = view.config.target * match_weight
    root = _Node(-1)
    for code in roots:
        root.children[code] = _Node(side)
    playout_rng = random.Random(0)
    reseed = super(random.Random, playout_rng).seed
    rand = rng.random
    # the spread of outcomes, for the exploration term (Welford's running variance)
    count = 0
    mean = 0.0
    m2 = 0.0
    it = 0
    solved_count = 0
    others_choices = 0  # the other seats' choices (more than one legal move) in the tree
    others_by_tree = 0  # of them, those the tree's statistics made
    while True:
        if it >= iterations and (move_time <= 0 or time.thread_time() - started >= move_time):
            break
        world = worlds[it % len(worlds)]
        it += 1
        st = world.copy()
        before = world.scores
        node = root
        path: list[_Node] = []
        codes = roots
        value = 0.0
        solved = False
        while True:  # down the tree to a move not tried yet, or the end of the round
            others = st.turn != me and len(codes) > 1
            if others:
                others_choices += 1
            best: _Node | None = None
            best_code = -1
            if others_by_policy and st.turn != me:
                best_code = policy.choose(st, codes, rand) if len(codes) > 1 else codes[0]
                best = node.children.get(best_code)
                if best is None:
                    best = _Node(st.side[st.turn])
                    node.children[best_code] = best
            else:
                if others:
                    others_by_tree += 1
                spread = math.sqrt(m2 / count) if count > 1 else 10.0
                untried: list[int] = []
                best_key = -1e18
                for code in codes:
                    child = node.children.get(code)
                    if child is None:
                        child = _Node(st.side[st.turn])
                        node.children[code] = child
                    child.avail += 1
                    if not child.visits:
                        untried.append(code)
                if untried:
                    code = untried[int(rand() * len(untried))]
                    st.apply_code(code)
                    path.append(node.children[code])
                    break
                for code in codes:
                    child = node.children[code]
                    key = child.total / child.visits + explore * spread * math.sqrt(
                        math.log(child.avail) / child.visits
                    )
                    if key > best_key:
                        best_key = key
                        best = child
                        best_code = code
            assert best is not None
            st.apply_code(best_code)
            path.append(best)
            node = best
            if st.turn < 0:
                break
            # forced moves get nodes too: the seat to move is then a function of the actions
            codes = st.legal_codes()
        rest = 0.0
        if st.turn >= 0:
            if endgame_tiles > 0 and endgame_ready(st, endgame_tiles):
                value = exact_value(st, before, side, bonus)
                solved = True
                solved_count += 1
            if not solved:
                reseed(rng.getrandbits(32))
                if leaf is not None:
                    rest = leaf_value(st, policy, playout_rng, leaf_after, leaf)
                elif medium is not None:
                    medium.finish(st, playout_rng)
                else:
                    policy_playout(st, policy, playout_rng)
        if not solved:
            value = outcome_value(st, before, side, bonus) + rest
        count += 1
        delta = value - mean
        mean += delta / count
        m2 += delta * (value - mean)
        for n in path:
            n.visits += 1
            n.total += value if n.side == side else -value
    if stats is not None:
        stats["exact_share"] = solved_count / max(1, it)
        stats["others_by_tree"] = others_by_tree / max(1, others_choices)
    means = [c.total / c.visits for c in root.children.values() if c.visits]
    unvisited = min(means) if means else 0.0
    out: dict[Action, float] = {}
    for i, group in enumerate(classes):
        child = root.children[roots[i]]
        v = child.total / child.visits if child.visits else unvisited
        for a in group:
            out[a] = v
    return out
