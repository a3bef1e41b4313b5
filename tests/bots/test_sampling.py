"""World sampling (core/sampling.py): every world fits the view; every deal that fits is reached.

* Consistency: over random matches of every game and player count (partnerships included), at
  every decision, each sampled world (``check=True``: the history is replayed with legality
  checks) shows the deciding seat exactly its view: same seat to act, hand, hand sizes, stock,
  layout, scores, history and legal actions. Every other hand respects :func:`proven_voids`,
  and so does the true state (the proofs are sound); in the games that lead with the highest
  double no dealt hand holds a tile that outranks the lead; the true deal is one of the
  assignments the sampler allows.
* Reachability: on small positions (house-rule hands of 3 tiles, 2 players, with passes and
  draws that prove voids, one with a tile drawn *after* a proof) every consistent deal is
  enumerated by brute force, independently of the sampler: every completion of the unseen
  tiles is dealt, the round's public history is replayed with the engine's checks, and the
  completions whose view is the same JSON are kept. A few thousand samples reach every one of
  them, nothing else, and about equally often (a loose chi-square bound; seeds are fixed).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from fives.bots.search import greedy_log_likelihood
from fives.core.games import Config
from fives.core.sampling import SamplingError, WorldSampler, proven_voids, sample_world
from fives.core.state import DealError, IllegalAction, State, lead_priority
from fives.core.tiles import ALL_TILES, DRAW, Action, Tile, tiles_of_mask
from fives.core.view import View, public_view, view_of

GAMES = ["all-fives", "fives-and-threes", "muggins", "draw", "block"]
TABLES = [(2, False), (3, False), (4, False), (4, True)]
HIGHEST_DOUBLE = {"muggins", "draw", "block"}


def _numbers(tile: Tile) -> int:
    return 1 << tile.low | 1 << tile.high


def _short(game: str, players: int, teams: bool) -> Config:
    # short matches: two or three rounds, several of them past the first deal
    return Config.make(game, players, teams=teams, target=31 if game == "fives-and-threes" else 50)


def _decisions(config: Config, seed: int, limit: int) -> Iterator[State]:
    """The state at each of the first ``limit`` turns of matches played half at random, half
    greedily (one match after another)."""
    rng = random.Random(seed)
    state = State(config)
    seen = 0
    while seen < limit:
        if state.over:
            state = State(config)
        if state.needs_deal():
            state.deal_next(rng)
            continue
        yield state
        seen += 1
        legal = state.legal_actions()
        if rng.random() < 0.5:
            action = legal[rng.randrange(len(legal))]
        else:  # the play that scores most, else the heaviest: more realistic layouts
            action = max(legal, key=lambda a: (_points_now(state, a), _pips(a), rng.random()))
        state.apply(action)


def _points_now(state: State, action: Action) -> int:
    tile = action.tile
    if tile is None:
        return -1
    end = action.end if action.end is not None else 0
    return state.config.game.play_points[state.layout.total_after(tile.id, end)]


def _pips(action: Action) -> int:
    return action.tile.pips if action.tile is not None else -1


def _true_slot(sampler: WorldSampler, state: State, me: int, tile_id: int) -> int:
    """The slot index that holds ``tile_id`` in the true state."""
    log = state.log
    for k, (seat, code, *_rest, drawn) in enumerate(log):
        if code == int(DRAW) and drawn == tile_id and seat != me:
            fresh = k + 1 < len(log) and log[k + 1][0] == seat and log[k + 1][1] < int(DRAW)
            assert not fresh  # tiles drawn and played at once are known, never in a slot
            return next(
                j for j, s in enumerate(sampler.slots)
                if s.owner == seat and s.arrival == k and not s.is_deal
            )
    for seat in range(state.n):
        if seat != me and state.dealt[seat] >> tile_id & 1:
            return next(j for j, s in enumerate(sampler.slots) if s.owner == seat and s.is_deal)
    return next(j for j, s in enumerate(sampler.slots) if s.owner < 0)


def _check_world(world: State, view: View, me: int) -> None:
    seen = view_of(world, me)
    assert seen.turn == view.turn == me
    assert seen.hand == view.hand
    assert seen.hand_sizes == view.hand_sizes
    assert seen.stock == view.stock
    assert seen.layout.tiles() == view.layout.tiles()
    assert seen.layout.ends == view.layout.ends
    assert seen.scores == view.scores
    assert seen.legal == view.legal
    assert [h.to_json() for h in seen.history] == [h.to_json() for h in view.history]
    assert seen.out == view.out
    for seat in range(view.players):
        if seat != me:
            voids = proven_voids(view, seat)
            held = tiles_of_mask(world.hands[seat])
            assert not [t for t in held if _numbers(t) & voids], (seat, voids, held)
    game = view.config.game
    if game.first_lead == "highest-double" and view.history:
        lead = view.history[0].action.tile
        assert lead is not None
        rank = lead_priority(lead)
        for seat in range(view.players):
            above = [t for t in tiles_of_mask(world.dealt[seat]) if lead_priority(t) > rank]
            assert not above, (seat, lead, above)


@pytest.mark.parametrize(("game", "players", "teams"), [
    (g, p, t) for g in GAMES for p, t in TABLES
])
def test_every_sampled_world_agrees_with_the_view(game: str, players: int, teams: bool) -> None:
    config = _short(game, players, teams)
    seed = GAMES.index(game) * 10 + players + 5 * teams
    rng = random.Random(seed)
    model = greedy_log_likelihood(1.0)
    decisions = proofs = rounds = 0
    for state in _decisions(config, seed, limit=120):
        me = state.turn
        view = view_of(state, me)
        rounds = max(rounds, state.round_index + 1)
        # the proofs are sound: the true hands hold nothing they rule out
        for seat in range(players):
            voids = proven_voids(view, seat)
            proofs += bool(voids) and seat != me
            held = tiles_of_mask(state.hands[seat])
            assert not [t for t in held if _numbers(t) & voids], (seat, voids, held)
        if not view.history:
            continue  # before the lead: tested on its own below
        decisions += 1
        sampler = WorldSampler(view)
        # the true deal is an assignment the sampler allows
        for i, tile_id in enumerate(sampler.tiles):
            assert _true_slot(sampler, state, me, tile_id) in sampler.allowed[i], ALL_TILES[tile_id]
        where = sampler.assign(rng)
        assert all(j in allowed for j, allowed in zip(where, sampler.allowed))
        assert [where.count(j) for j in range(len(sampler.slots))] == [
            s.capacity for s in sampler.slots
        ]
        for _ in range(3):
            _check_world(sampler.sample(rng, check=True), view, me)
        # bots sample without the checks: the same seed gives the same (checked) world
        seed_k = rng.getrandbits(32)
        checked = sampler.sample(random.Random(seed_k), check=True)
        fast = sampler.sample(random.Random(seed_k))
        assert (fast.dealt, fast.stock, fast.log) == (checked.dealt, checked.stock, checked.log)
        world, _logw = sampler.sample_weighted(rng, model, check=True)
        _check_world(world, view, me)
    assert decisions >= 60
    assert proofs > 0  # some passes or draws proved voids: the checks above were not vacuous
    assert rounds >= 2  # later rounds start from their scores


def test_before_the_lead_no_other_hand_outranks_the_leader() -> None:
    """MG-3: the leader holds the highest tile dealt, so no world gives another hand more."""
    config = Config.make("block", 2)
    bad = []
    for seed in range(6):
        state = State(config)
        state.deal_next(random.Random(seed))
        leader = state.turn
        best = max(tiles_of_mask(state.hands[leader]), key=lead_priority)
        sampler = WorldSampler(view_of(state, leader))
        for k in range(10):
            world = sampler.sample(random.Random(k), check=True)
            other = tiles_of_mask(world.hands[1 - leader])
            bad += [t for t in other if lead_priority(t) > lead_priority(best)]
    assert not bad, f"{len(bad)} tiles outrank the leader's best, e.g. {bad[0]}"


def test_the_public_view_has_no_seat_to_sample_for() -> None:
    state = State(Config.make("all-fives", 2))
    state.deal_next(random.Random(1))
    with pytest.raises(SamplingError):
        WorldSampler(public_view(state))


def test_sample_world_is_one_consistent_world() -> None:
    for state in _decisions(Config.make("muggins", 3, target=40), 3, limit=12):
        view = view_of(state, state.turn)
        if view.history:
            _check_world(sample_world(view, random.Random(7)), view, state.turn)


# -- reachability ----------------------------------------------------------------------------


def _tiles(text: str) -> list[Tile]:
    return [Tile.parse(x) for x in text.split()]


def _position(game: str, hands: list[str], drawn: str, actions: str) -> State:
    """A 2-player round of 3-tile hands: ``drawn`` is the stock's head in draw order, the other
    tiles follow in set order; ``actions`` are played from the lead."""
    config = Config.make(game, 2, rules={"hand_size": 3})
    dealt = [_tiles(h) for h in hands]
    head = _tiles(drawn)
    used = {t for h in dealt for t in h} | set(head)
    stock = head + [t for t in ALL_TILES if t not in used]
    state = State(config)
    leader = state.expected_leader(dealt)
    assert leader is not None
    state.start_round(dealt, stock, leader)
    for text in actions.split():
        state.play(Action.parse(text))
    return state


def _key(world: State, me: int) -> tuple[int, tuple[int, ...]]:
    """What a world decides of the view's future: the other hand as dealt, and the tiles drawn
    so far in order (the undrawn stock's order, and the out-of-play tiles, decide nothing)."""
    return world.dealt[1 - me], tuple(world.stock[: world.stock_pos])


def _brute_force(view: View, my_dealt: list[Tile]) -> set[tuple[int, tuple[int, ...]]]:
    """Every deal the view could come from, found without the sampler: each possible other hand,
    each tile each draw could have brought, the history replayed with the engine's checks, and
    the view's JSON compared."""
    config = view.config
    me = view.seat
    assert me is not None and config.players == 2
    target = view.to_json()
    unseen = [t for t in ALL_TILES if t not in my_dealt]
    found: set[tuple[int, tuple[int, ...]]] = set()
    for other in itertools.combinations(unseen, config.hand_size):
        hands = [list(my_dealt), list(other)] if me == 0 else [list(other), list(my_dealt)]
        state = State(config)
        try:
            state.start_round(hands, [t for t in unseen if t not in other], view.leader)
        except DealError:
            continue  # that deal gives the lead to the other seat
        _replay(state, view, 0, target, found)
    return found


def _replay(state: State, view: View, k: int, target: dict[str, Any], found: set[Any]) -> None:
    me = view.seat
    assert me is not None
    history = view.history
    while k < len(history):
        item = history[k]
        if item.action.kind == "draw" and state.turn == item.seat:
            undrawn = state.stock[state.stock_pos :]
            choices = [item.tile.id] if item.tile is not None else undrawn
            for tile_id in choices:
                if tile_id not in undrawn:
                    continue
                branch = state.copy()
                stock = list(state.stock)
                i = stock.index(tile_id, state.stock_pos)
                stock[i], stock[state.stock_pos] = stock[state.stock_pos], stock[i]
                branch.stock = stock
                try:
                    branch.play(DRAW)
                except IllegalAction:
                    return
                _replay(branch, view, k + 1, target, found)
            return
        try:
            state.play(item.action)
        except IllegalAction:
            return
        k += 1
    if view_of(state, me).to_json() == target:
        found.add(_key(state, me))


SCENARIOS = {
    # seat 0 passes on 0-0 at once, seat 1 passes on 4|5 later: both hands have proofs
    "block-two-passes": ("block", ["2-5 4-5 5-6", "0-0 0-4 1-6"], "", "0-0 pass 0-4@E 4-5@E pass"),
    # seat 0 passes on 4-4; seat 1 (to act) sees seat 0 holding two unknown tiles
    "block-one-pass": ("block", ["0-5 1-6 5-6", "1-4 4-4 4-6"], "", "4-4 pass 4-6@E 1-6@E"),
    # seat 1 draws (proof on 0|6), later keeps 3-6 (a 6 drawn after that proof) and draws
    # again: the kept tile is covered only by the later proof
    "draw-kept-after-proof": (
        "draw", ["0-6 1-5 2-3", "2-5 3-3 6-6"], "2-6 1-4 4-4 3-4 3-6 0-5",
        "6-6 0-6@E draw 2-6@W 2-3@W 3-3@W draw draw draw 3-4@W draw draw 0-5@E",
    ),
    # seat 1 keeps 2-2 then draws 4-4 and plays it; seat 0 (to act) has just drawn
    "draw-two-streaks": (
        "draw", ["2-5 2-6 3-4", "0-5 2-3 6-6"], "2-2 4-4 1-3 4-5 0-6",
        "6-6 2-6@W 2-3@W 3-4@W draw draw 4-4@W draw draw 4-5@W 0-5@W draw",
    ),
}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_every_consistent_deal_is_reached_about_equally_often(name: str) -> None:
    game, hands, drawn, actions = SCENARIOS[name]
    state = _position(game, hands, drawn, actions)
    me = state.turn
    view = view_of(state, me)
    opponent = 1 - me
    assert any(h.seat == opponent and h.action.kind in ("pass", "draw") for h in view.history)
    my_dealt = tiles_of_mask(state.dealt[me])
    consistent = _brute_force(view, my_dealt)
    assert _key(state, me) in consistent  # the enumeration finds the truth
    assert 5 <= len(consistent) <= 400
    if name == "draw-kept-after-proof":
        # the kept 3-6 shows a 6, open when seat 1 first drew: tiles drawn later are not covered
        kept = state.stock[4]
        assert ALL_TILES[kept] == Tile.parse("3-6")
        assert any(key[1][4] == kept for key in consistent)
        assert proven_voids(view, opponent) == 1 << 0 | 1 << 4  # the last proof's ends only
    sampler = WorldSampler(view)
    rng = random.Random(2024)
    samples = max(3000, 40 * len(consistent))
    counts = Counter(_key(sampler.sample(rng, check=True), me) for _ in range(samples))
    assert set(counts) - consistent == set()  # nothing inconsistent
    assert consistent - set(counts) == set()  # everything consistent
    expected = samples / len(consistent)
    chi2 = sum((counts[k] - expected) ** 2 / expected for k in consistent)
    df = len(consistent) - 1
    assert chi2 < df + 6 * math.sqrt(2 * df) + 5, (chi2, df)
    assert min(counts.values()) > expected / 3 and max(counts.values()) < 2 * expected
