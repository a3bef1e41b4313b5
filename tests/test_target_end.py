"""A round that ends because a side reached the match's target (core/state.py, issue 42): its end
names the side that reached it and keeps every hand as it was left, in the engine and in the
end's JSON (RECORD.md's ``end`` with the hands behind it), whether the play that reached it
also emptied the hand (``domino``) or not (``target``)."""

from __future__ import annotations

import random

from fives.core.games import Config
from fives.core.state import State
from fives.core.tiles import tiles_of_mask


def test_an_end_at_the_target_names_its_side_and_keeps_the_hands_left() -> None:
    kinds: set[str] = set()
    for game, players in (("all-fives", 2), ("fives-and-threes", 2), ("all-fives", 3),
                          ("muggins", 2)):
        for seed in range(60):
            rng = random.Random(seed)
            state = State(Config.make(game, players, target=15))
            while not state.over:
                state.deal_next(rng)
                while state.turn >= 0:
                    state.apply_code(rng.choice(state.legal_codes()))
            end = state.round_end
            assert end is not None
            if end.payment != "target":
                continue
            kinds.add(end.reason)
            assert end.reached == state.winner == state.config.side_of(state.log[-1][0])
            assert end.left == tuple(state.hands)
            data = end.to_json()
            shown = [[str(t) for t in tiles_of_mask(h)] for h in state.hands]
            assert data["hands"] == shown, (game, seed)
    assert kinds == {"target", "domino"}
