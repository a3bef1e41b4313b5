"""Arenas and duplicate Swiss (issue 30): their scoring, pairing and standings, as stated in
``fives.contests`` — checked on small cases worked by hand, and on whole simulated events
against the promises (no rematch, never the same opponent twice in a row, a bye each at most,
the standings equal to ones computed here from the stored results)."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations

import pytest

from fives.contests import (
    ArenaResult,
    Board,
    Bye,
    Outcome,
    SwissMatch,
    arena_points,
    arena_standings,
    outcomes_of_places,
    pair_arena,
    swiss_pairing,
    swiss_standings,
)

W, D, L = Outcome.WIN, Outcome.DRAW, Outcome.LOSS


# -- arena ---------------------------------------------------------------------------------------


def test_two_wins_in_a_row_double_the_next_games_points_until_one_is_not_won() -> None:
    assert arena_points([W, W, W, W]) == ([2, 2, 4, 4], True)
    assert arena_points([W, W, D, W, W]) == ([2, 2, 2, 2, 2], True)  # the draw on fire: 2
    assert arena_points([W, W, L, W]) == ([2, 2, 0, 2], False)
    assert arena_points([D, D, W]) == ([1, 1, 2], False)
    assert arena_points([]) == ([], False)


def test_a_match_of_several_is_won_by_the_sole_first_and_drawn_by_a_shared_first() -> None:
    assert outcomes_of_places([1, 2, 3]) == [W, L, L]
    assert outcomes_of_places([2, 1, 2, 1]) == [L, D, L, D]  # two partnerships level
    assert outcomes_of_places([1]) == [W]


def test_arena_standings_rank_by_points_then_wins_then_fewer_games() -> None:
    results = [
        ArenaResult(("a", "b"), (W, L), 1), ArenaResult(("c", "d"), (D, D), 2),
        ArenaResult(("a", "c"), (W, L), 3), ArenaResult(("b", "d"), (W, L), 4),
        ArenaResult(("a", "d"), (W, L), 5), ArenaResult(("e", "b"), (L, W), 6),
    ]
    table = {s.player: s for s in arena_standings(["a", "b", "c", "d", "e"], results)}
    assert table["a"].games == [2, 2, 4] and table["a"].points == 8 and table["a"].on_streak
    assert table["b"].games == [0, 2, 2] and table["b"].on_streak
    assert table["c"].games == [1, 0] and table["d"].games == [1, 0, 0]
    assert [s.player for s in arena_standings(["a", "b", "c", "d", "e"], results)] == [
        "a", "b", "c", "d", "e"]
    assert (table["a"].rank, table["b"].rank, table["c"].rank, table["d"].rank) == (1, 2, 3, 4)
    assert table["e"].rank == 5 and table["e"].points == 0


def test_equal_standings_share_a_rank() -> None:
    results = [ArenaResult(("a", "b"), (D, D), 1)]
    assert [s.rank for s in arena_standings(["a", "b"], results)] == [1, 1]


def test_a_result_names_each_player_once() -> None:
    with pytest.raises(ValueError):
        ArenaResult(("a", "a"), (W, L), 1)
    with pytest.raises(ValueError):
        ArenaResult(("a", "b"), (W,), 1)


def test_the_arena_pairs_the_nearest_by_points_and_lets_a_misfit_wait() -> None:
    points = {"a": 10, "b": 9, "c": 5, "d": 4, "e": 0}
    assert pair_arena(["e", "d", "c", "b", "a"], points, {}) == [("a", "b"), ("c", "d")]
    # a and b just met: a takes the nearest other, b the next
    last = {"a": {"b"}, "b": {"a"}}
    assert pair_arena(["a", "b", "c", "d"], points, last) == [("a", "c"), ("b", "d")]
    # three or four at a table
    assert pair_arena(list(points), points, {}, size=3) == [("a", "b", "c")]
    assert pair_arena(["a", "b"], points, {"a": {"b"}, "b": {"a"}}) == []


@pytest.mark.parametrize("size", [2, 3, 4])
def test_bots_in_an_arena_are_never_grouped_without_a_person(size: int) -> None:
    rng = random.Random(size)
    bots = {f"bot{i}" for i in range(4)}
    people = {f"p{i}" for i in range(3)}
    seated_people = 0
    for _ in range(200):
        free = [n for n in sorted(bots | people) if rng.random() < 0.7]
        points = {n: rng.randint(0, 12) for n in free}
        for group in pair_arena(free, points, {}, size=size, people=people):
            assert people & set(group), group
            seated_people += 1
    assert seated_people > 100  # people were seated, with the bots
    # two bots and a person: the person is seated with a bot whatever the points say
    assert pair_arena(["bot0", "bot1", "p0"], {"bot0": 9, "bot1": 9, "p0": 0}, {},
                      people={"p0"}) == [("bot0", "p0")]


@pytest.mark.parametrize(("size", "players"), [(2, 6), (2, 7), (3, 7), (4, 9)])
def test_a_simulated_arena_never_pairs_last_opponents_and_its_standings_add_up(
        size: int, players: int) -> None:
    rng = random.Random(size * 100 + players)
    names = [f"p{i}" for i in range(players)]
    results: list[ArenaResult] = []
    last: dict[str, set[str]] = {}
    clock = 0.0
    for _ in range(30):
        free = [n for n in names if rng.random() < 0.8]  # some are still at a table, or paused
        points = {s.player: s.points for s in arena_standings(names, results)}
        groups = pair_arena(free, points, last, size=size)
        placed = [p for g in groups for p in g]
        assert len(placed) == len(set(placed)) and set(placed) <= set(free)
        for group in groups:
            assert len(group) == size
            for a, b in combinations(group, 2):
                assert b not in last.get(a, set()), (a, b)
            places = [rng.randint(1, size) for _ in group]
            clock += 1
            results.append(ArenaResult(group, tuple(outcomes_of_places(places)), clock))
            for p in group:
                last[p] = set(group) - {p}
    table = arena_standings(names, results)
    # the standings are the sum of each player's games, recomputed here from the results
    for line in table:
        mine = [r.outcomes[r.players.index(line.player)] for r in results
                if line.player in r.players]
        run, total = 0, 0
        for outcome in mine:
            base = {W: 2, D: 1, L: 0}[outcome]
            total += base * (2 if run >= 2 else 1)
            run = run + 1 if outcome is W else 0
        assert line.points == total and len(line.games) == len(mine)
    assert [s.points for s in table] == sorted((s.points for s in table), reverse=True)


# -- duplicate Swiss ----------------------------------------------------------------------------


def _play_round(rnd: int, pairs: tuple[tuple[str, str], ...], strength: dict[str, int],
                rng: random.Random, boards: int = 3) -> list[SwissMatch]:
    """Every table plays the same boards: each board's luck (the same for every table's seat
    0) plus the difference in strength, plus noise."""
    luck = [rng.randint(-20, 20) for _ in range(boards)]
    out = []
    for first, second in pairs:
        played = tuple(Board(b, luck[b] + strength[first] - strength[second] + rng.randint(-5, 5))
                       for b in range(boards))
        total = sum(b.margin for b in played)
        score = Fraction(1) if total > 0 else Fraction(1, 2) if total == 0 else Fraction(0)
        out.append(SwissMatch(rnd, first, second, played, score))
    return out


def _recomputed(entrants: list[str], matches: list[SwissMatch], byes: list[Bye]) -> dict[str, tuple]:
    """The standings' numbers recomputed directly (for the promise: standings equal those a
    test computes from the stored results)."""
    pts = {e: Fraction(0) for e in entrants}
    opp: dict[str, list[str]] = {e: [] for e in entrants}
    for m in matches:
        assert m.score is not None
        pts[m.first] += m.score
        pts[m.second] += 1 - m.score
        opp[m.first].append(m.second)
        opp[m.second].append(m.first)
    for b in byes:
        pts[b.entrant] += 1
    margin = {e: Fraction(0) for e in entrants}
    for m in matches:
        for b in m.boards:
            same = [x.margin for o in matches if o.round == m.round for x in o.boards
                    if x.board == b.board]
            par = Fraction(sum(same), len(same))
            margin[m.first] += b.margin - par
            margin[m.second] -= b.margin - par
    return {e: (pts[e], sum((pts[o] for o in opp[e]), Fraction(0)), margin[e]) for e in entrants}


@pytest.mark.parametrize("count", [8, 7, 6])
def test_a_three_round_duplicate_swiss_has_no_rematch_and_its_standings_add_up(count: int) -> None:
    rng = random.Random(count)
    entrants = [f"e{i}" for i in range(count)]
    strength = {e: rng.randint(-4, 4) for e in entrants}
    matches: list[SwissMatch] = []
    byes: list[Bye] = []
    for rnd in range(3):
        table = swiss_standings(entrants, matches, byes)
        pairing = swiss_pairing(table)
        seated = [p for pair in pairing.pairs for p in pair] + ([pairing.bye] if pairing.bye else [])
        assert sorted(seated) == sorted(entrants)  # everyone plays or has the bye
        assert (pairing.bye is None) == (count % 2 == 0)
        met = {frozenset((m.first, m.second)) for m in matches}
        assert not any(frozenset(p) in met for p in pairing.pairs)
        # the better-ranked sits in seat 0
        rank = {s.entrant: s.rank for s in table}
        assert all(rank[a] <= rank[b] for a, b in pairing.pairs)
        matches += _play_round(rnd, pairing.pairs, strength, rng)
        if pairing.bye:
            assert all(b.entrant != pairing.bye for b in byes)  # a bye once at most
            byes.append(Bye(rnd, pairing.bye))
        after = swiss_standings(entrants, matches, byes)
        expect = _recomputed(entrants, matches, byes)
        for line in after:
            assert (line.points, line.buchholz, line.margin) == expect[line.entrant]
        keys = [(-x.points, -x.buchholz, -x.margin, x.entrant) for x in after]
        assert keys == sorted(keys)
    assert sum(line.points for line in swiss_standings(entrants, matches, byes)) == (
        len(matches) + len(byes))


def test_the_duplicate_margin_takes_the_deals_luck_out() -> None:
    """Two tables play board 0: seat 0 wins it by 30 and by 10 (a lucky deal for seat 0). The
    margin against the same board's mean: +10 and −10 for the seat-0 entrants, the reverse for
    their opponents; a board every table played alike gives nobody anything."""
    matches = [SwissMatch(0, "a", "b", (Board(0, 30), Board(1, 5)), Fraction(1)),
               SwissMatch(0, "c", "d", (Board(0, 10), Board(1, 5)), Fraction(1))]
    lines = {s.entrant: s for s in swiss_standings(["a", "b", "c", "d"], matches)}
    assert (lines["a"].margin, lines["b"].margin) == (10, -10)
    assert (lines["c"].margin, lines["d"].margin) == (-10, 10)
    # a and c have the same points and the same Buchholz: the margin ranks a above c
    assert lines["a"].rank < lines["c"].rank


def test_pairing_backtracks_to_avoid_a_rematch_and_says_when_none_is_left() -> None:
    """a and b lead, c and d have met: top-down pairing would give a-b and then the rematch
    c-d; a-c and b-d instead."""
    matches = [SwissMatch(0, "c", "d", (), Fraction(1, 2))]
    table = swiss_standings(["a", "b", "c", "d"], matches, [Bye(0, "a"), Bye(0, "b")])
    assert [s.entrant for s in table] == ["a", "b", "c", "d"]
    assert swiss_pairing(table).pairs == (("a", "c"), ("b", "d"))
    everyone_met = [SwissMatch(0, "a", "b", (), Fraction(1)), SwissMatch(1, "a", "c", (), Fraction(1)),
                    SwissMatch(2, "a", "d", (), Fraction(1)), SwissMatch(0, "c", "d", (), Fraction(1)),
                    SwissMatch(1, "b", "d", (), Fraction(1)), SwissMatch(2, "b", "c", (), Fraction(1))]
    with pytest.raises(ValueError):
        swiss_pairing(swiss_standings(["a", "b", "c", "d"], everyone_met))


def test_the_bye_goes_to_the_lowest_ranked_who_has_not_had_one() -> None:
    matches = [SwissMatch(0, "a", "b", (), Fraction(1))]
    byes = [Bye(0, "c")]
    table = swiss_standings(["a", "b", "c"], matches, byes)
    # c has 1 (the bye), a 1, b 0: b is last and has had no bye
    assert swiss_pairing(table).bye == "b"
    table = swiss_standings(["a", "b", "c"], matches, [Bye(0, "c"), Bye(1, "b")])
    assert swiss_pairing(table).bye == "a"
