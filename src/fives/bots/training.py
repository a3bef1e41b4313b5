"""Training what the bots use, on matches the engine plays itself (``fives train``): nothing is
downloaded, and the same seed, matches and bots give the same result."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from fives.bots.host import Seeds, deal_round
from fives.bots.playmodel import fit_beta, mean_log_likelihood
from fives.bots.registry import make_bot
from fives.core.games import GAMES, Config
from fives.core.state import State
from fives.core.view import view_of

__all__ = ["FittedGame", "plays_of", "train"]


@dataclass(frozen=True)
class FittedGame:
    game: str
    beta: float
    plays: int  # plays with a choice the fit saw
    mean_log_likelihood: float  # per play, at beta
    uniform_log_likelihood: float  # per play, every legal play alike (beta 0)


def plays_of(game: str, players: int, bots: Sequence[str], matches: int,
             seed: int) -> list[tuple[State, int]]:
    """The state before each play with a choice, and the play made, in ``matches`` whole
    matches the ``bots`` play (their seats rotating from match to match)."""
    found: list[tuple[State, int]] = []
    for m in range(matches):
        config = Config.make(game, players)
        seated = [make_bot(bots[(i + m) % len(bots)]) for i in range(players)]
        state = State(config)
        seeds = Seeds(seed * 1000 + m)
        rng = random.Random(seed * 1000 + m)
        rounds = 0
        while not state.over and rounds < 50:
            if state.needs_deal():
                deal_round(state, seeds)
                rounds += 1
                continue
            seat = state.turn
            codes = state.legal_codes()
            if len(codes) == 1:
                state.apply_code(codes[0])
                continue
            action = seated[seat].choose(view_of(state, seat), rng)
            if action.is_play:
                found.append((state.copy(), int(action)))
            state.play(action)
        for bot in seated:
            bot.close()
    return found



def train(seed: int, matches: int, bots: Sequence[str],
          games: Sequence[str] | None = None,
          progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The model file's content: each game's fitted beta over two-player matches."""
    fitted: dict[str, Any] = {}
    for game in games or sorted(GAMES):
        samples = plays_of(game, 2, bots, matches, seed)
        beta = fit_beta(samples)
        result = FittedGame(game, beta, len(samples),
                            round(mean_log_likelihood(samples, beta), 4),
                            round(mean_log_likelihood(samples, 0.0), 4))
        fitted[game] = {"beta": result.beta, "plays": result.plays,
                        "mean_log_likelihood": result.mean_log_likelihood,
                        "uniform_log_likelihood": result.uniform_log_likelihood}
        if progress is not None:
            progress(f"{game}: beta {beta} over {len(samples)} plays")
    return {"model": "softmax over the greedy key (points now, then pips / 12)",
            "seed": seed, "matches": matches, "bots": list(bots), "games": fitted}
