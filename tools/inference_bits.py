"""``python tools/inference_bits.py GAME [DECISIONS [BOT]]``: how much the other seat's plays
tell of its hand, two players.

Positions: seat 0's decisions with a choice, after at least three actions, in seeded matches of
``BOT`` (default ``hard``, played by counts) against itself. At each, 400 worlds are sampled
consistent with seat 0's view (its tiles, the table, the proven voids), and each is weighted by
how well it explains the other seat's choices under a model of play; for every tile seat 0
cannot see, the weighted share of worlds in which the other seat holds it is a forecast, scored
against the true deal by its log loss (bits a tile). The models: none (uniform worlds, what
``hard`` uses), and the two keys of the play model (:mod:`fives.bots.playmodel`), each at the
beta ``play_model.json`` fitted for it: the greedy key (points now, then pips) and medium's
values of the plays from the seat's own hand. Seeing the other hand, as ``cheat`` does, is 0
bits; the share of the uniform worlds' loss a model removes is what inference from the plays
can win back of that gap. Prints one line per model with its mean and the 95% interval over
decisions of what it removes.
"""

from __future__ import annotations

import math
import random
import statistics
import sys
from collections.abc import Callable

from fives.bots.host import Seeds, deal_round
from fives.bots.playmodel import PLAY_MODELS, shipped_fits
from fives.bots.registry import BotName
from fives.bots.search import play_log_likelihood
from fives.core.games import Config
from fives.core.sampling import SamplingError, WorldSampler
from fives.core.state import State
from fives.core.view import view_of

Model = Callable[[State, int], float] | None
WORLDS = 400


def forecast_bits(state: State, models: dict[str, Model], rng: random.Random) -> dict[str, float]:
    """Each model's mean log loss (bits) over the tiles seat 0 cannot see, at this decision."""
    sampler = WorldSampler(view_of(state, 0))
    truth = state.hands[1]
    out: dict[str, float] = {}
    for name, model in models.items():
        hands: list[int] = []
        logs: list[float] = []
        for _ in range(WORLDS):
            try:
                world, logw = sampler.sample_weighted(rng, model)
            except SamplingError:
                continue
            hands.append(world.hands[1])
            logs.append(logw)
        top = max(logs)
        weights = [math.exp(x - top) for x in logs]
        total = sum(weights)
        unseen = 0
        for hand in hands:
            unseen |= hand
        bits = 0.0
        count = 0
        for tid in range(28):
            if not unseen >> tid & 1:
                continue
            held = sum(w for hand, w in zip(hands, weights) if hand >> tid & 1) / total
            p = min(max(held if truth >> tid & 1 else 1.0 - held, 1e-3), 1.0)
            bits -= math.log2(p)
            count += 1
        out[name] = bits / max(1, count)
    return out


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    game = argv[0]
    wanted = int(argv[1]) if len(argv) > 1 else 60
    who = argv[2] if len(argv) > 2 else "hard"
    config = Config.make(game, 2)
    fits = shipped_fits(game)
    models: dict[str, Model] = {"uniform": None}
    for key in PLAY_MODELS:
        if key in fits:
            beta = fits[key]
            models[f"{key} (beta {beta:.3f})"] = play_log_likelihood(key, beta, config)
    bots = [BotName.parse(who).make_by_counts(), BotName.parse(who).make_by_counts()]
    rng = random.Random(11)
    rows: list[dict[str, float]] = []
    match = 0
    while len(rows) < wanted:
        seeds = Seeds(4000 + match)
        match += 1
        state = State(config)
        while not state.over and len(rows) < wanted:
            deal_round(state, seeds)
            while state.turn >= 0 and len(rows) < wanted:
                seat = state.turn
                view = view_of(state, seat)
                if seat == 0 and len(view.legal) > 1 and len(state.log) >= 3:
                    rows.append(forecast_bits(state, models, rng))
                pick = seeds.decision(seat, state.round_index, len(state.log))
                state.apply(bots[seat].choose(view, pick))
    base = [r["uniform"] for r in rows]
    print(f"{game}, 2 players: {len(rows)} decisions of seat 0 in {match} matches of {who} "
          f"against {who}; {WORLDS} worlds each; bits a tile seat 0 cannot see")
    for name in models:
        mean = statistics.fmean(r[name] for r in rows)
        if name == "uniform":
            print(f"  {name:28} {mean:.3f}")
            continue
        gain = [(b - r[name]) / b for b, r in zip(base, rows) if b > 0]
        m = statistics.fmean(gain)
        half = 1.96 * statistics.stdev(gain) / math.sqrt(len(gain))
        print(f"  {name:28} {mean:.3f}  removes {100 * m:.1f}% [{100 * (m - half):.1f}, "
              f"{100 * (m + half):.1f}] of it")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
