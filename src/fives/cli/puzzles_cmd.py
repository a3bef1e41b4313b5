"""``fives puzzles make --seed S --count N``: find puzzles in matches the engine plays itself
(:mod:`fives.puzzles`) and write the set the package ships. The same arguments write the same
file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from fives.cli.errors import UsageError
from fives.cli.options import lang_of
from fives.i18n import LANGUAGES, default_language, t
from fives.phrasing import os_error_text

#: the package's own set (the default output)
SHIPPED = Path(__file__).resolve().parents[1] / "puzzles.json.gz"


def register(sub: Any) -> None:
    lang = default_language()
    p = sub.add_parser("puzzles", help=t("cli.puzzles.help", lang),
                       description=t("cli.puzzles.description", lang))
    what = p.add_subparsers(dest="what", required=True)
    m = what.add_parser("make", help=t("cli.puzzles.make", lang),
                        description=t("cli.puzzles.make", lang))
    m.add_argument("--seed", type=int, default=2026, metavar="S", help=t("cli.puzzles.seed", lang))
    m.add_argument("--count", type=int, default=500, metavar="N",
                   help=t("cli.puzzles.count", lang))
    m.add_argument("--out", default=str(SHIPPED), metavar="FILE", help=t("cli.puzzles.out", lang))
    m.add_argument("--jobs", type=int, default=1, metavar="N", help=t("cli.puzzles.jobs", lang))
    m.add_argument("--lang", choices=LANGUAGES, help=t("cli.opt.lang", lang))
    m.set_defaults(func=run_make)
    q = what.add_parser("play", help=t("cli.puzzles.play", lang),
                        description=t("cli.puzzles.play", lang))
    q.add_argument("--id", metavar="ID", help=t("cli.puzzles.id", lang))
    q.add_argument("--lang", choices=LANGUAGES, help=t("cli.opt.lang", lang))
    q.set_defaults(func=run_play)


def run_make(args: argparse.Namespace) -> int:
    from fives.puzzles import SOURCES, make_puzzles, write

    lang = lang_of(args)
    if not 1 <= args.count <= 100_000:
        raise UsageError(t("cli.puzzles.bad_count", lang, n=args.count), lang)
    puzzles = make_puzzles(args.seed, args.count, jobs=max(1, args.jobs),
                           progress=lambda line: print(line, file=sys.stderr))
    meta = {"seed": args.seed, "count": args.count,
            "sources": [list(s) for s in SOURCES]}
    try:
        write(puzzles, args.out, meta)
    except OSError as exc:
        raise UsageError(t("cli.err.write", lang, path=args.out, why=os_error_text(exc, lang)),
                         lang) from None
    print(t("cli.puzzles.written", lang, n=len(puzzles), path=args.out), file=sys.stderr)
    return 0


def run_play(args: argparse.Namespace) -> int:
    """Puzzles one after another in the terminal: the layout as the terminal game draws it,
    the hand, and a play typed; right or wrong, with every play's value once it is right or
    shown. ``?`` shows the answer, ``q`` (or the end of input) stops."""
    from fives.core.view import View
    from fives.phrasing import Tr
    from fives.puzzles import load, puzzle_by_id
    from fives.tui.drawing import draw
    from fives.tui.inputs import Refusal, understand

    lang = lang_of(args)
    puzzles = list(load())
    if not puzzles:
        raise UsageError(t("cli.puzzles.none", lang), lang)
    start = 0
    if args.id is not None:
        found = puzzle_by_id(args.id)
        if found is None:
            raise UsageError(t("cli.puzzles.no_such", lang, id=args.id), lang)
        start = puzzles.index(found)
    for puzzle in puzzles[start:]:
        view = View.from_json(puzzle.view)
        game = view.config.game
        side = view.config.side_of(view.seat or 0)
        scores = " · ".join(
            t("web.puzzle.you_score" if k == side else "web.puzzle.they_score", lang, n=v)
            for k, v in enumerate(puzzle.view["scores"]))
        print()
        print(t("web.puzzle.head", lang, game=t(f"common.game.{game.name}", lang),
                players=puzzle.players, target=view.config.target) + f" · {scores}")
        print("\n".join("  " + row for row in draw(view.layout, width=76,
                                                     scoring=game.ends_score).lines()))
        print(t("cli.puzzles.hand", lang, tiles=" ".join(puzzle.view["hand"])))
        print(t("cli.puzzles.legal", lang, plays=", ".join(puzzle.view["legal"])))
        while True:
            try:
                said = input(t("cli.puzzles.prompt", lang)).strip()
            except EOFError:
                print()
                return 0
            if said.lower() == "q":
                return 0
            if said == "?":
                print(t("web.puzzle.answer_is", lang, play=", ".join(puzzle.answer)))
                break
            # read as the terminal game reads a move: 3-5@E, 3-5 e, 35e, a number of the hand
            understood = understand(said, view, Tr(lang))
            if isinstance(understood, Refusal):
                print(understood.reason)
                continue
            if isinstance(understood, str):  # a command of the game (rules, help): not here
                print(t("web.error.puzzle_illegal", lang))
                continue
            play = str(understood)
            if puzzle.right(play):
                print(t("web.puzzle.right", lang, play=play, margin=f"{puzzle.margin:.1f}"))
                break
            print(t("cli.puzzles.wrong", lang, play=play))
        for action, value in sorted(puzzle.values.items(), key=lambda kv: -kv[1]):
            print(f"  {action:<7} {value:+.1f}")
    return 0

