"""``fives random --game G --players N ...``: play a whole match with random legal actions.

Every deal and every choice comes from one ``random.Random(seed)``, so the same seed and
arguments give a byte-identical record. Without ``--seed`` a seed is drawn from the system and
printed to standard error (``seed: N``) so the run can be repeated.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from fives.cli.errors import UsageError
from fives.cli.options import add_match_options, config_from
from fives.core.games import Config
from fives.core.record import record_of, score_json
from fives.core.state import State
from fives.phrasing import seat_number

#: A safety stop for matches that would not end (RULES.md's matches always do, but a tiny
#: house-rule deal could make rounds that score nothing).
MAX_ROUNDS = 1000


def register(sub: Any) -> None:
    p = sub.add_parser(
        "random",
        help="play a match with random legal actions and write its record",
        description="Play a whole match with uniformly random legal actions and write its "
        "record (RECORD.md). The same seed gives the same record.",
    )
    add_match_options(p, "partnerships (4 players only; default: the game's rule)")
    p.add_argument("--seed", type=int, metavar="S", help="random seed (default: a fresh one)")
    p.add_argument("-o", "--output", metavar="FILE", help="write the record here (default: stdout)")
    p.set_defaults(func=run)


def play_random(config: Config, seed: int, max_rounds: int = MAX_ROUNDS) -> State:
    """A whole match of uniformly random legal actions, from ``random.Random(seed)``."""
    rng = random.Random(seed)
    state = State(config)
    rounds = 0
    while not state.over:
        if state.needs_deal():
            if rounds >= max_rounds:
                break
            state.deal_next(rng)
            rounds += 1
            continue
        state.apply(rng.choice(state.legal_actions()))
    return state


def run(args: argparse.Namespace) -> int:
    config = config_from(args)
    out = sys.stdout
    if args.output is not None:
        try:
            out = open(args.output, "w", encoding="utf-8")  # noqa: SIM115 (closed below)
        except OSError as exc:
            raise UsageError(f"{args.output}: cannot write: {exc}") from None
    try:
        seed = args.seed
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
            print(f"seed: {seed}", file=sys.stderr)
        state = play_random(config, seed)
        text = record_of(state, seats=["random"] * config.players).to_json(indent=1)
        try:
            out.write(text + "\n")
            out.flush()
        except OSError as exc:
            if isinstance(exc, BrokenPipeError):
                raise
            raise UsageError(f"{args.output or 'stdout'}: cannot write: {exc}") from None
    finally:
        if out is not sys.stdout:
            out.close()
    print(summary(state), file=sys.stderr)
    return 0


def summary(state: State) -> str:
    cfg = state.config
    rounds = len(state.rounds())
    scores = "-".join(str(score_json(s)) for s in state.scores_out())

    def side(d: int) -> str:  # seats numbered from 1, as people read them
        return f"seats {seat_number(d)}+{seat_number(d + 2)}" if cfg.teams else f"seat {seat_number(d)}"

    if state.over and state.winner is not None:
        verb = "win" if cfg.teams else "wins"
        result = f"{side(state.winner)} {verb}"
    elif state.over:
        result = "drawn"
    else:
        result = f"unfinished (stopped after {MAX_ROUNDS} rounds)"
    played = f"{rounds} round{'s' if rounds != 1 else ''}"
    return f"{cfg.game.name}, {cfg.players} players: {played}, scores {scores}, {result}"
