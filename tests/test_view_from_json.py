"""Reading a view from JSON (``View.from_json``: how every bot, bridge and outside program is
handed a seat's view): each malformed field is refused with one line that names the field and
quotes what was sent, and every field a host may leave out gets its documented default. (A
mutation run of core/view.py found these promises untested: issue 42.)"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from fives.core.games import Config
from fives.core.state import State
from fives.core.view import View, view_of


def _data() -> dict[str, Any]:
    """Seat 2's view of three-player All Fives, three plays into the round (its turn)."""
    state = State(Config.make("all-fives", 3))
    state.deal_next(random.Random(4))
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    data = view_of(state, state.turn).to_json()
    assert data["seat"] == 2 and len(data["history"]) == 3
    return data


def _with(**changes: Any) -> dict[str, Any]:
    data = _data()
    for key, value in changes.items():
        if value is _GONE:
            data.pop(key)
        else:
            data[key] = value
    return data


_GONE = object()

REFUSED: list[tuple[dict[str, Any], str]] = [
    ({"seat": 3}, "field 'seat' must be a seat from 0 to 2, not 3"),
    ({"seat": -1}, "field 'seat' must be a seat from 0 to 2, not -1"),
    ({"seat": True}, "field 'seat' must be a seat from 0 to 2, not True"),
    ({"seat": "1"}, "field 'seat' must be a seat from 0 to 2, not '1'"),
    ({"hand_sizes": _GONE}, "field 'hand_sizes' must list 3 numbers"),
    ({"hand_sizes": [6, 6]}, "field 'hand_sizes' must list 3 numbers"),
    ({"hand_sizes": "666"}, "field 'hand_sizes' must list 3 numbers"),
    ({"scores": [0, 0]}, "scores must list 3 numbers, not [0, 0]"),
    ({"scores": [0, "x", 0]}, "a score is a number, not 'x'"),
    ({"scores": [0, True, 0]}, "a score is a number, not True"),
    ({"history": [5]}, "a history item is [seat, action], not 5"),
    ({"history": [[0]]}, "a history item is [seat, action], not [0]"),
    ({"history": [[3, "0-0"]]}, "a history item names no seat: [3, '0-0']"),
    ({"history": [[-1, "0-0"]]}, "a history item names no seat: [-1, '0-0']"),
    ({"history": [[True, "0-0"]]}, "a history item names no seat: [True, '0-0']"),
    ({"history": [[0, "0-6@W"]]}, "the round must open with a lead, not 0-6@W"),
    ({"history": [[2, "0-0"], [0, "1-1@W"]]}, "1-1@W does not fit the layout"),
    ({"turn": "2"}, "field 'turn' must be a seat or null, not '2'"),
    ({"turn": True}, "field 'turn' must be a seat or null, not True"),
    ({"legal": "0-1@N"}, "the legal actions are a list"),
    ({"end": "over"}, "field 'end' must be an object or null"),
    ({"end": {"reason": "tired"}}, "field 'reason' must be one of "),
    ({"end": {"reason": "domino", "payment": "cash"}}, "field 'payment' must be one of "),
    ({"end": {"reason": "domino", "points": [0, "x", 0]}}, "a score is a number, not 'x'"),
    ({"round": "1"}, "field 'round' must be a whole number, not '1'"),
    ({"round": False}, "field 'round' must be a whole number, not False"),
    ({"leader": _GONE}, "field 'leader' must be a whole number, not None"),
    ({"stock": 1.5}, "field 'stock' must be a whole number, not 1.5"),
    ({"round_start_scores": [1]}, "scores must list 3 numbers, not [1]"),
]


@pytest.mark.parametrize(("changes", "message"), REFUSED,
                         ids=[f"{'+'.join(c)}-{i}" for i, (c, _) in enumerate(REFUSED)])
def test_a_malformed_view_is_refused_with_the_field_and_what_was_sent(
        changes: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as refused:
        View.from_json(_with(**changes))
    assert str(refused.value).startswith(message), str(refused.value)
    assert "\n" not in str(refused.value)


def test_a_view_that_is_not_an_object_is_refused() -> None:
    raws: list[Any] = [[], "view", None, 3]
    for raw in raws:
        with pytest.raises(ValueError, match=r"^a view is a JSON object$"):
            View.from_json(raw)


def test_every_field_a_host_may_leave_out_gets_its_default() -> None:
    data = _with(hand=_GONE, history=_GONE, legal=_GONE, round=_GONE, stock=_GONE, out=_GONE,
                 round_start_scores=_GONE, over=_GONE, winner=_GONE, layout=_GONE, end=_GONE,
                 scores=_GONE)
    view = View.from_json(data)
    assert view.hand == () and view.history == () and view.legal == ()
    assert (view.round, view.stock, view.over, view.winner, view.end) == (0, 0, False, None, None)
    assert view.scores == (0, 0, 0) and view.round_start_scores == ()
    assert view.out == (False, False, False)  # nothing played: nobody is out
    assert view.layout.count == 0 and view.turn == 2 and view.seat == 2


def test_the_turn_is_the_seat_when_a_host_gives_its_legal_actions_alone() -> None:
    data = _with(turn=None)
    assert View.from_json(data).turn is None
    assert View.from_json(data, ["0-1@N"]).turn == 2
    assert View.from_json(_with(turn=None, seat=None), ["0-1@N"]).turn is None


def test_scores_keep_halves_and_whole_numbers() -> None:
    view = View.from_json(_with(scores=[2.5, 3.0, 7]))
    assert view.scores == (Fraction(5, 2), 3, 7)
    assert isinstance(view.scores[1], int)


def test_an_older_host_without_out_has_the_seats_with_no_tiles_out_once_play_began() -> None:
    assert View.from_json(_with(out=_GONE, hand_sizes=[0, 6, 6])).out == (True, False, False)
    empty = _with(out=_GONE, hand_sizes=[0, 6, 6], history=[], layout=_GONE)
    assert View.from_json(empty).out == (False, False, False)
    assert View.from_json(_with(out=[1, 0, 0])).out == (True, False, False)
    # one tile down is play under way too: a one-tile hand led is out
    lead_only = _with(out=_GONE, hand_sizes=[0, 6, 6], history=[[0, "0-0"]])
    assert View.from_json(lead_only).out == (True, False, False)


def test_a_round_end_read_with_its_defaults() -> None:
    end = View.from_json(_with(end={"reason": "domino"})).end
    assert end is not None and end.reason == "domino"
    assert end.points == (0, 0, 0) and end.pips == () and end.payment == "none"
    assert (end.winner, end.went_out, end.discarded, end.reached) == (None, None, 0, None)
    full = View.from_json(_with(end={"reason": "blocked", "winner": 1, "points": [0, 10, 0],
                                     "pips": [7, 2, 9], "payment": "each", "went_out": None,
                                     "discarded": 5, "reached": 1})).end
    assert full is not None and (full.winner, full.points, full.pips) == (1, (0, 10, 0), (7, 2, 9))
    assert (full.payment, full.discarded, full.reached) == ("each", 5, 1)
    flagged = View.from_json(_with(end={"reason": "domino", "reached": True,
                                        "discarded": None})).end
    assert flagged is not None and flagged.reached is None and flagged.discarded == 0


def _ft_data(history: list[list[Any]], scores: list[int], **fields: Any) -> dict[str, Any]:
    """A two-player Fives and Threes view of seat 0, written by hand as a host would send it."""
    data: dict[str, Any] = {**Config.make("fives-and-threes", 2).header(), "seat": 0, "round": 0,
                            "leader": 0, "hand": [], "hand_sizes": [3, 3], "stock": 0,
                            "scores": scores, "history": history, "turn": None, "legal": []}
    data.update(fields)
    return data


#: 0-3 (3: 1 point), 0-0@W (0 + 0 + 3: 1), 0-1@W (1 + 3: none), 1-1@W (2 + 3: 1)
FT_PLAYS = [[0, "0-3"], [1, "0-0@W"], [0, "0-1@W"], [1, "1-1@W"]]


def test_a_host_without_the_rounds_start_has_past_61_plays_read_backwards_from_the_scores() -> None:
    """FT-10 for a host that sends no round_start_scores: from the scores now, backwards, a
    play that would have to have started below zero scored nothing. Seat 1 has 1 point: its
    last 1-point play counted, its first could not have (0 left before it); seat 0 has none:
    its 1-point lead could not have counted (the point-less play between is passed over)."""
    view = View.from_json(_ft_data(FT_PLAYS, [0, 1]))
    assert [h.points for h in view.history] == [0, 0, 0, 1]
    assert [h.ends for h in view.history] == [3, 3, 4, 5]
    assert [[h.seat, str(h.action)] for h in view.history] == FT_PLAYS  # only the points go
    # with every point accounted for, every play scored as the layout says
    assert [h.points for h in View.from_json(_ft_data(FT_PLAYS, [1, 2])).history] == [1, 1, 0, 1]
    # and with the round's start, the reading goes forwards from it instead
    forwards = View.from_json(_ft_data(FT_PLAYS, [0, 1], round_start_scores=[0, 0]))
    assert [h.points for h in forwards.history] == [1, 1, 0, 1]


def test_the_point_for_going_out_counts_with_the_play_that_ended_the_round() -> None:
    """Seat 0 at 60 goes out with a 1-point play: with the hand's point that is 62, past 61, so
    the play scores nothing (FT-10); read from its own place in the history (its index), not
    from its seat's number."""
    history = [[1, "0-0"], [0, "0-3@W"]]
    data = _ft_data(history, [60, 0], round_start_scores=[60, 0], hand_sizes=[0, 4],
                    end={"reason": "domino", "went_out": 0})
    assert [h.points for h in View.from_json(data).history] == [0, 0]
    # not the end of the round: the 1-point play reaches 61 and counts
    data = _ft_data(history, [61, 0], round_start_scores=[60, 0], hand_sizes=[1, 4])
    assert [h.points for h in View.from_json(data).history] == [0, 1]


def test_a_view_of_a_seat_holds_its_hand_and_its_json_the_house_rules() -> None:
    state = State(Config.make("all-fives", 2, rules={"hand_size": 5, "side_arm_gate": False}))
    state.deal_next(random.Random(9))
    view = view_of(state, 1)
    assert view.hand == tuple(sorted(state.hand(1))) and len(view.hand) == 5
    data = view.to_json()
    assert data["rules"] == {"hand_size": 5, "side_arm_gate": False}
    assert data["hand"] == [str(t) for t in view.hand]
    assert view_of(state, None).hand == ()
    plain = State(Config.make("all-fives", 2))
    plain.deal_next(random.Random(9))
    assert view_of(plain, 0).to_json()["rules"] == {}  # the field is always there


def test_a_layout_read_from_json_follows_the_side_arm_house_rule() -> None:
    """Without the side-arm gate a spinner's side arm may be played at once (SP-3 relaxed); the
    view read from JSON builds its layout by the same rule."""
    config = Config.make("all-fives", 2, rules={"side_arm_gate": False})
    data = {**config.header(), "seat": 0, "leader": 0, "hand_sizes": [8, 8],
            "history": [[0, "5-5"], [1, "2-5@N"]], "turn": 0}
    view = View.from_json(data)
    assert view.layout.count == 2 and [o.name for o in view.layout.open_ends()] == ["W", "E", "N", "S"]
    gated = {**data, "rules": {}}
    with pytest.raises(ValueError, match="2-5@N does not fit the layout"):
        View.from_json(gated)


def test_the_legal_actions_a_host_hands_over_replace_those_in_the_json() -> None:
    data = _data()
    assert len(data["legal"]) > 1
    one = data["legal"][-1]
    assert [str(a) for a in View.from_json(data, [one]).legal] == [one]
    assert [str(a) for a in View.from_json(data).legal] == data["legal"]


def test_a_refused_choice_lists_every_allowed_value() -> None:
    from typing import get_args

    from fives.core.outcome import EndReason

    with pytest.raises(ValueError) as refused:
        View.from_json(_with(end={"reason": "tired"}))
    allowed = ", ".join(get_args(EndReason))
    assert str(refused.value) == f"field 'reason' must be one of {allowed}, not 'tired'"


def test_a_score_between_halves_is_read_as_the_nearest_half() -> None:
    view = View.from_json(_with(scores=[0.3, 10.4, 2]))
    assert view.scores == (Fraction(1, 2), Fraction(21, 2), 2)
