"""The searching bots' playout policies against the rules (issue 42: the values, not only the
legality): in every game and player count, the greedy policy plays what scores most now by the
engine's own count, then the heaviest tile, the first such in the order given; the halving
search's policy counts a play as the rules do near an exact target (passing it counts nothing,
reaching it wins), subtracts the best reply of the next seat (always an opponent: in
partnerships the partner sits two seats on) unless the play goes out, with ``answer`` counts a
play after which that seat holds no tile that fits any end as ``answer`` points more, and
takes a random move exactly when its draw falls under ``eps``."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from fives.bots.search import Policy, _best_reply, _greedy, greedy_code
from fives.core.games import Config
from fives.core.state import State
from fives.core.tiles import ALL_TILES, LEAD_BASE
from recordkit import random_states

#: every game, every player count, and partnerships
TABLES = [(g, n, False) for g in ("all-fives", "fives-and-threes", "muggins", "draw", "block")
          for n in (2, 3, 4)] + [("all-fives", 4, True), ("fives-and-threes", 4, True)]


def _tile(code: int) -> int:
    return code - LEAD_BASE if code >= LEAD_BASE else code >> 2


def _choices(game: str, players: int, teams: bool, seed: int) -> Iterator[State]:
    """Turns with a real choice among plays (no draw, no pass), a few rounds in."""
    for state in random_states(game, players, seed, rounds=6, teams=teams):
        codes = state.legal_codes()
        if len(codes) > 1 and all(c < LEAD_BASE + 28 for c in codes):
            yield state


def _engine_points(state: State, code: int) -> int:
    """What the play scores on the board, as the engine counts it (the log's points)."""
    return state.copy().apply_code(code)[3]


def _reply_by_placing(state: State, code: int, seat: int) -> int:
    """The most ``seat`` could score with one play on the board after ``code``: each of its
    tiles placed on each open end it matches, on a copy of the layout, and counted."""
    after = state.layout.copy()
    after.place(_tile(code), code & 3 if code < LEAD_BASE else 0)
    table = state.config.game.play_points
    best = 0
    hand = state.hands[seat] & ~(1 << _tile(code))
    for tid in range(28):
        if not hand >> tid & 1:
            continue
        t = ALL_TILES[tid]
        for end, value in after.ends:
            if value in (t.low, t.high):
                trial = after.copy()
                best = max(best, table[trial.place(tid, end)])
    return best


def _can_answer(state: State, code: int, seat: int) -> bool:
    """Whether ``seat`` holds a tile that fits an end of the board after ``code``."""
    after = state.layout.copy()
    after.place(_tile(code), code & 3 if code < LEAD_BASE else 0)
    return any(state.hands[seat] >> tid & 1 and value in (ALL_TILES[tid].low, ALL_TILES[tid].high)
               for tid in range(28) for _, value in after.ends)


class Draws:
    """A stand-in for ``rng.random``: the given numbers, in order."""

    def __init__(self, *values: float) -> None:
        self.values = list(values)

    def __call__(self) -> float:
        return self.values.pop(0)


@pytest.mark.parametrize(("game", "players", "teams"), TABLES)
def test_the_greedy_playout_takes_the_most_points_then_the_heaviest_tile(
        game: str, players: int, teams: bool) -> None:
    seen = 0
    for state in _choices(game, players, teams, seed=players * 31 + len(game)):
        codes = state.legal_codes()
        keys = [(_engine_points(state, c), ALL_TILES[_tile(c)].pips) for c in codes]
        want = codes[keys.index(max(keys))]  # the first of the best, in the order given
        assert _greedy(state, codes, Draws(0.5), 0.25) == want
        assert _greedy(state, list(reversed(codes)), Draws(0.5), 0.0) == (
            list(reversed(codes))[list(reversed(keys)).index(max(keys))])
        seen += 1
    assert seen >= 15


def test_the_greedy_playout_is_random_exactly_when_its_first_draw_falls_under_eps() -> None:
    state = next(_choices("all-fives", 2, False, seed=5))
    codes = state.legal_codes()
    best = _greedy(state, codes, Draws(0.99), 0.0)
    assert _greedy(state, codes, Draws(0.2, 0.999), 0.25) == codes[-1]  # 0.2 < 0.25: random
    assert _greedy(state, codes, Draws(0.2, 0.0), 0.25) == codes[0]
    assert _greedy(state, codes, Draws(0.25), 0.25) == best  # not under: greedy
    assert _greedy(state, codes[:1], Draws(), 1.0) == codes[0]  # one choice: no draw at all
    # greedy_code draws from the generator it is given, the same way
    rng, again = random.Random(8), random.Random(8)
    first, second = again.random(), again.random()
    eps = first + 1e-9
    assert greedy_code(state, codes, rng, eps) == codes[int(second * len(codes))]
    assert greedy_code(state, codes, random.Random(8), first) == best


def _at(game: str, scores: list[int]) -> State:
    state = State(Config.make(game, 2))
    state.deal_next(random.Random(1))
    state.scores[:] = scores
    return state


def test_the_policy_counts_a_play_as_the_rules_do_near_an_exact_target() -> None:
    """FT-10/FT-11: a play that would pass 61 counts nothing (worse than a quiet play), one
    that reaches it exactly wins; going out adds its point to the same event."""
    at = _at("fives-and-threes", [55, 20])
    policy = Policy(at, 0.0, 0.0)
    assert policy.counted(at, 0, 5, False) == 5.0
    assert policy.counted(at, 0, 6, False) == 1000.0
    assert policy.counted(at, 0, 5, True) == 1000.0  # 5 and the point for going out
    assert policy.counted(at, 0, 7, False) == -1.0
    assert policy.counted(at, 0, 0, False) == 0.0
    assert policy.counted(at, 0, 0, True) == 1.0  # the point for going out alone
    assert policy.counted(at, 1, 7, False) == 7.0  # the other side is far from 61
    assert policy.counted(_at("fives-and-threes", [60, 0]), 0, 0, True) == 1000.0
    plain = _at("all-fives", [245, 0])
    assert Policy(plain, 0.0, 0.0).counted(plain, 0, 10, True) == 10.0  # no exact target


def _counted(state: State, seat: int, points: int, last: bool) -> float:
    """FT-10/FT-11 read from the rules for the oracle: the same promises as above."""
    game = state.config.game
    if not game.exact_target:
        return float(points)
    event = points + (game.domino_bonus if last else 0)
    if event == 0:
        return 0.0
    after = state.scores[state.side[seat]] + event
    return -1.0 if after > state.config.target else 1000.0 if after == state.config.target else float(event)


@pytest.mark.parametrize(("game", "players", "teams"), TABLES)
@pytest.mark.parametrize(("look", "answer"), [(0.0, 0.0), (0.5, 0.0), (0.0, 3.0), (0.5, 3.0)])
def test_the_policy_plays_what_counts_most_less_the_next_opponents_best_reply(
        game: str, players: int, teams: bool, look: float, answer: float) -> None:
    seen = replies = blocks = 0
    for state in _choices(game, players, teams, seed=players * 7 + len(game)):
        codes = state.legal_codes()
        seat = state.turn
        last = state.hands[seat].bit_count() == 1
        nxt = (seat + 1) % players
        opponent = state.side[nxt] != state.side[seat]
        keys = []
        for code in codes:
            key = _counted(state, seat, _engine_points(state, code), last) * 64.0 + ALL_TILES[
                _tile(code)].pips
            if look > 0 and opponent and not last:
                reply = _reply_by_placing(state, code, nxt)
                replies += reply > 0
                key -= look * 64.0 * reply
            if answer > 0 and opponent and not last and not _can_answer(state, code, nxt):
                blocks += 1
                key += answer * 64.0
            keys.append(key)
        want = codes[keys.index(max(keys))]
        assert Policy(state, 0.1, look, answer).choose(state, codes, Draws(0.5)) == want
        seen += 1
    assert seen >= 15
    if look and any(Config.make(game, players).game.play_points):
        assert replies > 0  # some positions where the reply mattered (Draw and Block score none)
    if answer:
        assert blocks > 0  # some plays the next opponent could not answer


def test_the_policy_is_random_exactly_when_its_first_draw_falls_under_eps() -> None:
    state = next(_choices("muggins", 2, False, seed=9))
    codes = state.legal_codes()
    policy = Policy(state, 0.3, 0.0)
    best = Policy(state, 0.0, 0.0).choose(state, codes, Draws(0.5))
    assert policy.choose(state, codes, Draws(0.29, 0.999)) == codes[-1]
    assert policy.choose(state, codes, Draws(0.29, 0.0)) == codes[0]
    assert policy.choose(state, codes, Draws(0.3)) == best


@pytest.mark.parametrize("game", ["all-fives", "fives-and-threes", "muggins"])
def test_the_best_reply_is_the_most_one_play_could_score(game: str) -> None:
    checked = 0
    for state in random_states(game, 3, seed=42, rounds=3):
        table = list(state.config.game.play_points)
        for seat in range(3):
            hand = state.hands[seat]
            want = 0
            for tid in range(28):
                if hand >> tid & 1:
                    t = ALL_TILES[tid]
                    for end, value in state.layout.ends:
                        if value in (t.low, t.high):
                            want = max(want, table[state.layout.copy().place(tid, end)])
            assert _best_reply(state.layout, hand, table) == want
            checked += want > 0
    assert checked > 30


def test_the_last_tile_counts_the_point_for_going_out_toward_an_exact_target() -> None:
    """FT-11: a hand's last tile scores its play and the point for going out as one event.
    With the side exactly the higher placement's points short of 61, that placement passes 61
    once the point for going out is added (nothing counted): the policy takes a lower one."""
    found = 0
    for players in (2, 3, 4):
        for seed in range(60):
            for state in random_states("fives-and-threes", players, seed, rounds=1):
                seat = state.turn
                codes = state.legal_codes()
                if state.hands[seat].bit_count() != 1 or len(codes) < 2:
                    continue
                points = {c: _engine_points(state, c) for c in codes}
                high = max(points.values())
                if min(points.values()) == high:
                    continue
                side = state.side[seat]
                keep = list(state.scores)
                state.scores[side] = 61 - high
                keys = [_counted(state, seat, points[c], True) * 64.0
                        + ALL_TILES[_tile(c)].pips for c in codes]
                want = codes[keys.index(max(keys))]
                assert points[want] < high  # the higher one would pass 61
                assert Policy(state, 0.0, 0.0).choose(state, codes, Draws(0.5)) == want
                state.scores[:] = keep
                found += 1
    assert found >= 3
