"""Worlds drawn by what the others' plays say (issue 27): a seat that played a tile scoring
nothing while it held one that scored is unlikely, so worlds in which it did are drawn less; a
world that contradicts a play is never drawn at all; with no model the draw is the plain one."""

from __future__ import annotations

import math
import random

import pytest

from fives.bots.search import (
    MediumRule,
    WorldStream,
    _table_mask,
    endgame_ready,
    endgame_view,
    greedy_log_likelihood,
    inferred_worlds,
    medium_log_likelihood,
    play_log_likelihood,
)
from fives.compiled import build
from fives.core.games import Config
from fives.core.sampling import SamplingError, WorldSampler
from fives.core.state import State
from fives.core.tiles import ACTIONS, ALL_TILES, LEAD_BASE
from fives.core.view import View, view_of
from recordkit import random_states


def passed_up_points(seed: int) -> tuple[View, int] | None:
    """A position at seat 0's turn right after seat 1 played for no points while another
    tile it still holds would have scored; the view, and that tile's id."""
    rng = random.Random(seed)
    state = State(Config.make("all-fives", 2))
    state.deal_next(rng)
    while state.turn >= 0:
        seat = state.turn
        codes = state.legal_codes()
        code = rng.choice(codes)
        before = state.copy()
        state.apply_code(code)
        if seat != 1 or state.turn != 0 or not ACTIONS[code].is_play or len(codes) < 2:
            continue
        if before.layout.ends_total() and state.scores[1] != before.scores[1]:
            continue  # it scored: nothing was passed up
        points = before.config.game.play_points
        for other in codes:
            act = ACTIONS[other]
            if other == code or not act.is_play or act.tile is None:
                continue
            tid = act.tile.id
            end = act.end if act.end is not None else 0
            if (points[before.layout.total_after(tid, end)] >= 10
                    and state.hands[1] >> tid & 1 and state.scores[1] == before.scores[1]):
                return view_of(state, 0), tid
    return None


def held_share(worlds: list[State], tid: int) -> float:
    return sum(w.hands[1] >> tid & 1 for w in worlds) / len(worlds)


def test_worlds_where_a_seat_passed_up_ten_points_are_drawn_less() -> None:
    cases = [c for c in (passed_up_points(s) for s in range(400)) if c is not None][:4]
    assert len(cases) >= 3
    for view, tid in cases:
        sampler = WorldSampler(view)
        plain = [sampler.sample(random.Random(k)) for k in range(300)]
        inferred, ess = inferred_worlds(sampler, random.Random(1), 300, beta=0.5)
        assert len(inferred) == 300 and 1.0 <= ess <= 600.0
        # with the tile, the seat would have scored 10 or more: such worlds fall away
        assert held_share(inferred, tid) < 0.5 * held_share(plain, tid), (
            str(view.hand), tid, held_share(inferred, tid), held_share(plain, tid))


def test_every_drawn_world_is_consistent_with_the_view() -> None:
    """Weighting never brings back a world the plays rule out: each one replays the round's
    public history to the same layout, hand sizes and turn."""
    case = next(c for c in (passed_up_points(s) for s in range(400)) if c is not None)
    view, _ = case
    worlds, _ = inferred_worlds(WorldSampler(view), random.Random(2), 100, beta=2.0)
    for w in worlds:
        seen = view_of(w, 0)
        assert seen.hand == view.hand and seen.layout.tiles() == view.layout.tiles()
        assert [len(h) for h in (w.hand(1),)] == [view.hand_sizes[1]]
        assert w.turn == view.turn


def test_a_play_the_model_finds_likelier_weighs_more() -> None:
    case = next(c for c in (passed_up_points(s) for s in range(400)) if c is not None)
    view, _ = case
    rng = random.Random(3)
    state = WorldSampler(view).sample(rng)
    codes = state.legal_codes()
    if len(codes) < 2:
        pytest.skip("one legal action")
    model = greedy_log_likelihood(0.5)
    logs = [model(state, c) for c in codes]
    # a probability distribution over the legal actions, highest for the greedy choice
    assert abs(sum(2.718281828459045 ** x for x in logs) - 1.0) < 1e-9
    points = state.config.game.play_points
    best = max(codes, key=lambda c: model(state, c))
    act = ACTIONS[best]
    assert act.tile is not None
    total = state.layout.total_after(act.tile.id, act.end if act.end is not None else 0)
    assert points[total] == max(
        points[state.layout.total_after(ACTIONS[c].tile.id,  # type: ignore[union-attr]
                                        ACTIONS[c].end or 0)]
        for c in codes if ACTIONS[c].is_play)


def test_without_a_model_the_stream_is_the_plain_sampler() -> None:
    case = next(c for c in (passed_up_points(s) for s in range(400)) if c is not None)
    view, _ = case
    sampler = WorldSampler(view)
    stream = WorldStream(sampler, 0.0, 50)
    a = [stream.next(random.Random(k)).hands for k in range(20)]
    b = [sampler.sample(random.Random(k)).hands for k in range(20)]
    assert a == b and stream.ess_share == 1.0


# -- the model and the resampling, to the number (issue 42) ----------------------------------


def test_the_model_is_a_softmax_over_points_now_then_a_twelfth_of_the_pips() -> None:
    """log P(code) = beta * key(code) - log sum exp(beta * key), key = points now + pips/12
    (the heavier of two plays scoring the same is likelier); a forced play costs nothing."""

    model = greedy_log_likelihood(0.8)
    seen = forced = 0
    for state in random_states("all-fives", 3, seed=17, rounds=3):
        codes = state.legal_codes()
        if len(codes) == 1:
            assert model(state, codes[0]) == 0.0
            forced += 1
            continue
        keys = []
        for code in codes:
            tid = code - LEAD_BASE if code >= LEAD_BASE else code >> 2
            points = state.copy().apply_code(code)[3] if code < LEAD_BASE + 28 else 0
            keys.append(points + ALL_TILES[tid].pips / 12.0 if code < LEAD_BASE + 28 else 0.0)
        if any(c >= LEAD_BASE + 28 for c in codes):
            continue  # draws and passes: not plays the model ranks
        norm = math.log(sum(math.exp(0.8 * k) for k in keys))
        for code, key in zip(codes, keys, strict=True):
            assert model(state, code) == pytest.approx(0.8 * key - norm, abs=1e-9)
        seen += len(codes) == 2  # two choices are a choice too
    assert seen > 5 and forced > 5


def _medium_values(state: State) -> list[float]:
    """medium's values of the mover's legal codes from its own hand in ``state``, the next
    seat's voids unknown (the model's definition)."""
    cfg = state.config
    seat = state.turn
    nxt = (seat + 1) % state.n
    return MediumRule(cfg).values(
        state.legal_codes(), state.hands[seat], state.layout, _table_mask(state), 0, 0,
        state.hands[nxt].bit_count(), bool(cfg.teams) and state.side[nxt] == state.side[seat],
        state.scores[state.side[seat]])


@pytest.mark.parametrize(("game", "players", "teams"), [
    ("all-fives", 2, False), ("fives-and-threes", 2, False), ("muggins", 3, False),
    ("all-fives", 4, True),
])
def test_the_medium_model_is_a_softmax_over_medium_s_values_from_the_seat_s_hand(
        game: str, players: int, teams: bool) -> None:
    """log P(code) = beta * value(code) - log sum exp(beta * value), the values medium's rule
    gives the mover's legal codes from its own hand; a forced move costs nothing."""
    model = medium_log_likelihood(0.4, Config.make(game, players, teams=teams or None))
    seen = forced = 0
    for state in random_states(game, players, seed=23, rounds=3, teams=teams):
        codes = state.legal_codes()
        if len(codes) == 1:
            assert model(state, codes[0]) == 0.0
            forced += 1
            continue
        values = _medium_values(state)
        norm = math.log(sum(math.exp(0.4 * v) for v in values))
        for code, value in zip(codes, values, strict=True):
            assert model(state, code) == pytest.approx(0.4 * value - norm, abs=1e-9)
        seen += 1
    assert seen > 5 and forced > 0


def test_the_medium_model_reads_the_hand_the_world_gives_the_seat() -> None:
    """Two worlds that differ only in a tile of the mover's that fits nowhere (the same legal
    plays, so the same greedy likelihoods) give its play different medium likelihoods: the
    model weighs a play by what it leaves in the hand, which the greedy key cannot see."""
    model = medium_log_likelihood(0.5, Config.make("all-fives", 2))
    greedy = greedy_log_likelihood(0.5)
    differ = 0
    for state in random_states("all-fives", 2, seed=31, rounds=4):
        codes = state.legal_codes()
        if len(codes) < 2 or any(c >= LEAD_BASE for c in codes):
            continue
        seat, other_seat = state.turn, 1 - state.turn
        fits = {v for _, v in state.layout.ends}
        idle = [t for t in range(28) if state.hands[seat] >> t & 1
                and not {ALL_TILES[t].low, ALL_TILES[t].high} & fits]
        swap = [t for t in range(28) if state.hands[other_seat] >> t & 1
                and not {ALL_TILES[t].low, ALL_TILES[t].high} & fits
                and ALL_TILES[t].pips != ALL_TILES[idle[0]].pips] if idle else []
        if not swap:
            continue
        world = state.copy()
        world.hands[seat] ^= 1 << idle[0] | 1 << swap[0]
        world.hands[other_seat] ^= 1 << idle[0] | 1 << swap[0]
        assert world.legal_codes() == codes
        for code in codes:
            assert greedy(world, code) == greedy(state, code)
        differ += any(abs(model(world, c) - model(state, c)) > 1e-6 for c in codes)
    assert differ >= 3


def test_the_play_models_are_named_and_an_unknown_one_is_refused() -> None:
    cfg = Config.make("all-fives", 2)
    state = next(s for s in random_states("all-fives", 2, seed=5) if len(s.legal_codes()) > 1)
    code = state.legal_codes()[0]
    assert play_log_likelihood("greedy", 0.7, cfg)(state, code) == \
        greedy_log_likelihood(0.7)(state, code)
    assert play_log_likelihood("medium", 0.7, cfg)(state, code) == \
        medium_log_likelihood(0.7, cfg)(state, code)
    with pytest.raises(ValueError, match="'softmax'"):
        play_log_likelihood("softmax", 0.7, cfg)


#: a stand-in sampler is taken by the pure modules only (the compiled search wants its own
#: class): these run in make test's pure step (CORE_TESTS), and under mutation runs
pure_only = pytest.mark.skipif(build().compiled, reason="a stand-in sampler: the pure build's")


class _Fixed:
    """A sampler whose candidates and their log-likelihoods are given (None: it fails)."""

    def __init__(self, logs: list[float | None]) -> None:
        self.logs = list(logs)
        self.calls = 0
        self.config = Config.make("all-fives", 2)

    def sample_weighted(self, rng: random.Random, model: object) -> tuple[object, float]:
        self.calls += 1
        logw = self.logs.pop(0)
        if logw is None:
            raise SamplingError("no consistent world found")
        return f"w{self.calls}", logw


def _systematic(weights: list[float], n: int, u: float) -> list[int]:
    """Textbook systematic resampling: n points u, u + 1/n, ... of the cumulative weights
    (u drawn in [0, 1/n)), each taking the candidate whose share it falls in."""
    total = sum(weights)
    cum, out, k = 0.0, [], 0
    edges = []
    for w in weights:
        cum += w / total
        edges.append(cum)
    for j in range(n):
        point = u / n + j / n
        while k < len(weights) - 1 and edges[k] < point:
            k += 1
        out.append(k)
    return out


@pure_only
@pytest.mark.parametrize("logs", [
    [0.0, -1.0, -0.2, -3.0, -0.5, -2.0],
    [-4.0, None, -0.1, -0.1, None, -7.0, -0.3, -1.5],
    [-0.7, -0.7, -0.7, -0.7, -0.7, -0.7],
])
def test_worlds_are_resampled_systematically_in_proportion_to_their_likelihood(
        logs: list[float | None]) -> None:

    n = len(logs) // 2
    sampler = _Fixed(logs)
    rng = random.Random(4)
    u = random.Random(4).random()
    worlds, ess = inferred_worlds(sampler, rng, n, beta=1.0)  # type: ignore[arg-type]
    assert sampler.calls == 2 * n  # twice as many candidates as worlds, failures included
    kept = [x for x in logs if x is not None]
    weights = [math.exp(x - max(kept)) for x in kept]
    names = [f"w{i + 1}" for i, x in enumerate(logs) if x is not None]
    assert worlds == [names[k] for k in _systematic(weights, n, u)]
    assert ess == pytest.approx(sum(weights) ** 2 / sum(w * w for w in weights), rel=1e-12)


@pure_only
def test_no_candidate_at_all_is_no_world_and_no_effective_one() -> None:

    worlds, ess = inferred_worlds(_Fixed([None] * 6), random.Random(1), 3, 1.0)  # type: ignore[arg-type]
    assert worlds == [] and ess == 0.0


@pytest.mark.parametrize(("game", "players", "teams"), [
    ("block", 2, False), ("all-fives", 2, False), ("block", 3, False), ("block", 4, True),
    ("block", 4, False)])
def test_an_endgame_is_known_from_the_view_exactly_when_every_world_is_one(
        game: str, players: int, teams: bool) -> None:

    said = {True: 0, False: 0}
    for state in random_states(game, players, seed=2, rounds=4, teams=teams):
        view = view_of(state, state.turn)
        for tiles in (4, 8, 14):
            said[endgame_view(view, tiles)] += 1
            assert endgame_view(view, tiles) == endgame_ready(state, tiles)
    assert said[False] > 0
    if Config.make(game, players, teams=teams or None).sides == 2 and game == "block":
        assert said[True] > 0
