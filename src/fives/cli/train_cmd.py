"""``fives train play-model``: fit how the other seats are taken to play (the search bots'
model of them, :mod:`fives.bots.playmodel`); ``fives train value-net``: the learned evaluation
(:mod:`fives.bots.valuenet`); ``fives train medium-weights``: medium's weights fitted to the
search's values (:mod:`fives.bots.mediumfit`). All on matches the engine plays itself, each
writing the file the package ships. Seeded: the same arguments write the same file."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fives.bots import BotError, BotName
from fives.cli.errors import UsageError, keyed_text
from fives.cli.options import lang_of
from fives.core.games import GAMES, Config, RulesError
from fives.i18n import LANGUAGES, default_language, reason_text, t
from fives.phrasing import os_error_text

#: where the package keeps the model (the default output)
SHIPPED = Path(__file__).resolve().parents[1] / "bots" / "play_model.json"
#: the bots whose plays the shipped model was fitted on (the default): ``hard-greedy`` is the
#: ``hard`` of the day of the fit (2026-12-06), kept by that name when ``hard`` changed
PLAY_MODEL_BOTS = "hard-greedy,medium-hand"
#: where the package keeps the value network's weights
SHIPPED_NET = Path(__file__).resolve().parents[1] / "bots" / "value_net.json"
#: what the shipped network was trained with (``fives train value-net``'s defaults)
NET_DEFAULTS = {"seed": 2026, "matches": 120, "bots": "medium-hand", "hidden": 48, "epochs": 12,
                "keep": 0.15, "worlds": 24}
#: where the package keeps medium's fitted weights
SHIPPED_WEIGHTS = Path(__file__).resolve().parents[1] / "bots" / "medium_weights.json"
#: what the shipped weights were fitted with (``fives train medium-weights``'s defaults)
WEIGHTS_DEFAULTS: dict[str, int] = {"seed": 2026, "decisions": 3000, "worlds": 300, "jobs": 2}


def register(sub: Any) -> None:
    lang = default_language()
    p = sub.add_parser("train", help=t("cli.train.help", lang),
                       description=t("cli.train.description", lang))
    what = p.add_subparsers(dest="what", required=True)
    m = _command(what, "play-model", lang, 2026, SHIPPED, run)
    m.add_argument("--matches", type=int, default=6, metavar="M",
                   help=t("cli.train.matches", lang))
    m.add_argument("--bots", default=PLAY_MODEL_BOTS, metavar="LIST",
                   help=t("cli.train.bots", lang))
    m.add_argument("--games", default=",".join(sorted(GAMES)), metavar="LIST",
                   help=t("cli.train.games", lang))
    d = NET_DEFAULTS
    v = _command(what, "value-net", lang, d["seed"], SHIPPED_NET, run_net)
    v.add_argument("--matches", type=int, default=d["matches"], metavar="M",
                   help=t("cli.train.net_matches", lang, n=d["matches"]))
    v.add_argument("--bots", default=d["bots"], metavar="LIST",
                   help=t("cli.train.net_bots", lang, bots=d["bots"]))
    v.add_argument("--hidden", type=int, default=d["hidden"], metavar="H",
                   help=t("cli.train.hidden", lang, n=d["hidden"]))
    v.add_argument("--epochs", type=int, default=d["epochs"], metavar="E",
                   help=t("cli.train.epochs", lang, n=d["epochs"]))
    v.add_argument("--keep", type=float, default=d["keep"], metavar="P",
                   help=t("cli.train.keep", lang, p=d["keep"]))
    v.add_argument("--worlds", type=int, default=d["worlds"], metavar="W",
                   help=t("cli.train.worlds", lang, n=d["worlds"]))
    from fives.bots.mediumfit import TABLES

    wd = WEIGHTS_DEFAULTS
    w = _command(what, "medium-weights", lang, wd["seed"], SHIPPED_WEIGHTS, run_weights)
    w.add_argument("--decisions", type=int, default=wd["decisions"], metavar="N",
                   help=t("cli.train.decisions", lang, n=wd["decisions"]))
    w.add_argument("--worlds", type=int, default=wd["worlds"], metavar="W",
                   help=t("cli.train.fit_worlds", lang, n=wd["worlds"]))
    w.add_argument("--tables", default=",".join(TABLES), metavar="LIST",
                   help=t("cli.train.tables", lang, tables=",".join(TABLES)))
    w.add_argument("--jobs", type=int, default=wd["jobs"], metavar="J",
                   help=t("cli.train.jobs", lang, n=wd["jobs"]))


def _command(what: Any, name: str, lang: str, seed: object, out: Path,
             func: Callable[[argparse.Namespace], int]) -> Any:
    """One ``fives train`` command with the options every one has: its seed, the file it
    writes (the package's own by default), the language."""
    c = what.add_parser(name, help=t(f"cli.train.{name.replace('-', '_')}", lang),
                        description=t(f"cli.train.{name.replace('-', '_')}", lang))
    c.add_argument("--seed", type=int, default=seed, metavar="S", help=t("cli.train.seed", lang))
    c.add_argument("--out", default=str(out), metavar="FILE", help=t("cli.train.out", lang))
    c.add_argument("--lang", choices=LANGUAGES, help=t("cli.opt.lang", lang))
    c.set_defaults(func=func)
    return c


def run(args: argparse.Namespace) -> int:
    from fives.bots.training import train

    lang = lang_of(args)
    _in_range(lang, (args.matches, 1, 1000, "bad_matches"))
    games = [g.strip() for g in args.games.split(",")]
    for game in games:
        try:
            Config.make(game, 2)
        except RulesError as exc:
            raise UsageError(reason_text(exc, lang=lang), lang) from None
    bots = _our_bots(args.bots, lang)
    data = train(args.seed, args.matches, bots, games,
                 progress=lambda line: print(line, file=sys.stderr))
    _write(data, args.out, lang)
    return 0


def _our_bots(text: str, lang: str) -> list[str]:
    bots = [b.strip() for b in text.split(",")]
    for name in bots:
        try:
            outside = BotName.parse(name).outside
        except BotError as exc:
            raise UsageError(keyed_text("bot", exc, lang), lang) from None
        if outside:  # the model is of how our bots play, fitted in this process
            raise UsageError(t("cli.train.no_outside", lang, name=name), lang)
    return bots


def run_net(args: argparse.Namespace) -> int:
    lang = lang_of(args)
    _in_range(lang, (args.matches, 1, 1000, "bad_matches"), (args.hidden, 1, 512, "bad_hidden"),
              (args.epochs, 1, 200, "bad_epochs"), (args.worlds, 0, 1000, "bad_worlds"))
    if not 0 < args.keep <= 1:
        raise UsageError(t("cli.train.bad_keep", lang, p=args.keep), lang)
    bots = _our_bots(args.bots, lang)
    _need_numpy(lang)
    from fives.bots.valuetrain import train_value_net

    data = train_value_net(args.seed, args.matches, bots, hidden=args.hidden,
                           epochs=args.epochs, keep=args.keep, worlds=args.worlds,
                           progress=lambda line: print(line, file=sys.stderr))
    _write(data, args.out, lang)
    return 0


def run_weights(args: argparse.Namespace) -> int:
    lang = lang_of(args)
    _in_range(lang, (args.decisions, 8, 20000, "bad_decisions"),
              (args.worlds, 1, 2000, "bad_fit_worlds"), (args.jobs, 1, 64, "bad_jobs"))
    _need_numpy(lang)
    from fives.bots.mediumfit import TABLES, table_config, train_medium_weights

    tables = [key.strip() for key in args.tables.split(",")]
    for key in tables:
        try:
            table_config(key)
        except ValueError:
            raise UsageError(t("cli.train.bad_table", lang, key=key, tables=",".join(TABLES)),
                             lang) from None
    data = train_medium_weights(args.seed, args.decisions, args.worlds, tables, jobs=args.jobs,
                                progress=lambda line: print(line, file=sys.stderr))
    _write(data, args.out, lang)
    return 0


def _in_range(lang: str, *checks: tuple[int, int, int, str]) -> None:
    """Each ``(value, lowest, highest, key)``: a value out of its range is refused by its
    message (``cli.train.<key>``, the value as ``n``)."""
    for value, lo, hi, key in checks:
        if not lo <= value <= hi:
            raise UsageError(t(f"cli.train.{key}", lang, n=value), lang)


def _need_numpy(lang: str) -> None:
    """numpy, which training needs (playing by what it writes does not), on one thread: one
    order of sums, the same floats (set before numpy's first import, when it reads it)."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        import numpy  # noqa: F401
    except ImportError:
        raise UsageError(t("cli.train.no_numpy", lang), lang) from None


def _write(data: dict[str, Any], out: str, lang: str) -> None:
    text = json.dumps(data, indent=1, sort_keys=True) + "\n"
    try:
        Path(out).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(t("cli.err.write", lang, path=out, why=os_error_text(exc, lang)),
                         lang) from None
    print(t("cli.train.written", lang, path=out), file=sys.stderr)
