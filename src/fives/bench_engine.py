"""Engine speed: uniformly random rounds, timed (``fives bench engine``).

Outside the core because it reads the clock. A "round" is one hand from the deal to its end,
the unit OpenSpiel and the ``dominoes`` package call a game.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from fives.core.games import GAMES, Config
from fives.core.pickling import pickle_by_constructor
from fives.core.state import State
from fives.core.tiles import LEAD_BASE

__all__ = ["EngineFigure", "measure", "measure_rounds", "play_random_rounds"]

_PLAY_LIMIT: Final = LEAD_BASE + 28


@dataclass(frozen=True)
class EngineFigure:
    game: str
    players: int
    teams: bool
    hand_size: int
    rounds_per_sec: float
    plays_per_sec: float
    actions_per_sec: float
    rounds: int


def play_random_rounds(config: Config, rounds: int, rng: random.Random) -> tuple[int, int]:
    """Play ``rounds`` rounds of uniformly random legal actions, each the first round of a
    fresh match (so every deal is new); return how many plays and actions were made."""
    rand = rng.random
    plays = actions = 0
    for _ in range(rounds):
        state = State(config)
        state.deal_next(rng)
        while True:
            # direct calls, not bound methods kept in locals: compiled, they are C calls
            codes = state.legal_codes()
            if not codes:
                break
            code = codes[int(rand() * len(codes))]
            if code < _PLAY_LIMIT:
                plays += 1
            actions += 1
            state.apply_code(code)
    return plays, actions


def measure(
    config: Config, seconds: float, seed: int, clock: Callable[[], float] = time.perf_counter
) -> EngineFigure:
    """Play random rounds for about ``seconds`` of ``clock`` (in batches of 50 between its
    readings): the wall clock, or ``time.process_time`` for the CPU time this process was
    given, which on a machine shared with other work still reads what the rounds cost."""
    rng = random.Random(seed)
    rounds = plays = actions = 0
    start = clock()
    deadline = start + seconds
    while True:
        batch_plays, batch_actions = play_random_rounds(config, 50, rng)
        plays += batch_plays
        actions += batch_actions
        rounds += 50
        now = clock()
        if now >= deadline:
            break
    elapsed = now - start
    return EngineFigure(
        config.game.name,
        config.players,
        config.teams,
        config.hand_size,
        rounds / elapsed,
        plays / elapsed,
        actions / elapsed,
        rounds,
    )


def measure_rounds(
    game: str, players: int, teams: bool, hand_size: int | None, seconds: float, seed: int
) -> tuple[float, float]:
    """(rounds per second, plays per second) for one configuration (used by bench/peers.py)."""
    rules = {"hand_size": hand_size} if hand_size is not None else None
    fig = measure(Config.make(game, players, teams=teams, rules=rules), seconds, seed)
    return fig.rounds_per_sec, fig.plays_per_sec


def all_configs() -> list[Config]:
    out = []
    for name in GAMES:
        for players in (2, 3, 4):
            out.append(Config.make(name, players))
    out.append(Config.make("block", 4, teams=True, rules={"hand_size": 7}))
    return out

pickle_by_constructor(EngineFigure)
