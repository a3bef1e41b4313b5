"""Side-by-side throughput: fives vs peer domino engines, uniformly random play.

Run through ``bash bench/peers.sh`` (it prepares bench/.venv-peers), or directly with a
Python that has open-spiel, dominoes and fives installed:

    python bench/peers.py --seconds 5 --seed 1

Comparisons (goal = how many times faster than the peer we aim to be):

* OpenSpiel ``python_block_dominoes`` (2 players, 7 tiles each, no draws)
  vs our ``block`` with 2 players                                  -- goal 25x
* ``dominoes`` ``Game.new()`` (4 players in 2 teams, 7 tiles each, whole set dealt)
  vs our ``block`` with 4 players, teams=True, hand_size=7          -- goal 5x

Figures: games (rounds) per second and moves (plays) per second. Peers count tile plays
only: neither has explicit pass actions, and chance/deal actions are not counted.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from peers_lib import dominoes_games_per_sec, openspiel_block_games_per_sec

# (key, peer label, our label, goal ratio)
COMPARISONS: list[tuple[str, str, str, float]] = [
    ("openspiel", "OpenSpiel python_block_dominoes", "fives block 2p", 25.0),
    ("dominoes", "dominoes Game.new() (4p teams)", "fives block 4p teams h7", 5.0),
]


# --------------------------------------------------------------------------------------
# OUR ENGINE: the one place where fives is measured. Keep the keys in step with
# COMPARISONS above; each value is (rounds per second, plays per second).
# --------------------------------------------------------------------------------------
def ours(seconds: float, seed: int) -> dict[str, tuple[float, float]]:
    try:
        from fives.bench_engine import measure_rounds
    except ImportError as exc:
        print(
            f"note: fives.bench_engine not importable ({exc}); showing peers only", file=sys.stderr
        )
        return {}
    return {
        "openspiel": measure_rounds("block", 2, False, None, seconds, seed),
        "dominoes": measure_rounds("block", 4, True, 7, seconds, seed),
    }


def _core() -> str:
    try:
        from fives.compiled import build
    except ImportError:
        return "fives core: not importable"
    info = build()
    if info.compiled:
        return f"fives core: compiled (mypyc {info.compiler})"
    return f"fives core: pure Python ({info.reason})"


def peers(seconds: float, seed: int) -> dict[str, tuple[float, float]]:
    return {
        "openspiel": openspiel_block_games_per_sec(seconds, seed),
        "dominoes": dominoes_games_per_sec(seconds, seed),
    }


def _fmt(x: float | None, width: int, digits: int = 0) -> str:
    return f"{'-':>{width}}" if x is None else f"{x:>{width},.{digits}f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--seconds",
        type=float,
        default=5.0,
        help="measuring time per engine and comparison (default 5)",
    )
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    args = ap.parse_args(argv)

    theirs = peers(args.seconds, args.seed)
    mine = ours(args.seconds, args.seed)

    head = (
        f"{'peer':<33}{'games/s':>10}{'moves/s':>11}   {'fives':<25}{'rounds/s':>10}"
        f"{'plays/s':>11}{'ratio':>8}{'goal':>7}  "
    )
    print(head)
    print("-" * len(head))
    for key, peer_label, our_label, goal in COMPARISONS:
        pg, pm = theirs[key]
        og, om = mine.get(key, (None, None))
        ratio = None if og is None else og / pg
        verdict = "" if ratio is None else ("met" if ratio >= goal else "MISSED")
        print(
            f"{peer_label:<33}{_fmt(pg, 10)}{_fmt(pm, 11)}   {our_label:<25}"
            f"{_fmt(og, 10)}{_fmt(om, 11)}{_fmt(ratio, 7, 1)}{'x' if ratio else ' '}"
            f"{goal:>6.0f}x  {verdict}"
        )
    print(f"\nseconds={args.seconds:g} seed={args.seed}; ratio = our rounds/s / peer games/s")
    print(_core())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
