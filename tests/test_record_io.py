"""Records read and written in process (RECORD.md): every game's record survives a round trip
through its JSON text, and every refusal of a malformed record names its reason's key, the
values it quotes and where it is, as the one-line error of ``fives replay`` prints them.

The command line's tests see the same through a subprocess; these see it where a mutation run
(issue 42) can: ``record_of``, ``to_data``, ``to_json`` and each refusal of ``from_json``,
``from_data`` and ``replay_state`` called directly.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from fives.core.record import Record, RecordError, record_of, replay, replay_state, report_of
from fives.core.tiles import Action
from randommatch import CONFIGS, Spec, config_of, play_match
from recordkit import rec, rnd

AF_HANDS = [
    ["1-4", "4-4", "1-2", "5-5", "1-3", "0-0", "0-1", "0-2", "0-3"],
    ["1-1", "3-4", "1-5", "0-5", "0-4", "0-6", "1-6", "2-2", "2-3"],
]


def _base() -> dict[str, Any]:
    return rec("all-fives", 2, rnd(AF_HANDS, ["4-4"]))


def _refused(data: dict[str, Any] | str) -> RecordError:
    text = data if isinstance(data, str) else json.dumps(data)
    with pytest.raises(RecordError) as caught:
        replay_state(Record.from_json(text))
    return caught.value


# -- writing and reading back --------------------------------------------------------------------


def _spec_id(spec: Spec) -> str:
    game, players, teams, rules = spec
    return f"{game}-{players}" + ("-teams" if teams else "") + ("-house" if rules else "")


@pytest.mark.parametrize("spec", CONFIGS, ids=[_spec_id(s) for s in CONFIGS])
def test_every_games_record_reads_back_as_written_and_replays_to_the_same_report(
    spec: Spec,
) -> None:
    state = play_match(config_of(spec), seed=len(_spec_id(spec)) * 7919)
    names = [f"खिलाड़ी {s}" for s in range(state.config.players)]
    record = record_of(state, names, event="club night", table="t-1")
    text = record.to_json()
    assert "खिलाड़ी 0" in text  # written as UTF-8 text, not \u escapes
    again = Record.from_json(text)
    assert again == record
    assert again.to_json() == text
    assert "\n" not in text  # one line unless asked
    indented = record.to_json(indent=2)
    assert indented.startswith('{\n  "game": ') and Record.from_json(indented) == record
    data = record.to_data()
    assert list(data)[-1] == "rounds"
    assert data["seats"] == names
    assert (data["event"], data["table"]) == ("club night", "t-1")
    assert data["game"] == spec[0] and data["players"] == spec[1]
    assert len(data["rounds"]) == len(state.rounds())
    for raw, info in zip(data["rounds"], state.rounds(), strict=True):
        assert raw["leader"] == info.leader
        assert raw["hands"] == [[str(t) for t in hand] for hand in info.hands]
        assert raw["stock"] == [str(t) for t in info.stock]
        assert raw["actions"] == [str(a) for a in info.actions]
    assert replay(again) == report_of(state)


def test_a_record_without_seat_names_or_extra_fields_writes_neither() -> None:
    state = play_match(config_of(CONFIGS[0]), seed=5)
    data = record_of(state).to_data()
    assert "seats" not in data
    assert set(data) == set(state.config.header()) | {"rounds"}
    assert Record.from_data(data).seats is None
    assert Record.from_data(data).extra == {}


def test_every_draw_in_a_full_records_report_names_the_tile_drawn_even_the_double_blank() -> None:
    """The report of a whole record knows every tile: each draw names its tile, 0-0 included
    (tile number 0)."""
    seen_blank = False
    for seed in range(40):
        state = play_match(config_of(("all-fives", 2, None, None)), seed=seed, max_rounds=3)
        for rnd_report in replay(record_of(state))["rounds"]:
            for event in rnd_report["events"]:
                if event["action"] == "draw":
                    assert "tile" in event, event
                    seen_blank = seen_blank or event["tile"] == "0-0"
                elif event["action"] == "pass":
                    assert set(event) == {"seat", "action"}
                else:
                    assert {"ends", "points"} <= set(event)
    assert seen_blank


# -- the error's message -------------------------------------------------------------------------


def test_an_errors_message_names_round_action_seat_and_action_one_based() -> None:
    err = RecordError("no such thing", round_no=2, action_no=4, seat=1, action="5-5@W",
                      legal=[Action.parse("0-5@E"), Action.parse("draw")], key="k",
                      params={"n": 3})
    assert str(err) == "round 3, action 5, seat 1, '5-5@W': no such thing (legal: 0-5@E, draw)"
    assert (err.reason, err.key, err.params) == ("no such thing", "k", {"n": 3})
    assert (err.round_no, err.action_no, err.seat, err.action) == (2, 4, 1, "5-5@W")
    assert [str(a) for a in err.legal or []] == ["0-5@E", "draw"]


def test_an_error_without_a_place_is_its_reason_alone_and_an_empty_legal_list_says_none() -> None:
    bare = RecordError("bad")
    assert str(bare) == "bad"
    assert (bare.key, bare.params, bare.legal) == (None, {}, None)
    assert (bare.round_no, bare.action_no, bare.seat, bare.action) == (None, None, None, None)
    assert str(RecordError("stuck", seat=0, legal=[])) == "seat 0: stuck (legal: none)"
    assert str(RecordError("late", round_no=0)) == "round 1: late"
    assert str(RecordError("odd", action="x")) == "'x': odd"
    params = {"n": 1}
    err = RecordError("r", params=params)
    params["n"] = 2
    assert err.params == {"n": 1}  # its own copy


# -- each refusal of the format, in process ------------------------------------------------------


def _with(change: Any) -> dict[str, Any]:
    data = _base()
    change(data)
    return data


FORMAT_REFUSALS: list[tuple[str, Any, str, str, dict[str, object], int | None]] = [
    ("not an object", "[1]", "a record is a JSON object", "not_object", {}, None),
    ("no rounds", json.dumps({"game": "all-fives", "players": 2}),
     "missing field 'rounds'", "missing_field", {"field": "rounds"}, None),
    ("cut short", '{"game": ', "malformed JSON: Expecting value: line 1 column 10 (char 9)",
     "malformed_json", {"line": 1, "column": 10}, None),
    ("nested too deep", "[" * 100_000 + "]" * 100_000, "malformed JSON: nested too deeply",
     "nested_too_deep", {}, None),
    ("unknown game", _with(lambda d: d.update(game="chess")),
     "unknown game 'chess': one of all-fives, fives-and-threes, muggins, draw, block",
     "unknown_game", {"name": "'chess'", "known": "all-fives, fives-and-threes, muggins, draw, block"},
     None),
    ("one seat name for two", _with(lambda d: d.update(seats=["a"])),
     "field 'seats' must list 2 names", "seats_count", {"n": 2}, None),
    ("a seat name not text", _with(lambda d: d.update(seats=["a", 3])),
     "field 'seats' must list 2 names", "seats_count", {"n": 2}, None),
    ("seat names as one text", _with(lambda d: d.update(seats="ab")),
     "field 'seats' must list 2 names", "seats_count", {"n": 2}, None),
    ("rounds not a list", _with(lambda d: d.update(rounds={})),
     "field 'rounds' must be a list", "rounds_list", {}, None),
    ("a round not an object", _with(lambda d: d.update(rounds=[[1]])),
     "round 1: a round is a JSON object", "round_object", {}, 0),
    ("a round without its stock", _with(lambda d: d["rounds"][0].pop("stock")),
     "round 1: missing field 'stock'", "missing_field", {"field": "stock"}, 0),
    ("a round without its leader", _with(lambda d: d["rounds"][0].pop("leader")),
     "round 1: missing field 'leader'", "missing_field", {"field": "leader"}, 0),
    ("a round without its hands", _with(lambda d: d["rounds"][0].pop("hands")),
     "round 1: missing field 'hands'", "missing_field", {"field": "hands"}, 0),
    ("a round without its actions", _with(lambda d: d["rounds"][0].pop("actions")),
     "round 1: missing field 'actions'", "missing_field", {"field": "actions"}, 0),
    ("a leader true", _with(lambda d: d["rounds"][0].update(leader=True)),
     "round 1: leader must be a seat number, not True", "leader_seat", {"value": "True"}, 0),
    ("a leader as text", _with(lambda d: d["rounds"][0].update(leader="0")),
     "round 1: leader must be a seat number, not '0'", "leader_seat", {"value": "'0'"}, 0),
    ("hands an object", _with(lambda d: d["rounds"][0].update(hands={})),
     "round 1: hands must be a list of hands", "hands_list", {}, 0),
    ("a hand as text", _with(lambda d: d["rounds"][0]["hands"].__setitem__(1, "1-1")),
     "round 1: hands[1] must be a list of tiles", "tiles_list", {"what": "hands[1]"}, 0),
    ("a stock as text", _with(lambda d: d["rounds"][0].update(stock="1-1")),
     "round 1: stock must be a list of tiles", "tiles_list", {"what": "stock"}, 0),
    ("a tile with a seven", _with(lambda d: d["rounds"][0]["hands"][1].__setitem__(2, "7-1")),
     "round 1: hands[1]: no such tile: '7-1' (halves go from 0 to 6)", "bad_tile",
     {"what": "hands[1]", "text": "7-1"}, 0),
    ("a tile as a number", _with(lambda d: d["rounds"][0]["stock"].__setitem__(0, 5)),
     "round 1: stock: a tile is written 'a-b' with halves 0 to 6, not 5", "bad_tile",
     {"what": "stock", "text": 5}, 0),
    ("actions as text", _with(lambda d: d["rounds"][0].update(actions="4-4")),
     "round 1: actions must be a list of strings", "actions_list", {}, 0),
    ("an action as a number", _with(lambda d: d["rounds"][0].update(actions=[44])),
     "round 1: actions must be a list of strings", "actions_list", {}, 0),
]


@pytest.mark.parametrize(("data", "message", "key", "params", "round_no"),
                         [case[1:] for case in FORMAT_REFUSALS],
                         ids=[case[0] for case in FORMAT_REFUSALS])
def test_a_malformed_record_is_refused_with_its_reason_named_and_quoted(
    data: Any, message: str, key: str, params: dict[str, object], round_no: int | None,
) -> None:
    err = _refused(data)
    assert str(err) == message
    assert (err.key, err.params, err.round_no) == (key, params, round_no)
    assert (err.action_no, err.seat, err.action, err.legal) == (None, None, None, None)


def test_a_number_too_long_for_python_is_refused_as_malformed_json() -> None:
    text = '{"game": "all-fives", "players": 2, "x": ' + "9" * 5000 + ', "rounds": []}'
    err = _refused(text)
    assert err.key == "number_too_long"
    assert str(err).startswith("malformed JSON: Exceeds the limit")


def test_fields_beyond_the_format_are_kept_as_written() -> None:
    data = _with(lambda d: d.update(source="dominos.cc", note={"a": [1, 2]}))
    record = Record.from_data(data)
    assert record.extra == {"source": "dominos.cc", "note": {"a": [1, 2]}}
    assert record.rounds[0].leader == 0
    assert [str(t) for t in record.rounds[0].hands[1]] == AF_HANDS[1]
    assert record.rounds[0].actions == ["4-4"]
    assert Record.from_data(record.to_data()) == record


# -- each refusal of play, in process ------------------------------------------------------------


def test_a_bad_action_names_its_place_the_seat_to_act_and_the_legal_actions() -> None:
    err = _refused(_with(lambda d: d["rounds"][0]["actions"].append("x")))
    assert str(err) == (
        "round 1, action 2, seat 1, 'x': an action is 'a-b', 'a-b@X' (X one of W, E, N, S), "
        "'draw' or 'pass', not 'x' (legal: 0-4@W, 0-4@E, 3-4@W, 3-4@E)")
    assert (err.key, err.params) == ("action_form", {"text": "'x'"})
    assert (err.round_no, err.action_no, err.seat, err.action) == (0, 1, 1, "x")


def test_an_illegal_action_carries_the_engines_reason_and_key() -> None:
    err = _refused(_with(lambda d: d["rounds"][0]["actions"].append("1-1@W")))
    assert (err.round_no, err.action_no, err.seat, err.action) == (0, 1, 1, "1-1@W")
    assert err.key is not None and err.key != "action_form"
    assert [str(a) for a in err.legal or []] == ["0-4@W", "0-4@E", "3-4@W", "3-4@E"]
    assert str(err).startswith("round 1, action 2, seat 1, '1-1@W': " + err.reason)


def test_a_bad_deal_in_a_later_round_carries_the_deals_key_and_round() -> None:
    state = play_match(config_of(("all-fives", 2, None, None)), seed=3)
    assert len(state.rounds()) >= 2
    data = record_of(state).to_data()
    data["rounds"][1]["hands"][0] = data["rounds"][1]["hands"][0][:-1]
    err = _refused(data)
    assert str(err) == "round 2: seat 0 is dealt 8 tiles; all-fives with 2 players deals 9"
    assert (err.round_no, err.action_no, err.key) == (1, None, "deal_hand_size")
    assert err.params == {"seat": 0, "count": 8, "game": "all-fives", "players": 2, "size": 9}


def _two_rounds_then_over() -> dict[str, Any]:
    hands = [["5-5", "0-1"], ["1-5", "0-2"]]
    return rec("all-fives", 2, rnd(hands, ["5-5"]), target=10, rules={"hand_size": 2})


def test_a_round_after_the_match_is_over_is_refused_with_its_key() -> None:
    data = _two_rounds_then_over()
    data["rounds"].append(copy.deepcopy(data["rounds"][0]))
    err = _refused(data)
    assert str(err) == "round 2: the match is already over; no more rounds"
    assert (err.key, err.round_no) == ("no_more_rounds", 1)


def test_an_action_after_the_match_is_over_is_refused_with_its_key() -> None:
    data = _two_rounds_then_over()
    data["rounds"][0]["actions"].append("1-5@W")
    err = _refused(data)
    assert str(err) == "round 1, action 2, '1-5@W': the match is over; no more actions"
    assert (err.key, err.round_no, err.action_no, err.seat) == ("no_more_actions_match", 0, 1, None)


def test_an_action_after_the_round_is_over_is_refused_with_its_key() -> None:
    data = rec("fives-and-threes", 2, rnd([["1-4"], ["0-2"]], ["1-4", "0-2@W"]),
               rules={"hand_size": 1})
    err = _refused(data)
    assert str(err) == "round 1, action 2, '0-2@W': the round is over; no more actions"
    assert (err.key, err.round_no, err.action_no, err.seat) == ("no_more_actions_round", 0, 1, None)


def test_a_second_round_before_the_first_ends_is_refused_with_its_key() -> None:
    data = _base()
    data["rounds"].append(copy.deepcopy(data["rounds"][0]))
    err = _refused(data)
    assert str(err) == "round 2: the previous round has not ended, so no new round can start"
    assert (err.key, err.round_no) == ("previous_round_unfinished", 1)


def test_the_first_round_may_be_unfinished_and_a_finished_one_may_be_followed() -> None:
    state = replay_state(Record.from_data(_base()))
    assert state.round_end is None and len(state.rounds()) == 1
    played = play_match(config_of(("all-fives", 2, None, None)), seed=3)
    data = record_of(played).to_data()
    data["rounds"] = data["rounds"][:2]
    assert len(replay_state(Record.from_data(data)).rounds()) == 2
