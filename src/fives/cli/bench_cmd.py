"""``fives bench engine``: random-playout speed of every game and player count."""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from typing import Any

from fives.bench_engine import all_configs, measure
from fives.cli.errors import UsageError


def register(sub: Any) -> None:
    p = sub.add_parser("bench", help="benchmarks (engine speed)")
    p.add_argument("what", choices=["engine"], help="what to measure")
    p.add_argument("--seconds", type=float, default=2.0, help="time per configuration")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="one JSON object per configuration")
    p.add_argument("--cpu", action="store_true",
                   help="per second of this process's CPU time, not of the wall clock "
                        "(for a machine shared with other work)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not 0 < args.seconds <= 600:
        raise UsageError(f"--seconds must be between 0 and 600, not {args.seconds}")
    if not args.json:
        print(f"{'game':<18}{'players':>8}{'teams':>7}{'hand':>6}{'rounds/s':>11}"
              f"{'plays/s':>11}{'actions/s':>11}")
    for cfg in all_configs():
        fig = measure(cfg, args.seconds, args.seed, time.process_time if args.cpu else time.perf_counter)
        if args.json:
            print(json.dumps(dataclasses.asdict(fig)))
        else:
            print(f"{fig.game:<18}{fig.players:>8}{'yes' if fig.teams else 'no':>7}"
                  f"{fig.hand_size:>6}{fig.rounds_per_sec:>11,.0f}{fig.plays_per_sec:>11,.0f}"
                  f"{fig.actions_per_sec:>11,.0f}", flush=True)
    return 0
