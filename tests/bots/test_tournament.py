"""``fives tournament``: duplicate deals, parallel matches, honest statistics, records, chart,
faults of broken bots, Ctrl-C, and bad input."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from clikit import FIVES, ctrl_c_heard
from fives.core.games import Config
from fives.core.record import Record, replay_state
from fives.tournament.runner import Plan, labels_of, run_tournament, seatings, summarise
from fives.tournament.stats import elo_of, mean_interval, percentile, wilson
from server.harness import wait_until

ROOT = Path(__file__).resolve().parents[2]

#: An outside bot: answers the first legal action after DELAY seconds; every 5th answer is
#: garbage and every 7th names an illegal action when MODE is "broken".
OUTSIDE_BOT = r'''
import json, sys, time
mode, delay = sys.argv[1], float(sys.argv[2])
n = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("type") != "act":
        continue
    n += 1
    time.sleep(delay)
    legal = msg["legal"]
    if mode == "broken" and n % 5 == 0:
        print("garbage!", flush=True)
    elif mode == "broken" and n % 7 == 0:
        print(json.dumps({"action": next(a for a in ["6-6@N", "0-0@S", "pass", "draw"] if a not in legal)}), flush=True)
    else:
        print(json.dumps({"action": legal[0]}), flush=True)
'''


def fives(*args: str | Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [FIVES, *map(str, args)], capture_output=True, text=True, timeout=timeout, check=False
    )


def outside_bot(tmp_path: Path, mode: str = "good", delay: float = 0.0) -> str:
    script = tmp_path / "outside.py"
    script.write_text(OUTSIDE_BOT, encoding="utf-8")
    return "cmd:" + " ".join(shlex.quote(str(x)) for x in (sys.executable, script, mode, delay))


def assert_usage_error(proc: subprocess.CompletedProcess[str]) -> None:
    assert proc.returncode == 2, proc
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: ")


def _strip_timing(results: dict[str, Any]) -> dict[str, Any]:
    out = json.loads(json.dumps(results))
    out.pop("seconds")
    for b in out["bots"]:
        b.pop("move_time")
    return out


# -- statistics ---------------------------------------------------------------------------------


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(5, 10)
    assert (lo, hi) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))
    assert wilson(0, 0) == (0.0, 1.0)


def test_elo_and_percentile_and_mean_interval() -> None:
    assert elo_of(0.5) == 0
    assert elo_of(0.64) == pytest.approx(-elo_of(0.36))
    assert elo_of(0.909091) == pytest.approx(400, abs=0.01)
    assert elo_of(1.0, 10) == pytest.approx(elo_of(0.95))
    assert percentile([], 95) is None
    assert percentile([3.0], 95) == 3.0
    assert percentile(list(range(1, 101)), 95) == 95
    assert mean_interval([]) == (None, None)
    mean, half = mean_interval([1.0, 3.0])
    assert mean == 2.0 and half == pytest.approx(1.96 * 1.0, abs=0.01)


def test_seatings_rotate_every_bot_through_every_seat() -> None:
    assert seatings(2, 2) == [(0, 1), (1, 0)]
    assert seatings(4, 2) == [(0, 1, 0, 1), (1, 0, 1, 0)]
    assert seatings(4, 4) == [(0, 1, 2, 3), (3, 0, 1, 2), (2, 3, 0, 1), (1, 2, 3, 0)]
    three = seatings(3, 3)
    assert len(three) == 3
    for seat in range(3):
        assert {s[seat] for s in three} == {0, 1, 2}
    with pytest.raises(ValueError):
        seatings(3, 2)
    assert labels_of(["easy", "easy", "random"]) == ["easy", "easy#2", "random"]


# -- running ------------------------------------------------------------------------------------


def test_duplicate_deals_give_every_seating_the_same_cards(tmp_path: Path) -> None:
    config = Config.make("fives-and-threes", 2)
    plan = Plan(config, ("easy", "random"), deal_sets=3, seed=21)
    done = run_tournament(plan, jobs=1, out=tmp_path)
    assert done.results["matches_played"] == 6
    for k in range(3):
        a, b = (
            json.loads((tmp_path / "records" / f"deal{k + 1:05d}-seating{r}.json").read_text())
            for r in (1, 2)
        )
        assert a["seats"] == ["easy", "random"] and b["seats"] == ["random", "easy"]
        # round by round, the same seats get the same tiles in both seatings
        for ra, rb in zip(a["rounds"], b["rounds"]):
            assert ra["hands"] == rb["hands"]
            assert ra["stock"] == rb["stock"]
        assert a["tournament"] == {"seed": 21, "deal_set": k, "seating": 0}


def test_same_seed_same_results_whatever_the_jobs(tmp_path: Path) -> None:
    config = Config.make("all-fives", 2, target=80)
    plan = Plan(config, ("easy", "random"), deal_sets=3, seed=5)
    one = run_tournament(plan, jobs=1, out=tmp_path / "one")
    two = run_tournament(plan, jobs=2, out=tmp_path / "two")
    assert _strip_timing(one.results) == _strip_timing(two.results)
    for path in sorted((tmp_path / "one" / "records").iterdir()):
        assert path.read_text() == (tmp_path / "two" / "records" / path.name).read_text()
    other = run_tournament(Plan(config, ("easy", "random"), deal_sets=3, seed=6), jobs=1)
    assert other.results["matches"] != one.results["matches"]


def test_tournament_cli_writes_results_records_and_chart(tmp_path: Path) -> None:
    out = tmp_path / "t"
    proc = fives(
        "tournament", "--game", "all-fives", "--players", "2", "--bots", "easy,random",
        "--matches", "4", "--seed", "3", "--jobs", "2", "--out", out, "--target", "60",
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "easy" in proc.stdout and "random" in proc.stdout
    assert "progress:" in proc.stderr  # the progress lines (a bar on a terminal)
    results = json.loads((out / "results.json").read_text())
    assert results["complete"] is True and results["interrupted"] is False
    assert results["matches_played"] == results["matches_counted"] == 4
    assert results["deal_sets_counted"] == 2
    bots = {b["bot"]: b for b in results["bots"]}
    assert set(bots) == {"easy", "random"}
    for b in bots.values():
        assert b["matches"] == 4
        assert b["wins"] + b["draws"] + b["losses"] == 4
        lo, hi = b["score_interval"]
        assert 0 <= lo <= b["score_rate"] <= hi <= 1
        assert b["elo"]["low"] <= b["elo"]["estimate"] <= b["elo"]["high"]
        assert b["move_time"]["decisions"] > 0 and b["move_time"]["p95"] >= 0
        assert b["points_per_round"] is not None
        assert b["faults"]["count"] == 0
    assert bots["easy"]["wins"] == bots["random"]["losses"]
    assert bots["easy"]["diff_per_round"]["mean"] == pytest.approx(
        -bots["random"]["diff_per_round"]["mean"]
    )
    records = sorted((out / "records").glob("*.json"))
    assert len(records) == 4
    assert {m["record"] for m in results["matches"]} == {f"records/{p.name}" for p in records}
    replayed = fives("replay", "--json", *records)
    assert replayed.returncode == 0, replayed.stderr
    reports = [json.loads(line) for line in replayed.stdout.splitlines()]
    assert len(reports) == 4 and all(r["over"] for r in reports)
    for path, match in zip(records, results["matches"]):
        data = json.loads(path.read_text())
        assert data["seats"] == match["seats"]
        assert replay_state(Record.from_data(data)).scores_out() == match["scores"]
    svg = ET.parse(out / "standings.svg").getroot()
    assert svg.tag.endswith("svg")
    texts = "".join(svg.itertext())
    assert "easy" in texts and "random" in texts
    assert len(svg.findall("{http://www.w3.org/2000/svg}rect")) >= 3


def test_tournament_json_output_and_teams(tmp_path: Path) -> None:
    proc = fives(
        "tournament", "--game", "all-fives", "--players", "4", "--bots", "easy,random",
        "--matches", "2", "--seed", "1", "--jobs", "1", "--out", tmp_path, "--target", "60",
        "--json", "--quiet",
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    results = json.loads(proc.stdout)
    assert results["teams"] is True
    assert results["seatings"] == [["easy", "random", "easy", "random"],
                                   ["random", "easy", "random", "easy"]]
    for m in results["matches"]:
        if m["winner"] is not None:
            assert len(set(m["winners"])) == 1 and len(m["winners"]) == 2


def test_three_bots_three_players(tmp_path: Path) -> None:
    config = Config.make("muggins", 3, target=40)
    done = run_tournament(Plan(config, ("easy", "random", "random"), deal_sets=1, seed=2), jobs=1)
    res = done.results
    assert res["matches_counted"] == 3
    assert [b["label"] for b in res["bots"]] == ["easy", "random", "random#2"]
    assert sum(b["wins"] for b in res["bots"]) + max(b["draws"] for b in res["bots"]) == 3


def test_a_broken_outside_bot_is_reported_and_the_tournament_goes_on(tmp_path: Path) -> None:
    out = tmp_path / "t"
    proc = fives(
        "tournament", "--game", "fives-and-threes", "--players", "2",
        "--bots", f"{outside_bot(tmp_path, 'broken')},easy",
        "--matches", "2", "--seed", "4", "--jobs", "2", "--out", out, "--move-time", "2",
    )
    assert proc.returncode == 0, proc.stderr
    assert "faults:" in proc.stderr
    results = json.loads((out / "results.json").read_text())
    assert results["complete"] and results["matches_played"] == 2
    broken = results["bots"][0]
    assert broken["faults"]["count"] > 0
    assert set(broken["faults"]["kinds"]) <= {"garbage", "illegal"}
    assert broken["faults"]["examples"]
    assert results["bots"][1]["faults"]["count"] == 0
    assert "forfeits" in (out / "faults.log").read_text()
    assert sum(m["faults"] for m in results["matches"]) == broken["faults"]["count"]


def test_summary_counts_complete_deal_sets_only() -> None:
    config = Config.make("block", 2, target=30)
    plan = Plan(config, ("easy", "random"), deal_sets=2, seed=1)
    done = run_tournament(plan, jobs=1)
    finished = [m for m in done.results["matches"]]
    assert len(finished) == 4
    # Summarise as if the last match had not finished.
    from fives.tournament.runner import play_one

    raw = [play_one(plan, k, r) for k, r in plan.tasks()[:3]]
    partial = summarise(plan, raw, interrupted=True)
    assert partial["matches_played"] == 3
    assert partial["matches_counted"] == 2 and partial["deal_sets_counted"] == 1
    assert partial["complete"] is False and partial["interrupted"] is True


def test_ctrl_c_stops_cleanly_and_reports_what_finished(tmp_path: Path) -> None:
    out = tmp_path / "t"
    slow = outside_bot(tmp_path, "good", delay=0.01)
    proc = subprocess.Popen(
        [FIVES, "tournament", "--game", "all-fives", "--players", "2", "--bots", f"{slow},random",
         "--matches", "200", "--seed", "1", "--jobs", "2", "--out", str(out), "--target", "60"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=ctrl_c_heard,  # as at a terminal, even when the tests run in the background
    )
    try:
        records = out / "records"

        def finished() -> int:
            assert proc.poll() is None, "the tournament ended before its Ctrl-C"
            return len(list(records.glob("*.json"))) if records.exists() else 0

        # four records: a match's record is written just before it is counted, so the first
        # three are surely counted when the Ctrl-C comes
        wait_until(lambda: finished() >= 4, 120, "four finished matches' records")
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C does: the whole foreground group
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert "interrupted:" in stderr
    results = json.loads((out / "results.json").read_text())
    assert results["interrupted"] is True and results["complete"] is False
    assert 3 <= results["matches_played"] < 200
    for m in results["matches"]:
        assert (out / m["record"]).exists()
    assert "easy" not in stdout  # the table names the bots that played
    assert "random" in stdout


@pytest.mark.parametrize(
    "args",
    [
        ["--game", "all-fives", "--players", "2", "--bots", "easy"],
        ["--game", "all-fives", "--players", "3", "--bots", "easy,random"],
        ["--game", "all-fives", "--players", "2", "--bots", "easy,nosuch"],
        ["--game", "nosuch", "--players", "2", "--bots", "easy,random"],
        ["--game", "all-fives", "--players", "5", "--bots", "easy,random"],
        ["--game", "all-fives", "--players", "2", "--bots", "easy,random", "--matches", "0"],
        ["--game", "all-fives", "--players", "2", "--bots", "easy,random", "--jobs", "0"],
        ["--game", "all-fives", "--players", "2", "--bots", "easy,random", "--target", "0"],
        ["--game", "all-fives", "--players", "2", "--bots", "easy,random", "--move-time", "0"],
        ["--game", "all-fives", "--players", "2", "--bots", "cmd:/no/such/program,random"],
        ["--game", "all-fives", "--players", "2", "--bots", "cmd:,random"],
        ["--game", "all-fives", "--players", "2", "--teams", "--bots", "easy,random"],
        ["--game", "all-fives", "--players", "2"],
    ],
)
def test_bad_input_is_one_error_line(tmp_path: Path, args: list[str]) -> None:
    proc = fives("tournament", *args, "--seed", "1", "--out", tmp_path / "x")
    assert_usage_error(proc)


def test_the_hindi_standings_line_up_in_terminal_columns(tmp_path: Path) -> None:
    from fives.cli.columns import width

    proc = fives(
        "tournament", "--game", "all-fives", "--players", "2", "--bots", "easy,random",
        "--matches", "2", "--seed", "3", "--jobs", "1", "--target", "60", "--lang", "hi",
        "--quiet", "--out", tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    rule = next(i for i, line in enumerate(lines) if line.startswith("--"))
    head, rows = lines[rule - 1], lines[rule + 1 : rule + 3]
    assert "स्कोर" in head  # five characters, four columns
    # every cell is padded to its column by the columns it takes, so each line ends where
    # the rule under the headings does
    assert {width(line) for line in [head, *rows]} == {width(lines[rule])}
