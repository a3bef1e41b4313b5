"""Our bots on OpenSpiel's python_block_dominoes: the adapter reads their state as our view
and maps our choices back to their actions."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.games import block_dominoes  # noqa: E402, F401  (registers it)

from fives.bridges.block_dominoes import (  # noqa: E402
    BlockDominoesBot,
    their_action,
    view_of_block_dominoes,
)
from fives.core.sampling import WorldSampler  # noqa: E402


def _deal(state, rng: random.Random) -> None:
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])


def test_views_match_their_state_at_every_decision() -> None:
    """Legal actions agree both ways, the view's hand and table are theirs, and our world
    sampler finds worlds for every view (so passes and voids were read right)."""
    game = pyspiel.load_game("python_block_dominoes")
    rng = random.Random(1)
    decisions = passes = 0
    for _ in range(40):
        state = game.new_initial_state()
        _deal(state, rng)
        while not state.is_terminal():
            player = state.current_player()
            view = view_of_block_dominoes(state, player)
            theirs = sorted(state.legal_actions())
            mapped = sorted({their_action(view, a, player) for a in view.legal})
            assert mapped == theirs
            assert len(view.hand) == len(state.hands[player])
            assert sorted(v for _, v in view.layout.ends) == sorted(int(e) for e in state.open_edges)
            passes += sum(1 for h in view.history if h.action.kind == "pass")
            world = WorldSampler(view).sample(rng, check=True)
            assert world.turn == player
            assert world.hands[player] == sum(t.mask for t in view.hand)
            decisions += 1
            state.apply_action(theirs[int(rng.random() * len(theirs))])
    assert decisions > 200 and passes > 0


@pytest.mark.parametrize("bot", ["random", "easy", "medium"])
def test_our_bots_finish_their_games(bot: str) -> None:
    game = pyspiel.load_game("python_block_dominoes")
    rng = random.Random(2)
    for seed in range(6):
        state = game.new_initial_state()
        _deal(state, rng)
        bots = [BlockDominoesBot(bot, 0, seed=seed), BlockDominoesBot("random", 1, seed=seed)]
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        assert sum(state.returns()) == 0
