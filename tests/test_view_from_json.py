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
