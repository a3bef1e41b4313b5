"""The ``fives`` command line: one module per command, each with ``register(subparsers)``.

Every command turns bad input into one ``error:`` line on standard error and exit status 2;
never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from fives.cli import (
    analyse_cmd,
    bench_cmd,
    bot_cmd,
    db_cmd,
    play_cmd,
    puzzles_cmd,
    random_cmd,
    replay_cmd,
    serve_cmd,
    tournament_cmd,
    train_cmd,
)
from fives.cli.errors import (
    ArgumentsError,
    UsageError,
    argument_error_text,
    language_of,
    print_error,
)
from fives.compiled import build
from fives.i18n import default_language, t

COMMANDS = [bench_cmd, replay_cmd, random_cmd, bot_cmd, tournament_cmd, analyse_cmd, serve_cmd,
            db_cmd, play_cmd, train_cmd, puzzles_cmd]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise ArgumentsError(message)  # told by main, in the reader's language


def _version() -> str:
    """The installed package's version."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("fives")
    except PackageNotFoundError:
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="fives",
        description="The fives domino platform: All Fives, Fives and Threes, Muggins, Draw, Block.",
    )
    lang = default_language()
    parser.add_argument(
        "--version", action="version", version=version_text(lang), help=t("cli.version.help", lang)
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for module in COMMANDS:
        module.register(sub)
    return parser


def version_text(lang: str) -> str:
    """The version, and whether this process runs the compiled core (and if not, why)."""
    info = build()
    return t(
        f"cli.version.{info.reason}", lang,
        version=_version(), compiler=info.compiler, file=info.detail,
    )


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    try:
        args = build_parser().parse_args(words)
    except ArgumentsError as exc:
        print_error(argument_error_text(str(exc), language_of(words)))
        return 2
    try:
        return int(args.func(args))
    except UsageError as exc:
        print_error(str(exc))
        return 2
    except KeyboardInterrupt:
        print(t("cli.interrupted", language_of(words)), file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a last guard: one line, never a traceback (FIVES_DEBUG=1 shows it)
        if os.environ.get("FIVES_DEBUG"):
            raise
        print_error(f"{type(exc).__name__}: {exc}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
