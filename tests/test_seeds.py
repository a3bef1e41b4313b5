"""Every worked example of the three seeds (shared/seeds/*.txt), as tests.

* 000 (All Fives): the layout diagrams, each with its counted contributions ("गिने गए योगदान"),
  its points ("गोटी रखने पर मिले अंक") and its legal attach points ("वैध विस्तार के जोड़-स्थान").
* 001 (Fives and Threes): the same diagrams, scored in game points.
* 003 (Muggins, Dominos.cc): the four scoring examples of lines 25-28 and the 5-5 lead of line 11.

Contributions are compared as multisets: the seeds list them by tile, the engine by end.
"""

from __future__ import annotations

import re

import pytest

from fives.core.games import Config
from fives.core.layout import Layout
from fives.core.state import State
from fives.core.tiles import Tile, round_to_five
from recordkit import rec, report, rnd

# ----------------------------------------------------------------------------------------------
# helpers


def _layout(actions: list[str], spinner: bool = True) -> Layout:
    lay = Layout(spinner_rules=spinner)
    for a in actions:
        lay.place_text(a)
    return lay


def _contribs(lay: Layout) -> list[tuple[str, int]]:
    return sorted((str(c.tile), c.counted) for c in lay.contributions())


def _open(lay: Layout) -> dict[str, int]:
    return {o.name: o.value for o in lay.open_ends()}


def _sentence_terms(sentence: str) -> tuple[list[int], int]:
    m = re.fullmatch(r"(\d+(?: \+ \d+)*) = (\d+)", sentence)
    assert m, sentence
    return sorted(int(x) for x in m.group(1).split(" + ")), int(m.group(2))


def _check_explain(lay: Layout, contribs: list[tuple[str, int]], open_ends: dict[str, int]) -> None:
    ex = lay.explain()
    assert sorted((c["tile"], c["counted"]) for c in ex["contributions"]) == sorted(contribs)
    assert {o["end"]: o["value"] for o in ex["open_ends"]} == open_ends
    assert ex["ends_total"] == sum(c for _, c in contribs)


# ----------------------------------------------------------------------------------------------
# Seed 000: All Fives, the spinner diagram sequence

#: (action, contributions as the seed lists them, ends total, AF points, FT game points,
#:  legal attach points {end: value})
SPINNER_SEQUENCE = [
    ("1-4", [("1-4", 1), ("1-4", 4)], 5, 5, 1, {"W": 1, "E": 4}),
    ("1-1@W", [("1-1", 2), ("1-4", 4)], 6, 0, 2, {"W": 1, "E": 4}),
    ("4-4@E", [("1-1", 2), ("4-4", 8)], 10, 10, 2, {"W": 1, "E": 4}),
    ("3-4@E", [("1-1", 2), ("3-4", 3)], 5, 5, 1, {"W": 1, "E": 3}),
    ("1-2@W", [("1-2", 2), ("3-4", 3)], 5, 5, None, {"W": 2, "E": 3, "N": 1, "S": 1}),
    ("1-5@N", [("1-2", 2), ("1-5", 5), ("3-4", 3)], 10, 10, None,
     {"W": 2, "E": 3, "N": 5, "S": 1}),
    ("5-5@N", [("1-2", 2), ("5-5", 10), ("3-4", 3)], 15, 15, None,
     {"W": 2, "E": 3, "N": 5, "S": 1}),
    ("0-5@N", [("0-5", 0), ("1-2", 2), ("3-4", 3)], 5, 5, None,
     {"W": 2, "E": 3, "N": 0, "S": 1}),
    ("1-3@S", [("0-5", 0), ("1-2", 2), ("1-3", 3), ("3-4", 3)], 8, 0, None,
     {"W": 2, "E": 3, "N": 0, "S": 3}),
]

_STEPS = list(range(len(SPINNER_SEQUENCE)))
_IDS = [SPINNER_SEQUENCE[i][0] for i in _STEPS]


@pytest.mark.parametrize("step", _STEPS, ids=_IDS)
def test_seed000_spinner_sequence_contributions_and_sentence(step: int) -> None:
    """Seed 000: after each placement the counted contributions are those of the diagram."""
    actions = [s[0] for s in SPINNER_SEQUENCE[: step + 1]]
    _, contribs, total, _, _, _ = SPINNER_SEQUENCE[step]
    lay = _layout(actions)
    assert lay.ends_total() == total
    assert _contribs(lay) == sorted(contribs)
    terms, shown_total = _sentence_terms(lay.sentence())
    assert terms == sorted(c for _, c in contribs)
    assert shown_total == total


@pytest.mark.parametrize("step", _STEPS, ids=_IDS)
def test_seed000_spinner_sequence_ends_total_and_attach_points(step: int) -> None:
    """Seed 000: ends totals and the legal attach points of every diagram (SP-3: N and S only
    once both straight arms hold a tile, i.e. from 1-2@W on)."""
    actions = [s[0] for s in SPINNER_SEQUENCE[: step + 1]]
    _, _, total, _, _, open_ends = SPINNER_SEQUENCE[step]
    lay = _layout(actions)
    assert lay.ends_total() == total
    assert _open(lay) == open_ends
    assert lay.side_arms_open() == ("N" in open_ends)
    assert lay.spinner_tile == (Tile.parse("1-1") if step >= 1 else None)


def test_seed000_explain_matches_the_diagrams_once_the_spinner_is_down() -> None:
    """Layout.explain() carries the same contributions and attach points as the diagrams."""
    for step in range(1, len(SPINNER_SEQUENCE)):
        actions = [s[0] for s in SPINNER_SEQUENCE[: step + 1]]
        _, contribs, _, _, _, open_ends = SPINNER_SEQUENCE[step]
        _check_explain(_layout(actions), contribs, open_ends)
    final = _layout([s[0] for s in SPINNER_SEQUENCE]).explain()
    assert final["spinner"] == "1-1"
    assert sorted(final["tiles"]) == sorted(
        str(Tile.parse(s[0].split("@")[0])) for s in SPINNER_SEQUENCE
    )


def test_seed000_side_arms_are_not_legal_before_1_2_at_W() -> None:
    """Seed 000 / SP-3: after 3-4@E the W straight arm is still empty: no N/S attach point,
    and a play on N is refused; after 1-2@W both N and S are legal (showing 1)."""
    lay = _layout(["1-4", "1-1@W", "4-4@E", "3-4@E"])
    with pytest.raises(ValueError):
        lay.place_text("1-5@N")
    with pytest.raises(ValueError):
        lay.place_text("1-5@S")
    lay.place_text("1-2@W")
    assert _open(lay)["N"] == 1 and _open(lay)["S"] == 1
    assert lay.fits(Tile.parse("1-5").id, 2) and lay.fits(Tile.parse("1-5").id, 3)


def _af_seed_record() -> dict:
    hands = [
        ["1-4", "4-4", "1-2", "5-5", "1-3", "0-0", "0-1", "0-2", "0-3"],
        ["1-1", "3-4", "1-5", "0-5", "0-4", "0-6", "1-6", "2-2", "2-3"],
    ]
    return rec("all-fives", 2, rnd(hands, [s[0] for s in SPINNER_SEQUENCE]))


def test_seed000_spinner_sequence_points_in_a_replayed_record() -> None:
    """Seed 000: the points of each placement (10 for 4-4@E, 0 for 1-3@S, ...) as replayed."""
    rep = report(_af_seed_record())
    got = [(e["action"], e["ends"], e["points"]) for e in rep["rounds"][0]["events"]]
    assert got == [(a, total, pts) for a, _, total, pts, _, _ in SPINNER_SEQUENCE]
    assert rep["scores"] == [5 + 10 + 5 + 15, 0 + 5 + 10 + 5]


@pytest.mark.parametrize(
    ("actions", "contribs", "total", "open_ends"),
    [
        (["2-2"], [("2-2", 4)], 4, {"W": 2, "E": 2}),
        (["0-0"], [("0-0", 0)], 0, {"W": 0, "E": 0}),
        (["3-6", "6-6@E"], [("3-6", 3), ("6-6", 12)], 15, {"W": 3, "E": 6}),
        (["1-4", "1-1@W"], [("1-1", 2), ("1-4", 4)], 6, {"W": 1, "E": 4}),
    ],
    ids=["lone-2-2", "lone-0-0", "3-6-then-6-6", "1-4-then-1-1"],
)
def test_seed000_small_diagrams(
    actions: list[str], contribs: list[tuple[str, int]], total: int, open_ends: dict[str, int]
) -> None:
    """Seed 000: lone 2-2 = 4, lone 0-0 = 0 (both spinners, attach points W and E only),
    3-6 then 6-6 = 3 + 12 = 15, 1-4 then 1-1 = 2 + 4 = 6."""
    lay = _layout(actions)
    assert lay.ends_total() == total
    assert _contribs(lay) == sorted(contribs)
    assert _sentence_terms(lay.sentence()) == (sorted(c for _, c in contribs), total)
    assert _open(lay) == open_ends
    _check_explain(lay, contribs, open_ends)


def test_seed000_lone_1_4_counts_5() -> None:
    """Seed 000: 1-4 alone: ends total 5, 5 points; both halves are attach points."""
    lay = _layout(["1-4"])
    assert lay.ends_total() == 5
    assert _open(lay) == {"W": 1, "E": 4}
    assert _sentence_terms(lay.sentence())[1] == 5


@pytest.mark.parametrize(
    ("lead", "total", "points"),
    [("2-2", 4, 0), ("0-0", 0, 0), ("1-4", 5, 5), ("5-5", 10, 10)],
)
def test_seed000_lone_leads_score_as_plays(lead: str, total: int, points: int) -> None:
    """Seed 000: the lead scores like any play: 2-2 -> 4 -> 0, 0-0 -> 0 -> 0, 1-4 -> 5."""
    hands = [[lead], ["6-6"]]
    rep = report(rec("all-fives", 2, rnd(hands, [lead]), rules={"hand_size": 1}))
    ev = rep["rounds"][0]["events"][0]
    assert (ev["ends"], ev["points"]) == (total, points)


def test_seed000_3_6_then_6_6_scores_15_points() -> None:
    """Seed 000: 3-6 led, 6-6 on its 6 becomes the spinner: 3 + 12 = 15 -> 15 points."""
    hands = [["3-6", "0-1"], ["6-6", "0-2"]]
    rep = report(rec("all-fives", 2, rnd(hands, ["3-6", "6-6@E"]), rules={"hand_size": 2}))
    got = [(e["ends"], e["points"]) for e in rep["rounds"][0]["events"]]
    assert got == [(9, 0), (15, 15)]


# ----------------------------------------------------------------------------------------------
# Seed 001: Fives and Threes, the same diagrams in game points


def test_seed001_line_sequence_game_points() -> None:
    """Seed 001: 1-4 -> 5 -> 1, 1-1 -> 6 -> 2, 4-4 -> 10 -> 2, 3-4 -> 5 -> 1 (no spinner)."""
    hands = [
        ["1-4", "4-4", "1-2", "0-0", "0-1", "0-2", "0-3"],
        ["1-1", "3-4", "0-4", "0-6", "1-6", "2-2", "2-3"],
    ]
    actions = ["1-4", "1-1@W", "4-4@E", "3-4@E"]
    rep = report(rec("fives-and-threes", 2, rnd(hands, actions)))
    got = [(e["action"], e["ends"], e["points"]) for e in rep["rounds"][0]["events"]]
    assert got == [("1-4", 5, 1), ("1-1@W", 6, 2), ("4-4@E", 10, 2), ("3-4@E", 5, 1)]
    assert rep["scores"] == [1 + 2, 2 + 1]


@pytest.mark.parametrize(
    ("actions", "contribs", "total", "open_ends"),
    [
        (["1-4", "1-1@W", "4-4@E"], [("1-1", 2), ("4-4", 8)], 10, {"W": 1, "E": 4}),
        (["1-4", "1-1@W", "4-4@E", "3-4@E"], [("1-1", 2), ("3-4", 3)], 5, {"W": 1, "E": 3}),
        (["2-2"], [("2-2", 4)], 4, {"W": 2, "E": 2}),
        (["1-4", "1-1@W"], [("1-1", 2), ("1-4", 4)], 6, {"W": 1, "E": 4}),
        (["3-6", "6-6@E"], [("3-6", 3), ("6-6", 12)], 15, {"W": 3, "E": 6}),
        (["0-0"], [("0-0", 0)], 0, {"W": 0, "E": 0}),
    ],
    ids=["4-4", "3-4", "lone-2-2", "1-1", "6-6", "lone-0-0"],
)
def test_seed001_line_diagrams(
    actions: list[str], contribs: list[tuple[str, int]], total: int, open_ends: dict[str, int]
) -> None:
    """Seed 001: the same diagrams as a line (doubles never branch): contributions, totals and
    exactly two attach points."""
    lay = _layout(actions, spinner=False)
    assert lay.spinner_tile is None
    assert lay.ends_total() == total
    assert _contribs(lay) == sorted(contribs)
    assert _open(lay) == open_ends
    _check_explain(lay, contribs, open_ends)


def test_seed001_lone_1_4_is_counted_as_two_ends_4_plus_1() -> None:
    """Seed 001: the lone 1-4 diagram: contributions 4 and 1, total 5."""
    lay = _layout(["1-4"], spinner=False)
    assert _contribs(lay) == [("1-4", 1), ("1-4", 4)]
    assert _sentence_terms(lay.sentence()) == ([1, 4], 5)


@pytest.mark.parametrize(
    ("total", "points"),
    [(10, 2), (5, 1), (6, 2), (15, 8), (4, 0), (0, 0), (3, 1), (9, 3), (12, 4), (18, 6),
     (20, 4)],
)
def test_seed001_totals_to_game_points(total: int, points: int) -> None:
    """Seed 001: 10 -> 2, 5 -> 1, 6 -> 2, 15 -> 8 (5 + 3), 4 -> 0, 0 -> 0, and the table."""
    cfg = Config.make("fives-and-threes", 2)
    assert cfg.game.play_points[total] == points


@pytest.mark.parametrize(
    ("hands", "actions", "expected"),
    [
        ([["2-2"], ["0-1"]], ["2-2"], [(4, 0)]),
        ([["0-0"], ["1-2"]], ["0-0"], [(0, 0)]),
        ([["1-4"], ["0-2"]], ["1-4"], [(5, 1)]),
        ([["3-6", "0-1"], ["6-6", "0-2"]], ["3-6", "6-6@E"], [(9, 3), (15, 8)]),
    ],
    ids=["2-2", "0-0", "1-4", "3-6+6-6"],
)
def test_seed001_small_diagrams_game_points(
    hands: list[list[str]], actions: list[str], expected: list[tuple[int, int]]
) -> None:
    """Seed 001: lone 2-2 -> 0, lone 0-0 -> 0, lone 1-4 -> 1, 3-6 then 6-6 -> 15 -> 8."""
    data = rec("fives-and-threes", 2, rnd(hands, actions), rules={"hand_size": len(hands[0])})
    got = [(e["ends"], e["points"]) for e in report(data)["rounds"][0]["events"]]
    assert got == expected


# ----------------------------------------------------------------------------------------------
# Seed 003: Muggins (Dominos.cc), lines 25-28 and line 11


def test_seed003_line25_ends_5_and_3_play_3_0_scores_5() -> None:
    """Seed 003 line 25: ends 5 and 3; 3-0 on the 3 leaves 5 and 0: 5 points."""
    hands = [["3-5", "0-1"], ["0-3", "1-2"]]
    data = rec("muggins", 2, rnd(hands, ["3-5", "0-3@W"]), rules={"hand_size": 2})
    ev = report(data)["rounds"][0]["events"]
    assert (ev[0]["ends"], ev[0]["points"]) == (8, 0)
    assert (ev[1]["seat"], ev[1]["ends"], ev[1]["points"]) == (1, 5, 5)


def test_seed003_line26_ends_6_and_1_play_1_4_scores_10() -> None:
    """Seed 003 line 26: ends 6 and 1; 1-4 on the 1 leaves 6 and 4: 10 points."""
    hands = [["1-6", "0-1"], ["1-4", "0-2"]]
    data = rec("muggins", 2, rnd(hands, ["1-6", "1-4@W"]), rules={"hand_size": 2})
    ev = report(data)["rounds"][0]["events"]
    assert (ev[1]["ends"], ev[1]["points"]) == (10, 10)


def test_seed003_line27_ends_4_and_3_play_double_3_3_scores_10() -> None:
    """Seed 003 line 27: ends 4 and 3; the double 3-3 on the 3 counts both halves: 6 + 4 = 10.

    The 3-3 is drawn (no dealt double, so 3-4 is the heaviest tile and leads: MG-3), and as the
    first double it is the spinner, still an outer end (SP-4)."""
    hands = [["3-4", "0-1"], ["0-2", "1-2"]]
    data = rec(
        "muggins", 2, rnd(hands, ["3-4", "draw", "3-3@W"], stock=["3-3"]),
        rules={"hand_size": 2},
    )
    ev = report(data)["rounds"][0]["events"]
    assert ev[1] == {"seat": 1, "action": "draw", "tile": "3-3"}
    assert (ev[2]["ends"], ev[2]["points"]) == (10, 10)
    lay = _layout(["3-4", "3-3@W"], spinner=False)
    assert lay.ends_total() == 10


def test_seed003_line27_with_an_ordinary_double_beside_a_spinner() -> None:
    """Seed 003 line 27 with 3-3 as an ordinary crosswise double (a 6-6 spinner came first):
    counted ends 4 and 3 (the unopened side arms count 0), 3-3 on the 3: 4 + 6 = 10."""
    lay = _layout(["6-6", "4-6@W", "3-6@E"])
    assert lay.ends_total() == 4 + 3
    assert lay.place_text("3-3@E") == 10
    assert lay.spinner_tile == Tile.parse("6-6")


def test_seed003_line28_ends_6_and_2_play_2_5_scores_nothing() -> None:
    """Seed 003 line 28: ends 6 and 2; 2-5 on the 2 leaves 6 and 5 = 11: no points."""
    hands = [["2-6", "0-1"], ["2-5", "0-3"]]
    data = rec("muggins", 2, rnd(hands, ["2-6", "2-5@W"]), rules={"hand_size": 2})
    ev = report(data)["rounds"][0]["events"]
    assert (ev[1]["ends"], ev[1]["points"]) == (11, 0)


def test_seed003_line11_lead_5_5_scores_10() -> None:
    """Seed 003 line 11: the highest double leads, and a 5-5 lead scores 10 at once."""
    hands = [["5-5", "0-1"], ["4-4", "0-2"]]
    rep = report(rec("muggins", 2, rnd(hands, ["5-5"]), rules={"hand_size": 2}))
    ev = rep["rounds"][0]["events"][0]
    assert (ev["seat"], ev["ends"], ev["points"]) == (0, 10, 10)
    assert rep["scores"] == [10, 0]


def test_seed003_line36_each_opponent_rounded_13_to_15_and_12_to_10() -> None:
    """Seed 003 line 36: 13 pips count 15 and 12 pips count 10 (C-10)."""
    assert round_to_five(13) == 15
    assert round_to_five(12) == 10
    st = State(Config.make("muggins", 2))
    assert st.config.target == 150
