"""The analysis shared by ``fives analyse``, the replay and the site (issue 28): it sees only
the analysed seat's view, so its values are the same whatever the other hands were; its marks
follow the game's thresholds; its document counts from 1."""

from __future__ import annotations

import random

import pytest

from fives.analysis import MARKS, analyse, document, mark_of
from fives.bots import BotName, make_bot
from fives.core.games import GAMES, Config
from fives.core.record import record_of
from fives.core.sampling import WorldSampler
from fives.core.state import State
from fives.core.view import view_of


def decision_point(seed: int) -> State:
    """A round of two-player All Fives played at random to a choice of seat 0's, after at
    least eight actions."""
    rng = random.Random(seed)
    state = State(Config.make("all-fives", 2))
    state.deal_next(rng)
    n = 0
    while True:
        codes = state.legal_codes()
        if n >= 8 and state.turn == 0 and len(codes) > 2:
            return state
        state.apply_code(rng.choice(codes))
        n += 1
        if state.turn < 0:
            state = State(Config.make("all-fives", 2))
            state.deal_next(rng)
            n = 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seats_analysis_is_the_same_whatever_the_other_hands_were(seed: int) -> None:
    real = decision_point(seed)
    other = WorldSampler(view_of(real, 0)).sample(random.Random(seed + 100))
    assert other.hands[1] != real.hands[1] or other.stock_left() == 0
    assert view_of(other, 0).to_json() == view_of(real, 0).to_json()
    action = real.legal_actions()[0]
    real.play(action)
    other.play(action)
    bot = BotName.parse("hard").make_by_counts()  # as the server analyses
    a = analyse(record_of(real), bot, seats=[0])
    b = analyse(record_of(other), bot, seats=[0])
    assert a and [d["values"] for d in a] == [d["values"] for d in b]
    assert [(d["loss"], d["mark"]) for d in a] == [(d["loss"], d["mark"]) for d in b]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_marks_follow_the_games_thresholds(game: str) -> None:
    g = GAMES[game]
    low, mid, high = g.loss_marks
    assert 0 < low < mid < high
    assert mark_of(g, None) is None and mark_of(g, 0.0) is None
    assert mark_of(g, low - 0.01) is None
    assert [mark_of(g, x) for x in (low, mid, high, high * 3)] == [
        "inaccuracy", "mistake", "blunder", "blunder"]


def test_the_document_counts_from_one_and_marks_only_disagreements() -> None:
    real = decision_point(4)
    real.play(real.legal_actions()[-1])
    record = record_of(real)
    decisions = analyse(record, make_bot("medium"), seats=[0])
    doc = document(record, "medium", decisions, [0])
    assert doc["seats"] == [1] and doc["thresholds"] == dict(zip(MARKS, (2.5, 5.0, 10.0)))
    assert all(d["seat"] == 1 and d["round"] >= 1 and d["action_no"] >= 1
               for d in doc["decisions"])
    for d in doc["decisions"]:
        assert (d["mark"] is None) or (not d["agrees"] and d["loss"] >= 2.5)
        assert isinstance(d["margin"], float)
    assert sum(doc["summary"][0]["marks"].values()) == sum(
        1 for d in doc["decisions"] if d["mark"])
