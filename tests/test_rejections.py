"""Every rejection kind of RECORD.md: the record is refused whole with a RecordError whose
message names the round, the action number, the seat, the action and why (with the legal
actions); and the CLI turns it into one ``error:`` line and exit status 2, never a traceback.
"""

from __future__ import annotations

import copy
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from clikit import FIVES
from fives.core.record import Record, RecordError, replay
from recordkit import expect_error, rec, report, rnd

ROOT = Path(__file__).resolve().parents[1]

AF_HANDS = [
    ["1-4", "4-4", "1-2", "5-5", "1-3", "0-0", "0-1", "0-2", "0-3"],
    ["1-1", "3-4", "1-5", "0-5", "0-4", "0-6", "1-6", "2-2", "2-3"],
]
FT_HANDS = [
    ["1-4", "4-4", "1-2", "0-0", "0-1", "0-2", "0-3"],
    ["1-1", "3-4", "0-4", "0-6", "1-6", "2-2", "2-3"],
]


def _af(actions: list[str], **fields: Any) -> dict[str, Any]:
    return rec("all-fives", 2, rnd(AF_HANDS, actions), **fields)


def _ft(actions: list[str], **fields: Any) -> dict[str, Any]:
    return rec("fives-and-threes", 2, rnd(FT_HANDS, actions), **fields)


def _names(err: RecordError, round_no: int, action_no: int | None = None,
           seat: int | None = None, action: str | None = None) -> None:
    """The message names the round (1-based), action number, seat and action text."""
    text = str(err)
    assert err.round_no == round_no
    assert f"round {round_no + 1}" in text
    if action_no is not None:
        assert err.action_no == action_no
        assert f"action {action_no + 1}" in text
    if seat is not None:
        assert err.seat == seat
        assert f"seat {seat}" in text
    if action is not None:
        assert err.action == action
        assert repr(action) in text


def _legal_listed(err: RecordError, legal: list[str]) -> None:
    assert err.legal is not None
    assert sorted(str(a) for a in err.legal) == sorted(legal)
    assert "legal: " + ", ".join(str(a) for a in err.legal) in str(err)


# ----------------------------------------------------------------------------------------------
# the sanity of the base records


def test_the_base_records_are_accepted() -> None:
    assert report(_af(["1-4", "1-1@W"]))["scores"] == [5, 0]
    assert report(_ft(["1-4", "1-1@W"]))["scores"] == [1, 2]


# ----------------------------------------------------------------------------------------------
# wrong deals


def test_wrong_hand_size_is_rejected() -> None:
    """A hand of 8 in two-player All Fives (9 are dealt)."""
    hands = [AF_HANDS[0][:8], AF_HANDS[1]]
    err = expect_error(rec("all-fives", 2, rnd(hands)))
    _names(err, 0)
    assert "seat 0" in err.reason and "8" in err.reason and "9" in err.reason


def test_wrong_number_of_hands_is_rejected() -> None:
    err = expect_error(rec("all-fives", 2, rnd([AF_HANDS[0]])))
    _names(err, 0)
    assert "hands" in err.reason


def test_duplicate_tile_is_rejected_in_either_order() -> None:
    """4-1 in seat 1's hand is the 1-4 of seat 0's: the deal holds a tile twice."""
    hands = [AF_HANDS[0], ["4-1", *AF_HANDS[1][1:]]]
    err = expect_error(rec("all-fives", 2, rnd(hands)))
    _names(err, 0)
    assert "1-4" in err.reason and "twice" in err.reason


def test_duplicate_tile_between_hand_and_stock_is_rejected() -> None:
    data = _af([])
    data["rounds"][0]["stock"][-1] = "0-0"
    data["rounds"][0]["stock"].append("6-6")
    err = expect_error(data)
    assert "0-0" in err.reason and "twice" in err.reason


def test_missing_tile_is_rejected() -> None:
    data = _af([])
    missing = data["rounds"][0]["stock"].pop()
    err = expect_error(data)
    _names(err, 0)
    assert "missing" in err.reason and missing in err.reason


def test_wrong_deal_in_a_later_round_names_that_round() -> None:
    data = rec("fives-and-threes", 2, rnd([["1-4"], ["0-2"]], ["1-4"]), rules={"hand_size": 1})
    bad = rnd([["1-4"], ["0-2"]], leader=1)
    bad["stock"].pop()
    data["rounds"].append(bad)
    err = expect_error(data)
    _names(err, 1)
    assert "missing" in err.reason


# ----------------------------------------------------------------------------------------------
# wrong leaders


@pytest.mark.parametrize("game", ["muggins", "draw", "block"])
def test_wrong_leader_for_the_highest_double_is_rejected(game: str) -> None:
    """MG-3 / DB-1: seat 0 holds 6-6, the highest double: leader 1 is refused."""
    hands = [["6-6", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6"],
             ["5-5", "1-1", "1-2", "1-3", "1-4", "1-5", "1-6"]]
    err = expect_error(rec(game, 2, rnd(hands, leader=1)))
    _names(err, 0)
    assert "seat 0" in err.reason and "highest double" in err.reason


@pytest.mark.parametrize("game", ["muggins", "draw", "block"])
def test_a_lead_other_than_the_claiming_tile_is_rejected(game: str) -> None:
    """MG-3: the lead must be the highest double itself."""
    hands = [["6-6", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6"],
             ["5-5", "1-1", "1-2", "1-3", "1-4", "1-5", "1-6"]]
    err = expect_error(rec(game, 2, rnd(hands, ["0-1"])))
    _names(err, 0, 0, 0, "0-1")
    assert "6-6" in err.reason
    _legal_listed(err, ["6-6"])


def test_wrong_leader_after_an_all_fives_domino_is_rejected() -> None:
    """AF-12: seat 0 played the last tile (hand of 1), so seat 0 leads round 2, not seat 1."""
    hands = [["1-4"], ["0-2"]]
    data = rec("all-fives", 2, rnd(hands, ["1-4"]), rnd(hands, leader=1), rules={"hand_size": 1})
    err = expect_error(data)
    _names(err, 1)
    assert "seat 0" in err.reason


def test_wrong_leader_for_the_fives_and_threes_rotation_is_rejected() -> None:
    """FT-3: round 1 led by seat 0, so round 2 by seat 1 (seat 0 went out, irrelevant)."""
    hands = [["1-4"], ["0-2"]]
    data = rec("fives-and-threes", 2, rnd(hands, ["1-4"]), rnd(hands, leader=0),
               rules={"hand_size": 1})
    err = expect_error(data)
    _names(err, 1)
    assert "seat 1" in err.reason and "clockwise" in err.reason


def test_a_leader_outside_the_table_is_rejected() -> None:
    data = _af([])
    data["rounds"][0]["leader"] = 2
    err = expect_error(data)
    _names(err, 0)
    assert "leader" in err.reason


# ----------------------------------------------------------------------------------------------
# illegal actions


def test_tile_not_held_is_rejected() -> None:
    """Seat 0 leads 1-1, which seat 1 holds."""
    err = expect_error(_af(["1-1"]))
    _names(err, 0, 0, 0, "1-1")
    assert "does not hold 1-1" in err.reason
    assert len(err.legal or []) == 9


def test_tile_not_held_in_a_play_is_rejected() -> None:
    err = expect_error(_af(["1-4", "1-2@W"]))
    _names(err, 0, 1, 1, "1-2@W")
    assert "seat 1 does not hold 1-2" in err.reason
    _legal_listed(err, ["1-1@W", "1-5@W", "1-6@W", "3-4@E", "0-4@E"])


def test_end_not_open_is_rejected() -> None:
    """Fives and Threes has no N end; neither has an All Fives line before its spinner."""
    err = expect_error(_ft(["1-4", "1-1@N"]))
    _names(err, 0, 1, 1, "1-1@N")
    assert "not open" in err.reason
    err = expect_error(_af(["1-4", "1-1@S"]))
    _names(err, 0, 1, 1, "1-1@S")
    assert "not open" in err.reason


def test_tile_that_does_not_fit_the_named_end_is_rejected() -> None:
    """1-1 on E (showing 4)."""
    err = expect_error(_ft(["1-4", "1-1@E"]))
    _names(err, 0, 1, 1, "1-1@E")
    assert "does not fit end E" in err.reason


def test_a_lead_written_with_an_end_or_a_play_without_one_is_rejected() -> None:
    err = expect_error(_ft(["1-4@W"]))
    _names(err, 0, 0, 0, "1-4@W")
    assert "without an end" in err.reason
    err = expect_error(_ft(["1-4", "1-1"]))
    _names(err, 0, 1, 1, "1-1")
    assert "a-b@X" in err.reason


def _af_needs_draw(actions: list[str]) -> dict[str, Any]:
    """All Fives: 0-0 led; seat 1 holds no 0; the stock starts 3-4, then 0-6."""
    hands = [["0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "1-1", "1-2", "1-3"],
             ["1-4", "1-5", "1-6", "2-2", "2-3", "2-4", "2-5", "2-6", "3-3"]]
    return rec("all-fives", 2, rnd(hands, actions, stock=["3-4", "0-6"]))


def test_draw_while_holding_a_playable_tile_is_rejected() -> None:
    """AF-7: after 1-4, seat 1 holds 1-1 (and more): it may not draw."""
    err = expect_error(_af(["1-4", "draw"]))
    _names(err, 0, 1, 1, "draw")
    assert "must play" in err.reason
    assert err.legal is not None and "draw" not in [str(a) for a in err.legal]


def test_pass_while_able_to_play_is_rejected() -> None:
    err = expect_error(_af(["1-4", "pass"]))
    _names(err, 0, 1, 1, "pass")
    assert "must play" in err.reason
    err = expect_error(_ft(["1-4", "pass"]))
    _names(err, 0, 1, 1, "pass")
    assert "must play" in err.reason


def test_pass_while_able_to_draw_is_rejected() -> None:
    err = expect_error(_af_needs_draw(["0-0", "pass"]))
    _names(err, 0, 1, 1, "pass")
    assert "draw" in err.reason
    _legal_listed(err, ["draw"])


def test_a_different_tile_after_drawing_a_playable_one_is_rejected() -> None:
    """AF-7: seat 1 drew 3-4 (no fit), then 0-6 (fits): 3-4 may not be played instead, nor
    may it draw again or pass."""
    for wrong in ("3-4@W", "1-4@E", "draw", "pass"):
        err = expect_error(_af_needs_draw(["0-0", "draw", "draw", wrong]))
        _names(err, 0, 3, 1, wrong)
        _legal_listed(err, ["0-6@W", "0-6@E"])


def test_a_side_arm_before_both_straight_arms_hold_a_tile_is_rejected() -> None:
    """SP-3: 1-5@N while the spinner's W arm is still empty."""
    err = expect_error(_af(["1-4", "1-1@W", "4-4@E", "1-5@N"]))
    _names(err, 0, 3, 1, "1-5@N")
    assert "side arm" in err.reason
    _legal_listed(err, ["0-4@E", "1-5@W", "1-6@W", "3-4@E"])


def test_an_action_after_the_round_ended_is_rejected() -> None:
    """FT-7: a one-tile hand goes out on the lead; a further action is refused."""
    data = rec("fives-and-threes", 2, rnd([["1-4"], ["0-2"]], ["1-4", "0-2@W"]),
               rules={"hand_size": 1})
    err = expect_error(data)
    _names(err, 0, 1, action="0-2@W")
    assert "round is over" in err.reason


def test_an_action_after_the_match_ended_is_rejected() -> None:
    """AF-3: the 5-5 lead reaches a target of 10 at once."""
    hands = [["5-5", "0-1"], ["1-5", "0-2"]]
    data = rec("all-fives", 2, rnd(hands, ["5-5", "1-5@W"]), target=10, rules={"hand_size": 2})
    err = expect_error(data)
    _names(err, 0, 1, action="1-5@W")
    assert "match is over" in err.reason


def test_a_new_round_after_the_match_ended_is_rejected() -> None:
    hands = [["5-5", "0-1"], ["1-5", "0-2"]]
    first = rnd(hands, ["5-5"])
    data = rec("all-fives", 2, first, copy.deepcopy(first), target=10, rules={"hand_size": 2})
    err = expect_error(data)
    _names(err, 1)
    assert "match is already over" in err.reason


def test_a_new_round_while_the_previous_is_unfinished_is_rejected() -> None:
    data = _af(["1-4", "1-1@W"])
    data["rounds"].append(rnd(AF_HANDS, leader=0))
    err = expect_error(data)
    _names(err, 1)
    assert "not ended" in err.reason


def test_an_unparseable_action_names_its_place() -> None:
    err = expect_error(_af(["1-4", "play 1-1"]))
    _names(err, 0, 1, 1, "play 1-1")


# ----------------------------------------------------------------------------------------------
# malformed JSON and fields


@pytest.mark.parametrize(
    "text", ["", "{", "[1, 2", "{'game': 'all-fives'}", "not json", '{"game": "all-fives",}']
)
def test_malformed_json_is_rejected(text: str) -> None:
    err = expect_error(text)
    assert "malformed JSON" in str(err)


@pytest.mark.parametrize("text", ["null", "[]", "42", '"all-fives"'])
def test_a_record_must_be_an_object(text: str) -> None:
    expect_error(text)


@pytest.mark.parametrize("missing", ["game", "players", "rounds"])
def test_missing_top_level_fields_are_rejected(missing: str) -> None:
    data = _af([])
    del data[missing]
    assert missing in str(expect_error(data))


@pytest.mark.parametrize("missing", ["leader", "hands", "stock", "actions"])
def test_missing_round_fields_are_rejected(missing: str) -> None:
    data = _af([])
    del data["rounds"][0][missing]
    err = expect_error(data)
    _names(err, 0)
    assert missing in err.reason


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("game", "dominoes", "unknown game"),
        ("game", "All-Fives", "unknown game"),
        ("players", 5, "players"),
        ("players", 1, "players"),
        ("players", "2", "players"),
        ("players", True, "players"),
        ("teams", "yes", "teams"),
        ("target", 0, "target"),
        ("target", 2.5, "target"),
        ("rules", {"double_spinner": True}, "unknown house rule"),
        ("rules", {"hand_size": "9"}, "hand_size"),
        ("rules", {"hand_size": 15}, "hand_size"),
        ("rules", ["hand_size"], "rules"),
        ("seats", ["only one"], "seats"),
        ("rounds", {"leader": 0}, "rounds"),
    ],
)
def test_bad_fields_are_rejected(field: str, value: Any, words: str) -> None:
    data = _af([])
    data[field] = value
    assert words in str(expect_error(data))


def test_teams_with_three_players_are_rejected() -> None:
    data = rec("all-fives", 3, teams=True)
    assert "teams" in str(expect_error(data))


@pytest.mark.parametrize(
    "value", [["all-fives"], {"name": "all-fives"}, 7], ids=["list", "object", "number"]
)
def test_a_game_that_is_not_a_string_is_rejected(value: Any) -> None:
    """RECORD.md: malformed fields are rejected with a RecordError."""
    data = _af([])
    data["game"] = value
    with pytest.raises(RecordError):
        Record.from_data(data)


@pytest.mark.parametrize("bad", ["7-1", "1-7", "1_4", "14", "1-4-5", "", "a-b", 14, None])
def test_bad_tile_text_in_a_hand_is_rejected(bad: Any) -> None:
    data = _af([])
    data["rounds"][0]["hands"][0][0] = bad
    err = expect_error(data)
    _names(err, 0)
    assert "hands[0]" in err.reason


@pytest.mark.parametrize("bad", ["7-1", "1-4@X", "1-4@", "@W", "1-4@WE", "drew", ""])
def test_bad_action_text_is_rejected_naming_its_place(bad: str) -> None:
    err = expect_error(_af(["1-4", bad]))
    _names(err, 0, 1, 1, bad)


def test_actions_must_be_strings() -> None:
    data = _af([])
    data["rounds"][0]["actions"] = ["1-4", None]
    err = expect_error(data)
    _names(err, 0)


@pytest.mark.parametrize("where", ["hand", "action"])
def test_a_superscript_digit_in_a_tile_is_rejected(where: str) -> None:
    """'²-1' is not a tile: it must be a RecordError, like '7-1'."""
    data = _ft(["1-4", "²-4@E"]) if where == "action" else _ft([])
    if where == "hand":
        data["rounds"][0]["hands"][0][0] = "²-1"
    with pytest.raises(RecordError):
        replay(Record.from_data(data))


# ----------------------------------------------------------------------------------------------
# the command line


def _run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [FIVES, *map(str, args)], capture_output=True, text=True, timeout=60, check=False
    )


def _write(tmp: Path, name: str, content: dict[str, Any] | str) -> Path:
    path = tmp / name
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


def _assert_one_error_line(proc: subprocess.CompletedProcess[str], stdout: str = "") -> str:
    assert proc.returncode == 2, proc
    assert proc.stdout == stdout
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error:")
    assert "Traceback" not in proc.stderr
    return lines[0]


BAD_RECORDS: dict[str, Any] = {
    "malformed": "{",
    "wrong-hand-size": rec("all-fives", 2, rnd([AF_HANDS[0][:8], AF_HANDS[1]])),
    "tile-not-held": _af(["1-1"]),
    "pass-able-to-play": _af(["1-4", "pass"]),
    "side-arm": _af(["1-4", "1-1@W", "4-4@E", "1-5@N"]),
    "unknown-game": {**_af([]), "game": "dominoes"},
    "players-5": {**_af([]), "players": 5},
    "bad-end": _af(["1-4", "1-1@X"]),
    "house-rule": {**_af([]), "rules": {"nope": 1}},
}


@pytest.mark.parametrize("name", sorted(BAD_RECORDS))
def test_cli_rejects_a_bad_record_with_one_error_line(tmp_path: Path, name: str) -> None:
    path = _write(tmp_path, f"{name}.json", BAD_RECORDS[name])
    line = _assert_one_error_line(_run("replay", path, "--json"))
    assert line.startswith(f"error: {path}: ")


def test_cli_error_line_names_round_action_seat_and_action(tmp_path: Path) -> None:
    path = _write(tmp_path, "bad.json", _af(["1-4", "1-1@W", "4-4@E", "1-5@N"]))
    line = _assert_one_error_line(_run("replay", path, "--json"))
    for words in ("round 1", "action 4", "seat 1", "'1-5@N'", "legal: 0-4@E, 1-5@W, 1-6@W, 3-4@E"):
        assert words in line


def test_cli_rejects_a_non_string_game_without_a_traceback(tmp_path: Path) -> None:
    path = _write(tmp_path, "bad.json", {**_af([]), "game": ["all-fives"]})
    _assert_one_error_line(_run("replay", path, "--json"))


def test_cli_rejects_a_superscript_digit_tile_without_a_traceback(tmp_path: Path) -> None:
    path = _write(tmp_path, "bad.json", _ft(["1-4", "²-4@E"]))
    _assert_one_error_line(_run("replay", path, "--json"))


def test_cli_missing_file_is_one_error_line(tmp_path: Path) -> None:
    _assert_one_error_line(_run("replay", tmp_path / "nothing.json", "--json"))


def test_cli_non_utf8_file_is_one_error_line(tmp_path: Path) -> None:
    path = tmp_path / "bin.json"
    path.write_bytes(b"\xff\xfe\x00")
    _assert_one_error_line(_run("replay", path, "--json"))


def test_cli_several_files_print_json_lines_in_order(tmp_path: Path) -> None:
    records = [_af(["1-4", "1-1@W"]), _ft(["1-4"]), _af(["1-4", "1-1@W", "4-4@E"])]
    paths = [_write(tmp_path, f"r{i}.json", r) for i, r in enumerate(records)]
    proc = _run("replay", *paths, "--json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert [json.loads(x) for x in lines] == [json.loads(json.dumps(report(r))) for r in records]


def test_cli_several_files_stop_at_the_first_bad_one(tmp_path: Path) -> None:
    good1 = _write(tmp_path, "a.json", _af(["1-4"]))
    good2 = _write(tmp_path, "b.json", _ft(["1-4", "1-1@W"]))
    bad = _write(tmp_path, "c.json", _af(["1-4", "pass"]))
    never = _write(tmp_path, "d.json", _af(["1-4", "1-1@W"]))
    proc = _run("replay", good1, good2, bad, never, "--json")
    assert proc.returncode == 2
    lines = proc.stdout.splitlines()
    assert len(lines) == 2
    assert json.loads(lines[0]) == json.loads(json.dumps(report(_af(["1-4"]))))
    assert json.loads(lines[1])["game"] == "fives-and-threes"
    err = proc.stderr.splitlines()
    assert len(err) == 1 and err[0].startswith("error:") and "c.json" in err[0]
    assert "Traceback" not in proc.stderr


def test_cli_a_bad_first_file_prints_nothing(tmp_path: Path) -> None:
    bad = _write(tmp_path, "a.json", "{")
    good = _write(tmp_path, "b.json", _af(["1-4"]))
    _assert_one_error_line(_run("replay", bad, good, "--json"))
