"""Time per decision of our bots, wall clock and CPU, on the same views every run.

The views are seat 0's decisions with a choice in seeded matches of ``easy`` bots, so every
run (compiled or ``FIVES_PURE=1``, one bot or another) decides the same positions. CPU time is
the process's own (``time.process_time``): on a machine shared with other work it still reads
what the decision costs, where the wall clock also counts the time spent waiting for a core.

    .venv/bin/python bench/decision_times.py --bots hard,hard-30x1500 --decisions 200
    FIVES_PURE=1 .venv/bin/python bench/decision_times.py --bots hard-30x1500
    .venv/bin/python bench/decision_times.py --bots hard,expert --beside 1

``--beside N`` keeps N other tables playing while the decisions are timed (each a process
playing ``hard`` against ``hard`` in the same game, started before the first decision and
stopped after the last): the wall clock of a bot "while another table plays", as the server
runs it.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

from fives.bots.registry import make_bot
from fives.compiled import build
from fives.core.games import Config
from fives.core.state import State
from fives.core.view import View, view_of


def views(config: Config, count: int, seed: int) -> list[View]:
    easy = make_bot("easy")
    out: list[View] = []
    match = 0
    while len(out) < count:
        rng = random.Random(seed + match)
        match += 1
        state = State(config)
        while not state.over and len(out) < count:
            if state.needs_deal():
                state.deal_next(rng)
                continue
            view = view_of(state, state.turn)
            if state.turn == 0 and len(view.legal) > 1:
                out.append(view)
            state.apply(easy.choose(view, rng))
    return out


@contextmanager
def tables_beside(count: int, game: str, players: int) -> Iterator[None]:
    """``count`` processes each playing ``hard`` against ``hard`` until the block ends."""
    procs: list[subprocess.Popen[bytes]] = []
    with tempfile.TemporaryDirectory() as tmp:
        try:
            for i in range(count):
                procs.append(subprocess.Popen(
                    [sys.executable, "-c", "import sys; from fives.cli.main import main; sys.exit(main(sys.argv[1:]))",
                     "tournament", "--game", game, "--players",
                     str(players), "--bots", "hard,hard", "--matches", "100000", "--seed",
                     str(i), "--jobs", "1", "--quiet", "--out", f"{tmp}/t{i}"],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            time.sleep(2.0 if count else 0.0)  # past their start-up, playing
            yield
        finally:
            for proc in procs:
                proc.kill()
                proc.wait()


def _ms(values: list[float], q: float) -> str:
    ordered = sorted(values)
    return f"{1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]:7.1f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", default="hard", help="comma-separated bot names")
    ap.add_argument("--game", default="all-fives")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--decisions", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--beside", type=int, default=0, metavar="N",
                    help="other tables playing meanwhile (hard against hard)")
    args = ap.parse_args(argv)
    positions = views(Config.make(args.game, args.players), args.decisions, args.seed)
    info = build()
    core = "compiled" if info.compiled else f"pure ({info.reason})"
    print(f"{args.game} {args.players}p, {len(positions)} decisions, {core} core, "
          f"{args.beside} other tables playing, load average before {os.getloadavg()[0]:.1f}")
    print(f"{'bot':<14}{'':>6}{'mean':>8}{'p50':>8}{'p95':>8}{'max':>8}  (ms)")
    with tables_beside(args.beside, args.game, args.players):
        for name in args.bots.split(","):
            bot = make_bot(name)
            wall: list[float] = []
            cpu: list[float] = []
            for k, view in enumerate(positions):
                w0, c0 = time.perf_counter(), time.process_time()
                bot.choose(view, random.Random(k))
                wall.append(time.perf_counter() - w0)
                cpu.append(time.process_time() - c0)
            for label, values in (("wall", wall), ("cpu", cpu)):
                print(f"{name:<14}{label:>6}{1000 * statistics.mean(values):8.1f}"
                      f"{_ms(values, 0.5)}{_ms(values, 0.95)}{_ms(values, 1.0)}", flush=True)
        print(f"load average after {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
