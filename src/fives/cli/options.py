"""Command-line options shared by the commands that set up matches (random, tournament)."""

from __future__ import annotations

import argparse

from fives.cli.errors import UsageError
from fives.core.games import Config, RulesError

__all__ = ["add_match_options", "config_from"]


def add_match_options(p: argparse.ArgumentParser, teams_help: str) -> None:
    """--game, --players, --teams, --target and --hand-size."""
    p.add_argument("--game", required=True, metavar="G", help="the game, e.g. all-fives")
    p.add_argument("--players", required=True, type=int, metavar="N", help="2, 3 or 4 players")
    p.add_argument(
        "--teams", action=argparse.BooleanOptionalAction, default=None, help=teams_help
    )
    p.add_argument("--target", type=int, metavar="T", help="match target (default: the game's)")
    p.add_argument(
        "--hand-size", type=int, metavar="K", help="tiles dealt to each player (a house rule)"
    )


def config_from(args: argparse.Namespace) -> Config:
    """The match configuration those options name; bad values are a UsageError."""
    rules = {"hand_size": args.hand_size} if args.hand_size is not None else None
    try:
        return Config.make(
            args.game, args.players, teams=args.teams, target=args.target, rules=rules
        )
    except RulesError as exc:
        raise UsageError(str(exc)) from None
