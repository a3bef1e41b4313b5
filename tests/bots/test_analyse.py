"""``fives analyse RECORD``: a bot's review of every decision of a seat, on tournament records."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest

from clikit import FIVES
from fives.analysis import analyse, summary
from fives.bots import make_bot
from fives.cli.analyse_cmd import account
from fives.core.games import Config
from fives.core.record import Record, record_of
from fives.core.state import State
from fives.core.tiles import ALL_TILES, Action, Tile
from fives.core.view import view_of
from fives.tournament.runner import Plan, run_tournament

ROOT = Path(__file__).resolve().parents[2]


def fives(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [FIVES, *map(str, args)], capture_output=True, text=True, timeout=300, check=False
    )


@pytest.fixture(scope="module")
def record_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tournament")
    plan = Plan(Config.make("all-fives", 2, target=100), ("easy", "random"), deal_sets=1, seed=7)
    run_tournament(plan, jobs=1, out=out)
    return out / "records" / "deal00001-seating1.json"


def _decisions_of(record: Record, seat: int) -> list[tuple[int, int, str, list[str]]]:
    """(round, action number, action played, legal) at each real decision of ``seat``."""
    state = State(record.config)
    out = []
    for i, rnd in enumerate(record.rounds):
        state.start_round(rnd.hands, rnd.stock, rnd.leader)
        for k, text in enumerate(rnd.actions):
            legal = state.legal_actions()
            if state.turn == seat and len(legal) > 1:
                out.append((i, k, str(Action.parse(text)), [str(a) for a in legal]))
            state.play(Action.parse(text))
    return out


def test_analyse_json_values_every_legal_action_at_every_decision(record_path: Path) -> None:
    # --seat 2 is the second seat, the record's seat 1 (people number seats from 1)
    proc = fives("analyse", record_path, "--seat", "2", "--bot", "easy", "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["bot"] == "easy" and doc["seats"] == [2] and doc["names"] == ["easy", "random"]
    assert {d["seat"] for d in doc["decisions"]} == {2}
    record = Record.from_json(record_path.read_text())
    expected = _decisions_of(record, 1)
    got = doc["decisions"]
    assert [(d["round"] - 1, d["action_no"] - 1, d["played"]) for d in got] == [
        (i, k, a) for i, k, a, _ in expected
    ]
    for d, (_, _, played, legal) in zip(got, expected):
        assert set(d["values"]) == set(legal)
        best = max(d["values"].values())
        assert d["values"][d["choice"]] == best
        assert d["loss"] == pytest.approx(best - d["values"][played])
        twins = next((g for g in d["same"] if played in g), [played])
        assert d["agrees"] == (d["choice"] in twins)
    flagged = sorted((d for d in got if d["flag"]), key=lambda d: d["flag"])
    assert 1 <= len(flagged) <= 3  # random play loses against easy's values somewhere
    assert [d["flag"] for d in flagged] == list(range(1, len(flagged) + 1))
    worst = max(d["loss"] for d in got)
    assert flagged[0]["loss"] == worst
    assert all(d["loss"] <= flagged[-1]["loss"] for d in got if not d["flag"])
    summary = doc["summary"][0]
    assert summary["seat"] == 2 and summary["decisions"] == len(got)
    assert summary["total_loss"] == pytest.approx(sum(d["loss"] for d in got))


def test_easy_agrees_with_itself(record_path: Path) -> None:
    """Seat 0 was played by easy: easy's review finds (almost) nothing to regret."""
    record = Record.from_json(record_path.read_text())
    decisions = analyse(record, make_bot("easy"), seats=[0])
    assert decisions
    # easy breaks exact ties at random; its values rank those ties equal, so no loss
    assert all(d["loss"] == pytest.approx(0.0) for d in decisions)


def test_analyse_text_account(record_path: Path) -> None:
    proc = fives("analyse", record_path, "--seat", "2", "--bot", "easy", "--round", "1", "--top", "2")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "reviewed by easy" in out
    assert "round 1" in out and "round 2" not in out
    assert "seat 2 (random) played" in out
    assert "played" in out and "bot" in out
    assert "seat 2 (random):" in out  # the summary line
    assert out.count("?? (#") <= 2


def test_analyse_seat_counts_from_one_as_the_account_names_seats(record_path: Path) -> None:
    """``--seat 1`` reviews the seat the account calls seat 1 (the record's seat 0, easy)."""
    proc = fives("analyse", record_path, "--seat", "1", "--bot", "easy", "--round", "1")
    assert proc.returncode == 0, proc.stderr
    assert "seat 1 (easy) played" in proc.stdout and "seat 2 (random) played" not in proc.stdout


@pytest.mark.parametrize("seat", ["0", "3", "-1"])
@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "error: --seat must be a seat from 1 to 2, not {seat}"),
        ("hi", "error: --seat 1 से 2 तक की कोई सीट हो, {seat} नहीं"),
    ],
)
def test_analyse_refuses_a_seat_out_of_range_in_one_translated_line(
    record_path: Path, seat: str, lang: str, said: str
) -> None:
    before = record_path.read_bytes()
    proc = fives("analyse", record_path, f"--seat={seat}", "--bot", "easy", "--lang", lang)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip() == said.format(seat=seat), proc.stderr
    assert record_path.read_bytes() == before


def test_analyse_round_filter_in_the_library(record_path: Path) -> None:
    record = Record.from_json(record_path.read_text())
    all_rounds = analyse(record, make_bot("easy"), seats=[0, 1])
    first = analyse(record, make_bot("easy"), seats=[0, 1], round_no=0)
    assert first == [
        {**d, "flag": first[i]["flag"]} for i, d in enumerate(x for x in all_rounds if x["round"] == 0)
    ]


def test_analyse_with_medium_values_every_legal_action_of_each_decision_of_the_round(
    record_path: Path,
) -> None:
    record = Record.from_json(record_path.read_text())
    decisions = analyse(record, make_bot("medium"), seats=[1], round_no=0)
    expected = [(k, played, legal) for i, k, played, legal in _decisions_of(record, 1) if i == 0]
    assert expected, "seat 1 had no choice in round 1: the checks below would prove nothing"
    assert [(d["round"], d["action_no"], d["played"]) for d in decisions] == [
        (0, k, played) for k, played, _ in expected
    ]
    for d, (_, _, legal) in zip(decisions, expected):
        assert set(d["values"]) == set(legal)
        assert all(isinstance(v, float) for v in d["values"].values())
        assert d["values"][d["choice"]] == max(d["values"].values())


@pytest.mark.parametrize(
    "args",
    [
        ["--seat", "3"],
        ["--seat", "0"],
        ["--round", "0"],
        ["--round", "99"],
        ["--bot", "nosuchbot"],
        ["--top", "-1"],
    ],
)
def test_bad_input_is_one_error_line(record_path: Path, args: list[str]) -> None:
    proc = fives("analyse", record_path, *args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and proc.stderr.startswith("error: ")


def test_a_bad_record_is_one_error_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "all-fives", "players": 2, "rounds": [{"leader": 0}]}')
    for path in (bad, tmp_path / "missing.json"):
        proc = fives("analyse", path, "--bot", "easy")
        assert proc.returncode == 2
        assert proc.stderr.startswith("error: ") and len(proc.stderr.splitlines()) == 1


def test_analyse_shows_identical_actions_as_one_line_naming_both() -> None:
    # after the lead 5-5 (a fresh spinner), 5-3 on W and on E leave the same game
    state = State(Config.make("all-fives", 2))
    hands = [["5-5", "0-1", "0-2", "0-3", "0-4", "1-2", "1-3", "1-4", "0-0"],
             ["3-5", "4-5", "2-2", "2-3", "2-4", "3-3", "4-4", "3-4", "2-6"]]
    held = {t for h in hands for t in h}
    stock = [t for t in ALL_TILES if str(t) not in held]
    state.start_round([[Tile.parse(t) for t in h] for h in hands], stock, 0)
    state.play(Action.parse("5-5"))
    first = analyse(record_of(state, ["medium", "medium"]), make_bot("medium"), seats=[1])
    assert first == []  # no decision of seat 1 played yet
    twin = {"3-5@W": "3-5@E", "4-5@W": "4-5@E"}  # medium names the first of a class
    choice = max(make_bot("medium").values(view_of(state, 1), random.Random(0)).items(),
                 key=lambda kv: kv[1])[0]
    state.play(Action.parse(twin[str(choice)]))
    record = record_of(state, ["medium", "medium"])
    decisions = analyse(record, make_bot("medium"), seats=[1])
    assert decisions[0]["same"] == [["3-5@W", "3-5@E"], ["4-5@W", "4-5@E"]]
    assert decisions[0]["agrees"]  # the other member of the bot's class: the same move
    assert decisions[0]["loss"] == 0
    text = "\n".join(account(record, "medium", decisions, [], "x.json"))
    assert "3-5@W = 3-5@E" in text and "4-5@W = 4-5@E" in text
    assert "3-5@E " not in text.replace("3-5@W = 3-5@E", "")


def test_a_bot_drawing_worlds_by_inference_reports_how_many_were_worth_one(
        record_path: Path) -> None:
    """Issue 27: the effective worlds per candidate of hard-i's weighted draw, per decision and
    per seat (a share in (0, 1]); a bot with plain worlds reports none."""
    record = Record.from_json(record_path.read_text())
    decisions = analyse(record, make_bot("hard-i"), seats=[1], round_no=0)
    shares = [d["effective_share"] for d in decisions if "effective_share" in d]
    assert shares and all(0.0 < s <= 1.0 for s in shares)
    (seat,) = summary(decisions, [1])
    assert seat["effective_share"] == pytest.approx(sum(shares) / len(shares), abs=1e-4)
    lines = account(record, "hard-i", decisions, [seat], "r.json")
    assert any("each candidate world was worth" in line for line in lines)
    hindi = account(record, "hard-i", decisions, [seat], "r.json", lang="hi")
    assert any("उम्मीदवार दुनिया" in line for line in hindi)
    plain = analyse(record, make_bot("hard"), seats=[1], round_no=0)
    assert not any("effective_share" in d for d in plain)
    assert "effective_share" not in summary(plain, [1])[0]
