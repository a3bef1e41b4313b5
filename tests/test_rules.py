"""One or more tests for every rule id of RULES.md (C-*, SP-*, AF-*, FT-*, MG-*, DB-*).

Positions are built as small records with explicit deals (tests/recordkit.py) and replayed, or by
driving :class:`State` directly. Where a deal must empty the stock, the ``hand_size`` house rule
deals all 28 tiles (or all but one).
"""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from fives.core.games import GAMES, Config, RulesError
from fives.core.layout import Layout
from fives.core.state import DealError, IllegalAction, State
from fives.core.tiles import ACTIONS, ALL_TILES, Tile, round_to_five
from fives.core.view import view_of
from recordkit import (
    LINE_BLOCK,
    SPINNER_BLOCK,
    block_hands,
    expect_error,
    pips,
    rec,
    report,
    rnd,
    state,
)

# ----------------------------------------------------------------------------------------------
# shared positions


def _layout(actions: list[str], spinner: bool = True, gate: bool = True) -> Layout:
    lay = Layout(spinner_rules=spinner, side_arm_gate=gate)
    for a in actions:
        lay.place_text(a)
    return lay


def _opened(lay: Layout) -> dict[str, int]:
    return {o.name: o.value for o in lay.open_ends()}


def _ev(rep: dict[str, Any], round_no: int = -1) -> list[dict[str, Any]]:
    return rep["rounds"][round_no]["events"]


def _end(rep: dict[str, Any], round_no: int = -1) -> dict[str, Any]:
    end = rep["rounds"][round_no]["end"]
    assert end is not None
    return end


def _af_spinner_block(players: int, leftovers: list[list[str]], **fields: Any) -> dict[str, Any]:
    """All Fives: SPINNER_BLOCK played in turn. 2 players: 14 tiles each (no stock); 4 players:
    7 each (no stock); 3 players: 9 each and the last leftover of seat 0 is the one stock tile,
    which seat 0 must draw after the 12th play (it does not fit: the round is then blocked)."""
    size = {2: 14, 3: 9, 4: 7}[players]
    actions = list(SPINNER_BLOCK)
    if players == 3:  # the one tile left out of the hands is the stock
        leftovers = [leftovers[0][:-1], leftovers[1], leftovers[2]]
        actions.append("draw")
    hands = block_hands(SPINNER_BLOCK, players, leftovers)
    fields.setdefault("rules", {"hand_size": size})
    game = fields.pop("game", "all-fives")
    return rec(game, players, rnd(hands, actions), **fields)


# Leftover partitions of the 16 tiles SPINNER_BLOCK leaves (102 pips in all).
L2_S0_WINS = [
    ["1-1", "1-2", "1-3", "1-4", "1-5", "2-2", "2-3", "2-4"],  # 35
    ["2-5", "3-3", "3-4", "3-5", "4-4", "4-6", "5-5", "5-6"],  # 67
]
L2_TIE = [
    ["1-1", "1-4", "2-2", "2-3", "2-4", "4-4", "4-6", "5-6"],  # 51
    ["1-2", "1-3", "1-5", "2-5", "3-3", "3-4", "3-5", "5-5"],  # 51
]
L4_SIDES = [  # side 0 (seats 0+2) 50 against side 1 (seats 1+3) 52; seat 1 alone is lowest
    ["1-4", "1-5", "2-3", "2-4"],  # 22
    ["1-1", "1-2", "1-3", "2-2"],  # 13
    ["2-5", "3-3", "3-4", "3-5"],  # 28
    ["4-4", "4-6", "5-5", "5-6"],  # 39
]
L4_TIE = [
    ["1-1", "3-3", "3-4", "4-6"],  # 25
    ["1-2", "1-5", "2-5", "5-5"],  # 26
    ["1-4", "2-2", "2-4", "5-6"],  # 26
    ["1-3", "2-3", "3-5", "4-4"],  # 25
]
# 3 players: seat 0's last tile is the stock tile it draws.
L3_S1_S2_TIE = [
    ["1-4", "2-3", "3-4", "3-5", "4-4", "5-6"],  # 44
    ["1-2", "1-3", "2-4", "3-3", "4-6"],  # 29
    ["1-1", "1-5", "2-2", "2-5", "5-5"],  # 29
]
L3_S0_S2_TIE = [
    ["1-2", "1-3", "1-4", "1-5", "2-3", "2-4"],  # 29
    ["3-4", "3-5", "4-4", "4-6", "5-6"],  # 44
    ["1-1", "2-2", "2-5", "3-3", "5-5"],  # 29
]
L3_ALL_TIE = [
    ["1-1", "1-3", "1-4", "2-3", "4-4", "5-5"],  # 34
    ["1-5", "2-2", "2-5", "3-4", "4-6"],  # 34
    ["1-2", "2-4", "3-3", "3-5", "5-6"],  # 34
]
L3_S0_S1_TIE = [
    ["1-1", "1-3", "2-2", "2-4", "3-3", "4-4"],  # 30 in 6 tiles
    ["1-2", "1-4", "2-5", "3-4", "3-5"],  # 30 in 5 tiles
    ["1-5", "2-3", "4-6", "5-5", "5-6"],  # 42
]


def _line_block(game: str, leftovers: list[list[str]], **fields: Any) -> dict[str, Any]:
    """Two players play LINE_BLOCK in turn with 14 tiles each (no stock)."""
    hands = block_hands(LINE_BLOCK, 2, leftovers)
    return rec(game, 2, rnd(hands, LINE_BLOCK), rules={"hand_size": 14}, **fields)


# Leftover partitions of the 17 tiles LINE_BLOCK leaves (114 pips); seat 0 keeps 8, seat 1 9.
LINE_TIE = [
    ["1-1", "1-3", "1-5", "2-4", "3-5", "4-6", "5-5", "5-6"],  # 57 in 8 tiles
    ["1-2", "1-4", "2-2", "2-5", "2-6", "3-3", "3-4", "3-6", "4-4"],  # 57 in 9 tiles
]
LINE_S1_LOWER = [
    ["1-4", "1-5", "2-4", "2-6", "4-4", "4-6", "5-5", "5-6"],  # 64
    ["1-1", "1-2", "1-3", "2-2", "2-5", "3-3", "3-4", "3-5", "3-6"],  # 50
]


def _ft_rounds_to(prefix_target: int = 59) -> tuple[list[dict[str, Any]], int, int]:
    """Fives and Threes, 2 players, 2 tiles each: whole rounds that take seat 0 to exactly
    ``prefix_target`` (59). Returns (rounds, seat 1's score, the next round's leader).

    Seat 0's rounds: 6-6 led (12: 4), seat 1 knocks, 3-6 on W (3 + 12 = 15: 8) and out (+1):
    13 points; or 5-5 led (10: 2), knock, 0-5 on W (0 + 10: 2) and out (+1): 5 points.
    Seat 1's rounds: 0-1 led (1: 0), knock, 0-2 on W (2 + 1 = 3: 1) and out (+1): 2 points.
    The lead rotates (FT-3), so the two kinds alternate.
    """
    seat0_rounds = [13, 13, 13, 5, 5, 5, 5]
    assert sum(seat0_rounds) == prefix_target
    rounds = []
    s1 = 0
    for i, gain in enumerate(seat0_rounds):
        if gain == 13:
            rounds.append(rnd([["6-6", "3-6"], ["0-1", "0-2"]], ["6-6", "pass", "3-6@W"]))
        else:
            rounds.append(rnd([["5-5", "0-5"], ["0-1", "0-2"]], ["5-5", "pass", "0-5@W"]))
        if i < len(seat0_rounds) - 1:
            rounds.append(
                rnd([["6-6", "3-6"], ["0-1", "0-2"]], ["0-1", "pass", "0-2@W"], leader=1)
            )
            s1 += 2
    for k, r in enumerate(rounds):
        r["leader"] = k % 2
    return rounds, s1, len(rounds) % 2


def _ft_at_59(final: dict[str, Any]) -> dict[str, Any]:
    rounds, _, nxt = _ft_rounds_to()
    if nxt != final["leader"]:
        rounds.append(
            rnd([["6-6", "3-6"], ["0-1", "0-2"]], ["0-1", "pass", "0-2@W"], leader=nxt)
        )
    return rec("fives-and-threes", 2, *rounds, final, rules={"hand_size": 2})


def _random_round(game: str, players: int, seed: int, **kw: Any) -> State:
    st = State(Config.make(game, players, **kw))
    rng = random.Random(seed)
    st.deal_next(rng)
    while st.round_end is None:
        st.play(rng.choice(st.legal_actions()))
    return st


# ================================================================================================
# C. Common to every game


def test_C_1_the_set_is_the_28_tiles_0_0_to_6_6() -> None:
    """C-1: a double-six set: 28 tiles, each pair a <= b once."""
    assert len(ALL_TILES) == 28
    assert {(x.low, x.high) for x in ALL_TILES} == {
        (a, b) for a in range(7) for b in range(a, 7)
    }
    assert Tile.parse("4-1") is Tile.parse("1-4")
    assert str(Tile.parse("6-2")) == "2-6"


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("players", [3, 4])
def test_C_1_play_passes_clockwise_from_seat_to_seat_plus_one(game: str, players: int) -> None:
    """C-1: after a play or a pass by seat s, seat (s + 1) mod n acts; a draw keeps the turn."""
    for seed in range(4):
        st = _random_round(game, players, seed, teams=False)
        log = st.log
        assert log[0][0] == st.leader
        for (seat, code, *_), (nxt, *_) in itertools.pairwise(log):
            if str(ACTIONS[code]) == "draw":
                assert nxt == seat
            else:
                assert nxt == (seat + 1) % players


def test_C_2_a_view_holds_only_its_own_hand_and_the_stock_size() -> None:
    """C-2: hands are private and the stock face down: seat 0's view shows its own hand, the
    others' hand sizes, the number of stock tiles, never their tiles."""
    st = State(Config.make("all-fives", 2))
    hands, stock, _ = State.random_deal(st.config, seed=7)
    st.start_round(hands, stock, 0)
    data = view_of(st, 0).to_json()
    assert data["hand"] == [str(x) for x in hands[0]]
    assert data["hand_sizes"] == [9, 9]
    assert data["stock"] == 10
    text = repr(data)
    for tile in hands[1] + stock:
        assert f"'{tile}'" not in text


def test_C_2_a_drawn_tile_shows_in_the_drawers_view_alone() -> None:
    """C-2: Draw, 3 players. 6-6 leads; seat 1 draws 1-3 (no fit) and 5-6 (fits) and plays
    it; seat 2 draws 1-4 and 2-5 and plays 2-5. After every action each drawn tile still in a
    hand is named by its holder's view (hand and own draw) and by no other seat's view, nor by
    the public view."""
    hands = [["6-6", "0-1"], ["1-2", "2-3"], ["3-4", "0-2"]]
    actions = ["6-6", "draw", "draw", "5-6@W", "draw", "draw", "2-5@W"]
    st = state(rec("draw", 3, rnd(hands, stock=["1-3", "5-6", "1-4", "2-5"]),
                   rules={"hand_size": 2}))
    drawn: dict[str, int] = {}  # tile: the seat that drew it
    for action in actions:
        seat = st.turn
        _, _, _, _, tile = st.play(action)
        if action == "draw":
            drawn[str(ALL_TILES[tile])] = seat
        held = {x: s for x, s in drawn.items() if Tile.parse(x) in st.hand(s)}
        for viewer in [0, 1, 2, None]:
            data = view_of(st, viewer).to_json()
            text = json.dumps(data)
            for x, holder in held.items():
                if viewer == holder:
                    assert x in data["hand"] and [holder, "draw", x] in data["history"]
                else:
                    assert x not in text, (action, viewer, x)
            for item in data["history"]:  # others' draws name no tile
                assert len(item) == 2 or item[0] == viewer
    assert drawn == {"1-3": 1, "5-6": 1, "1-4": 2, "2-5": 2}
    assert [str(t) for t in st.layout.tiles()] == ["6-6", "5-6", "2-5"]


def test_C_3_the_leader_may_lead_any_tile_and_a_play_joins_a_matching_half() -> None:
    """C-3: any tile may lead (All Fives, Fives and Threes); then a tile joins one half to an
    open end showing that number and its other half is the arm's new outer end; the turn
    passes."""
    hands = [["2-5", "5-6", "0-1", "3-4", "1-1", "0-0", "4-4"],
             ["2-3", "1-2", "0-6", "6-6", "3-3", "1-3", "1-4"]]
    st = state(rec("fives-and-threes", 2, rnd(hands)))
    assert sorted(str(a) for a in st.legal_actions()) == sorted(hands[0])
    st.play("2-5")
    assert _opened(st.layout) == {"W": 2, "E": 5}
    assert st.turn == 1
    assert sorted(str(a) for a in st.legal_actions()) == ["1-2@W", "2-3@W"]
    st.play("2-3@W")
    assert _opened(st.layout) == {"W": 3, "E": 5}
    assert st.turn == 0
    st.play("5-6@E")
    assert _opened(st.layout) == {"W": 3, "E": 6}


def test_C_3_a_tile_that_shows_neither_open_number_is_refused() -> None:
    """C-3: a tile can join only an end showing one of its numbers."""
    hands = [["2-5", "5-6", "0-1", "3-4", "1-1", "0-0", "4-4"],
             ["2-3", "1-2", "0-6", "6-6", "3-3", "1-3", "1-4"]]
    err = expect_error(rec("fives-and-threes", 2, rnd(hands, ["2-5", "1-3@W"])))
    assert "does not fit" in str(err)


def test_C_4_a_double_at_an_end_counts_both_halves_until_covered() -> None:
    """C-4: 4-4 at an end counts 8 (1 + 8 = 9); once 4-3 is played beyond it, only 3 counts."""
    lay = _layout(["1-4", "4-4@E"], spinner=False)
    assert lay.ends_total() == 1 + 8
    assert lay.place_text("3-4@E") == 1 + 3
    # in a spinner game a later double is crosswise too
    lay = _layout(["1-4", "1-1@W", "4-4@E"])
    assert lay.ends_total() == 2 + 8
    assert lay.place_text("3-4@E") == 2 + 3


def test_C_4_double_at_end_scores_in_a_record() -> None:
    """C-4 in Fives and Threes: 1-4 then 4-4 on the 4 makes 1 + 8 = 9: 3 points."""
    hands = [["1-4", "0-0", "0-1", "0-2", "0-3", "0-5", "0-6"],
             ["4-4", "1-1", "1-2", "1-3", "1-5", "1-6", "2-2"]]
    ev = _ev(report(rec("fives-and-threes", 2, rnd(hands, ["1-4", "4-4@E"]))))
    assert (ev[1]["ends"], ev[1]["points"]) == (9, 3)


@pytest.mark.parametrize(
    ("tile", "total"), [("2-2", 4), ("0-0", 0), ("5-5", 10), ("6-6", 12), ("1-4", 5), ("3-6", 9)]
)
@pytest.mark.parametrize("spinner", [True, False])
def test_C_5_a_lone_tile_counts_both_halves_once(tile: str, total: int, spinner: bool) -> None:
    """C-5: a lone double counts both halves once (2-2: 4, 0-0: 0, 5-5: 10); a lone a-b: a + b."""
    assert _layout([tile], spinner=spinner).ends_total() == total


def test_C_6_a_player_who_can_play_must_play_and_may_choose_any_legal_play() -> None:
    """C-6: with a legal play, pass is refused; every fitting tile on every fitting end is
    legal (1-1 led: 1-2 and 1-3 fit both W and E)."""
    hands = [["1-1", "5-6", "0-1", "3-4", "0-0", "4-4", "5-5"],
             ["1-2", "1-3", "0-6", "6-6", "3-3", "2-3", "2-2"]]
    st = state(rec("fives-and-threes", 2, rnd(hands, ["1-1"])))
    assert sorted(str(a) for a in st.legal_actions()) == ["1-2@E", "1-2@W", "1-3@E", "1-3@W"]
    with pytest.raises(IllegalAction):
        st.play("pass")
    for action in ("1-2@W", "1-2@E", "1-3@W", "1-3@E"):
        state(rec("fives-and-threes", 2, rnd(hands, ["1-1", action])))
    err = expect_error(rec("fives-and-threes", 2, rnd(hands, ["1-1", "pass"])))
    assert "must play" in err.reason


def test_C_7_ends_total_sums_the_outer_end_of_every_open_arm() -> None:
    """C-7: four open arms: 0 + 2 + 3 + 3 = 8; a crosswise double at an end counts double."""
    lay = _layout(["1-4", "1-1@W", "4-4@E", "3-4@E", "1-2@W", "1-5@N", "5-5@N", "0-5@N", "1-3@S"])
    assert lay.ends_total() == 8 == sum(c.counted for c in lay.contributions())
    lay = _layout(["1-4", "1-1@W", "4-4@E", "3-4@E", "1-2@W", "1-5@N", "5-5@N"])
    assert lay.ends_total() == 2 + 3 + 10


def _ft_block_at_lead() -> dict[str, Any]:
    """Fives and Threes: 5-5 led and nobody else holds a 5 (the others are out of play)."""
    hands = [["5-5", "0-0", "0-1", "0-2", "0-3", "0-4", "1-1"],
             ["1-2", "1-3", "1-4", "2-2", "2-3", "2-4", "3-3"]]
    return rec("fives-and-threes", 2, rnd(hands, ["5-5"]))


def test_C_8_a_round_is_blocked_as_soon_as_nobody_can_play_without_passes() -> None:
    """C-8: in Fives and Threes, after the 5-5 lead nobody holds a 5: blocked at once."""
    rep = report(_ft_block_at_lead())
    assert len(_ev(rep)) == 1
    assert _end(rep)["reason"] == "blocked"
    assert rep["scores"] == [2, 0]


def test_C_8_a_pass_after_the_block_is_rejected() -> None:
    """C-8: the blocked round has ended; a pass recorded after it is refused."""
    data = _ft_block_at_lead()
    data["rounds"][0]["actions"].append("pass")
    err = expect_error(data)
    assert err.round_no == 0 and err.action_no == 1
    assert "over" in err.reason


def test_C_8_blocked_in_a_drawing_game_once_the_stock_is_empty() -> None:
    """C-8: All Fives blocks right after the play that leaves nobody a fitting tile when the
    stock is empty (no passes), and right after the last draw when that tile does not fit."""
    rep = report(_af_spinner_block(2, L2_S0_WINS))
    assert len(_ev(rep)) == len(SPINNER_BLOCK)
    assert _end(rep)["reason"] == "blocked"
    rep = report(_af_spinner_block(3, L3_S1_S2_TIE))
    assert _ev(rep)[-1]["action"] == "draw"
    assert _end(rep)["reason"] == "blocked"
    data = _af_spinner_block(2, L2_S0_WINS)
    data["rounds"][0]["actions"].append("pass")
    assert "over" in expect_error(data).reason


def test_C_9_remaining_pips_are_the_sum_of_both_halves() -> None:
    """C-9: the pips the round end reports are the sums of the tiles left in each hand."""
    rep = report(_af_spinner_block(2, L2_S0_WINS))
    assert _end(rep)["pips"] == [pips(L2_S0_WINS[0]), pips(L2_S0_WINS[1])] == [35, 67]
    st = State(Config.make("muggins", 3))
    st.deal_next(random.Random(3))
    for seat in range(3):
        assert sum(x.pips for x in st.hand(seat)) == sum(x.low + x.high for x in st.hand(seat))


@pytest.mark.parametrize(
    ("raw", "rounded"),
    [(0, 0), (1, 0), (2, 0), (3, 5), (4, 5), (5, 5), (12, 10), (13, 15), (67, 65), (68, 70),
     (101, 100)],
)
def test_C_10_round_to_five_remainder_1_2_down_3_4_up(raw: int, rounded: int) -> None:
    """C-10: 12 -> 10, 13 -> 15, 0 -> 0."""
    assert round_to_five(raw) == rounded


def test_C_10_round_to_five_for_every_total() -> None:
    """C-10 for 0..200: the result is a multiple of 5 within 2 of the input."""
    for raw in range(201):
        r = round_to_five(raw)
        assert r % 5 == 0 and abs(r - raw) <= 2
        assert (r < raw) == (raw % 5 in (1, 2))


@pytest.mark.parametrize("game", ["all-fives", "fives-and-threes"])
def test_C_11_the_first_leader_by_lot_may_be_any_seat(game: str) -> None:
    """C-11: where the first lead goes by lot the record keeps the outcome: every seat is
    accepted (even when another seat holds 6-6)."""
    for leader in range(3):
        st = State(Config.make(game, 3))
        hands, stock, _ = State.random_deal(st.config, seed=11)
        st.start_round(hands, stock, leader)
        assert st.turn == leader


@pytest.mark.parametrize(("game", "players"), [("all-fives", 4), ("all-fives", 3), ("fives-and-threes", 2)])
def test_C_11_the_lot_the_host_draws_is_fair_among_the_seats(game: str, players: int) -> None:
    """C-11: the first leader of the dealing every table uses (the host's ``deal_round``: the
    terminal, tournaments and the browser's tables) is drawn uniformly among the seats (a loose
    check over 1200 matches: each seat within 25% of its share)."""
    from fives.bots.host import Seeds, deal_round

    counts: Counter[int] = Counter()
    for seed in range(1200):
        state = State(Config.make(game, players))
        lot = deal_round(state, Seeds(seed))
        assert lot is not None and lot.leader == state.leader
        counts[state.leader] += 1
    share = 1200 / players
    assert set(counts) == set(range(players))
    assert all(0.75 * share <= c <= 1.25 * share for c in counts.values()), counts


def test_C_11_tied_seats_draw_again_and_only_they() -> None:
    """C-11: each seat draws a tile; the most pips leads; tied seats draw again, the others
    are out of it."""
    from fives.core.state import draw_lot

    ties = 0
    seen = set()
    for seed in range(400):
        lot = draw_lot(random.Random(seed), 4)
        seen |= {tile for draw in lot.draws for _, tile in draw}
        for first, again in zip(lot.draws, lot.draws[1:]):
            best = max(tile.pips for _, tile in first)
            assert {seat for seat, _ in again} == {s for s, t in first if t.pips == best}
            ties += 1
        last = lot.draws[-1]
        best = max(tile.pips for _, tile in last)
        assert [seat for seat, tile in last if tile.pips == best] == [lot.leader]
        assert all(len({t for _, t in d}) == len(d) for d in lot.draws)  # distinct tiles
    assert ties > 20
    assert len(seen) == 28  # from the whole set, the double blank too


def test_C_3_notation_either_order_in_and_lower_half_first_out() -> None:
    """RECORD.md notation: input accepts 4-1 for 1-4; output writes the lower half first."""
    hands = [["4-1", "0-0", "1-0", "2-0", "3-0", "5-0", "6-0"],
             ["4-4", "1-1", "2-1", "3-1", "5-1", "6-1", "2-2"]]
    rep = report(rec("fives-and-threes", 2, rnd(hands, ["4-1", "1-2@W"])))
    assert [e["action"] for e in _ev(rep)] == ["1-4", "1-2@W"]


# ================================================================================================
# SP. The spinner


def test_SP_1_the_first_double_is_the_spinner_the_lead_included() -> None:
    """SP-1: a double lead is the spinner; otherwise the first double played is."""
    assert _layout(["2-2"]).spinner_tile == Tile.parse("2-2")
    lay = _layout(["1-4"])
    assert lay.spinner_tile is None
    lay.place_text("4-4@E")
    assert lay.spinner_tile == Tile.parse("4-4")


def test_SP_1_later_doubles_never_branch() -> None:
    """SP-1: after the 1-1 spinner, 4-4 and 5-5 are plain crosswise doubles: the spinner stays
    1-1 and no new arm opens from them."""
    lay = _layout(["1-4", "1-1@W", "4-4@E"])
    assert lay.spinner_tile == Tile.parse("1-1")
    assert set(_opened(lay)) == {"W", "E"}
    lay = _layout(["1-4", "1-1@W", "4-4@E", "3-4@E", "1-2@W", "1-5@N", "5-5@N"])
    assert lay.spinner_tile == Tile.parse("1-1")
    assert len(lay.open_ends()) == 4
    assert _opened(lay) == {"W": 2, "E": 3, "N": 5, "S": 1}


def test_SP_2_the_spinner_has_two_straight_and_two_side_arms() -> None:
    """SP-2: once open, the spinner's arms are W, E (straight) and N, S (side)."""
    lay = _layout(["3-3", "3-1@W", "3-2@E"])
    assert _opened(lay) == {"W": 1, "E": 2, "N": 3, "S": 3}
    lay.place_text("3-4@N")
    lay.place_text("3-5@S")
    assert _opened(lay) == {"W": 1, "E": 2, "N": 4, "S": 5}
    assert [a.tile for a in lay.arm(2)] == [Tile.parse("3-4")]


def test_SP_2_a_spinner_on_the_W_end_takes_the_line_as_its_E_arm() -> None:
    """SP-2 with RECORD.md's naming: 0-0 played on the W end of the line 0-1 | 1-4 | 4-5 is the
    spinner; the line becomes its E arm, whose outer end keeps the name E (5); the W arm is
    empty and shows 0. The spinner (0 + 0) counts while W is empty: 0 + 5."""
    lay = _layout(["1-4", "0-1@W", "4-5@E", "0-0@W"])
    assert lay.spinner_tile == Tile.parse("0-0")
    assert _opened(lay) == {"W": 0, "E": 5}
    assert lay.ends_total() == 5
    assert [(str(a.tile), a.inner, a.outer) for a in lay.arm(1)] == [
        ("0-1", 0, 1), ("1-4", 1, 4), ("4-5", 4, 5)
    ]
    assert lay.arm(0) == []
    lay.place_text("0-2@W")
    assert _opened(lay) == {"W": 2, "E": 5, "N": 0, "S": 0}
    assert lay.ends_total() == 2 + 5


def test_SP_2_a_spinner_on_the_E_end_takes_the_line_as_its_W_arm() -> None:
    """SP-2 symmetrically: 5-5 on the E end: the line is its W arm (outer end W keeps 0)."""
    lay = _layout(["1-4", "0-1@W", "4-5@E", "5-5@E"])
    assert lay.spinner_tile == Tile.parse("5-5")
    assert _opened(lay) == {"W": 0, "E": 5}
    assert lay.ends_total() == 0 + 10
    assert [(str(a.tile), a.inner, a.outer) for a in lay.arm(0)] == [
        ("4-5", 5, 4), ("1-4", 4, 1), ("0-1", 1, 0)
    ]
    lay.place_text("5-6@E")
    assert _opened(lay) == {"W": 0, "E": 6, "N": 5, "S": 5}


def test_SP_3_a_side_arm_only_after_both_straight_arms_hold_a_tile() -> None:
    """SP-3: with the E arm still empty, N and S are not open; once W and E hold a tile,
    either side arm may be opened first and the other stays open for the round."""
    lay = _layout(["3-3", "3-1@W"])
    assert set(_opened(lay)) == {"W", "E"}
    with pytest.raises(ValueError):
        lay.place_text("3-4@N")
    lay.place_text("3-2@E")
    lay.place_text("3-5@S")
    assert _opened(lay) == {"W": 1, "E": 2, "N": 3, "S": 5}
    lay.place_text("1-6@W")
    lay.place_text("2-6@E")
    assert _opened(lay)["N"] == 3


def test_SP_3_a_side_arm_play_too_early_is_rejected_in_a_record() -> None:
    """SP-3 in a record: 1-5@N before the W straight arm holds a tile is refused, naming why."""
    hands = [
        ["1-4", "4-4", "1-2", "5-5", "1-3", "0-0", "0-1", "0-2", "0-3"],
        ["1-1", "3-4", "1-5", "0-5", "0-4", "0-6", "1-6", "2-2", "2-3"],
    ]
    err = expect_error(rec("all-fives", 2, rnd(hands, ["1-4", "1-1@W", "4-4@E", "1-5@N"])))
    assert (err.round_no, err.action_no, err.seat, err.action) == (0, 3, 1, "1-5@N")
    assert "side arm" in err.reason


def test_SP_3_the_side_arm_gate_house_rule_opens_them_at_once() -> None:
    """SP-3 as a house rule: "side_arm_gate": false opens N and S with the spinner."""
    assert set(_opened(_layout(["6-6"], gate=False))) == {"W", "E", "N", "S"}
    cfg = Config.make("all-fives", 2, rules={"side_arm_gate": False})
    assert cfg.side_arm_gate is False
    assert Config.make("all-fives", 2).side_arm_gate is True


def test_SP_4_the_spinner_counts_both_halves_while_a_straight_arm_is_empty() -> None:
    """SP-4: 3-6 then 6-6: 3 + 12 = 15 (15 points); a lone spinner counts its halves once."""
    assert _layout(["3-6", "6-6@E"]).ends_total() == 15
    assert _layout(["6-6"]).ends_total() == 12
    assert _layout(["6-6", "6-1@W"]).ends_total() == 12 + 1
    hands = [["3-6", "0-1"], ["6-6", "0-2"]]
    ev = _ev(report(rec("all-fives", 2, rnd(hands, ["3-6", "6-6@E"]), rules={"hand_size": 2})))
    assert (ev[1]["ends"], ev[1]["points"]) == (15, 15)


def test_SP_5_an_enclosed_spinner_counts_nothing_and_unopened_side_arms_count_0() -> None:
    """SP-5: 3-6, 6-6, 6-2: 3 + 2 = 5; a spinner lead with both arms filled: 1 + 4 = 5."""
    assert _layout(["3-6", "6-6@E", "2-6@E"]).ends_total() == 3 + 2
    lay = _layout(["6-6", "1-6@W", "4-6@E"])
    assert lay.ends_total() == 1 + 4
    assert sorted(c.counted for c in lay.contributions()) == [1, 4]
    lay.place_text("5-6@N")
    assert lay.ends_total() == 1 + 4 + 5


def _af35() -> dict[str, Any]:
    actions = ["0-0", "0-6@W", "0-5@E", "6-6@W", "5-5@E", "0-4@N", "4-4@N", "0-1@S", "1-5@S"]
    hands = [["0-0", "0-5", "5-5", "4-4", "1-5"], ["0-6", "6-6", "0-4", "0-1", "2-3"]]
    return rec("all-fives", 2, rnd(hands, actions), rules={"hand_size": 5})


def test_SP_6_the_largest_scoring_play_is_35_and_36_scores_nothing() -> None:
    """SP-6: ends 6-6 + 5-5 + 4-4 + 5 = 35 scores 35; with a 6 instead of the 5 the total is
    36 (the theoretical maximum), not a multiple of 5: it scores 0."""
    rep = report(_af35())
    last = _ev(rep)[-1]
    assert (last["action"], last["ends"], last["points"]) == ("1-5@S", 35, 35)
    lay = _layout(["0-0", "0-6@W", "0-5@E", "6-6@W", "5-5@E", "0-4@N", "4-4@N", "0-2@S", "2-6@S"])
    assert lay.ends_total() == 36
    points = Config.make("all-fives", 2).game.play_points
    assert points[36] == 0 and points[35] == 35
    assert max(points) == 35


# ================================================================================================
# AF. All Fives


@pytest.mark.parametrize(
    ("players", "teams", "sides"), [(2, False, 2), (3, False, 3), (4, True, 2)]
)
def test_AF_1_four_players_are_two_partnerships_two_or_three_play_alone(
    players: int, teams: bool, sides: int
) -> None:
    """AF-1: 4 players: seats 0+2 against 1+3 with one score each; 2 or 3 play for themselves."""
    cfg = Config.make("all-fives", players)
    assert (cfg.teams, cfg.sides) == (teams, sides)
    if teams:
        assert [cfg.side_of(s) for s in range(4)] == [0, 1, 0, 1]


def test_AF_1_a_partner_scores_for_the_partnership() -> None:
    """AF-1: in the 4-player block, seat 2's 4-5@S (5 points) goes to side 0's one score."""
    rep = report(_af_spinner_block(4, L4_SIDES))
    scoring = [e for e in _ev(rep) if e.get("points")]
    assert [(e["seat"], e["points"]) for e in scoring] == [(2, 5)]
    assert len(rep["scores"]) == 2


@pytest.mark.parametrize(("players", "size"), [(2, 9), (3, 7), (4, 5)])
def test_AF_2_deal_9_7_5_and_the_rest_is_the_stock(players: int, size: int) -> None:
    """AF-2: hand sizes 9 / 7 / 5; the rest of the set is the stock."""
    cfg = Config.make("all-fives", players)
    assert cfg.hand_size == size
    hands, stock, _ = State.random_deal(cfg, seed=1)
    assert [len(h) for h in hands] == [size] * players
    assert len(stock) == 28 - size * players


def test_AF_2_a_hand_of_the_wrong_size_is_rejected() -> None:
    """AF-2: 2 players are dealt 9 each; a deal of 7 is refused."""
    hands = [["0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6"],
             ["1-1", "1-2", "1-3", "1-4", "1-5", "1-6", "2-2"]]
    err = expect_error(rec("all-fives", 2, rnd(hands)))
    assert "9" in err.reason and err.round_no == 0


def test_AF_2_all_of_the_stock_may_be_drawn() -> None:
    """AF-2: seat 1 holds no 0 and draws the whole stock (10 tiles); the last one, 0-6, fits."""
    hands = [["0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "1-1", "1-2", "1-3"],
             ["1-4", "1-5", "1-6", "2-2", "2-3", "2-4", "2-5", "2-6", "3-3"]]
    stock = ["3-4", "3-5", "3-6", "4-4", "4-5", "4-6", "5-5", "5-6", "6-6", "0-6"]
    actions = ["0-0", *["draw"] * 10, "0-6@W"]
    st = state(rec("all-fives", 2, rnd(hands, actions, stock=stock)))
    assert st.stock_left() == 0
    assert len(st.hand(1)) == 9 + 10 - 1
    assert st.round_end is None and st.turn == 0


@pytest.mark.parametrize(("players", "target"), [(2, 250), (3, 200), (4, 200)])
def test_AF_3_targets_250_200_200(players: int, target: int) -> None:
    """AF-3: the target is 250 for 2 players, 200 for 3 or 4."""
    assert Config.make("all-fives", players).target == target


def test_AF_3_reaching_the_target_mid_round_wins_at_once() -> None:
    """AF-3: with the target at 10, the 5-5 lead (10 points) ends the match at once: reason
    target, no remaining tiles counted; any further action is refused."""
    hands = [["5-5", "0-1", "0-2"], ["1-1", "1-2", "1-3"]]
    data = rec("all-fives", 2, rnd(hands, ["5-5"]), target=10, rules={"hand_size": 3})
    rep = report(data)
    end = _end(rep)
    assert (end["reason"], end["winner"], end["points"]) == ("target", None, [0, 0])
    assert len(_ev(rep)) == 1
    assert (rep["scores"], rep["winner"], rep["over"]) == ([10, 0], 0, True)
    data["rounds"][0]["actions"].append("1-5@W")
    err = expect_error(data)
    assert "match is over" in err.reason


def test_AF_3_reaching_the_target_with_round_end_points() -> None:
    """AF-3: a domino's remaining-tile points that reach the target end the match."""
    data = _af_pool_vs_each("all-fives")
    data["target"] = 20
    rep = report(data)
    assert (rep["scores"], rep["winner"], rep["over"]) == ([25, 0, 0], 0, True)
    assert _end(rep)["reason"] == "domino"


def test_AF_3_two_players_over_the_target_by_a_split_the_higher_wins() -> None:
    """AF-3 [decision]: seats 1 and 2 tie lowest and share 45 / 2; seat 1 already had 5:
    27.5 against 22.5, both over a target of 20: seat 1 wins."""
    rep = report(_af_spinner_block(3, L3_S1_S2_TIE, target=20))
    assert _end(rep)["points"] == [0, 22.5, 22.5]
    assert rep["scores"] == [0, 27.5, 22.5]
    assert (rep["winner"], rep["over"]) == (1, True)


def test_AF_3_two_players_over_the_target_by_a_split_with_equal_scores_draw() -> None:
    """AF-3 [decision]: seats 0 and 2 tie lowest and share 45 / 2: 22.5 each, both over 20 with
    equal scores: the match is drawn (over, no winner)."""
    rep = report(_af_spinner_block(3, L3_S0_S2_TIE, target=20))
    assert rep["scores"] == [22.5, 5, 22.5]
    assert (rep["winner"], rep["over"]) == (None, True)
    data = _af_spinner_block(3, L3_S0_S2_TIE, target=20)
    data["rounds"].append(copy.deepcopy(data["rounds"][0]))
    err = expect_error(data)
    assert err.round_no == 1 and "over" in err.reason


@pytest.mark.parametrize(("before", "after", "winner"), [
    ([190, 175, 180], [190, Fraction(405, 2), Fraction(405, 2)], None),
    ([190, 176, 180], [190, Fraction(407, 2), Fraction(405, 2)], 1),
])
def test_AF_3_three_players_over_200_by_a_split_draw_only_on_equal_scores(
    before: list[int], after: list[Fraction], winner: int | None
) -> None:
    """AF-3 [decision], AF-11: 3 players to 200, the engine driven directly with the scores
    carried in. Seats 1 and 2 tie lowest (29 pips each) and share seat 0's 44 -> 45: 22.5
    each; seat 1 also scores 5 in play. From 175 and 180 both reach 202.5: the match is
    drawn; from 176 seat 1's 203.5 wins."""
    cfg = Config.make("all-fives", 3, rules={"hand_size": 9})
    assert cfg.target == 200
    hands = block_hands(SPINNER_BLOCK, 3, L3_S1_S2_TIE)
    stock = hands[0].pop()  # seat 0 draws the one tile left out, which does not fit
    st = State(cfg)
    st.scores = list(before)
    st.start_round([[Tile.parse(x) for x in h] for h in hands], [Tile.parse(stock)], 0)
    for action in [*SPINNER_BLOCK, "draw"]:
        st.play(action)
    assert st.round_end is not None and st.round_end.reason == "blocked"
    assert st.round_end.points == (0, Fraction(45, 2), Fraction(45, 2))
    assert st.scores == after
    assert (st.over, st.winner) == (True, winner)
    assert st.legal_actions() == []


def test_AF_4_the_first_leader_is_by_lot_and_the_highest_double_gives_no_claim() -> None:
    """AF-4: seat 1 leads although seat 0 holds 6-6, and may lead any of its tiles."""
    hands = [["6-6", "5-5", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "1-1"],
             ["1-2", "1-3", "1-4", "1-5", "1-6", "2-2", "2-3", "2-4", "2-5"]]
    st = state(rec("all-fives", 2, rnd(hands, leader=1)))
    assert st.turn == 1
    assert sorted(str(a) for a in st.legal_actions()) == sorted(hands[1])


@pytest.mark.parametrize(("lead", "points"), [("5-5", 10), ("1-4", 5), ("2-3", 5), ("6-6", 0)])
def test_AF_4_the_lead_scores_like_any_play(lead: str, points: int) -> None:
    """AF-4: the lead scores: 5-5 -> 10, 1-4 -> 5, 6-6 (12) -> 0."""
    hands = [[lead], ["0-0"]]
    ev = _ev(report(rec("all-fives", 2, rnd(hands, [lead]), rules={"hand_size": 1})))
    assert ev[0]["points"] == points


def test_AF_5_the_spinner_rules_apply_in_all_fives() -> None:
    """AF-5: the seed record: 1-1 branches, N opens after 1-2@W and 1-5@N scores 2 + 5 + 3."""
    hands = [
        ["1-4", "4-4", "1-2", "5-5", "1-3", "0-0", "0-1", "0-2", "0-3"],
        ["1-1", "3-4", "1-5", "0-5", "0-4", "0-6", "1-6", "2-2", "2-3"],
    ]
    actions = ["1-4", "1-1@W", "4-4@E", "3-4@E", "1-2@W", "1-5@N"]
    st = state(rec("all-fives", 2, rnd(hands, actions)))
    assert st.layout.spinner_tile == Tile.parse("1-1")
    assert st.log[-1][2:4] == (10, 10)


@pytest.mark.parametrize("total", range(37))
def test_AF_6_a_play_scores_the_ends_total_when_a_positive_multiple_of_five(total: int) -> None:
    """AF-6: 15 -> 15, 14 -> 0, 0 -> 0; any positive multiple of 5 scores itself."""
    expected = total if total > 0 and total % 5 == 0 else 0
    assert GAMES["all-fives"].play_points[total] == expected
    assert GAMES["muggins"].play_points[total] == expected


def test_AF_6_fourteen_scores_nothing_and_fifteen_scores_fifteen_in_a_record() -> None:
    """AF-6: 6-6 led (12: 0), 2-6 beside it (12 + 2 = 14: 0)."""
    hands = [["6-6", "0-1"], ["2-6", "0-2"]]
    ev = _ev(report(rec("all-fives", 2, rnd(hands, ["6-6", "2-6@W"]), rules={"hand_size": 2})))
    assert [(e["ends"], e["points"]) for e in ev] == [(12, 0), (14, 0)]


def _af_draw_record(actions: list[str]) -> dict[str, Any]:
    """All Fives: 0-0 led; seat 1 holds no 0; the stock starts 3-4, 3-5, then 0-6."""
    hands = [["0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "1-1", "1-2", "1-3"],
             ["1-4", "1-5", "1-6", "2-2", "2-3", "2-4", "2-5", "2-6", "3-3"]]
    return rec("all-fives", 2, rnd(hands, actions, stock=["3-4", "3-5", "0-6"]))


def test_AF_7_draw_one_at_a_time_until_a_tile_fits_then_play_it() -> None:
    """AF-7: seat 1 cannot play: it must draw (pass is refused) and keeps drawing until 0-6,
    which it must play at once (on any end it fits); no further draw."""
    st = state(_af_draw_record(["0-0"]))
    assert [str(a) for a in st.legal_actions()] == ["draw"]
    st = state(_af_draw_record(["0-0", "draw"]))
    assert [str(a) for a in st.legal_actions()] == ["draw"]
    assert st.turn == 1
    st = state(_af_draw_record(["0-0", "draw", "draw", "draw"]))
    assert sorted(str(a) for a in st.legal_actions()) == ["0-6@E", "0-6@W"]
    rep = report(_af_draw_record(["0-0", "draw", "draw", "draw", "0-6@E"]))
    assert [e.get("tile") for e in _ev(rep)[1:4]] == ["3-4", "3-5", "0-6"]
    assert _ev(rep)[4]["seat"] == 1


def test_AF_7_a_pass_while_a_draw_is_possible_is_rejected() -> None:
    """AF-7: no legal play and a stock: pass is refused."""
    err = expect_error(_af_draw_record(["0-0", "pass"]))
    assert (err.action_no, err.seat) == (1, 1)
    assert "draw" in err.reason


def test_AF_7_a_draw_while_holding_a_playable_tile_is_rejected() -> None:
    """AF-7: seat 1 just drew the playable 0-6; drawing again is refused."""
    err = expect_error(_af_draw_record(["0-0", "draw", "draw", "draw", "draw"]))
    assert (err.action_no, err.seat, err.action) == (4, 1, "draw")
    assert "must play" in err.reason


def test_AF_7_another_tile_after_drawing_a_playable_one_is_rejected() -> None:
    """AF-7: after drawing 0-6 the player may not play a different tile (3-4 drawn before
    is in the hand but does not fit)."""
    err = expect_error(_af_draw_record(["0-0", "draw", "draw", "draw", "3-4@W"]))
    assert (err.action_no, err.seat) == (4, 1)
    assert err.legal is not None and sorted(str(a) for a in err.legal) == ["0-6@E", "0-6@W"]


def test_AF_7_pass_only_with_no_legal_play_and_an_empty_stock() -> None:
    """AF-7: all 28 tiles dealt: seat 1 holds no 0 after 0-0, so pass is its only action
    and draw is refused."""
    zeros = ["0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6"]
    others = ["1-1", "1-2", "1-3", "1-4", "1-5", "1-6", "2-2"]
    s1 = ["2-3", "2-4", "2-5", "2-6", "3-3", "3-4", "3-5", "3-6", "4-4", "4-5", "4-6", "5-5",
          "5-6", "6-6"]
    hands = [zeros + others, s1]
    st = state(rec("all-fives", 2, rnd(hands, ["0-0"]), rules={"hand_size": 14}))
    assert [str(a) for a in st.legal_actions()] == ["pass"]
    err = expect_error(rec("all-fives", 2, rnd(hands, ["0-0", "draw"]), rules={"hand_size": 14}))
    assert "stock is empty" in err.reason
    st = state(rec("all-fives", 2, rnd(hands, ["0-0", "pass", "0-1@W"]), rules={"hand_size": 14}))
    assert st.turn == 1 and st.round_end is None


def _af_domino() -> dict[str, Any]:
    """All Fives, 2 tiles each: seat 1 goes out while seat 0 still holds 5-5."""
    hands = [["1-4", "5-5"], ["1-2", "4-6"]]
    actions = ["1-4", "1-2@W", "draw", "0-2@W", "4-6@E"]
    return rec("all-fives", 2, rnd(hands, actions, stock=["0-2"]), rules={"hand_size": 2})


def test_AF_8_playing_the_last_tile_wins_the_round() -> None:
    """AF-8 / AF-10: seat 1 goes out: it wins the round and scores seat 0's 10 pips."""
    rep = report(_af_domino())
    end = _end(rep)
    assert (end["reason"], end["winner"], end["points"]) == ("domino", 1, [0, 10])
    assert rep["scores"] == [5, 10]


def test_AF_9_a_blocked_round_is_won_by_the_lowest_hand() -> None:
    """AF-9: 35 pips against 67: seat 0 wins the block and scores 67 rounded: 65."""
    rep = report(_af_spinner_block(2, L2_S0_WINS))
    end = _end(rep)
    assert (end["reason"], end["winner"], end["points"]) == ("blocked", 0, [65, 0])
    assert rep["scores"] == [70, 0]


def test_AF_9_partnership_hands_are_added_together_in_a_block() -> None:
    """AF-9 [decision]: seat 1 alone holds the fewest pips (13), but side 0's two hands add to
    22 + 28 = 50 against 13 + 39 = 52: side 0 wins and scores 52 rounded: 50."""
    rep = report(_af_spinner_block(4, L4_SIDES))
    end = _end(rep)
    assert end["pips"] == [22, 13, 28, 39]
    assert (end["winner"], end["points"]) == (0, [50, 0])
    assert rep["scores"] == [55, 0]


def _af_pool_vs_each(game: str) -> dict[str, Any]:
    """3 players, 2 tiles each: seat 0 goes out; seats 1 and 2 keep 7 pips each."""
    hands = [["4-6", "3-6"], ["2-4", "3-4"], ["2-3", "2-5"]]
    actions = ["4-6", "2-4@W", "2-3@W", "3-6@E"]
    return rec(game, 3, rnd(hands, actions), rules={"hand_size": 2})


def test_AF_10_the_winner_scores_the_opponents_pips_pooled_and_rounded_once() -> None:
    """AF-10: 7 + 7 = 14, rounded once: 15 (each rounded would be 5 + 5 = 10)."""
    rep = report(_af_pool_vs_each("all-fives"))
    end = _end(rep)
    assert end["pips"] == [0, 7, 7]
    assert (end["winner"], end["points"]) == (0, [15, 0, 0])
    assert rep["scores"] == [25, 0, 0]


def test_AF_10_a_partnership_pools_both_opponents() -> None:
    """AF-10 with partnerships: the block winner scores both opponents' hands pooled (52 ->
    50), nothing to the second place in three-player play either (see AF-11 tests)."""
    rep = report(_af_spinner_block(4, L4_SIDES))
    assert _end(rep)["points"] == [round_to_five(13 + 39), 0]


def test_AF_11_two_players_tied_lowest_score_nothing() -> None:
    """AF-11: 2 players, 51 against 51: no winner, no points."""
    rep = report(_af_spinner_block(2, L2_TIE))
    end = _end(rep)
    assert (end["winner"], end["points"], end["pips"]) == (None, [0, 0], [51, 51])


def test_AF_11_two_partnerships_tied_lowest_score_nothing() -> None:
    """AF-11: 4 players, sides 25 + 26 against 26 + 25: no winner, no points."""
    rep = report(_af_spinner_block(4, L4_TIE))
    end = _end(rep)
    assert (end["winner"], end["points"]) == (None, [0, 0])


def test_AF_11_three_players_two_tied_lowest_split_the_third_rounded_in_half() -> None:
    """AF-11: seats 1 and 2 tie at 29; seat 0's 44 rounds to 45, split exactly: 22.5 each,
    written .5 in the report and kept exact in the state."""
    data = _af_spinner_block(3, L3_S1_S2_TIE)
    rep = report(data)
    end = _end(rep)
    assert end["pips"] == [44, 29, 29]
    assert (end["winner"], end["points"]) == (None, [0, 22.5, 22.5])
    assert rep["scores"] == [0, 27.5, 22.5]
    st = state(data)
    assert st.scores[1] == Fraction(55, 2) and st.scores[2] == Fraction(45, 2)
    text = json.dumps(rep)
    assert '"scores": [0, 27.5, 22.5]' in text and '"points": [0, 22.5, 22.5]' in text


def test_AF_11_three_players_all_tied_nobody_scores() -> None:
    """AF-11 [decision]: 34, 34, 34: nobody scores."""
    rep = report(_af_spinner_block(3, L3_ALL_TIE))
    end = _end(rep)
    assert end["pips"] == [34, 34, 34]
    assert (end["winner"], end["points"]) == (None, [0, 0, 0])
    assert rep["scores"] == [0, 5, 0]


def test_AF_11_three_players_a_single_lowest_takes_the_pool_with_no_second_payment() -> None:
    """AF-10/AF-11: 3 players, a single lowest hand: the whole pool, nothing to second place."""
    left = [["1-1", "1-2", "1-3", "1-4", "1-5", "2-2"],  # 24 (the last is drawn)
            ["2-3", "2-4", "2-5", "3-3", "3-4"],  # 31
            ["3-5", "4-4", "4-6", "5-5", "5-6"]]  # 47
    rep = report(_af_spinner_block(3, left))
    end = _end(rep)
    assert end["pips"] == [24, 31, 47]
    assert (end["winner"], end["points"]) == (0, [round_to_five(31 + 47), 0, 0])


def test_AF_12_the_player_who_played_the_last_tile_leads_the_next_round() -> None:
    """AF-12: seat 1 went out; round 2 must be led by seat 1: leader 0 is refused."""
    data = _af_domino()
    hands2 = [["0-0", "0-1"], ["0-2", "0-3"]]
    data["rounds"].append(rnd(hands2, leader=1))
    state(data)
    data["rounds"][1]["leader"] = 0
    err = expect_error(data)
    assert err.round_no == 1
    assert "seat 1" in err.reason and "last tile" in err.reason


def test_AF_12_after_a_blocked_round_the_next_leader_is_by_lot() -> None:
    """AF-12: after a block any seat may lead the next round."""
    tiles = [str(x) for x in ALL_TILES]
    for leader in (0, 1):
        data = _af_spinner_block(2, L2_S0_WINS)
        data["rounds"].append(rnd([tiles[:14], tiles[14:]], leader=leader))
        assert state(data).turn == leader


def test_AF_13_half_points_are_kept_exactly() -> None:
    """AF-13: a split's half points stay exact (Fraction), and the plain score adds up:
    5 + 22.5 = 27.5, never rounded."""
    st = state(_af_spinner_block(3, L3_S1_S2_TIE))
    assert st.scores == [0, Fraction(55, 2), Fraction(45, 2)]
    assert isinstance(st.scores[1], Fraction) and st.scores[1].denominator == 2


# ================================================================================================
# FT. Fives and Threes


@pytest.mark.parametrize(("players", "teams"), [(2, False), (3, False), (4, True)])
def test_FT_1_four_players_play_as_partnerships(players: int, teams: bool) -> None:
    """FT-1: 4 players: seats 0+2 against 1+3; 2 or 3 players for themselves."""
    cfg = Config.make("fives-and-threes", players)
    assert cfg.teams is teams
    assert cfg.sides == (2 if teams else players)


@pytest.mark.parametrize(("players", "size"), [(2, 7), (3, 5), (4, 5)])
def test_FT_2_deal_7_5_5_and_no_drawing(players: int, size: int) -> None:
    """FT-2: hand sizes 7 / 5 / 5; undealt tiles are out of play."""
    cfg = Config.make("fives-and-threes", players)
    assert cfg.hand_size == size
    assert cfg.game.drawing is False


def test_FT_2_a_player_who_cannot_play_knocks_and_never_draws() -> None:
    """FT-2 / FT-5: after 6-6 seat 1 holds no 6: its only action is pass, draw is refused,
    and knocking takes no tile."""
    hands = [["6-6", "3-6"], ["0-1", "0-2"]]
    data = rec("fives-and-threes", 2, rnd(hands, ["6-6"]), rules={"hand_size": 2})
    st = state(data)
    assert [str(a) for a in st.legal_actions()] == ["pass"]
    assert st.stock_left() == 0
    data["rounds"][0]["actions"] = ["6-6", "draw"]
    err = expect_error(data)
    assert "no drawing" in err.reason
    data["rounds"][0]["actions"] = ["6-6", "pass"]
    st = state(data)
    assert st.hand_sizes() == [1, 2]
    assert "tile" not in _ev(report(data))[1]


def test_FT_3_the_lead_rotates_one_seat_clockwise() -> None:
    """FT-3: the first leader by lot (seat 2 of 3 here); then seat 0, then seat 1."""
    hands = [["0-1"], ["0-2"], ["1-4"]]
    rounds = [rnd(hands, ["1-4"], leader=2), rnd(hands, ["0-1"], leader=0)]
    data = rec("fives-and-threes", 3, *rounds, rules={"hand_size": 1})
    rep = report(data)
    assert [r["leader"] for r in rep["rounds"]] == [2, 0]
    data["rounds"].append(rnd(hands, ["0-2"], leader=1))
    assert report(data)["rounds"][2]["leader"] == 1
    for wrong in (0, 2):
        data["rounds"][2]["leader"] = wrong
        err = expect_error(data)
        assert err.round_no == 2 and "seat 1" in err.reason


def test_FT_3_the_lead_rotates_after_a_blocked_round_too() -> None:
    """FT-3: rotation does not depend on how the round ended (a block here)."""
    data = _ft_block_at_lead()
    hands2 = [["0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6"],
              ["1-1", "1-2", "1-3", "1-4", "1-5", "1-6", "2-2"]]
    data["rounds"].append(rnd(hands2, leader=1))
    assert state(data).turn == 1
    data["rounds"][1]["leader"] = 0
    assert "seat 1" in expect_error(data).reason


def test_FT_4_doubles_never_branch_the_layout_has_two_ends() -> None:
    """FT-4: 1-1 led and filled on both sides: still only W and E; N is refused."""
    hands = [["1-1", "1-3", "0-0", "0-2", "0-3", "0-4", "0-5"],
             ["1-2", "2-2", "2-3", "2-4", "2-5", "2-6", "3-3"]]
    st = state(rec("fives-and-threes", 2, rnd(hands, ["1-1", "1-2@W", "1-3@E"])))
    assert st.layout.spinner_tile is None
    assert set(_opened(st.layout)) == {"W", "E"}
    err = expect_error(rec("fives-and-threes", 2, rnd(hands, ["1-1", "1-2@W", "1-3@N"])))
    assert "not open" in err.reason


def test_FT_5_a_player_who_can_play_must_play_one_who_cannot_knocks() -> None:
    """FT-5: a knock while holding a fitting tile is refused; without one it is the only
    action."""
    hands = [["0-1", "1-6"], ["2-2", "1-2"]]
    data = rec("fives-and-threes", 2, rnd(hands, ["0-1", "pass"]), rules={"hand_size": 2})
    err = expect_error(data)
    assert (err.action_no, err.seat, err.action) == (1, 1, "pass")
    assert "must play" in err.reason
    hands = [["0-1", "1-6"], ["2-2", "2-3"]]
    data = rec("fives-and-threes", 2, rnd(hands, ["0-1"]), rules={"hand_size": 2})
    assert [str(a) for a in state(data).legal_actions()] == ["pass"]


_FT_TABLE = {3: 1, 5: 1, 6: 2, 9: 3, 10: 2, 12: 4, 15: 8, 18: 6, 20: 4}


def _line_totals() -> list[int]:
    """Every ends total a line can show: two ends, each v or 2v (a crosswise double at it;
    two different doubles), or a lone tile."""
    out = {a + b for a in range(7) for b in range(7)}
    out |= {2 * a + b for a in range(7) for b in range(7)}
    out |= {2 * a + 2 * b for a in range(7) for b in range(7) if a != b}
    return sorted(out)


@pytest.mark.parametrize("total", _line_totals())
def test_FT_6_points_for_every_ends_total(total: int) -> None:
    """FT-6: 3->1, 5->1, 6->2, 9->3, 10->2, 12->4, 15->8, 18->6, 20->4; every other total a
    line can show (0..18, 20, 22) scores 0."""
    assert GAMES["fives-and-threes"].play_points[total] == _FT_TABLE.get(total, 0)


def test_FT_6_the_formula_behind_the_table() -> None:
    """FT-6: T/3 if 3 divides T, plus T/5 if 5 divides T, T > 0."""
    for total in range(37):
        want = (total // 3 if total % 3 == 0 else 0) + (total // 5 if total % 5 == 0 else 0)
        assert GAMES["fives-and-threes"].play_points[total] == (want if total else 0)


@pytest.mark.parametrize("players", [2, 3])
def test_FT_7_going_out_ends_the_round_with_one_extra_point(players: int) -> None:
    """FT-7: 1-4 led as the only tile: 5 -> 1 point, plus 1 for going out."""
    hands = [["1-4"], ["0-2"], ["3-3"]][:players]
    rep = report(rec("fives-and-threes", players, rnd(hands, ["1-4"]), rules={"hand_size": 1}))
    assert _ev(rep)[0]["points"] == 1
    end = _end(rep)
    assert (end["reason"], end["winner"]) == ("domino", 0)
    assert end["points"] == [1] + [0] * (players - 1)
    assert rep["scores"] == [2] + [0] * (players - 1)


def _ft_partners() -> dict[str, Any]:
    hands = [["1-2", "1-5"], ["2-3", "0-0"], ["4-6", "0-6"], ["3-4", "0-2"]]
    actions = ["1-2", "2-3@E", "pass", "3-4@E", "1-5@W", "pass", "4-6@E", "pass", "pass",
               "0-6@E"]
    return rec("fives-and-threes", 4, rnd(hands, actions), rules={"hand_size": 2})


def test_FT_8_a_partner_who_went_out_is_skipped_and_the_round_goes_on() -> None:
    """FT-8: seat 0 goes out on action 5; after seat 3 the turn skips seat 0 to seat 1; seat 2
    goes out later, which ends the round with 1 extra point for side 0."""
    rep = report(_ft_partners())
    ev = _ev(rep)
    assert [e["seat"] for e in ev] == [0, 1, 2, 3, 0, 1, 2, 3, 1, 2]
    assert [e["points"] for e in ev if "points" in e] == [1, 0, 1, 3, 0, 1]
    end = _end(rep)
    assert (end["reason"], end["winner"], end["points"]) == ("domino", 0, [1, 0])
    assert rep["scores"] == [1 + 3 + 1 + 1, 1]


def test_FT_8_the_round_does_not_end_when_the_first_partner_goes_out() -> None:
    """FT-8: right after seat 0's last tile the round is still on, seat 0 has no turn."""
    data = _ft_partners()
    data["rounds"][0]["actions"] = data["rounds"][0]["actions"][:5]
    st = state(data)
    assert st.round_end is None and st.out[0] and st.turn == 1
    data = _ft_partners()
    data["rounds"][0]["actions"] = data["rounds"][0]["actions"][:8]
    st = state(data)
    assert st.turn == 1  # seat 3 knocked; seat 0 is out, so seat 1 acts


def test_FT_9_a_blocked_round_has_no_winner_and_no_extra_point() -> None:
    """FT-9: blocked after the 5-5 lead: no winner, nothing for the remaining tiles."""
    rep = report(_ft_block_at_lead())
    end = _end(rep)
    assert (end["reason"], end["winner"], end["points"]) == ("blocked", None, [0, 0])


def test_FT_9_partnership_block_with_one_player_of_each_side_left() -> None:
    """FT-9: seats 0 and 1 have gone out; seats 2 and 3 cannot play on 5 | 5: blocked, no
    extra point, remaining tiles never score."""
    hands = [["1-2", "1-5"], ["2-3", "3-5"], ["6-6", "0-6"], ["0-0", "0-4"]]
    actions = ["1-2", "2-3@E", "pass", "pass", "1-5@W", "3-5@E"]
    rep = report(rec("fives-and-threes", 4, rnd(hands, actions), rules={"hand_size": 2}))
    end = _end(rep)
    assert (end["reason"], end["winner"], end["points"]) == ("blocked", None, [0, 0])
    assert rep["scores"] == [1, 2]


def test_FT_10_prefix_takes_seat_0_to_59() -> None:
    """FT-3/FT-10 set-up: the prefix rounds replay to exactly 59 for seat 0."""
    rounds, s1, _ = _ft_rounds_to()
    rep = report(rec("fives-and-threes", 2, *rounds, rules={"hand_size": 2}))
    assert rep["scores"] == [59, s1]
    assert rep["over"] is False


def test_FT_10_a_play_that_would_pass_61_is_discarded() -> None:
    """FT-10: at 59, the 6-6 lead (12: 4 points) would make 63: discarded, score stays 59, and
    the round goes on."""
    data = _ft_at_59(rnd([["6-6", "1-6"], ["2-2", "2-3"]], ["6-6"], leader=0))
    rep = report(data)
    assert (_ev(rep)[0]["ends"], _ev(rep)[0]["points"]) == (12, 0)
    assert rep["scores"][0] == 59
    assert rep["rounds"][-1]["end"] is None


def test_FT_10_last_play_and_extra_point_are_one_event_discarded_together() -> None:
    """FT-10 (the seeds' example): at 59 the last play makes 6 (2 points) + 1 for going out:
    62 > 61, both discarded: the score stays 59 and the round is over (although 59 + 2 alone
    would have been 61)."""
    data = _ft_at_59(rnd([["0-1", "1-6"], ["2-2", "2-3"]], ["0-1", "pass", "1-6@E"], leader=0))
    rep = report(data)
    last = _ev(rep)[-1]
    assert (last["action"], last["ends"], last["points"]) == ("1-6@E", 6, 0)
    end = _end(rep)
    assert end["reason"] == "domino"
    assert end["points"] == [0, 0]
    assert (end["payment"], end["discarded"]) == ("discarded", 3)  # the 2 and the extra 1
    assert rep["scores"][0] == 59
    assert rep["over"] is False


def test_FT_10_last_play_and_extra_point_reaching_61_win() -> None:
    """FT-10/FT-11: at 59, a last play worth 1 (ends 5) plus 1 = 61 exactly: accepted, wins."""
    data = _ft_at_59(rnd([["0-1", "1-5"], ["2-2", "2-3"]], ["0-1", "pass", "1-5@E"], leader=0))
    rep = report(data)
    assert _ev(rep)[-1]["points"] == 1
    assert _end(rep)["points"] == [1, 0]
    assert (rep["scores"][0], rep["winner"], rep["over"]) == (61, 0, True)


def test_FT_11_exactly_61_in_the_middle_of_a_round_wins_at_once() -> None:
    """FT-11: at 59, the 3-3 lead (6: 2 points) makes exactly 61: the match ends at once with
    seat 0 still holding a tile; nothing more may be played."""
    data = _ft_at_59(rnd([["3-3", "3-6"], ["2-2", "2-4"]], ["3-3"], leader=0))
    rep = report(data)
    assert _end(rep)["reason"] == "target"
    assert (rep["scores"][0], rep["winner"], rep["over"]) == (61, 0, True)
    data["rounds"][-1]["actions"].append("pass")
    assert "match is over" in expect_error(data).reason


# ================================================================================================
# MG. Muggins


@pytest.mark.parametrize("players", [2, 3, 4])
def test_MG_1_each_plays_alone_unless_teams_are_asked_for(players: int) -> None:
    """MG-1 [decision]: no partnerships by default; 4 players may ask for teams."""
    cfg = Config.make("muggins", players)
    assert cfg.teams is False and cfg.sides == players
    if players == 4:
        assert Config.make("muggins", 4, teams=True).sides == 2
    else:
        with pytest.raises(RulesError):
            Config.make("muggins", players, teams=True)


@pytest.mark.parametrize(("players", "size"), [(2, 7), (3, 6), (4, 5)])
def test_MG_2_deal_7_6_5_and_the_rest_is_the_stock(players: int, size: int) -> None:
    """MG-2: hand sizes 7 / 6 / 5, drawing from the stock."""
    cfg = Config.make("muggins", players)
    assert cfg.hand_size == size and cfg.game.drawing


def _mg2(
    hands: list[list[str]], actions: list[str] | None = None, leader: int = 0
) -> dict[str, Any]:
    return rec("muggins", 2, rnd(hands, actions or [], leader=leader), rules={"hand_size": 2})


def test_MG_3_the_holder_of_the_highest_double_leads_it() -> None:
    """MG-3: seat 1 holds 4-4, the highest double dealt: seat 1 must lead, and lead 4-4."""
    hands = [["2-2", "5-6"], ["4-4", "0-1"]]
    st = state(_mg2(hands, leader=1))
    assert [str(a) for a in st.legal_actions()] == ["4-4"]
    err = expect_error(_mg2(hands, leader=0))
    assert "seat 1" in err.reason
    err = expect_error(_mg2(hands, ["0-1"], leader=1))
    assert err.action_no == 0 and "4-4" in err.reason


def test_MG_3_without_doubles_the_heaviest_tile_leads_6_3_before_5_4() -> None:
    """MG-3 [decision]: no double dealt: the heaviest tile leads; 6-3 and 5-4 weigh 9 each and
    6-3 (the higher top half) wins the claim."""
    hands = [["4-5", "0-1"], ["3-6", "0-2"]]
    st = state(_mg2(hands, leader=1))
    assert [str(a) for a in st.legal_actions()] == ["3-6"]
    assert "seat 1" in expect_error(_mg2(hands, leader=0)).reason
    hands = [["4-5", "0-1"], ["2-6", "0-2"]]
    assert [str(a) for a in state(_mg2(hands, leader=0)).legal_actions()] == ["4-5"]


#: MG-3 [decision] written out: the 21 tiles that are not doubles, from the strongest claim to
#: the lead down (heavier first; of equal weight, the higher top half first)
NO_DOUBLE_CLAIMS = [
    "5-6", "4-6", "3-6", "4-5", "2-6", "3-5", "1-6", "2-5", "3-4", "0-6", "1-5",
    "2-4", "0-5", "1-4", "2-3", "0-4", "1-3", "0-3", "1-2", "0-2", "0-1",
]


@pytest.mark.parametrize("game", ["muggins", "draw", "block"])
def test_MG_3_DB_1_without_doubles_every_pair_of_tiles_claims_the_lead_in_order(game: str) -> None:
    """MG-3, DB-1: one tile each and no double: for every pair of tiles, whichever seat holds
    it, the seat with the stronger claim (the list above) must lead, and lead that tile."""
    cfg = Config.make(game, 2, rules={"hand_size": 1})
    for strong, weak in itertools.combinations(NO_DOUBLE_CLAIMS, 2):
        for seat in (0, 1):
            hands = [[Tile.parse(strong)], [Tile.parse(weak)]][:: 1 if seat == 0 else -1]
            stock = [x for x in ALL_TILES if x not in (hands[0][0], hands[1][0])]
            st = State(cfg)
            assert st.expected_leader(hands) == seat, (strong, weak)
            with pytest.raises(DealError, match=f"must be seat {seat}"):
                st.start_round(hands, stock, 1 - seat)
            st.start_round(hands, stock, seat)
            assert [str(a) for a in st.legal_actions()] == [strong]


def test_MG_3_every_round_is_led_by_the_highest_double() -> None:
    """MG-3: the second round too (not the player who went out)."""
    first = rnd([["6-6", "0-6"], ["1-2", "0-3"]], ["6-6", "draw", "1-6@W", "0-6@E"],
                stock=["1-6"])
    data = rec("muggins", 2, first, rules={"hand_size": 2})
    assert _end(report(data))["winner"] == 0
    data["rounds"].append(rnd([["0-1", "0-2"], ["3-3", "0-3"]], leader=1))
    assert state(data).turn == 1
    data["rounds"][1]["leader"] = 0
    assert "seat 1" in expect_error(data).reason


def test_MG_3_the_lead_scores_like_any_play() -> None:
    """MG-3: a 5-5 lead scores 10."""
    rep = report(_mg2([["5-5", "0-1"], ["4-4", "0-2"]], ["5-5"]))
    assert rep["scores"] == [10, 0]


def test_MG_4_spinner_rules_with_the_side_arm_gate() -> None:
    """MG-4: the first double branches, side arms only after both straight arms (SP-3)."""
    hands = [["6-6", "2-6", "5-6"], ["1-6", "0-6", "4-5"]]
    base = ["6-6", "1-6@W"]
    data = rec("muggins", 2, rnd(hands, [*base, "2-6@N"]), rules={"hand_size": 3})
    assert "side arm" in expect_error(data).reason
    data = rec("muggins", 2, rnd(hands, [*base, "2-6@E", "0-6@N"]), rules={"hand_size": 3})
    st = state(data)
    assert st.layout.spinner_tile == Tile.parse("6-6")
    assert _opened(st.layout) == {"W": 1, "E": 2, "N": 0, "S": 6}


def test_MG_5_plays_score_as_in_all_fives() -> None:
    """MG-5: 3-6 then 6-6 (15) scores 15; 6-6 then 2-6 (14) scores 0."""
    assert GAMES["muggins"].play_points == GAMES["all-fives"].play_points
    rep = report(_mg2([["6-6", "0-1"], ["2-6", "0-2"]], ["6-6", "2-6@W"]))
    assert [(e["ends"], e["points"]) for e in _ev(rep)] == [(12, 0), (14, 0)]


def test_MG_6_a_player_who_cannot_play_draws_until_a_tile_fits() -> None:
    """MG-6: seat 1 holds no 5: it draws 1-2 (no fit), then 0-5, which it must play."""
    hands = [["5-5", "0-1"], ["3-3", "0-2"]]
    data = rec("muggins", 2, rnd(hands, ["5-5", "draw", "draw"], stock=["1-2", "0-5"]),
               rules={"hand_size": 2})
    st = state(data)
    assert sorted(str(a) for a in st.legal_actions()) == ["0-5@E", "0-5@W"]
    data["rounds"][0]["actions"] = ["5-5", "pass"]
    assert "draw" in expect_error(data).reason


def test_MG_7_the_player_who_goes_out_wins() -> None:
    """MG-7: seat 0 goes out and wins the round."""
    rep = report(_af_pool_vs_each("muggins"))
    assert (_end(rep)["reason"], _end(rep)["winner"]) == ("domino", 0)


def test_MG_7_a_block_is_won_by_the_fewest_pips() -> None:
    """MG-7: 2 players, 35 against 67: seat 0 wins and scores 67 rounded: 65."""
    rep = report(_af_spinner_block(2, L2_S0_WINS, game="muggins"))
    end = _end(rep)
    assert (end["reason"], end["winner"], end["points"]) == ("blocked", 0, [65, 0])


def test_MG_7_equal_pips_are_broken_by_fewer_tiles() -> None:
    """MG-7: seats 0 and 1 both hold 30 pips, seat 0 in 6 tiles, seat 1 in 5: seat 1 wins and
    scores 30 + 42 -> 30 + 40 = 70 (each rounded, MG-8)."""
    rep = report(_af_spinner_block(3, L3_S0_S1_TIE, game="muggins"))
    end = _end(rep)
    assert end["pips"] == [30, 30, 42]
    assert (end["winner"], end["points"]) == (1, [0, 70, 0])


@pytest.mark.parametrize(("game", "seed", "winner"), [("muggins", 4888, 0), ("block", 436, 0),
                                                      ("draw", 94, 1)])
def test_MG_7_in_partnerships_a_tie_on_pips_goes_to_the_side_with_fewer_tiles_in_both_hands(
        game: str, seed: int, winner: int) -> None:
    """MG-7 with partnerships (DB-4 too): a side's pips and tiles are its two players' together.
    Blocked rounds played at random where the sides tie on pips and the side with fewer tiles
    in both hands is not the one whose last player holds fewer."""
    state = State(Config.make(game, 4, teams=True))
    rng = random.Random(seed)
    state.deal_next(rng)
    while state.turn >= 0:
        state.apply_code(rng.choice(state.legal_codes()))
    end = state.round_end
    assert end is not None and end.reason == "blocked"
    side_pips = [end.pips[s] + end.pips[s + 2] for s in (0, 1)]
    tiles = [state.hands[s].bit_count() for s in range(4)]
    side_tiles = [tiles[s] + tiles[s + 2] for s in (0, 1)]
    assert side_pips[0] == side_pips[1] and side_tiles[winner] < side_tiles[1 - winner]
    assert (tiles[2] < tiles[3]) != (side_tiles[0] < side_tiles[1]) or tiles[2] == tiles[3]
    assert end.winner == winner


def test_MG_7_still_tied_nobody_scores() -> None:
    """MG-7 [decision]: seats 1 and 2 hold 29 pips in 5 tiles each: no winner, no points."""
    rep = report(_af_spinner_block(3, L3_S1_S2_TIE, game="muggins"))
    end = _end(rep)
    assert end["pips"] == [44, 29, 29]
    assert (end["winner"], end["points"]) == (None, [0, 0, 0])


def test_MG_8_each_opponent_is_rounded_separately() -> None:
    """MG-8: opponents with 7 and 7 pips: 5 + 5 = 10 (All Fives would pool 14 -> 15)."""
    rep = report(_af_pool_vs_each("muggins"))
    end = _end(rep)
    assert (end["winner"], end["points"]) == (0, [10, 0, 0])
    assert rep["scores"] == [20, 0, 0]


def test_MG_8_thirteen_rounds_up_and_twelve_down_in_a_block() -> None:
    """MG-8: in the MG-7 block, seat 1 collects 30 -> 30 and 42 -> 40 separately."""
    rep = report(_af_spinner_block(3, L3_S0_S1_TIE, game="muggins"))
    assert _end(rep)["points"][1] == round_to_five(30) + round_to_five(42)


def test_MG_9_target_150_and_the_match_ends_at_once() -> None:
    """MG-9: play and round-end points make one total; at 150 the match ends at once: seven
    rounds of 5-5 led (10) and out (6-4 left: 10) make 140; the eighth lead reaches 150. That
    lead is also the last tile, so the round reads ``domino`` and pays nothing (RECORD.md)."""
    assert all(Config.make("muggins", p).target == 150 for p in (2, 3, 4))
    rounds = [rnd([["5-5"], ["4-6"]], ["5-5"]) for _ in range(8)]
    rep = report(rec("muggins", 2, *rounds, rules={"hand_size": 1}))
    assert [r["scores"][0] for r in rep["rounds"]] == [20, 40, 60, 80, 100, 120, 140, 150]
    assert (_end(rep)["reason"], _end(rep)["winner"], _end(rep)["points"]) == ("domino", 0, [0, 0])
    assert (rep["winner"], rep["over"]) == (0, True)


# ================================================================================================
# DB. Draw and Block


@pytest.mark.parametrize("game", ["draw", "block"])
@pytest.mark.parametrize(("players", "size"), [(2, 7), (3, 6), (4, 5)])
def test_DB_1_players_deal_and_no_partnerships(game: str, players: int, size: int) -> None:
    """DB-1: 2-4 players for themselves, dealt as MG-2."""
    cfg = Config.make(game, players)
    assert cfg.hand_size == size and cfg.teams is False


@pytest.mark.parametrize("game", ["draw", "block"])
def test_DB_1_the_highest_double_leads(game: str) -> None:
    """DB-1: the lead as MG-3."""
    hands = [["2-2", "5-6"], ["4-4", "0-1"]]
    data = rec(game, 2, rnd(hands, leader=0), rules={"hand_size": 2})
    assert "seat 1" in expect_error(data).reason
    data["rounds"][0]["leader"] = 1
    assert [str(a) for a in state(data).legal_actions()] == ["4-4"]


@pytest.mark.parametrize("game", ["draw", "block"])
def test_DB_2_no_spinner_and_plays_never_score(game: str) -> None:
    """DB-2: 5-5 led scores nothing; 0-5 beside it (0 + 10) scores nothing; no side arms."""
    hands = [["5-5", "0-1"], ["0-5", "3-5"]]
    data = rec(game, 2, rnd(hands, ["5-5", "0-5@W"]), rules={"hand_size": 2})
    rep = report(data)
    assert [(e["ends"], e["points"]) for e in _ev(rep)] == [(10, 0), (10, 0)]
    st = state(data)
    assert st.layout.spinner_tile is None and set(_opened(st.layout)) == {"W", "E"}
    data["rounds"][0]["actions"] = ["5-5", "0-5@N"]
    assert "not open" in expect_error(data).reason


def test_DB_3_draw_game_draws_when_unable_to_play() -> None:
    """DB-3: `draw`: no fitting tile: draw (pass refused) until one fits."""
    hands = [["5-5", "0-1"], ["3-3", "0-2"]]
    data = rec("draw", 2, rnd(hands, ["5-5"], stock=["0-5"]), rules={"hand_size": 2})
    assert [str(a) for a in state(data).legal_actions()] == ["draw"]
    data["rounds"][0]["actions"] = ["5-5", "pass"]
    assert "draw" in expect_error(data).reason


def test_DB_3_block_game_passes_and_has_no_drawing() -> None:
    """DB-3: `block`: undealt tiles are out of play: pass, and draw is refused."""
    hands = [["5-5", "0-1"], ["3-3", "0-2"]]
    data = rec("block", 2, rnd(hands, ["5-5"]), rules={"hand_size": 2})
    st = state(data)
    assert [str(a) for a in st.legal_actions()] == []  # blocked at once: nobody holds a 5
    assert report(data)["rounds"][0]["end"]["reason"] == "blocked"
    hands = [["5-5", "0-5"], ["3-3", "0-2"]]
    data = rec("block", 2, rnd(hands, ["5-5"]), rules={"hand_size": 2})
    assert [str(a) for a in state(data).legal_actions()] == ["pass"]
    data["rounds"][0]["actions"] = ["5-5", "draw"]
    assert "no drawing" in expect_error(data).reason


@pytest.mark.parametrize("game", ["draw", "block"])
def test_DB_4_the_winner_scores_the_plain_sum_of_the_opponents_pips(game: str) -> None:
    """DB-4: seat 0 goes out; seat 1 keeps 3-5: 8 points, not rounded to 10."""
    hands = [["6-6", "1-6"], ["2-6", "3-5"]]
    data = rec(game, 2, rnd(hands, ["6-6", "2-6@W", "1-6@E"]), rules={"hand_size": 2})
    rep = report(data)
    end = _end(rep)
    assert (end["reason"], end["winner"], end["points"]) == ("domino", 0, [8, 0])
    assert rep["scores"] == [8, 0]


def test_DB_4_muggins_would_round_the_same_hand() -> None:
    """DB-4 against MG-8: the same deal in muggins pays 8 rounded: 10."""
    hands = [["6-6", "1-6"], ["2-6", "3-5"]]
    rep = report(rec("muggins", 2, rnd(hands, ["6-6", "2-6@W", "1-6@E"]), rules={"hand_size": 2}))
    assert _end(rep)["points"] == [10, 0]


def test_DB_4_a_blocked_draw_game_pays_the_plain_sum_to_the_lowest() -> None:
    """DB-4: blocked with 64 against 50: seat 1 wins and scores 64 (not 65)."""
    rep = report(_line_block("draw", LINE_S1_LOWER))
    end = _end(rep)
    assert (end["reason"], end["pips"]) == ("blocked", [64, 50])
    assert (end["winner"], end["points"]) == (1, [0, 64])


def test_DB_4_equal_pips_are_broken_by_fewer_tiles() -> None:
    """DB-4 / MG-7: 57 against 57, seat 0 with 8 tiles against 9: seat 0 wins 57."""
    rep = report(_line_block("draw", LINE_TIE))
    end = _end(rep)
    assert end["pips"] == [57, 57]
    assert (end["winner"], end["points"]) == (0, [57, 0])


def test_DB_4_a_block_game_block_pays_the_lowest_and_a_full_tie_nobody() -> None:
    """DB-4 / MG-7: 3 players of `block`; after the 6-6 lead nobody can play (the other 6s
    are out of play): 10, 3, 6 pips: seat 1 scores 10 + 6; with 10, 3, 3 in equal tile counts
    there is no winner."""
    hands = [["6-6", "5-5"], ["0-1", "0-2"], ["0-3", "1-2"]]
    rep = report(rec("block", 3, rnd(hands, ["6-6"]), rules={"hand_size": 2}))
    end = _end(rep)
    assert (end["reason"], end["pips"]) == ("blocked", [10, 3, 6])
    assert (end["winner"], end["points"]) == (1, [0, 10 + 6, 0])
    hands = [["6-6", "5-5"], ["0-1", "0-2"], ["0-3", "0-0"]]
    rep = report(rec("block", 3, rnd(hands, ["6-6"]), rules={"hand_size": 2}))
    end = _end(rep)
    assert end["pips"] == [10, 3, 3]
    assert (end["winner"], end["points"]) == (None, [0, 0, 0])


@pytest.mark.parametrize("game", ["draw", "block"])
def test_DB_5_target_100_ends_the_match(game: str) -> None:
    """DB-5: ten rounds of 6-6 led and out against 4-6 (10 each) make exactly 100: over."""
    assert all(Config.make(game, p).target == 100 for p in (2, 3, 4))
    rounds = [rnd([["6-6"], ["4-6"]], ["6-6"]) for _ in range(10)]
    data = rec(game, 2, *rounds, rules={"hand_size": 1})
    rep = report(data)
    assert [r["scores"][0] for r in rep["rounds"]] == [10 * (k + 1) for k in range(10)]
    assert (rep["winner"], rep["over"]) == (0, True)
    data["rounds"].append(rnd([["6-6"], ["4-6"]]))
    err = expect_error(data)
    assert err.round_no == 10 and "over" in err.reason


def test_AF_3_a_last_tile_that_reaches_the_target_ends_the_round_as_domino() -> None:
    """AF-3 with RECORD.md's last-tile case: a play that empties the hand ends the round as
    ``domino`` even when its own points reach the target; the mover's side wins the round and
    the match, and nothing more is paid. ``target`` is kept for a play that leaves tiles."""
    import random as _random

    from fives.core.games import Config as _Config
    from fives.core.state import State as _State

    out_at_target = mid_round_target = 0
    for game in ("all-fives", "muggins"):
        for seed in range(300):
            rng = _random.Random(seed)
            state = _State(_Config.make(game, 2, target=60))
            while not state.over:
                if state.needs_deal():
                    state.deal_next(rng)
                    continue
                seat = state.turn
                state.apply_code(rng.choice(state.legal_codes()))
            end = state.round_end
            assert end is not None
            side = state.config.side_of(seat)
            if state.hands[seat] == 0 and end.reason == "domino" and end.payment == "target":
                out_at_target += 1
                assert end.winner == side == state.winner and end.went_out == seat
                assert all(p == 0 for p in end.points)
            elif end.reason == "target":
                mid_round_target += 1
                assert state.hands[seat] != 0, "a last tile never ends the round as target"
                assert end.winner is None and all(p == 0 for p in end.points)
                assert state.winner == side
    assert out_at_target > 0 and mid_round_target > 0


def test_AF_3_the_public_last_tile_example_replays_as_domino() -> None:
    """RECORD.md, spelled out: 3-4@E empties seat 0's hand and brings it from 240 to 255 of
    250. The round ends as a domino won by seat 0, paying nothing more; the match is over."""
    hands = [["0-5", "5-5"], ["0-0", "1-2"]]
    rep = report(rec("all-fives", 2, rnd(hands, ["0-5", "0-0@W", "5-5@E"]),
                     rules={"hand_size": 2}, target=10))
    assert [e["points"] for e in _ev(rep)] == [5, 5, 10]
    assert _end(rep) == {**_end(rep), "reason": "domino", "winner": 0, "points": [0, 0]}
    assert (rep["scores"], rep["winner"], rep["over"]) == ([15, 5], 0, True)
    # The same points on a play that leaves a tile in the hand: ``target``, no round winner.
    rep = report(rec("all-fives", 2, rnd([["5-5", "0-5"], ["0-0", "1-2"]], ["5-5"]),
                     rules={"hand_size": 2}, target=10))
    assert _end(rep) == {**_end(rep), "reason": "target", "winner": None, "points": [0, 0]}
    assert (rep["scores"], rep["winner"], rep["over"]) == ([10, 0], 0, True)
