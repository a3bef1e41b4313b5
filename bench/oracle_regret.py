"""What our bots' choices cost against an oracle that sees the other hands (issue 27).

Decisions are drawn (seeded) from recorded matches (a tournament's ``records`` folder). At
each, every bot named chooses from the seat's view alone (by counts, no clock), and the oracle
values every legal action from the true deal: ``hard``'s search (medium's playouts, the exact
endgame) over worlds that differ only in the undrawn stock's order, every action on every
world (no halving), no prior. A choice's regret is the oracle's best value less the value of
the action chosen, in points of the round (and the match bonus, as the searches count it).

Its mean over the same decisions compares bots pair by pair far more tightly than whole
matches do (each decision is its own paired trial), but it measures one thing: how close a
bot comes to what ``hard``'s playouts would choose knowing the hands, the part of strength
that reading the hands (inference, more worlds) can buy. A bot whose later play is stronger
than medium's playouts gets no credit for it here; tournaments measure that.

    .venv/bin/python bench/oracle_regret.py --records tournament-results/records \\
        --bots pimc,hard,expert --decisions 300 --worlds 300
"""

from __future__ import annotations

import argparse
import glob
import math
import random
import statistics
import sys
import time

from fives.bots.base import BotError
from fives.bots.host import Seeds
from fives.bots.ladder import true_deal_worlds
from fives.bots.registry import BotName
from fives.bots.search import halving_values
from fives.bots.transpose import action_classes
from fives.core.record import Record
from fives.core.state import State
from fives.core.tiles import Action
from fives.core.view import view_of


def decisions(paths: list[str], count: int, seed: int) -> list[tuple[State, str]]:
    """``count`` decisions (a state with more than one distinct action, and the record it came
    from) drawn evenly at random from every such decision of the records."""
    found: list[tuple[State, str]] = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            record = Record.from_json(f.read())
        state = State(record.config)
        for rnd in record.rounds:
            state.start_round(rnd.hands, rnd.stock, rnd.leader)
            for text in rnd.actions:
                legal = state.legal_actions()
                if len(legal) > 1 and len(action_classes(state.layout, legal)) > 1:
                    found.append((state.copy(), path))
                state.play(Action.parse(text))
    rng = random.Random(seed)
    rng.shuffle(found)
    return found[:count]


def oracle_values(state: State, worlds: int, seed: int) -> dict[Action, float]:
    """Every legal action's value from the true deal, the stock's order shuffled per world."""
    view = view_of(state, state.turn)
    # with nothing left to draw every world is the deal itself: a few suffice
    n = worlds if state.stock_left() > 0 else 8
    return halving_values(
        view, random.Random(seed), worlds=n, eps=0.0, endgame_tiles=6, playouts="medium",
        halving=False, world_source=true_deal_worlds(state),
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", required=True, help="a folder of match records (JSON)")
    parser.add_argument("--bots", required=True, help="bots to compare, comma-separated")
    parser.add_argument("--decisions", type=int, default=300)
    parser.add_argument("--worlds", type=int, default=300, help="the oracle's stock orders")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    paths = sorted(glob.glob(f"{args.records}/*.json"))
    if not paths:
        print(f"oracle_regret: no records (*.json) in {args.records!r}", file=sys.stderr)
        return 2
    try:
        names = [BotName.parse(b) for b in args.bots.split(",")]
    except BotError as exc:
        print(f"oracle_regret: {exc}", file=sys.stderr)
        return 2
    chosen = decisions(paths, args.decisions, args.seed)
    regrets: dict[str, list[float]] = {str(n): [] for n in names}
    seconds: dict[str, float] = {str(n): 0.0 for n in names}
    for k, (state, _path) in enumerate(chosen):
        values = oracle_values(state, args.worlds, args.seed + k)
        best = max(values.values())
        view = view_of(state, state.turn)
        for name in names:
            bot = name.make_by_counts()
            if hasattr(bot, "peek"):
                bot.peek(state.copy())
            rng = Seeds(args.seed).of("regret").decision(state.turn, 0, k)
            started = time.process_time()
            action = bot.choose(view, rng)
            seconds[str(name)] += time.process_time() - started
            regrets[str(name)].append(best - values[action])
    n = len(chosen)
    game = chosen[0][0].config if chosen else None
    print(f"{n} decisions from {len(paths)} records"
          + (f" ({game.game.name}, {game.players} players)" if game else "")
          + f"; oracle: {args.worlds} stock orders a decision")
    print("bot            regret a decision [95%]     zero-regret share   CPU s a decision")
    for name, found in regrets.items():
        mean, half = _mean_interval(found)
        zero = sum(1 for r in found if r <= 1e-9) / max(1, n)
        print(f"{name:<14} {mean:7.3f} [{mean - half:.3f}, {mean + half:.3f}]"
              f"     {100 * zero:5.1f}%              {seconds[name] / max(1, n):.3f}")
    keys = list(regrets)
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            diffs = [x - y for x, y in zip(regrets[a], regrets[b], strict=True)]
            mean, half = _mean_interval(diffs)
            print(f"{a} - {b}: {mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}] a decision")
    return 0


def _mean_interval(xs: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its normal 95% interval."""
    if len(xs) < 2:
        return (xs[0] if xs else 0.0), 0.0
    return statistics.fmean(xs), 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


if __name__ == "__main__":
    sys.exit(main())
