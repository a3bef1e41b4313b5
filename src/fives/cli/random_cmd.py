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
from fives.cli.options import add_match_options, config_from, lang_of
from fives.core.games import Config
from fives.core.record import record_of, score_json
from fives.core.state import State
from fives.i18n import default_language, plural, t
from fives.phrasing import os_error_text, seat_number

#: A safety stop for matches that would not end (RULES.md's matches always do, but a tiny
#: house-rule deal could make rounds that score nothing).
MAX_ROUNDS = 1000


def register(sub: Any) -> None:
    lang = default_language()
    p = sub.add_parser(
        "random", help=t("cli.random.help", lang), description=t("cli.random.description", lang)
    )
    add_match_options(p, t("cli.random.teams", lang))
    p.add_argument("--seed", type=int, metavar="S", help=t("cli.opt.seed_fresh", lang))
    p.add_argument("-o", "--output", metavar="FILE", help=t("cli.random.output", lang))
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
    lang = lang_of(args)
    out = sys.stdout
    if args.output is not None:
        try:
            out = open(args.output, "w", encoding="utf-8")  # noqa: SIM115 (closed below)
        except OSError as exc:
            raise UsageError(t("cli.err.write", lang, path=args.output, why=os_error_text(exc, lang)), lang) from None
    try:
        seed = args.seed
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
            print(t("cli.seed", lang, seed=seed), file=sys.stderr)
        state = play_random(config, seed)
        text = record_of(state, seats=["random"] * config.players).to_json(indent=1)
        try:
            out.write(text + "\n")
            out.flush()
        except OSError as exc:
            if isinstance(exc, BrokenPipeError):
                raise
            path = args.output or "stdout"
            raise UsageError(t("cli.err.write", lang, path=path, why=os_error_text(exc, lang)), lang) from None
    finally:
        if out is not sys.stdout:
            out.close()
    print(summary(state, lang), file=sys.stderr)
    return 0


def summary(state: State, lang: str = "en") -> str:
    """One line on the match: its rounds, scores and result, seats numbered from 1."""
    cfg = state.config
    scores = "-".join(str(score_json(s)) for s in state.scores_out())
    if state.over and state.winner is not None:
        d = state.winner
        result = (t("cli.random.seats_win", lang, seats=f"{seat_number(d)}+{seat_number(d + 2)}")
                  if cfg.teams else t("cli.random.seat_wins", lang, seat=seat_number(d)))
    elif state.over:
        result = t("cli.random.drawn", lang)
    else:
        result = t("cli.random.unfinished", lang, n=MAX_ROUNDS)
    return t("cli.random.summary", lang, game=cfg.game.name, players=cfg.players,
             rounds=plural("cli.random.rounds", len(state.rounds()), lang), scores=scores,
             result=result)
