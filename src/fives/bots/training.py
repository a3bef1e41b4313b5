"""Training what the bots use, on matches the engine plays itself (``fives train``): nothing is
downloaded, and the same seed, matches and bots give the same result."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from fives.bots.host import Seeds, deal_round
from fives.bots.playmodel import PLAY_MODELS, fit_beta, mean_log_likelihood
from fives.bots.registry import BotName
from fives.core.games import GAMES, Config
from fives.core.state import State
from fives.core.tiles import Action
from fives.core.view import View, view_of

__all__ = ["Decision", "FittedGame", "first_match_digest", "fit_game", "plays_of", "self_play",
           "train"]


@dataclass(frozen=True)
class FittedGame:
    game: str
    model: str  # the key that explains the plays better (fives.bots.search.PLAY_MODELS)
    beta: float
    plays: int  # plays with a choice the fit saw
    mean_log_likelihood: float  # per play, at beta
    uniform_log_likelihood: float  # per play, every legal play alike (beta 0)
    fits: dict[str, dict[str, float]]  # each key's beta and mean log-likelihood

    def entry(self) -> dict[str, Any]:
        """The game's entry in the model file (its first match's fingerprint added there)."""
        return {"model": self.model, "beta": self.beta, "plays": self.plays,
                "mean_log_likelihood": self.mean_log_likelihood,
                "uniform_log_likelihood": self.uniform_log_likelihood, "fits": self.fits}


def fit_game(game: str, samples: Sequence[tuple[State, int]]) -> FittedGame:
    """Each key's beta fitted on ``samples``, and the one that explains them better (the
    greedy key on a tie: the simpler model)."""
    fits: dict[str, dict[str, float]] = {}
    for model in PLAY_MODELS:
        beta = fit_beta(samples, model=model)
        fits[model] = {"beta": beta,
                       "mean_log_likelihood": round(mean_log_likelihood(samples, beta, model), 4)}
    best = max(PLAY_MODELS, key=lambda m: fits[m]["mean_log_likelihood"])
    return FittedGame(game, best, fits[best]["beta"], len(samples),
                      fits[best]["mean_log_likelihood"],
                      round(mean_log_likelihood(samples, 0.0), 4), fits)


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
    """The model file's content: each game's fitted model over two-player matches."""
    fitted: dict[str, Any] = {}
    for game in games or sorted(GAMES):
        numbered = _numbered_plays(game, 2, bots, matches, seed)
        result = fit_game(game, [(state, code) for _, state, code in numbered])
        fitted[game] = {**result.entry(),
                        "first_match_sha256": _digest([(st, c) for m, st, c in numbered
                                                       if m == 0])}
        if progress is not None:
            progress(f"{game}: {result.model}, beta {result.beta} over {result.plays} plays")
    return {"model": "softmax over a key, per game the one that explains the plays better: "
                     "greedy (points now, then pips / 12) or medium (its values of the plays "
                     "from the seat's own hand)",
            "seed": seed, "matches": matches, "bots": list(bots), "games": fitted}
