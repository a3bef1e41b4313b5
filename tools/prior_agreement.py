"""``python tools/prior_agreement.py GAME PLAYERS [POSITIONS]``: how good each one-ply prior the
search bots may add is, on its own.

Positions come from matches of ``medium`` against itself (seeded); at each kept position with a
real choice, a plain search of 1,000 sampled worlds (one greedy playout of every action in
each, exact endgames) gives every action a value, taken as the truth. Each prior's top action
is then scored: how often it is one of the search's best (95% Wilson interval) and how many
points it gives up on average. The priors: ``medium``'s heuristic, the learned network's
one-ply values (:func:`fives.bots.valuenet.action_values`), and both added (medium at the half
weight the bots give it).
"""

from __future__ import annotations

import random
import sys

from fives.bots.host import Seeds, deal_round
from fives.bots.ladder import MediumBot
from fives.bots.search import halving_values
from fives.bots.valuenet import action_values, shipped_net
from fives.core.games import Config
from fives.core.state import State
from fives.core.view import view_of
from fives.tournament.stats import wilson


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    game, players = argv[0], int(argv[1])
    wanted = int(argv[2]) if len(argv) > 2 else 150
    net = shipped_net()
    if net is None:
        print("error: the package ships no value network", file=sys.stderr)
        return 2
    medium = MediumBot()
    pick = random.Random(5)
    hits = {"medium": 0, "net": 0, "both": 0}
    lost = {"medium": 0.0, "net": 0.0, "both": 0.0}
    seen = 0
    match = 0
    while seen < wanted:
        state = State(Config.make(game, players))
        seeds = Seeds(1000 + match)
        match += 1
        for _ in range(3):
            if state.over or seen >= wanted:
                break
            deal_round(state, seeds)
            while state.turn >= 0:
                view = view_of(state, state.turn)
                plays = {a.tile for a in view.legal}
                if len(plays) > 1 and pick.random() < 0.3 and seen < wanted:
                    truth = halving_values(view, random.Random(seen), worlds=1000, eps=0.05,
                                           halving=False, endgame_tiles=6)
                    best = max(truth.values())
                    heuristic = medium.values(view, pick)
                    learned = action_values(view, net)
                    priors = {"medium": heuristic, "net": learned,
                              "both": {a: 0.5 * heuristic[a] + learned[a] for a in view.legal}}
                    for name, values in priors.items():
                        top = max(values, key=lambda a, v=values: v[a])  # type: ignore[misc]
                        hits[name] += truth[top] >= best - 1e-9
                        lost[name] += best - truth[top]
                    seen += 1
                action = medium.choose(view, pick) if len(view.legal) > 1 else view.legal[0]
                state.play(action)
    print(f"{game}, {players} players, {seen} positions (medium's matches, seed 5)")
    for name in hits:
        lo, hi = wilson(hits[name], seen)
        print(f"  {name:6}: top action among the search's best {100 * hits[name] / seen:.1f}% "
              f"[{100 * lo:.1f}, {100 * hi:.1f}], {lost[name] / seen:.2f} points given up")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
