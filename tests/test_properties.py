"""Property tests over random whole matches of every game and player count.

Each example plays a random match (randommatch.py) until it is over (at most MAX_ROUNDS rounds),
checking after every action:

* every tile is in exactly one place: a hand, the stock remainder or the layout; a draw moves
  the next stock tile into the drawer's hand;
* the log, the layout and the scoring agree (ends total, contributions, points per play);
* the scores are the sum of the play points and the round-end points;
* no view holds a tile of another seat's hand or of the stock;

and at the end that the match's record, written to JSON and replayed, gives the same report.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from fives.core.record import Record, record_of, replay, replay_state, report_of
from fives.core.state import IllegalAction, State
from fives.core.tiles import ACTIONS, ALL_TILES, tiles_of_mask
from fives.core.view import public_view, view_of
from randommatch import config_of, matches, play_match

#: for the properties that check every seat's view or every refused action at each step: a
#: quarter of the profile's examples (conftest.py)
FEWER = settings(max_examples=settings.default.max_examples // 4)

TILE_RE = re.compile(r"(?<![0-9])[0-6]-[0-6](?![0-9])")


# ----------------------------------------------------------------------------------------------
# checks


def _conservation(state: State, code: int | None) -> None:
    hands = [tiles_of_mask(h) for h in state.hands]
    stock = [ALL_TILES[t] for t in state.stock[state.stock_pos :]]
    table = state.layout.tiles()
    places = [t for h in hands for t in h] + stock + table
    assert sorted(places) == list(ALL_TILES), "a tile is missing or in two places"
    assert len(table) == state.layout.count
    played = [ACTIONS[e[1]].tile for e in state.log if ACTIONS[e[1]].is_play]
    assert sorted(played) == sorted(table)  # type: ignore[type-var]
    if code is not None and str(ACTIONS[code]) == "draw":
        seat, _, _, _, tile = state.log[-1]
        assert state.stock[state.stock_pos - 1] == tile
        assert ALL_TILES[tile] in hands[seat]
    dealt = sum(len(h) for h in state.current_round_info().hands)
    draws = sum(1 for e in state.log if str(ACTIONS[e[1]]) == "draw")
    assert state.stock_pos == draws
    assert sum(len(h) for h in hands) == dealt + draws - len(table)


def _scoring(state: State, code: int | None) -> None:
    if code is None or not ACTIONS[code].is_play:
        return
    _, _, ends, points, _ = state.log[-1]
    lay = state.layout
    assert ends == lay.ends_total() == sum(c.counted for c in lay.contributions())
    table = state.config.game.play_points
    if state.config.game.exact_target:
        assert points in (0, table[ends])  # FT-10 may discard it
    else:
        assert points == table[ends]
    if state.config.game.play_scoring == "none":
        assert points == 0
    if not state.config.game.spinner:
        assert lay.spinner_tile is None and len(lay.open_ends()) == 2


def _scores_add_up(state: State) -> None:
    totals: list[Fraction] = [Fraction(0)] * state.config.sides
    for info in state.rounds():
        for seat, code, _, points, _ in info.log:
            if ACTIONS[code].is_play:
                totals[state.side[seat]] += points
        if info.end is not None:
            for side, pts in enumerate(info.end.points):
                totals[side] += Fraction(pts)
        assert [Fraction(s) for s in info.scores] == totals
    assert [Fraction(s) for s in state.scores] == totals


def _views(state: State, code: int | None) -> None:
    table = {str(t) for t in state.layout.tiles()}
    for seat in range(state.n):
        data = view_of(state, seat).to_json()
        own = [str(t) for t in state.hand(seat)]
        assert data["hand"] == own
        assert data["stock"] == state.stock_left()
        assert data["hand_sizes"] == state.hand_sizes()
        text = json.dumps(data)
        seen = set(TILE_RE.findall(text))
        assert seen <= table | set(own), (seat, seen - table - set(own))
        if data["turn"] != seat:
            assert data["legal"] == []
    public = json.dumps(public_view(state).to_json())
    assert set(TILE_RE.findall(public)) <= table


def _round_end(state: State) -> None:
    end = state.round_end
    if end is None:
        return
    assert list(end.pips) == [sum(t.pips for t in state.hand(s)) for s in range(state.n)]
    if end.reason == "domino":
        assert end.went_out is not None and state.hands[end.went_out] == 0
    if end.reason == "blocked":
        assert state.stock_left() == 0
        opened = {v for _, v in state.layout.ends}
        for s in range(state.n):
            assert not any(t.low in opened or t.high in opened for t in state.hand(s))
    if end.reason == "target":
        assert state.over


# ----------------------------------------------------------------------------------------------
# properties


@given(matches)
def test_every_tile_is_in_exactly_one_place_after_every_action(match: tuple) -> None:
    spec, seed = match
    checked: list[int | None] = []

    def check(state: State, code: int | None) -> None:
        _conservation(state, code)
        checked.append(code)

    state = play_match(config_of(spec), seed, check)
    # one check after each deal and after each action of every round played
    actions = [code for info in state.rounds() for _, code, *_ in info.log]
    assert [c for c in checked if c is not None] == actions
    assert checked.count(None) == len(state.rounds())


@given(matches)
def test_scores_are_play_points_plus_round_end_points(match: tuple) -> None:
    spec, seed = match

    def check(state: State, code: int | None) -> None:
        _scoring(state, code)
        _round_end(state)
        if code is not None and state.round_end is not None:
            _scores_add_up(state)

    state = play_match(config_of(spec), seed, check)
    _scores_add_up(state)
    if state.over:
        assert state.legal_actions() == []
        target = state.config.target
        if state.winner is not None:
            if state.config.game.exact_target:
                assert state.scores[state.winner] == target
            else:
                assert state.scores[state.winner] >= target
                assert state.scores[state.winner] == max(state.scores)
        else:  # AF-3: a drawn match, two equal scores over the target
            best = max(state.scores)
            assert best >= target and state.scores.count(best) >= 2


@given(matches)
def test_the_record_of_a_match_replays_to_the_same_report(match: tuple) -> None:
    spec, seed = match
    state = play_match(config_of(spec), seed)
    text = record_of(state).to_json()
    again = Record.from_json(text)
    assert again.to_json() == text
    expected = json.loads(json.dumps(report_of(state)))
    assert json.loads(json.dumps(replay(again))) == expected
    replayed = replay_state(Record.from_json(text))
    assert replayed.scores == state.scores and replayed.winner == state.winner
    assert replayed.over == state.over


@given(matches, st.integers(min_value=0, max_value=10_000))
def test_a_record_cut_in_the_middle_of_a_round_replays(match: tuple, cut: int) -> None:
    spec, seed = match
    state = play_match(config_of(spec), seed)
    data = json.loads(record_of(state).to_json())
    last = data["rounds"][-1]
    last["actions"] = last["actions"][: cut % (len(last["actions"]) + 1)]
    rep = replay(Record.from_data(data))
    full = report_of(state)
    assert rep["rounds"][:-1] == json.loads(json.dumps(full["rounds"][:-1]))
    events = json.loads(json.dumps(full["rounds"][-1]["events"]))
    assert rep["rounds"][-1]["events"] == events[: len(last["actions"])]


@FEWER
@given(matches)
def test_no_view_shows_another_seats_tiles_or_the_stock(match: tuple) -> None:
    spec, seed = match
    play_match(config_of(spec), seed, _views)


@given(matches)
def test_the_turn_never_goes_to_a_player_who_is_out(match: tuple) -> None:
    """FT-8 and C-1: the player to act holds tiles; a draw keeps the turn, anything else
    passes it clockwise to the next player still holding tiles."""
    spec, seed = match

    def check(state: State, code: int | None) -> None:
        if state.round_end is None:
            assert state.hands[state.turn] != 0
            assert not state.out[state.turn]
        if code is None or state.round_end is not None:
            return
        seat = state.log[-1][0]
        if str(ACTIONS[code]) == "draw":
            assert state.turn == seat
        else:
            nxt = (seat + 1) % state.n
            while state.out[nxt]:
                nxt = (nxt + 1) % state.n
            assert state.turn == nxt

    play_match(config_of(spec), seed, check)


# ----------------------------------------------------------------------------------------------
# an independent oracle for round ends and leaders


def _round5(x: int) -> int:
    return x - x % 5 + (5 if x % 5 >= 3 else 0)


def _expected_end_points(state: State) -> list[Fraction]:
    """AF-9..11, FT-7..10, MG-7/8, DB-4 written out again from RULES.md."""
    end = state.round_end
    assert end is not None
    game = state.config.game.name
    n, sides = state.n, state.config.sides
    side = state.side
    pips = [sum(t.pips for t in state.hand(s)) for s in range(n)]
    tiles = [len(state.hand(s)) for s in range(n)]
    out = [Fraction(0)] * sides
    if end.reason == "target":
        return out
    if end.reason == "domino":
        assert end.went_out is not None
        win = side[end.went_out]
        opp = [s for s in range(n) if side[s] != win]
        before = state.scores[win] - end.points[win]  # the side's score before the round's end
        if game != "fives-and-threes" and before >= state.config.target:
            return out  # RECORD.md: the last tile itself reached the target; nothing more paid
        if game == "all-fives":
            out[win] = Fraction(_round5(sum(pips[s] for s in opp)))
        elif game == "muggins":
            out[win] = Fraction(sum(_round5(pips[s]) for s in opp))
        elif game in ("draw", "block"):
            out[win] = Fraction(sum(pips[s] for s in opp))
        else:  # fives-and-threes: the extra point, unless FT-10 discarded the event
            out[win] = Fraction(0 if end.discarded else 1)
        return out
    side_pips = [sum(pips[s] for s in range(n) if side[s] == d) for d in range(sides)]
    side_tiles = [sum(tiles[s] for s in range(n) if side[s] == d) for d in range(sides)]
    if game == "all-fives":
        low = min(side_pips)
        tied = [d for d in range(sides) if side_pips[d] == low]
        if len(tied) == 1:
            out[tied[0]] = Fraction(_round5(sum(side_pips) - low))
        elif sides == 3 and len(tied) == 2:
            third = next(d for d in range(3) if d not in tied)
            for d in tied:
                out[d] = Fraction(_round5(side_pips[third]), 2)
    elif game in ("muggins", "draw", "block"):
        best = min(zip(side_pips, side_tiles))
        tied = [d for d in range(sides) if (side_pips[d], side_tiles[d]) == best]
        if len(tied) == 1:
            win = tied[0]
            opp = [s for s in range(n) if side[s] != win]
            if game == "muggins":
                out[win] = Fraction(sum(_round5(pips[s]) for s in opp))
            else:
                out[win] = Fraction(sum(pips[s] for s in opp))
    return out


def _expected_winner(state: State) -> int | None:
    """The side that won the round: the one that went out; in a block the lowest side (All
    Fives: pips only; Muggins, Draw, Block: pips, then fewer tiles); none on a tie, in a
    Fives and Threes block, or when the target ended the match."""
    end = state.round_end
    assert end is not None
    game = state.config.game.name
    if end.reason == "target" or (end.reason == "blocked" and game == "fives-and-threes"):
        return None
    if end.reason == "domino":
        return state.side[end.went_out] if end.went_out is not None else None
    n, sides = state.n, state.config.sides
    key = []
    for d in range(sides):
        seats = [s for s in range(n) if state.side[s] == d]
        pips = sum(t.pips for s in seats for t in state.hand(s))
        tiles = sum(len(state.hand(s)) for s in seats) if game != "all-fives" else 0
        key.append((pips, tiles))
    tied = [d for d in range(sides) if key[d] == min(key)]
    return tied[0] if len(tied) == 1 else None


def _oracle_check(state: State, code: int | None) -> None:
    if code is None:
        return
    game = state.config.game
    if game.exact_target:
        assert all(s <= state.config.target for s in state.scores)  # FT-10
    elif any(s >= state.config.target for s in state.scores):
        assert state.over  # AF-3 / MG-9 / DB-5: at once
    if state.round_end is None:
        if str(ACTIONS[code]) == "pass":  # C-8: a pass never hides a block
            opened = {v for _, v in state.layout.ends}
            assert any(
                t.low in opened or t.high in opened for s in range(state.n) for t in state.hand(s)
            )
        return
    end = state.round_end
    assert [Fraction(p) for p in end.points] == _expected_end_points(state)
    assert end.winner == _expected_winner(state)


@given(matches)
def test_round_ends_pay_as_the_rules_say(match: tuple) -> None:
    """AF-8..11, FT-7..10, MG-7/8, DB-4 against an independent oracle; AF-3, FT-11, MG-9 and
    DB-5: a side that reaches the target ends the match at once."""
    spec, seed = match
    play_match(config_of(spec), seed, _oracle_check)


@given(matches)
def test_every_round_is_led_as_the_rules_say(match: tuple) -> None:
    """AF-4/AF-12 (last tile, else any), FT-3 (rotation), MG-3/DB-1 (highest double or
    heaviest tile, and the lead is that tile)."""
    spec, seed = match
    state = play_match(config_of(spec), seed)
    rounds = state.rounds()
    game = state.config.game.name
    for prev, cur in zip([None, *rounds], rounds):
        first_action = ACTIONS[cur.log[0][1]] if cur.log else None
        if game in ("muggins", "draw", "block"):
            best = max(
                (t for hand in cur.hands for t in hand),
                key=lambda t: (t.is_double, t.pips, max(t.low, t.high)),
            )
            assert best in cur.hands[cur.leader]
            if first_action is not None:
                assert first_action.tile == best
        elif prev is None:
            continue
        elif game == "fives-and-threes":
            assert cur.leader == (prev.leader + 1) % state.n
        else:
            assert prev.end is not None
            if prev.end.reason == "domino":
                assert cur.leader == prev.end.went_out


# ----------------------------------------------------------------------------------------------
# legal actions, derived again, and everything else refused


def _expected_legal(state: State) -> set[str]:
    """C-3, C-6, AF-7, FT-5, MG-3, SP-3, FT-4 / DB-2 written out again."""
    hand = state.hand(state.turn)
    lay = state.layout
    game = state.config.game
    if lay.count == 0:
        if game.first_lead == "highest-double":
            best = max(hand, key=lambda t: (t.is_double, t.pips, t.high))
            return {str(best)}
        return {str(t) for t in hand}
    ends: dict[str, int] = {}
    spinner = lay.spinner_tile
    if spinner is None:
        # a line: W and E show the outer halves of its end tiles (the lead's own halves first)
        center = lay.center_tile
        assert center is not None
        for e, name, inner in ((0, "W", center.low), (1, "E", center.high)):
            arm = lay.arm(e)
            ends[name] = arm[-1].outer if arm else inner
    else:
        for e, name in enumerate("WENS"):
            arm = lay.arm(e)
            ends[name] = arm[-1].outer if arm else spinner.low
        straight_filled = bool(lay.arm(0)) and bool(lay.arm(1))
        if state.config.side_arm_gate and not straight_filled:
            del ends["N"], ends["S"]
    plays = {f"{t}@{name}" for name, v in ends.items() for t in hand if t.has(v)}
    if plays:
        return plays
    if game.drawing and state.stock_left() > 0:
        return {"draw"}
    return {"pass"}


@FEWER
@given(matches)
def test_legal_actions_are_exactly_the_rules_and_all_else_is_refused(match: tuple) -> None:
    spec, seed = match

    def check(state: State, code: int | None) -> None:
        if state.round_end is not None:
            return
        legal = {str(a) for a in state.legal_actions()}
        assert legal == _expected_legal(state)
        before = len(state.log)
        for other in ACTIONS:
            if str(other) in legal:
                continue
            try:
                state.play(other)
            except IllegalAction:
                continue
            raise AssertionError(f"{other} was accepted; legal: {sorted(legal)}")
        assert len(state.log) == before

    play_match(config_of(spec), seed, check)
