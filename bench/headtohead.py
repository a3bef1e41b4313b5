"""Head to head with OpenSpiel: our ``hard`` bot against OpenSpiel's searchers, and random-playout
speed through our OpenSpiel wrapper, side by side (issue 6; results in docs/bridges.md).

Needs fives with the ``openspiel`` extra (``pip install -e '.[openspiel]'``). Run from the
checkout, one figure or all::

    .venv/bin/python bench/headtohead.py                 # everything, modest sizes
    .venv/bin/python bench/headtohead.py --only mcts --deals 40 --mcts-sims 1000

Figures:

``mcts``
    OpenSpiel's own ``python_block_dominoes`` (their rules and their state): our ``hard`` bot,
    through the adapter in :mod:`fives.bridges.block_dominoes` (it sees only its seat's view),
    against OpenSpiel's ``MCTSBot`` with random rollouts, which searches the true state and so
    sees both hands.
``ismcts``
    Our ``block`` game (2 players) through :mod:`fives.bridges.openspiel`: ``hard`` against
    OpenSpiel's information-set MCTS (``ISMCTSBot``, random rollouts), which samples worlds with
    our ``resample_from_infostate``.
``speed``
    Uniformly random playouts (chance by its probabilities, actions uniform) through the pyspiel
    API: ``python_block_dominoes`` next to each of our five games (2 players, one round per
    episode), and our engine called directly for reference.

Deals are duplicate: each deal is played twice with the seats swapped, so both sides hold both
hands. Win rates count a tie as half a win, with Wilson 95% intervals over games; mean points
(pips) per game for ``hard`` with a 95% interval over deals (each deal's two games averaged).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.games import block_dominoes  # noqa: F401  (registers it)
from peers_lib import openspiel_random_game

import fives.bridges.openspiel as fo
from fives.bridges.block_dominoes import BlockDominoesBot
from fives.tournament.stats import mean_interval, wilson


@dataclass
class Tally:
    """Our bot's results, game by game, grouped by deal."""

    label: str
    games: int = 0
    wins: int = 0
    ties: int = 0
    points: list[float] = field(default_factory=list)
    per_deal: list[float] = field(default_factory=list)
    our_time: float = 0.0
    our_moves: int = 0
    their_time: float = 0.0
    their_moves: int = 0
    seconds: float = 0.0

    def add_deal(self, results: Sequence[float]) -> None:
        for r in results:
            self.games += 1
            self.points.append(r)
            if r > 0:
                self.wins += 1
            elif r == 0:
                self.ties += 1
        self.per_deal.append(sum(results) / len(results))

    def summary(self) -> dict[str, Any]:
        rate = (self.wins + 0.5 * self.ties) / self.games if self.games else 0.0
        lo, hi = wilson(self.wins + 0.5 * self.ties, self.games)
        mean, half = mean_interval(self.per_deal)
        return {
            "label": self.label,
            "deals": len(self.per_deal),
            "games": self.games,
            "wins": self.wins,
            "ties": self.ties,
            "losses": self.games - self.wins - self.ties,
            "win_rate": rate,
            "win_lo": lo,
            "win_hi": hi,
            "mean_points": mean if mean is not None else 0.0,
            "mean_half": half if half is not None else 0.0,
            "our_ms": 1000 * self.our_time / max(1, self.our_moves),
            "their_ms": 1000 * self.their_time / max(1, self.their_moves),
            "seconds": self.seconds,
        }


def _play(
    state: Any,
    bots: Sequence[Any],
    deal: Sequence[int],
    ours: int,
    tally: Tally,
    chance_rng: random.Random,
) -> float:
    """Play one game: the deal's chance outcomes first, later chance by ``chance_rng``."""
    dealt = iter(deal)
    while not state.is_terminal():
        if state.is_chance_node():
            outcome = next(dealt, None)
            if outcome is None:
                outcomes = state.chance_outcomes()
                outcome = outcomes[int(chance_rng.random() * len(outcomes))][0]
            state.apply_action(outcome)
            continue
        player = state.current_player()
        started = time.perf_counter()
        action = bots[player].step(state)
        spent = time.perf_counter() - started
        if len(state.legal_actions()) > 1:
            if player == ours:
                tally.our_time += spent
                tally.our_moves += 1
            else:
                tally.their_time += spent
                tally.their_moves += 1
        state.apply_action(int(action))
    return float(state.returns()[ours])


def duplicate(
    label: str,
    game: Any,
    deals: int,
    deal_size: int,
    make_ours: Callable[[int, int], Any],
    make_theirs: Callable[[int, int], Any],
    seed: int,
    progress: bool,
) -> Tally:
    """``deals`` duplicate deals of a two-player game: ours in seat 0, then in seat 1."""
    tally = Tally(label)
    rng = random.Random(seed)
    started = time.perf_counter()
    for d in range(deals):
        order = list(range(28))
        rng.shuffle(order)
        deal = order[:deal_size]
        results = []
        for ours in (0, 1):
            game_seed = seed * 100_003 + d * 2 + ours
            bots = [None, None]
            bots[ours] = make_ours(ours, game_seed)
            bots[1 - ours] = make_theirs(1 - ours, game_seed)
            results.append(
                _play(game.new_initial_state(), bots, deal, ours, tally, random.Random(game_seed))
            )
        tally.add_deal(results)
        if progress:
            s = tally.summary()
            print(f"  {label}: deal {d + 1}/{deals}  win {s['win_rate']:.3f}  "
                  f"points {s['mean_points']:+.2f}", file=sys.stderr, flush=True)
    tally.seconds = time.perf_counter() - started
    return tally


def figure_mcts(args: argparse.Namespace) -> Tally:
    game = pyspiel.load_game("python_block_dominoes")

    def theirs(player: int, seed: int) -> Any:
        rs = np.random.RandomState(seed % (2**32))
        return mcts.MCTSBot(
            game, uct_c=args.uct_c, max_simulations=args.mcts_sims,
            evaluator=mcts.RandomRolloutEvaluator(1, rs), random_state=rs, solve=True,
        )

    return duplicate(
        f"hard vs MCTSBot({args.mcts_sims} sims), python_block_dominoes", game, args.deals, 14,
        lambda p, s: BlockDominoesBot(args.bot, p, seed=s), theirs, args.seed, args.progress,
    )


def figure_ismcts(args: argparse.Namespace) -> Tally:
    game = fo.load("block", players=2)

    def theirs(player: int, seed: int) -> Any:
        rs = np.random.RandomState(seed % (2**32))
        bot = ismcts.ISMCTSBot(
            game, mcts.RandomRolloutEvaluator(1, rs), uct_c=args.uct_c,
            max_simulations=args.ismcts_sims, random_state=rs,
        )
        sampler = pyspiel.UniformProbabilitySampler(seed % (2**31), 0.0, 1.0)
        bot.set_resampler(lambda state, p: state.resample_from_infostate(p, sampler))
        return bot

    return duplicate(
        f"hard vs ISMCTSBot({args.ismcts_sims} sims), fives_block 2p", game, args.deals, 14,
        lambda p, s: fo.FivesBot(args.bot, p, seed=s), theirs, args.seed + 1, args.progress,
    )


class Playouts:
    """Uniformly random playouts of one game, timed in slices (so that several games can be
    measured in turns, each under the same load of a shared machine)."""

    def __init__(self, label: str, game: Any, seed: int) -> None:
        self.label = label
        self.game = game
        self.rng = random.Random(seed)
        self.games = 0
        self.moves = 0
        self.elapsed = 0.0

    def run(self, seconds: float) -> None:
        rand = self.rng.random
        game = self.game
        started = time.perf_counter()
        deadline = started + seconds
        games = moves = 0
        while True:
            for _ in range(4):
                moves += openspiel_random_game(game, rand)
                games += 1
            now = time.perf_counter()
            if now >= deadline:
                break
        self.elapsed += now - started
        self.games += games
        self.moves += moves


class _Engine:
    """Our engine called directly (no OpenSpiel), in the same slices."""

    def __init__(self, seed: int) -> None:
        from fives.core.games import Config

        self.label = "block 2p, our engine directly (reference)"
        self.config = Config.make("block", 2)
        self.seed = seed
        self.games = 0
        self.moves = 0
        self.elapsed = 0.0

    def run(self, seconds: float) -> None:
        from fives.bench_engine import measure

        fig = measure(self.config, seconds, self.seed + self.games)
        self.games += fig.rounds
        self.moves += round(fig.actions_per_sec * fig.rounds / fig.rounds_per_sec)
        self.elapsed += fig.rounds / fig.rounds_per_sec


def figure_speed(args: argparse.Namespace) -> list[tuple[str, float, float, int]]:
    runners: list[Any] = [
        Playouts("python_block_dominoes (OpenSpiel's)", pyspiel.load_game("python_block_dominoes"), args.seed)
    ]
    for name in ("block", "draw", "muggins", "fives-and-threes", "all-fives"):
        runners.append(Playouts(f"{fo.short_name(name)} 2p (our wrapper)",
                                fo.load(name, players=2), args.seed))
    runners.append(_Engine(args.seed))
    slice_ = 0.5
    for _ in range(max(1, round(args.seconds / slice_))):
        for runner in runners:  # in turns, so a change of load hits every game alike
            runner.run(slice_)
    return [(r.label, r.games / r.elapsed, r.moves / r.elapsed, r.games) for r in runners]


def _fmt_tally(s: dict[str, Any]) -> str:
    return (
        f"| {s['label']} | {s['deals']} deals, {s['games']} games | {s['wins']}-{s['ties']}-{s['losses']} | "
        f"{s['win_rate']:.3f} [{s['win_lo']:.3f}, {s['win_hi']:.3f}] | "
        f"{s['mean_points']:+.2f} ± {s['mean_half']:.2f} | {s['our_ms']:.0f} / {s['their_ms']:.0f} | "
        f"{s['seconds']:.0f} s |"
    )


def _commit() -> str:
    """The checkout's commit, so that a figure can be traced to the bots that made it."""
    import subprocess

    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, cwd=os.path.dirname(os.path.abspath(__file__)), check=True)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return out.stdout.strip()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--only", choices=["mcts", "ismcts", "speed"], action="append",
                    help="run only these figures (repeatable; default: all)")
    ap.add_argument("--deals", type=int, default=30, help="duplicate deals per match-up (default 30)")
    ap.add_argument("--mcts-sims", type=int, default=1000, help="MCTSBot simulations (default 1000)")
    ap.add_argument("--ismcts-sims", type=int, default=300, help="ISMCTSBot simulations (default 300)")
    ap.add_argument("--uct-c", type=float, default=2.0, help="UCT constant of both searchers (default 2)")
    ap.add_argument("--bot", default="hard", help="our bot (default hard)")
    ap.add_argument("--seconds", type=float, default=5.0, help="seconds per speed figure (default 5)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--progress", action="store_true", help="report each deal on stderr")
    args = ap.parse_args(argv)
    only = set(args.only or ["mcts", "ismcts", "speed"])

    print(f"# bench/headtohead.py  commit={_commit()} seed={args.seed} deals={args.deals} "
          f"mcts_sims={args.mcts_sims} ismcts_sims={args.ismcts_sims} uct_c={args.uct_c} "
          f"bot={args.bot} seconds={args.seconds:g}")
    tallies = []
    if "mcts" in only:
        tallies.append(figure_mcts(args).summary())
    if "ismcts" in only:
        tallies.append(figure_ismcts(args).summary())
    if tallies:
        print()
        print(f"| match-up | games | {args.bot} W-T-L | {args.bot} win rate [95%] | "
              f"{args.bot} points per game ± 95% | ms per decision ({args.bot} / theirs) | time |")
        print("|---|---|---|---|---|---|---|")
        for s in tallies:
            print(_fmt_tally(s))
    if "speed" in only:
        rows = figure_speed(args)
        base = rows[0][1]
        print()
        print("| random playouts | games/s | player actions/s | games | vs python_block_dominoes |")
        print("|---|---|---|---|---|")
        for label, gps, aps, games in rows:
            print(f"| {label} | {gps:,.0f} | {aps:,.0f} | {games:,} | {gps / base:.2f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
