"""How rounds end as the engine keeps them (core/state.py, issue 42): a round that ends because a
side reached the match's target names the side and keeps every hand as it was left, in the
engine and in the end's JSON (RECORD.md's ``end`` with the hands behind it), whether the play
that reached it also emptied the hand (``domino``) or not (``target``); and every finished round
is shown to every seat as it was led, played, ended and scored."""

from __future__ import annotations

import random

from fives.core.games import Config
from fives.core.history import public_end
from fives.core.state import State
from fives.core.tiles import tiles_of_mask
from fives.core.view import view_of


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


def test_every_finished_round_is_shown_to_all_as_it_was_led_ended_and_scored() -> None:
    rng = random.Random(6)
    state = State(Config.make("all-fives", 3, target=120))
    while not state.over:
        state.deal_next(rng)
        while state.turn >= 0:
            state.apply_code(rng.choice(state.legal_codes()))
    rounds = state.rounds()
    assert len(rounds) >= 2
    for seat in (None, 0, 2):
        past = view_of(state, seat).past
        finished = rounds[: len(past)]
        assert len(past) >= len(rounds) - 1
        for shown, played in zip(past, finished, strict=True):
            assert shown.leader == played.leader
            assert shown.scores == tuple(played.scores)
            assert shown.end == public_end(played.end) and shown.end is not None
            assert shown.end.reason == played.end.reason  # type: ignore[union-attr]
            assert [h.action for h in shown.history] == played.actions
