"""Where the core's time goes: instruction counts under valgrind's callgrind, per unit of work.

Two fixed workloads, no clock (so the counts repeat exactly, however busy the machine):

* ``engine``: random rounds as ``fives bench engine`` plays them (one configuration);
* ``search``: decisions of a search bot (``--bot``, default ``hard``) on views taken from
  seeded matches.

``work`` runs a workload; ``callgrind`` runs it twice under callgrind (N and 2N units) and
prints the difference per unit, so start-up and imports cancel out: the instructions per round
or per decision, and the functions that spend them. ``FIVES_PURE=1`` profiles the pure modules.

    .venv/bin/python bench/profile_core.py callgrind engine --game all-fives --players 2
    FIVES_PURE=1 .venv/bin/python bench/profile_core.py callgrind search --units 4
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict


def _engine(args: argparse.Namespace, units: int) -> None:
    import random

    from fives.bench_engine import play_random_rounds
    from fives.core.games import Config

    rules = {"hand_size": args.hand_size} if args.hand_size else None
    config = Config.make(args.game, args.players, teams=args.teams or None, rules=rules)
    play_random_rounds(config, units, random.Random(args.seed))


def _search(args: argparse.Namespace, units: int) -> None:
    import random

    from decision_times import views  # beside this script

    from fives.bots.registry import make_bot
    from fives.core.games import Config

    # The positions decision_times.py times: seat 0's decisions with a choice.
    hard = make_bot(args.bot)
    for k, view in enumerate(views(Config.make(args.game, args.players), units, args.seed)):
        hard.choose(view, random.Random(k))


WORKLOADS = {"engine": _engine, "search": _search}

_LINE = re.compile(r"^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(\S.*)$")


def _flat_profile(path: str, inclusive: bool) -> tuple[int, dict[str, int]]:
    out = subprocess.run(
        ["callgrind_annotate", "--auto=no", "--threshold=100", f"--inclusive={'yes' if inclusive else 'no'}",
         path],
        capture_output=True, text=True, check=True,
    ).stdout
    total = 0
    funcs: dict[str, int] = defaultdict(int)
    objects: dict[str, str] = {}
    for line in out.splitlines():
        m = _LINE.match(line)
        if not m:
            continue
        count = int(m.group(1).replace(",", ""))
        name = m.group(2)
        if name.startswith("PROGRAM TOTALS"):
            total = count
            continue
        # "file:function [object]": counted by function (callgrind splits one function's cost
        # between lines with and without its object), named "function (object)", paths dropped
        name = re.sub(r"^.*?:(?=[^/:]+ \[|[^/:]+$)", "", name)
        obj = re.search(r" \[(?:.*/)?([^/\]]+)\]$", name)
        func = name[: obj.start()] if obj else name
        funcs[func] += count
        if obj:
            objects[func] = obj.group(1)
    return total, {f"{f} ({objects[f]})" if f in objects else f: n for f, n in funcs.items()}


def _callgrind(args: argparse.Namespace) -> int:
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for units in (args.units, 2 * args.units):
            out = os.path.join(tmp, f"cg.{units}")
            cmd = [
                "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                sys.executable, os.path.abspath(__file__), "work", args.workload,
                "--units", str(units), *_workload_flags(args),
            ]
            subprocess.run(cmd, check=True, capture_output=True)
            runs.append(_flat_profile(out, args.inclusive))
    (total1, funcs1), (total2, funcs2) = runs
    per_unit = (total2 - total1) / args.units
    unit = "round" if args.workload == "engine" else "decision"
    print(f"{per_unit:,.0f} instructions per {unit} ({_build()})")
    diff = {f: (funcs2.get(f, 0) - funcs1.get(f, 0)) / args.units for f in set(funcs1) | set(funcs2)}
    for name, cost in sorted(diff.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"{cost:>12,.0f} {100 * cost / per_unit:5.1f}%  {name[:110]}")
    return 0


def _build() -> str:
    from fives.compiled import build

    info = build()
    return "compiled core" if info.compiled else f"pure core: {info.reason}"


def _workload_flags(args: argparse.Namespace) -> list[str]:
    flags = ["--game", args.game, "--players", str(args.players), "--seed", str(args.seed),
             "--bot", args.bot]
    if args.teams:
        flags.append("--teams")
    if args.hand_size:
        flags += ["--hand-size", str(args.hand_size)]
    return flags


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=["work", "callgrind"])
    ap.add_argument("workload", choices=sorted(WORKLOADS))
    ap.add_argument("--units", type=int, default=0, help="rounds or decisions (default 2000 / 4)")
    ap.add_argument("--game", default="all-fives")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--teams", action="store_true")
    ap.add_argument("--hand-size", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bot", default="hard", help="the search workload's bot")
    ap.add_argument("--top", type=int, default=25, help="functions to list")
    ap.add_argument("--inclusive", action="store_true", help="count callees' instructions too")
    args = ap.parse_args(argv)
    if not args.units:
        args.units = 2000 if args.workload == "engine" else 4
    if args.mode == "work":
        WORKLOADS[args.workload](args, args.units)
        return 0
    return _callgrind(args)


if __name__ == "__main__":
    raise SystemExit(main())
