"""Random matches of every game and player count, for the property tests.

A match is a configuration and a seed: a seeded ``random.Random`` deals with
``state.deal_next(rng)`` and chooses uniformly among ``state.legal_actions()``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from fives.core.games import Config
from fives.core.state import State
from fives.core.tiles import ACTIONS

MAX_ROUNDS = 60

#: game, players, teams (None: the rules' default), house rules
Spec = tuple[str, int, bool | None, dict[str, Any] | None]

CONFIGS: list[Spec] = [
    ("all-fives", 2, None, None),
    ("all-fives", 3, None, None),
    ("all-fives", 4, None, None),  # partnerships
    ("all-fives", 4, False, None),
    ("all-fives", 2, None, {"side_arm_gate": False}),
    ("fives-and-threes", 2, None, None),
    ("fives-and-threes", 3, None, None),
    ("fives-and-threes", 4, None, None),  # partnerships
    ("fives-and-threes", 4, False, None),
    ("muggins", 2, None, None),
    ("muggins", 3, None, None),
    ("muggins", 4, None, None),
    ("muggins", 4, True, None),
    ("draw", 2, None, None),
    ("draw", 3, None, None),
    ("draw", 4, None, None),
    ("block", 2, None, None),
    ("block", 3, None, None),
    ("block", 4, None, None),
    # all (or all but one) tiles dealt: blocked rounds, ties and splits are frequent
    ("all-fives", 3, None, {"hand_size": 9}),
    ("all-fives", 4, None, {"hand_size": 7}),
    ("muggins", 2, None, {"hand_size": 14}),
    ("muggins", 3, None, {"hand_size": 9}),
    ("draw", 4, None, {"hand_size": 7}),
]

#: a configuration and the seed of a match's deals and choices
matches = st.tuples(st.sampled_from(CONFIGS), st.integers(min_value=0, max_value=2**32 - 1))


def config_of(spec: Spec) -> Config:
    game, players, teams, rules = spec
    return Config.make(game, players, teams=teams, rules=rules)


def play_match(
    config: Config,
    seed: int,
    check: Callable[[State, int | None], None] | None = None,
    max_rounds: int = MAX_ROUNDS,
) -> State:
    """Play a random match (at most ``max_rounds`` rounds); call ``check(state, code)`` after
    each deal (code None) and after every action."""
    rng = random.Random(seed)
    state = State(config)
    rounds = 0
    while not state.over and rounds < max_rounds:
        state.deal_next(rng)
        rounds += 1
        if check:
            check(state, None)
        while state.round_end is None:
            legal = state.legal_codes()
            assert legal, "nobody to act in a round that has not ended"
            code = rng.choice(legal)
            state.play(ACTIONS[code])
            if check:
                check(state, code)
    return state
