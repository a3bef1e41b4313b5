"""Positions whose best play is known, and the bots that must find it (issue 42, item 2: the
bots' values, not only their legality).

Two kinds:

- built by hand, where one play is best in every deal of the unseen tiles: a lead that wins
  the match at once (a partner counted as a partner is proven in ``test_search_values.py``);
- endgames with every tile known (two players, all 28 tiles dealt, six or fewer left in the
  hands), whose true values a plain minimax written here computes (no pruning, none of the
  bots' code), kept where the best play leads the next by two points or more and the greedy
  play (the most points now) is not the best: there the searching levels must choose the best.
"""

from __future__ import annotations

import random

import pytest

from fives.bots import make_bot
from fives.bots.search import endgame_ready
from fives.core.games import Config
from fives.core.record import Record, replay_state
from fives.core.state import State
from fives.core.tiles import ACTIONS, Action
from fives.core.view import view_of
from minimax import plain_minimax
from recordkit import rec, rnd

SEARCHERS = ["hard", "expert"]


def _choices(state: State, level: str, seed: int = 1) -> str:
    bot = make_bot(level)
    try:
        return str(bot.choose(view_of(state, state.turn), random.Random(seed)))
    finally:
        bot.close()


# -- by hand -------------------------------------------------------------------------------------


def test_a_lead_that_wins_the_match_at_once_is_chosen_and_valued_above_the_rest() -> None:
    """AF-3, target 10: leading 5-5 scores 10 and ends the match; 0-1 scores nothing."""
    data = rec("all-fives", 2, rnd([["5-5", "0-1"], ["1-5", "0-2"]]), target=10,
               rules={"hand_size": 2})
    state = replay_state(Record.from_data(data))
    assert state.turn == 0
    for level in ["medium", *SEARCHERS]:
        assert _choices(state, level) == "5-5", level
    bot = make_bot("hard")
    values = bot.values(view_of(state, 0), random.Random(2))
    assert values[Action.parse("5-5")] > values[Action.parse("0-1")]


# -- endgames with every tile known ------------------------------------------------------------


def _known_endgames(game: str, want: int, seed: int) -> list[tuple[State, set[str], str]]:
    """(position, its best plays, the greedy play) of two-player rounds with all 28 tiles
    dealt, at six tiles left or fewer, where the best leads by two points and greed misses it."""
    out: list[tuple[State, set[str], str]] = []
    rng = random.Random(seed)
    config = Config.make(game, 2, rules={"hand_size": 14})
    for _ in range(400):
        state = State(config)
        state.deal_next(rng)
        while state.turn >= 0 and not endgame_ready(state, 6):
            codes = state.legal_codes()
            state.apply_code(codes[int(rng.random() * len(codes))])
        if state.turn < 0:
            continue
        codes = [c for c in state.legal_codes() if ACTIONS[c].is_play]
        if len(codes) < 2:
            continue
        side = state.config.side_of(state.turn)
        before = [float(s) for s in state.scores]
        values: dict[str, float] = {}
        points: dict[str, int] = {}
        for code in codes:
            after = state.copy()
            scored = after.scores[side]
            after.apply_code(code)
            points[str(ACTIONS[code])] = int(after.scores[side]) - int(scored)
            values[str(ACTIONS[code])] = plain_minimax(after, before, side)
        ranked = sorted(set(values.values()), reverse=True)
        if len(ranked) < 2 or ranked[0] - ranked[1] < 2:
            continue
        best = {a for a, v in values.items() if v == ranked[0]}
        greedy = max(points, key=lambda a: (points[a], a))
        if greedy in best:
            continue
        out.append((state, best, greedy))
        if len(out) == want:
            break
    return out


@pytest.mark.parametrize("game", ["all-fives", "fives-and-threes", "muggins"])
def test_in_endgames_with_every_tile_known_the_searching_levels_choose_the_true_best(
        game: str) -> None:
    positions = _known_endgames(game, 4, seed=11)
    assert len(positions) == 4, "not enough positions where greed loses"
    for state, best, greedy in positions:
        assert greedy not in best  # the most points now is not the best: a search is needed
        for level in SEARCHERS:
            chosen = _choices(state, level)
            assert chosen in best, (level, chosen, sorted(best), greedy)
