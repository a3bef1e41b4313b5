"""Command-line options shared by several commands: the match's (random, tournament) and the
reader's language (every command)."""

from __future__ import annotations

import argparse

from fives.cli.errors import UsageError
from fives.core.games import Config, RulesError
from fives.i18n import LANGUAGES, default_language, reason_text, t

__all__ = ["add_lang_option", "add_match_options", "config_from", "lang_of"]


def add_lang_option(p: argparse.ArgumentParser) -> None:
    """--lang: the language of what the command prints, its errors included."""
    p.add_argument("--lang", choices=list(LANGUAGES), help=t("cli.opt.lang", default_language()))


def lang_of(args: argparse.Namespace) -> str:
    """The reader's language: ``--lang``, else the locale's."""
    lang = getattr(args, "lang", None)
    return lang if isinstance(lang, str) and lang in LANGUAGES else default_language()


def add_match_options(p: argparse.ArgumentParser, teams_help: str) -> None:
    """--game, --players, --teams, --target and --hand-size (and --lang)."""
    lang = default_language()
    p.add_argument("--game", required=True, metavar="G", help=t("cli.opt.game", lang))
    p.add_argument("--players", required=True, type=int, metavar="N",
                   help=t("cli.opt.players", lang))
    p.add_argument(
        "--teams", action=argparse.BooleanOptionalAction, default=None, help=teams_help
    )
    p.add_argument("--target", type=int, metavar="T", help=t("cli.opt.target", lang))
    p.add_argument("--hand-size", type=int, metavar="K", help=t("cli.opt.hand_size", lang))
    add_lang_option(p)


def config_from(args: argparse.Namespace) -> Config:
    """The match configuration those options name; bad values are a UsageError in the reader's
    language."""
    rules = {"hand_size": args.hand_size} if args.hand_size is not None else None
    try:
        return Config.make(
            args.game, args.players, teams=args.teams, target=args.target, rules=rules
        )
    except RulesError as exc:
        lang = lang_of(args)
        raise UsageError(reason_text(exc, lang=lang), lang) from None
