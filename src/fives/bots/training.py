"""Training what the bots use, on matches the engine plays itself (``fives train``): nothing is
downloaded, and the same seed, matches and bots give the same result."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from fives.bots.host import Seeds, deal_round
from fives.bots.playmodel import fit_beta, mean_log_likelihood
from fives.bots.registry import BotName
from fives.core.games import GAMES, Config
from fives.core.state import State
from fives.core.tiles import Action
from fives.core.view import View, view_of

__all__ = ["Decision", "FittedGame", "first_match_digest", "plays_of", "self_play", "train"]


@dataclass(frozen=True)
class FittedGame:
    game: str
    beta: float
    plays: int  # plays with a choice the fit saw
    mean_log_likelihood: float  # per play, at beta
    uniform_log_likelihood: float  # per play, every legal play alike (beta 0)


@dataclass(frozen=True)
class Decision:
    """One turn of a match the engine plays itself: the state and the mover's view before the
    action, and the action the bot chose (the only one, where there was no choice)."""

    match: int
    round: int  # rounds dealt so far in this match
    state: State
    view: View
    action: Action


def self_play(config: Config, bots: Sequence[str], matches: int,
              match_seed: Callable[[int], int], max_rounds: int) -> Iterator[Decision]:
    """Every turn of ``matches`` matches the ``bots`` play (seats rotating from match to match),
    each match dealt and played from ``match_seed(m)``, at most ``max_rounds`` rounds."""
    for m in range(matches):
        # by counts alone (no clock): the same seed plays the same matches on any machine
        seated = [BotName.parse(bots[(i + m) % len(bots)]).make_by_counts()
                  for i in range(config.players)]
        try:
            state = State(config)
            seeds = Seeds(match_seed(m))
            rng = random.Random(match_seed(m))
            rounds = 0
            while not state.over and rounds < max_rounds:
                if state.needs_deal():
                    deal_round(state, seeds)
                    rounds += 1
                    continue
                view = view_of(state, state.turn)
                action = (seated[state.turn].choose(view, rng) if len(view.legal) > 1
                          else view.legal[0])
                yield Decision(m, rounds, state, view, action)
                state.play(action)
        finally:
            for bot in seated:
                bot.close()


def plays_of(game: str, players: int, bots: Sequence[str], matches: int,
             seed: int) -> list[tuple[State, int]]:
    """The state before each play with a choice, and the play made, in ``matches`` whole
    matches the ``bots`` play (their seats rotating from match to match)."""
    return [(state, code) for _, state, code in _numbered_plays(game, players, bots, matches,
                                                                  seed)]


def _numbered_plays(game: str, players: int, bots: Sequence[str], matches: int,
                    seed: int) -> list[tuple[int, State, int]]:
    return [(d.match, d.state.copy(), int(d.action))
            for d in self_play(Config.make(game, players), bots, matches,
                               lambda m: seed * 1000 + m, 50)
            if len(d.view.legal) > 1 and d.action.is_play]


def _digest(plays: Sequence[tuple[State, int]]) -> str:
    """A fingerprint of plays: each position's actions so far and the play made there."""
    text = "\n".join(f"{state.scores}{[entry[1] for entry in state.log]}:{code}"
                      for state, code in plays)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def first_match_digest(game: str, bots: Sequence[str], seed: int) -> str:
    """The fingerprint of the first match's plays, as :func:`train` records it: a check in
    seconds that named bots and seed still play the matches a model was fitted on."""
    return _digest(plays_of(game, 2, bots, 1, seed))


def train(seed: int, matches: int, bots: Sequence[str],
          games: Sequence[str] | None = None,
          progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The model file's content: each game's fitted beta over two-player matches."""
    fitted: dict[str, Any] = {}
    for game in games or sorted(GAMES):
        numbered = _numbered_plays(game, 2, bots, matches, seed)
        samples = [(state, code) for _, state, code in numbered]
        beta = fit_beta(samples)
        result = FittedGame(game, beta, len(samples),
                            round(mean_log_likelihood(samples, beta), 4),
                            round(mean_log_likelihood(samples, 0.0), 4))
        fitted[game] = {"beta": result.beta, "plays": result.plays,
                        "mean_log_likelihood": result.mean_log_likelihood,
                        "uniform_log_likelihood": result.uniform_log_likelihood,
                        "first_match_sha256": _digest([(st, c) for m, st, c in numbered
                                                       if m == 0])}
        if progress is not None:
            progress(f"{game}: beta {beta} over {len(samples)} plays")
    return {"model": "softmax over the greedy key (points now, then pips / 12)",
            "seed": seed, "matches": matches, "bots": list(bots), "games": fitted}
