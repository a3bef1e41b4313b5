"""The ``fives`` command line, run as a user runs it: ``replay`` and ``random``."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from clikit import FIVES
from examplekit import EXAMPLES, example_records, needs_examples
from fives.core.record import Record, replay_state, report_of

ROOT = Path(__file__).resolve().parents[1]
SEED_EXAMPLE = EXAMPLES / "seed-all-fives-spinner.json"
FINISHED_EXAMPLE = EXAMPLES / "all-fives-4p.json"

GAMES = ["all-fives", "fives-and-threes", "muggins", "draw", "block"]


def fives(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [FIVES, *map(str, args)], capture_output=True, text=True, timeout=120, check=False
    )


def assert_usage_error(proc: subprocess.CompletedProcess[str]) -> None:
    """Exit 2, nothing on stdout, exactly one ``error:`` line on stderr, no traceback."""
    assert proc.returncode == 2, proc
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: ")
    assert "Traceback" not in proc.stderr


# -- replay: the text account ---------------------------------------------------------------


@needs_examples
def test_replay_text_tells_the_seed_example_with_its_scoring_sentences() -> None:
    proc = fives("replay", SEED_EXAMPLE, "--lang", "en")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith("All Fives (all-fives), 2 players\n")
    assert "Leader: seat 1, by lot" in out
    # C-5: the lone lead counts both halves; SP-4: the spinner counts while a straight arm is empty
    assert "seat 1: leads 1-4 · 1 + 4 = 5: 5 points (scores 5–0)" in out
    assert "seat 2: 1-1 on W (the spinner) · 2 + 4 = 6: 0 points\n" in out
    assert "seat 1: 4-4 on E · 2 + 8 = 10: 10 points (scores 15–0)" in out
    assert "seat 2: 1-5 on N · 2 + 3 + 5 = 10: 10 points (scores 20–15)" in out
    assert "Round 1 is unfinished" in out
    assert out.rstrip().endswith("Unfinished, scores 35–20.\nRounds played: 1")


@needs_examples
def test_replay_text_tells_round_ends_payments_and_the_match_result() -> None:
    proc = fives("replay", FINISHED_EXAMPLE, "--lang", "en")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Partnerships: seats 1+3 against seats 2+4" in out
    assert "Round 1 over: seat 3 went out (domino).\n  Round winner: seats 1+3\n" in out
    for hand in ("seat 1: 5-5 (10 pips)", "seat 2: 2-2 (4 pips)", "seat 3: none (0 pips)",
                 "seat 4: 2-5 2-6 6-6 (27 pips)"):
        assert f"\n    {hand}\n" in out
    # AF-10: one pool, rounded to five once
    assert ("pooled (seat 2 4 + seat 4 27 = 31) and rounded to five once: "
            "30 points to seats 1+3.") in out
    assert "Added at the round's end: seats 1+3 +30, seats 2+4 +0" in out
    assert "  Scores: 60–35" in out
    assert "Leader: seat 3, having played the last tile of round 1" in out  # AF-12
    report = report_of(replay_state(Record.from_json(FINISHED_EXAMPLE.read_text())))
    winner = report["winner"]
    scores = "–".join(str(s) for s in report["scores"])
    assert out.rstrip().endswith(f"Winner of the match: seats {winner + 1}+{winner + 3}, {scores}.\n"
                                 f"Rounds played: {len(report['rounds'])}")


@needs_examples
def test_replay_text_knocks_in_fives_and_threes_and_draws_show_their_tile() -> None:
    out = fives("replay", EXAMPLES / "fives-and-threes-4p.json", "--lang", "en").stdout
    assert ": knocks (no tile fits)\n" in out and ": passes" not in out
    assert "the lead passes one seat clockwise each round" in out  # FT-3
    assert "sits out" in out  # FT-8
    out = fives("replay", EXAMPLES / "all-fives-4p.json", "--lang", "en").stdout
    assert "seat 2: draws 1-5 from the stock\n" in out


@needs_examples
def test_replay_layout_draws_the_final_layout_as_the_game_does_with_its_legend() -> None:
    """Issue 16: ``replay --layout`` draws tiles as ``fives play`` does, and says how to read
    the drawing."""
    from fives.tui.drawing import draw

    proc = fives("replay", SEED_EXAMPLE, "--layout")
    assert proc.returncode == 0, proc.stderr
    state = replay_state(Record.from_json(SEED_EXAMPLE.read_text(encoding="utf-8")))
    drawn = draw(state.layout).lines()
    assert "W:2(+2) [2│1]╠═╣[1│4]├─┤[4│3] E:3(+3)" in drawn
    for row in drawn:
        assert "    " + row in proc.stdout.splitlines()
    assert "ends: 2 + 3 + 0 + 3 = 8" in proc.stdout
    assert "W:2(+2) marks an open end" in proc.stdout and "╔═╗ is the spinner" in proc.stdout


# -- replay: --json stays the contract ------------------------------------------------------


@needs_examples
def test_replay_json_is_the_core_report_byte_for_byte() -> None:
    paths = example_records()
    proc = fives("replay", *paths, "--json")
    assert proc.returncode == 0, proc.stderr
    want = "".join(
        json.dumps(report_of(replay_state(Record.from_json(p.read_text())))) + "\n" for p in paths
    )
    assert proc.stdout == want


@needs_examples
@pytest.mark.parametrize("json_flag", [[], ["--json"]], ids=["text", "json"])
def test_replay_rejects_a_bad_record_with_one_error_line(tmp_path: Path, json_flag: list[str]) -> None:
    data = json.loads(FINISHED_EXAMPLE.read_text())
    data["rounds"][0]["actions"][1] = "6-6@N"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    proc = fives("replay", bad, *json_flag)
    assert_usage_error(proc)
    assert proc.stderr.startswith(f"error: {bad}: round 1, action 2, seat 1, '6-6@N'")


@pytest.mark.parametrize("json_flag", [[], ["--json"]], ids=["text", "json"])
def test_replay_rejects_malformed_and_missing_files(tmp_path: Path, json_flag: list[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert_usage_error(fives("replay", bad, *json_flag))
    assert_usage_error(fives("replay", tmp_path / "missing.json", *json_flag))


def test_replay_layout_does_not_go_with_json(tmp_path: Path) -> None:
    assert_usage_error(fives("replay", tmp_path / "x.json", "--json", "--layout"))


# -- random ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("game", GAMES)
def test_random_match_is_a_valid_record_and_repeats_by_seed(
    tmp_path: Path, game: str, players: int
) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    for path in (first, second):
        proc = fives("random", "--game", game, "--players", players, "--seed", 7, "-o", path)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout == ""
        assert "seed:" not in proc.stderr  # given, so not drawn
    assert first.read_bytes() == second.read_bytes()
    record = json.loads(first.read_text())
    assert record["game"] == game and record["players"] == players
    assert record["seats"] == ["random"] * players
    proc = fives("replay", first, "--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["over"] is True
    assert fives("replay", first).returncode == 0


def test_random_writes_to_stdout_and_draws_a_seed_it_prints(tmp_path: Path) -> None:
    proc = fives("random", "--game", "muggins", "--players", "2")
    assert proc.returncode == 0, proc.stderr
    seed_line, summary = proc.stderr.splitlines()
    assert seed_line.startswith("seed: ")
    assert "muggins, 2 players: " in summary and "scores" in summary
    again = fives("random", "--game", "muggins", "--players", "2", "--seed", seed_line[6:])
    assert again.stdout == proc.stdout


def test_random_output_file(tmp_path: Path) -> None:
    out = tmp_path / "match.json"
    proc = fives("random", "--game", "all-fives", "--players", "4", "--seed", "3", "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""
    data = json.loads(out.read_text())
    assert data["teams"] is True and data["target"] == 200
    assert out.read_text() == fives("random", "--game", "all-fives", "--players", "4",
                                    "--seed", "3").stdout


@pytest.mark.parametrize(
    ("args", "winner"),
    [
        (["--game", "all-fives", "--players", "4", "--teams", "--seed", "1"], "seats 1+3 win"),
        (["--game", "muggins", "--players", "3", "--seed", "1"], "seat 3 wins"),
    ],
)
def test_random_summary_numbers_seats_from_one(tmp_path: Path, args: list[str], winner: str) -> None:
    """The summary names the winner as every screen numbers seats; the record's winner is the
    side one less (RECORD.md numbers from 0)."""
    out = tmp_path / "m.json"
    proc = fives("random", *args, "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.rstrip().endswith(winner), proc.stderr
    report = report_of(replay_state(Record.from_json(out.read_text())))
    assert report["winner"] == int(winner.split()[1][0]) - 1


def test_random_house_rules_and_target_reach_the_record(tmp_path: Path) -> None:
    out = tmp_path / "match.json"
    proc = fives("random", "--game", "block", "--players", "2", "--hand-size", "5",
                 "--target", "30", "--seed", "1", "-o", out)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(out.read_text())
    assert data["rules"] == {"hand_size": 5} and data["target"] == 30
    assert all(len(h) == 5 for r in data["rounds"] for h in r["hands"])
    assert fives("replay", out, "--json").returncode == 0


@pytest.mark.parametrize(
    "args",
    [
        ["--game", "chess", "--players", "2"],
        ["--game", "all-fives", "--players", "1"],
        ["--game", "all-fives", "--players", "5"],
        ["--game", "muggins", "--players", "3", "--teams"],
        ["--game", "draw", "--players", "2", "--target", "0"],
        ["--game", "draw", "--players", "2", "--target", "-5"],
        ["--game", "draw", "--players", "4", "--hand-size", "8"],
        ["--game", "draw", "--players", "two"],
        ["--players", "2"],
    ],
    ids=lambda a: " ".join(a),
)
def test_random_rejects_bad_arguments_with_one_error_line(args: list[str]) -> None:
    assert_usage_error(fives("random", *args))


def test_random_rejects_an_unwritable_output(tmp_path: Path) -> None:
    target = tmp_path / "no-such-dir" / "x.json"
    assert_usage_error(
        fives("random", "--game", "draw", "--players", "2", "--seed", "1", "-o", target)
    )
    assert not target.exists()


# -- the argument parser's complaints, in the reader's language -------------------------------


@pytest.mark.parametrize(
    ("args", "english", "hindi"),
    [
        (["analyse", "r.json", "--seat", "q"],
         "error: --seat takes a whole number, not 'q' (see 'fives --help')",
         "error: --seat के बाद कोई पूरी संख्या लिखें, 'q' नहीं ('fives --help' देखें)"),
        (["play", "--game", "nope"],
         "error: --game is one of all-fives, fives-and-threes, muggins, draw, block, not 'nope' (see 'fives --help')",
         "error: --game इनमें से एक हो: all-fives, fives-and-threes, muggins, draw, block; 'nope' नहीं ('fives --help' देखें)"),
        (["play", "--timer", "soon"],
         "error: --timer takes a number, not 'soon' (see 'fives --help')",
         "error: --timer के बाद कोई संख्या लिखें, 'soon' नहीं ('fives --help' देखें)"),
        (["analyse", "r.json", "--seat"],
         "error: --seat needs a value after it (see 'fives --help')",
         "error: --seat के बाद उसका मान लिखें ('fives --help' देखें)"),
        (["replay", "r.json", "--bogus"],
         "error: not understood: --bogus (see 'fives --help')",
         "error: समझ नहीं आया: --bogus ('fives --help' देखें)"),
    ],
)
def test_a_refused_argument_is_one_line_in_the_readers_language(
    args: list[str], english: str, hindi: str
) -> None:
    """Bad input of any kind is one translated line: --lang chooses the language, as the locale
    does without it."""
    for lang, said in (("en", english), ("hi", hindi)):
        for words in ([*args, "--lang", lang], [*args, f"--lang={lang}"]):
            proc = fives(*words)
            assert_usage_error(proc)
            assert proc.stderr.strip() == said, (words, proc.stderr)


def test_an_unknown_command_is_told_in_the_locales_language() -> None:
    env = {**os.environ, "LANG": "hi_IN.UTF-8", "LC_ALL": "", "LC_MESSAGES": "", "LANGUAGE": ""}
    proc = subprocess.run([FIVES, "nosuch"], capture_output=True, text=True, timeout=60, env=env, check=False)
    assert_usage_error(proc)
    assert proc.stderr.startswith("error: 'nosuch' नाम का कोई कमांड नहीं; इनमें से एक चुनें: bench,")


# -- every command's own refusals and reports in the reader's language -----------------------

_LATIN_WORD = re.compile(r"\b(?:must|cannot|needs?|not|the|is|at least|unknown|there)\b")


@pytest.mark.parametrize(
    ("args", "english", "hindi"),
    [
        (["random", "--game", "all-fives", "--players", "9"],
         "error: players must be 2, 3 or 4, not 9",
         "error: खिलाड़ी 2, 3 या 4 होने चाहिए; 9 नहीं"),
        (["random", "--game", "block", "--players", "2", "-o", "/nonexistent/m.json"],
         "error: /nonexistent/m.json: cannot write: no such file or folder",
         "error: /nonexistent/m.json: लिखा नहीं जा सका: ऐसी कोई फ़ाइल या फ़ोल्डर नहीं"),
        (["tournament", "--game", "all-fives", "--players", "3", "--bots", "easy,random"],
         "error: 3 players need 3 bots (or 2 for 4 players), not 2",
         "error: 3 खिलाड़ियों के लिए 3 बॉट चाहिए (या 4 खिलाड़ियों के लिए 2), 2 नहीं"),
        (["tournament", "--game", "all-fives", "--players", "2", "--bots", "easy,nob"],
         "error: there is no bot nob: one of random, easy, medium, hard, expert, cheat, ",
         "error: nob नाम का कोई बॉट नहीं; इनमें से एक चुनें: random, easy, medium, hard, "),
        (["tournament", "--game", "all-fives", "--players", "2", "--bots", "easy,easy",
          "--matches", "0"],
         "error: --matches must be at least 1, not 0",
         "error: --matches कम से कम 1 हो, 0 नहीं"),
        (["bench", "engine", "--seconds", "0"],
         "error: --seconds must be from 0 to 600, not 0",
         "error: --seconds 0 से 600 तक हो, 0 नहीं"),
        (["bot", "cmd:"],
         "error: 'cmd:' needs a command line after it",
         "error: 'cmd:' के बाद कमांड लिखें"),
        (["db", "upgrade", "--db", "mysql://x/y"],
         "error: unknown database mysql:// (a file path, sqlite:///path or ",
         "error: mysql:// कोई जाना-पहचाना डेटाबेस नहीं (फ़ाइल का पथ, sqlite:///पथ या "),
        (["db", "archive", "--older-than", "-1"],
         "error: --older-than cannot be negative",
         "error: --older-than ऋणात्मक नहीं हो सकता"),
        (["serve", "--workers", "2"],
         "error: --workers above 1 needs --db postgresql://… and --redis redis://…",
         "error: --workers 1 से ज़्यादा हो तो --db postgresql://… और --redis redis://… चाहिए"),
        (["serve", "--turn-time", "1"],
         "error: --turn-time is 0 (off) or at least 3 seconds",
         "error: --turn-time 0 (बंद) हो या कम से कम 3 सेकंड"),
        (["serve", "--events", "no-such-events.json"],
         "error: cannot read the events file no-such-events.json: no such file or folder",
         "error: प्रतियोगिता फ़ाइल no-such-events.json पढ़ी नहीं जा सकी: ऐसी कोई फ़ाइल या फ़ोल्डर नहीं"),
        (["serve", "--events", "events.json"],
         'error: arena 1 (hourly): every cannot be "fortnight"',
         'error: एरीना 1 (hourly): every का मान "fortnight" नहीं हो सकता'),
    ],
)
def test_every_commands_refusal_is_one_line_in_the_readers_language(
    args: list[str], english: str, hindi: str, tmp_path: Path
) -> None:
    """random, tournament, bench, bot, db and serve refuse bad input as replay does: one
    ``error:`` line in the language of --lang, stored data untouched."""
    (tmp_path / "events.json").write_text(json.dumps({"arenas": [{
        "key": "hourly", "game": "block", "players": 2, "minutes": 30, "every": "fortnight",
        "at": ":00"}]}), encoding="utf-8")
    for lang, said in (("en", english), ("hi", hindi)):
        proc = subprocess.run(
            [FIVES, *args, "--lang", lang], capture_output=True, text=True, timeout=120,
            check=False, cwd=tmp_path,
        )
        assert_usage_error(proc)
        assert proc.stderr.startswith(said), (args, proc.stderr)
        if lang == "hi":
            assert not _LATIN_WORD.search(proc.stderr), proc.stderr


def test_randoms_summary_and_seed_are_told_in_hindi() -> None:
    proc = fives("random", "--game", "all-fives", "--players", "4", "--teams", "--lang", "hi")
    assert proc.returncode == 0, proc.stderr
    seed_line, summary = proc.stderr.splitlines()
    assert seed_line.startswith("बीज: ")
    assert summary.startswith("all-fives, 4 खिलाड़ी: ") and "स्कोर" in summary
    assert summary.endswith(("सीट 1+3 की जीत", "सीट 2+4 की जीत")), summary


def test_db_upgrade_reports_in_hindi_with_counts_that_agree(tmp_path: Path) -> None:
    db = tmp_path / "fives.sqlite3"
    first = fives("db", "upgrade", "--db", db, "--lang", "hi")
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines()[0] == "लागू हुआ: 0001_tables"
    again = fives("db", "upgrade", "--db", db, "--lang", "hi")
    assert again.stdout.strip() == "डेटाबेस का स्कीमा नया है (अभी 0 बदलाव लागू हुआ)"
    english = fives("db", "archive", "--db", db, "--lang", "en")
    assert english.stdout.startswith("0 finished matches archived")


@pytest.mark.parametrize(
    "command", ["random", "tournament", "bench", "bot", "db", "serve", "replay", "analyse", "play"]
)
def test_every_options_help_is_in_the_locales_language(
    command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fives COMMAND --help`` reads in Hindi under a Hindi locale: the command and each of
    its options (argparse's own -h aside)."""
    import argparse

    from fives.cli.main import build_parser

    for var in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "hi_IN.UTF-8")
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    parser = sub.choices[command]
    devanagari = re.compile("[\u0900-\u097f]")
    texts = [parser.description or ""] + [
        str(a.help) for a in parser._actions if not isinstance(a, argparse._HelpAction)
    ]
    english = [text for text in texts if not devanagari.search(text)]
    assert not english, english
