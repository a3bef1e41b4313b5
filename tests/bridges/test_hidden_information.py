"""The bridges show a seat only what it may know: two tables that differ only in tiles the seat
cannot see (a tile of another hand exchanged with one in the stock or in a third hand, another
seat's kept draw being a different tile) give the seat the same OpenSpiel information state and
observation, as strings and as tensors, and the same PettingZoo observation and action mask.

The twin tables are built here from the table's own actions, independently of the views and of
the world sampler the bridges use: the same player actions, with two hidden tiles exchanged in
the chance outcomes (the deal, the draws), replayed under the rules; a twin whose replay breaks
a rule is not a world the seat could be in, and is skipped.
"""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

import fives.bridges.openspiel as fo  # noqa: E402
from fives.bridges.knowledge import dealt_hand, knowledge_of, proven_voids_all  # noqa: E402
from fives.bridges.pettingzoo import FivesEnv  # noqa: E402
from fives.bridges.table import CHANCE, DEAL, DRAWING, LOT, PLAY, Table  # noqa: E402
from fives.core.games import GAMES  # noqa: E402
from fives.core.sampling import proven_voids  # noqa: E402
from fives.core.view import view_of  # noqa: E402

SETUPS = [(name, players, {}) for name in GAMES for players in (2, 3, 4)] + [
    ("block", 4, {"teams": True}),
    ("muggins", 4, {"teams": True}),
    ("all-fives", 4, {"teams": False}),
    ("all-fives", 3, {"match": True, "target": 60}),
    ("draw", 2, {"match": True, "target": 30}),
    ("fives-and-threes", 4, {"match": True, "target": 21}),
]


def _ids(setup: tuple[str, int, dict]) -> str:
    name, players, params = setup
    return f"{name}-{players}p" + "".join(f"-{k}={v}" for k, v in params.items())


def _random_step(state, rng: random.Random) -> None:
    """One step: a chance outcome by its probability (all are uniform), or a random action."""
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
    else:
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.random() * len(legal))])


def _random_state(game, rng: random.Random, steps: int):
    """The OpenSpiel state after ``steps`` random steps (chance and players alike), or None
    unless its round is still in play there (being dealt, or at a decision or a draw)."""
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            return None
        _random_step(state, rng)
    return state if state.table.phase in (DEAL, LOT, PLAY, DRAWING) else None


def _twin_actions(table: Table, seat: int, rng: random.Random) -> list[int] | None:
    """The table's actions with two tiles ``seat`` cannot see exchanged, or None if there are
    no two such tiles. Tiles it cannot see: those dealt to or drawn by another seat and not
    played since, and the tiles neither dealt nor drawn (the stock)."""
    cfg = table.config
    size = cfg.hand_size
    replay = Table(cfg, table.match, table.max_rounds)
    actions = table.actions
    hidden: list[tuple[int, int]] = []  # (index in actions, owner) of hidden chance outcomes
    seen: set[int] = set()
    played: set[int] = set()
    for i, action in enumerate(actions):
        if i >= table.round_start:
            if replay.phase is DEAL or replay.phase is DRAWING:
                owner = len(replay.dealt) // size if replay.phase is DEAL else replay.state.turn
                seen.add(action)
                if owner != seat:
                    hidden.append((i, owner))
            elif replay.current_player() != CHANCE and action < 140:
                played.add(action - 112 if action >= 112 else action >> 2)
        replay.apply(action)
    places = [("slot", i, owner) for i, owner in hidden if actions[i] not in played]
    places += [("stock", t, -1) for t in range(28) if t not in seen]
    pairs = [(a, b) for k, a in enumerate(places) for b in places[k + 1 :]
             if a[0] == "slot" and not (b[0] == "slot" and a[2] == b[2])]
    if not pairs:
        return None
    (_, i, _), (kind, j, _) = rng.choice(pairs)
    twin = list(actions)
    if kind == "slot":
        twin[i], twin[j] = actions[j], actions[i]
    else:
        twin[i] = j
    return twin


def _twin(game, table: Table, seat: int, rng: random.Random):
    """An OpenSpiel state the seat cannot tell from ``table`` but whose hidden tiles differ,
    or None where the exchange breaks a rule (or there is nothing to exchange)."""
    for _ in range(12):
        actions = _twin_actions(table, seat, rng)
        if actions is None:
            return None
        state = game.new_initial_state()
        try:
            for action in actions:
                state.apply_action(action)
        except (ValueError, RuntimeError):
            continue  # the other seat's moves are not legal with its new tiles
        twin = state.table
        if twin.phase == table.phase and twin.current_player() == table.current_player():
            assert str(twin) != str(table)  # the hidden part did change
            return state
    return None


def _openspiel_knowledge(state, seat: int) -> tuple:
    return (
        state.information_state_string(seat),
        state.observation_string(seat),
        tuple(state.information_state_tensor(seat)),
        tuple(state.observation_tensor(seat)),
    )


def _pettingzoo_knowledge(envs: dict[str, FivesEnv], table: Table, seat: int) -> list:
    out = []
    for env in envs.values():
        env.table = table
        obs = env.observe(env.possible_agents[seat])
        out += [obs["observation"].tobytes(), obs["action_mask"].tobytes()]
    return out


@pytest.mark.parametrize("setup", SETUPS, ids=_ids)
def test_a_seat_cannot_tell_tables_that_differ_only_in_hidden_tiles(setup) -> None:
    name, players, params = setup
    game = fo.load(name, players=players, **params)
    match = bool(params.get("match"))
    envs = {
        mode: FivesEnv(game=name, players=players, teams=params.get("teams"),
                       target=params.get("target"), observation=mode,
                       episode="match" if match else "round")
        for mode in ("observation", "information_state")
    }
    for env in envs.values():
        env.reset(seed=0)
    rng = random.Random(f"{name}{players}{params}")
    twins = 0
    for steps in (5, 12, 20, 30, 45, 60, 90, 130, 200):
        state = _random_state(game, rng, steps)
        if state is None:
            continue
        for seat in range(players):
            mine = _openspiel_knowledge(state, seat)
            pz_mine = _pettingzoo_knowledge(envs, state.table, seat)
            for _ in range(2):
                twin = _twin(game, state.table, seat, rng)
                if twin is None:
                    continue
                twins += 1
                assert _openspiel_knowledge(twin, seat) == mine
                assert _pettingzoo_knowledge(envs, twin.table, seat) == pz_mine
    assert twins >= 4  # the test did compare tables that differ


def test_the_twins_differ_for_a_seat_whose_tiles_changed() -> None:
    """The check above is not blind: the seat whose hand took the exchanged tile sees it."""
    game = fo.load("draw", players=3)
    rng = random.Random(4)
    changed = 0
    for steps in (8, 15, 25):
        state = _random_state(game, rng, steps)
        if state is None or state.table.phase is not PLAY:
            continue
        table = state.table
        twin = _twin(game, table, 0, rng)
        if twin is None:
            continue
        hands = [twin.table.state.hands[s] != table.state.hands[s] for s in range(3)]
        for seat in (1, 2):
            if hands[seat]:
                changed += 1
                assert twin.observation_string(seat) != state.observation_string(seat)
                assert twin.observation_tensor(seat) != state.observation_tensor(seat)
    assert changed


@pytest.mark.parametrize("name", list(GAMES))
def test_what_a_seat_derives_from_its_view_is_what_happened(name: str) -> None:
    """The dealt hand worked out from a view (hand, plus plays, minus draws) is the hand the
    engine dealt; the voids of every seat in one pass are core's ``proven_voids`` per seat."""
    game = fo.load(name, players=3)
    rng = random.Random(name)
    checked = 0
    for steps in range(8, 80, 3):
        state = _random_state(game, rng, steps)
        if state is None or state.table.phase not in (PLAY, DRAWING):
            continue
        table = state.table
        st = table.state
        for seat in range(3):
            view = view_of(st, seat)
            assert dealt_hand(view) == st.dealt[seat]
            assert proven_voids_all(view) == tuple(proven_voids(view, s) for s in range(3))
            assert knowledge_of(table, seat).view.to_json() == view.to_json()
            checked += 1
    assert checked


@pytest.mark.parametrize("name,players", [("all-fives", 2), ("draw", 3), ("muggins", 4)])
def test_voids_carried_along_a_match_are_the_voids_worked_out_afresh(name: str, players: int) -> None:
    """A table keeps its fold of the voids from one position to the next, across rounds and
    copies; at every step it gives what core's ``proven_voids`` gives from the view alone."""
    game = fo.load(name, players=players, match=True)
    rng = random.Random(players)
    state = game.new_initial_state()
    rounds = proofs = 0
    while not state.is_terminal():
        table = state.table
        if table.phase in (PLAY, DRAWING):
            seat = rng.randrange(players)
            view = view_of(table.state, seat)
            want = tuple(proven_voids(view, s) for s in range(players))
            assert knowledge_of(table, seat).voids == want
            assert knowledge_of(table.copy(), seat).voids == want
            proofs += any(want)
        _random_step(state, rng)
        rounds = table.rounds
    assert rounds > 1 and proofs > 0
