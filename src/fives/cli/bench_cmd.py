"""``fives bench engine``: random-playout speed of every game and player count."""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from typing import Any

from fives.bench_engine import all_configs, measure
from fives.cli.columns import ljust, rjust
from fives.cli.errors import UsageError
from fives.cli.options import add_lang_option, lang_of
from fives.i18n import default_language, t


def register(sub: Any) -> None:
    lang = default_language()
    p = sub.add_parser("bench", help=t("cli.bench.help", lang), description=t("cli.bench.help", lang))
    p.add_argument("what", choices=["engine"], help=t("cli.bench.what", lang))
    p.add_argument("--seconds", type=float, default=2.0, help=t("cli.bench.seconds", lang))
    p.add_argument("--seed", type=int, default=1, help=t("cli.bench.seed", lang))
    p.add_argument("--json", action="store_true", help=t("cli.bench.json", lang))
    p.add_argument("--cpu", action="store_true", help=t("cli.bench.cpu", lang))
    add_lang_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    lang = lang_of(args)
    if not 0 < args.seconds <= 600:
        raise UsageError(t("cli.err.range", lang, option="--seconds", low=0, high=600,
                           value=f"{args.seconds:g}"), lang)

    def col(key: str) -> str:
        return t(f"cli.bench.col.{key}", lang)

    if not args.json:
        print(ljust(col("game"), 18) + "".join(
            rjust(" " + col(key), cols) for key, cols in (("players", 8), ("teams", 7), ("hand", 6),
                                                    ("rounds", 11), ("plays", 11),
                                                    ("actions", 11))))
    yes, no = t("cli.bench.yes", lang), t("cli.bench.no", lang)
    for cfg in all_configs():
        fig = measure(cfg, args.seconds, args.seed, time.process_time if args.cpu else time.perf_counter)
        if args.json:
            print(json.dumps(dataclasses.asdict(fig)))
        else:
            print(f"{fig.game:<18}{fig.players:>8}{rjust(yes if fig.teams else no, 7)}"
                  f"{fig.hand_size:>6}{fig.rounds_per_sec:>11,.0f}{fig.plays_per_sec:>11,.0f}"
                  f"{fig.actions_per_sec:>11,.0f}", flush=True)
    return 0
