"""A round's end explained (``fives.core.account``: the one account every interface renders),
checked in process at every round's end of random matches of every game and player count
(issue 42: a mutation run found it reached by no test in the test process; the command line,
the terminal and the browser read it in other processes). What is checked is the rules' words:
who pays whom for which hands, rounded to the nearest five where the game rounds (AF-9, 12 →
10, 13 → 15), how a blocked round was won (fewest pips, then fewest tiles, MG-7), and that the
lines say what the round's end added."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from fives.core.account import account_of
from fives.core.games import Config
from fives.core.outcome import RoundEnd, score_json
from fives.core.state import State
from randommatch import CONFIGS, Spec, config_of, play_match


def _nearest_five(x: int) -> int:
    """AF-9's rounding, written out: to the nearest multiple of five (2½ never happens with
    whole pips: 12 → 10, 13 → 15)."""
    return 5 * ((x + 2) // 5)


def _checker(seen: Counter[str]) -> Callable[[State, int | None], None]:
    """The check of every round's end, counting the kinds of lines met into ``seen``."""
    return lambda state, code: _check(state, code, seen)


def _check(state: State, code: int | None, seen: Counter[str]) -> None:
    end = state.round_end
    if code is None or end is None:
        return
    config = state.config
    acc = account_of(config, end)
    n, sides = config.players, config.sides
    assert acc.reason == end.reason and acc.winner == end.winner
    assert acc.went_out == end.went_out and acc.payment == end.payment
    assert acc.points == tuple(end.points)
    # the hands shown are the ones left, their pips each seat's and each side's sum
    assert len(acc.hands) == n
    if end.left:
        assert all(acc.pips[s] == sum(t.pips for t in acc.hands[s]) for s in range(n))
    for d in range(sides):
        seats = [s for s in range(n) if config.side_of(s) == d]
        assert acc.side_pips[d] == sum(acc.pips[s] for s in seats)
        assert acc.side_tiles[d] == sum(len(acc.hands[s]) for s in seats)
    lines = list(acc.lines)
    kinds = [line.kind for line in lines]
    seen.update(kinds)
    seen.update([f"{pay}-by-{getattr(lines[-1], 'by', '')}" for pay in [end.payment] if lines])
    winner = end.winner
    if end.reason == "blocked" and winner is not None:
        first = lines.pop(0)
        tied = any(acc.side_pips[d] == acc.side_pips[winner] for d in range(sides) if d != winner)
        assert (first.kind, first.side, first.by) == ("lowest", winner, "tiles" if tied else "pips")
        assert (first.pips, first.tiles) == (acc.side_pips[winner], acc.side_tiles[winner])
    if config.game.remaining == "none" and end.payment != "target":
        assert lines.pop().kind == "tiles_never_score"
    payers = tuple(s for s in range(n) if winner is not None and config.side_of(s) != winner)
    paid = tuple(acc.pips[s] for s in payers)
    pay = end.payment
    if pay == "none" or (winner is None and pay in ("pool", "each", "plain", "bonus", "discarded")):
        assert [line.kind for line in lines] == (["no_score"] if pay == "none" else [])
        return
    assert len(lines) == 1, kinds
    line: Any = lines[0]
    assert line.kind == {"pool": "pool", "each": "each", "plain": "plain", "split": "split",
                         "tie": "tie", "bonus": "bonus", "discarded": "discarded",
                         "target": "target"}[pay]
    if pay == "pool":
        assert (line.side, line.seats, line.pips, line.total) == (winner, payers, paid, sum(paid))
        assert line.rounded == _nearest_five(sum(paid)) and line.points == end.points[winner]
    elif pay == "each":
        assert (line.side, line.seats, line.pips) == (winner, payers, paid)
        assert line.rounded == tuple(_nearest_five(p) for p in paid)
        assert line.points == end.points[winner]
    elif pay == "plain":
        assert (line.side, line.seats, line.pips, line.total) == (winner, payers, paid, sum(paid))
        assert line.points == end.points[winner]
    elif pay == "split":
        tied = tuple(d for d in range(sides) if end.points[d])
        third = next(d for d in range(sides) if d not in tied)
        assert line.sides == tied and line.low == acc.side_pips[tied[0]] == acc.side_pips[tied[1]]
        assert (line.third, line.pips) == (third, acc.side_pips[third])
        assert line.rounded == _nearest_five(acc.side_pips[third])
        assert line.half == end.points[tied[0]] == end.points[tied[1]]
        assert 2 * line.half == line.rounded  # AF-11: split in half
    elif pay == "tie":
        if config.game.block_rule == "lowest-pips-then-tiles":
            best = min((acc.side_pips[d], acc.side_tiles[d]) for d in range(sides))
            expect = tuple(d for d in range(sides) if (acc.side_pips[d], acc.side_tiles[d]) == best)
            assert (line.sides, line.by) == (expect, "tiles")
        else:
            low = min(acc.side_pips)
            assert (line.sides, line.by) == (tuple(d for d in range(sides)
                                                   if acc.side_pips[d] == low), "pips")
        assert len(line.sides) >= 2
    elif pay == "bonus":
        assert (line.side, line.points) == (winner, end.points[winner])
    elif pay == "discarded":
        assert (line.side, line.points, line.target) == (winner, end.discarded, config.target)
    elif pay == "target":
        reached = end.reached if end.reached is not None else winner
        assert (line.side, line.target) == (reached if reached is not None else 0, config.target)
    data = acc.to_json()
    assert data["tiles"] == [len(h) for h in acc.hands]
    assert data["hands"] == [[str(t) for t in h] for h in acc.hands]
    assert data["points"] == [score_json(p) for p in acc.points]
    assert [entry["kind"] for entry in data["lines"]] == kinds
    assert data["pips"] == list(acc.pips) and data["side_pips"] == list(acc.side_pips)
    assert (data["reason"], data["winner"], data["payment"]) == (acc.reason, winner, pay)
    assert data["went_out"] == acc.went_out and data["side_tiles"] == list(acc.side_tiles)


@pytest.mark.parametrize("spec", CONFIGS, ids=lambda s: f"{s[0]}-{s[1]}-{s[2]}-{bool(s[3])}")
def test_every_rounds_end_is_explained_by_the_rules(spec: Spec) -> None:
    seen: Counter[str] = Counter()
    for seed in range(6):
        play_match(config_of(spec), seed=seed * 7 + spec[1], check=_checker(seen), max_rounds=8)


def _until(spec: Spec, kind: str, seeds: int = 400) -> Counter[str]:
    """Matches of ``spec`` until a line of ``kind`` is met (every end checked on the way)."""
    seen: Counter[str] = Counter()
    for seed in range(seeds):
        play_match(config_of(spec), seed=seed, check=_checker(seen), max_rounds=8)
        if seen[kind]:
            break
    return seen


def test_the_matches_meet_every_kind_of_round_end() -> None:
    seen: Counter[str] = Counter()
    for spec in CONFIGS:
        for seed in range(6):
            play_match(config_of(spec), seed=seed * 7 + spec[1], check=_checker(seen),
                       max_rounds=8)
    assert {"lowest", "pool", "each", "plain", "tie", "target", "bonus", "no_score",
            "tiles_never_score"} <= set(seen), seen


def test_two_players_tied_for_the_fewest_pips_split_the_third_ones_rounded() -> None:
    """AF-11, met in three-player All Fives with every tile dealt (blocked rounds are many)."""
    assert _until(("all-fives", 3, None, {"hand_size": 9}), "split")["split"]


def test_a_blocked_round_tied_on_pips_is_a_tie_by_pips() -> None:
    """All Fives decides a block by pips alone: equal pips tie (Muggins, Draw and Block go on
    to tiles, MG-7, met in the matches above); met in four-player All Fives, every tile dealt."""
    assert _until(("all-fives", 4, None, {"hand_size": 7}), "tie-by-pips")["tie-by-pips"]


def test_a_last_play_past_61_is_explained_as_discarded() -> None:
    """FT-10 (rare at random): seat 0 went out, but its last play and the point for it would
    pass 61, so both are discarded: the account says so, with the points and the target."""
    config = Config.make("fives-and-threes", 2)
    end = RoundEnd("domino", 0, (0, 0), (0, 7), "discarded", 0, discarded=3)
    acc = account_of(config, end)
    # (Fives and Threes never scores the hands left: the account says that too)
    assert [line.kind for line in acc.lines] == ["discarded", "tiles_never_score"]
    line: Any = acc.lines[0]
    assert (line.side, line.points, line.target) == (0, 3, 61)
    assert acc.to_json()["lines"][0] == {"side": 0, "points": 3, "target": 61, "kind": "discarded"}


def test_a_round_that_reaches_the_target_names_the_side_that_reached_it() -> None:
    """AF-3: the side that reached the target (told by the end, else its winner, else side 0
    for an end that names neither), and the target; every line's JSON is its fields, tuples as
    lists."""
    config = Config.make("all-fives", 2)
    told = account_of(config, RoundEnd("domino", 0, (10, 0), (0, 9), "target", 0, reached=1))
    assert (told.lines[0].kind, told.lines[0].side) == ("target", 1)
    by_winner = account_of(config, RoundEnd("domino", 1, (0, 10), (9, 0), "target", 1))
    assert by_winner.lines[0].side == 1
    nobody = account_of(config, RoundEnd("blocked", None, (0, 0), (9, 9), "target", None))
    assert nobody.lines[0].side == 0
    assert by_winner.to_json()["lines"] == [{"side": 1, "target": 250, "kind": "target"}]
    pool = account_of(Config.make("all-fives", 3),
                      RoundEnd("domino", 0, (15, 0, 0), (0, 6, 7), "pool", 0))
    assert pool.to_json()["lines"] == [{"side": 0, "seats": [1, 2], "pips": [6, 7], "total": 13,
                                        "rounded": 15, "points": 15, "kind": "pool"}]
