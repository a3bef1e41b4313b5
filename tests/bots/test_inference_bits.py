"""The measure of how much the other seat's plays tell (tools/inference_bits.py, README "How
much the plays tell"): a forecast from worlds that lean to the true hand scores fewer bits than
uniform worlds, and one that leans away scores more, so the figures rank models the right way."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

from fives.core.games import Config
from fives.core.state import State

_PATH = Path(__file__).resolve().parents[2] / "tools" / "inference_bits.py"
_spec = importlib.util.spec_from_file_location("inference_bits", _PATH)
assert _spec is not None and _spec.loader is not None
bits = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bits)


def _midround(seed: int) -> State:
    """Seat 0 to play in a two-player Fives and Threes round, after six greedy-ish plays."""
    rng = random.Random(seed)
    state = State(Config.make("fives-and-threes", 2))
    state.deal_next(rng)
    while state.turn >= 0 and (len(state.log) < 6 or state.turn != 0):
        codes = state.legal_codes()
        state.apply_code(codes[int(rng.random() * len(codes))])
    assert state.turn == 0
    return state


def test_worlds_leaning_to_the_true_hand_score_fewer_bits_and_leaning_away_more() -> None:
    state = _midround(3)
    truth = state.hands[1]

    def toward(world: State, code: int) -> float:  # each true tile missing costs e^-2
        return -2.0 * (truth & ~world.hands[1]).bit_count()

    def away(world: State, code: int) -> float:
        return -toward(world, code)

    found = bits.forecast_bits(state, {"uniform": None, "toward": toward, "away": away},
                               random.Random(1))
    assert 0.3 < found["uniform"] < 1.0
    assert found["toward"] < found["uniform"] - 0.1
    assert found["away"] > found["uniform"] + 0.1
