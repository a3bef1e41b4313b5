"""A deal the rules do not allow is refused by name (core/state.py's ``check_deal`` and
``start_round``, issue 42's survivors there): each refusal's key, its parameters and its words,
in process (the command line's subprocess tests cannot kill a mutant); and a random deal is the
same from the same seed."""

from __future__ import annotations

import random

import pytest

from fives.core.games import Config
from fives.core.state import DealError, State, shuffle
from fives.core.tiles import ALL_TILES, Tile


def _deal(game: str, players: int, seed: int = 1) -> tuple[State, list[list[Tile]], list[Tile],
                                                             int]:
    state = State(Config.make(game, players))
    hands, stock, leader = State.random_deal(state.config, seed=seed)
    want = state.expected_leader(hands)
    return state, hands, stock, leader if want is None else want


def _refusal(state: State, hands: list[list[Tile]], stock: list[Tile], leader: object,
             ) -> DealError:
    with pytest.raises(DealError) as caught:
        state.start_round(hands, stock, leader)  # type: ignore[arg-type]
    assert state.leader < 0 or state.round_end is not None  # nothing was dealt
    return caught.value


def test_a_deal_for_the_wrong_number_of_seats_is_refused() -> None:
    state, hands, stock, leader = _deal("all-fives", 3)
    err = _refusal(state, hands[:2], stock, leader)
    assert (err.key, err.params) == ("deal_hands", {"hands": 2, "players": 3})
    assert str(err) == "the deal has 2 hands for 3 players"


def test_a_hand_of_the_wrong_size_is_refused_with_its_seat_and_the_size_wanted() -> None:
    state, hands, stock, leader = _deal("muggins", 2)
    hands[1] = hands[1] + [stock.pop()]
    err = _refusal(state, hands, stock, leader)
    assert err.key == "deal_hand_size"
    assert err.params == {"seat": 1, "count": 8, "game": "muggins", "players": 2, "size": 7}
    assert "seat 1" in str(err) and "8" in str(err) and "7" in str(err)


def test_a_tile_dealt_twice_and_a_tile_missing_are_named() -> None:
    state, hands, stock, leader = _deal("draw", 2)
    twice = hands[0][0]
    err = _refusal(state, hands, [twice, *stock[1:]], leader)
    assert (err.key, err.params) == ("deal_twice", {"tile": twice})
    assert str(twice) in str(err)
    gone = stock[:3]
    err = _refusal(state, hands, stock[3:], leader)
    assert err.key == "deal_missing"
    assert err.params == {"tiles": ", ".join(str(t) for t in sorted(gone, key=lambda t: t.id))}


@pytest.mark.parametrize("leader", [2, -1, True, "0", None])
def test_a_leader_who_is_not_a_seat_is_refused(leader: object) -> None:
    # compiled as pure: True is not seat 1, "0" not seat 0 (a record's JSON can say either)
    state, hands, stock, _ = _deal("fives-and-threes", 2)
    err = _refusal(state, hands, stock, leader)
    assert (err.key, err.params) == ("leader_range", {"last": 1, "value": repr(leader)})
    assert repr(leader) in str(err)


def test_a_leader_the_rules_do_not_name_is_refused_with_the_rule() -> None:
    # Muggins leads the highest double, in the first round and the next (MG-3)
    state, hands, stock, leader = _deal("muggins", 3)
    wrong = (leader + 1) % 3
    err = _refusal(state, hands, stock, wrong)
    assert err.key == "leader_must_be"
    assert err.params["want"] == leader and err.params["leader"] == wrong
    assert err.params["rule"] == "highest-double"
    # All Fives draws lots for the first lead and gives the next to who went out (AF-10)
    state = State(Config.make("all-fives", 2))
    rng = random.Random(4)
    state.deal_next(rng)
    while state.turn >= 0:
        state.apply_code(rng.choice(state.legal_codes()))
    if state.round_end is not None and state.round_end.reason == "domino":
        hands, stock, _ = State.random_deal(state.config, seed=9)
        want = state.expected_leader(hands)
        assert want is not None
        err = _refusal(state, hands, stock, 1 - want)
        assert err.key == "leader_must_be" and err.params["rule"] == "last-tile"


def test_no_round_is_dealt_over_one_in_play_or_after_the_match() -> None:
    state, hands, stock, leader = _deal("block", 2)
    state.start_round(hands, stock, leader)
    with pytest.raises(DealError) as caught:
        state.start_round(hands, stock, leader)
    assert caught.value.key == "previous_round_unfinished" and caught.value.params == {}
    state = State(Config.make("all-fives", 2, target=5))
    rng = random.Random(2)
    while not state.over:
        state.deal_next(rng)
        while state.turn >= 0:
            state.apply_code(rng.choice(state.legal_codes()))
    hands, stock, leader = State.random_deal(state.config, seed=1)
    with pytest.raises(DealError) as caught:
        state.start_round(hands, stock, leader)
    assert caught.value.key == "no_more_rounds"
    with pytest.raises(DealError) as caught:
        state.deal_next(rng)
    assert (caught.value.key, str(caught.value)) == (
        "no_more_rounds", "the match is already over; no more rounds")


@pytest.mark.parametrize("leader", [0, 1])
def test_a_random_deal_is_refused_over_a_round_in_play_whoever_led_it(leader: int) -> None:
    state = State(Config.make("all-fives", 2))  # the first leader by lot: either seat
    hands, stock, _ = State.random_deal(state.config, seed=1)
    state.start_round(hands, stock, leader)
    with pytest.raises(DealError) as caught:
        state.deal_next(random.Random(1))
    assert (caught.value.key, caught.value.params) == ("previous_round_unfinished", {})
    assert (state.leader, state.turn) == (leader, leader)  # the round in play untouched


def test_a_random_deal_returns_the_lot_only_where_the_rules_leave_the_lead_to_one() -> None:
    """C-11: All Fives' first leader is drawn by lot, and the lot is returned; Muggins leads
    with the highest double: no lot."""
    rng = random.Random(4)
    lot = State(Config.make("all-fives", 2)).deal_next(rng)
    assert lot is not None and lot.leader in (0, 1)
    assert State(Config.make("muggins", 2)).deal_next(rng) is None


def test_the_shuffle_draws_as_pythons_and_a_subclass_shuffles_its_own_way() -> None:
    """``shuffle`` is ``random.Random.shuffle`` written out (compiled, it runs without the
    interpreter): the same order from the same seed; a subclass of Random keeps its own."""
    for seed in range(20):
        mine, theirs = list(range(28)), list(range(28))
        shuffle(random.Random(seed), mine)
        random.Random(seed).shuffle(theirs)
        assert mine == theirs

    class Reversing(random.Random):
        def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
            x.reverse()

    items = list(range(5))
    shuffle(Reversing(0), items)
    assert items == [4, 3, 2, 1, 0]


def test_a_random_deal_is_the_same_from_the_same_seed_or_generator() -> None:
    config = Config.make("all-fives", 4)
    assert State.random_deal(config, seed=7) == State.random_deal(config, seed=7)
    assert State.random_deal(config, seed=7) != State.random_deal(config, seed=8)
    assert State.random_deal(config, rng=random.Random(7)) == State.random_deal(config, seed=7)
    hands, stock, leader = State.random_deal(config, seed=3)
    assert sorted(t for h in hands for t in h) + sorted(stock) != []
    assert sorted([*[t for h in hands for t in h], *stock]) == sorted(ALL_TILES)
    assert all(len(h) == config.hand_size for h in hands) and 0 <= leader < 4


@pytest.mark.parametrize(("game", "gate"), [("all-fives", False), ("draw", True)])
def test_a_match_not_yet_dealt_holds_no_tile_and_nobody_is_to_act(game: str, gate: bool) -> None:
    """Before its first deal a match has empty hands and stock, an empty layout made by the
    game's rules (its spinner, the side-arm house rule), no leader, no seat to act and none
    gone out; a copy of it is the same."""
    state = State(Config.make(game, 3, rules={"side_arm_gate": gate}))
    for st in (state, state.copy()):
        assert (st.hands, st.dealt, st.stock, st.stock_pos) == ([0] * 3, [0] * 3, [], 0)
        assert (st.layout.count, st.layout.spinner_rules, st.layout.gate) == (
            0, st.config.game.spinner, gate)
        assert (st.leader < 0, st.turn, st.round_end, st.legal_codes()) == (True, -1, None, [])
        assert st.out == [False] * 3  # nobody has gone out
