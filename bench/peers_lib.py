"""Throughput of peer domino engines, measured with uniformly random play.

Only the peers live here; our own engine is measured in ``peers.py`` through
``fives.bench_engine``. Each function plays complete games for about ``seconds``
(always at least one game) and returns ``(games per second, moves per second)``.

What a "move" is, per peer (neither peer has explicit pass actions; both skip
a seat with no legal play internally):

* OpenSpiel ``python_block_dominoes``: player-node actions (tile plays). The 14
  chance actions of the deal are applied but not counted as moves.
* ``dominoes``: ``Game.make_move`` calls (tile plays). The deal happens inside
  ``Game.new()``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

_CHECK_EVERY = 8  # games between clock reads


def openspiel_block_games_per_sec(seconds: float, seed: int) -> tuple[float, float]:
    """Random full games of OpenSpiel's ``python_block_dominoes`` (2 players, 7 tiles each,
    no boneyard draws). Chance nodes are sampled by their outcome probabilities, player
    nodes uniformly among the legal actions, all from one seeded ``random.Random``."""
    import pyspiel
    from open_spiel.python import games  # noqa: F401  (registers the python_* games)

    game = pyspiel.load_game("python_block_dominoes")
    rand = random.Random(seed).random

    n_games = 0
    n_moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(_CHECK_EVERY):
            n_moves += openspiel_random_game(game, rand)
            n_games += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    return n_games / elapsed, n_moves / elapsed


def openspiel_random_game(game: Any, rand: Callable[[], float]) -> int:
    """Play one OpenSpiel game to its end: chance nodes by their outcome probabilities, player
    nodes uniformly among the legal actions; return the number of player moves."""
    moves = 0
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            r = rand()
            acc = 0.0
            action = outcomes[-1][0]
            for a, p in outcomes:
                acc += p
                if r < acc:
                    action = a
                    break
            state.apply_action(action)
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rand() * len(legal))])
            moves += 1
    return moves


def dominoes_games_per_sec(seconds: float, seed: int) -> tuple[float, float]:
    """Random full games of the ``dominoes`` package: ``dominoes.Game.new()`` (4 players in
    2 teams, 7 tiles each, whole set dealt, so a block game) then uniformly random
    ``game.valid_moves`` until ``game.result`` is set. ``Game.new()`` shuffles with the
    global ``random`` module, so that is seeded too; our choices use a seeded Random."""
    import dominoes

    random.seed(seed)  # dominoes deals with the module-level random
    rng = random.Random(seed)
    choice = rng.choice
    new_game = dominoes.Game.new

    n_games = 0
    n_moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(_CHECK_EVERY):
            game = new_game()
            while game.result is None:
                game.make_move(*choice(game.valid_moves))
                n_moves += 1
            n_games += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    return n_games / elapsed, n_moves / elapsed


if __name__ == "__main__":
    import sys

    secs = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    g, m = openspiel_block_games_per_sec(secs, 1)
    print(f"openspiel python_block_dominoes: {g:9.1f} games/s {m:10.1f} moves/s")
    g, m = dominoes_games_per_sec(secs, 1)
    print(f"dominoes Game.new():             {g:9.1f} games/s {m:10.1f} moves/s")
