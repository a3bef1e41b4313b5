"""The defects issue 16 found in the terminal game and the commands around it, one test each
(each failed before its fix)."""

from __future__ import annotations

import json
import random
import re
import subprocess
from pathlib import Path

import pytest
from tui_harness import FIVES, Game, clean, play_until

from fives.cli.replay_cmd import account
from fives.core.account import account_of
from fives.core.games import Config
from fives.core.layout import Layout
from fives.core.record import Record, record_of
from fives.core.state import State
from fives.phrasing import Names, Tr, fmt_scores, round_end_lines
from fives.tui.drawing import draw

pytestmark = pytest.mark.timeout(120)


def fives(*args: str | Path, lang: str = "C.UTF-8") -> subprocess.CompletedProcess[str]:
    env = {"LANG": lang, "LC_ALL": lang, "PATH": "/usr/bin:/bin", "HOME": "/tmp"}
    return subprocess.run(
        [FIVES, *map(str, args)], capture_output=True, text=True, env=env, timeout=60
    )


# -- the last play of a round shows the scores before the round's payment -------------------


def _round_won_by_a_scoring_last_play() -> tuple[Record, State]:
    """An All Fives match whose first round ends with a scoring play that goes out, paid by
    the other's remaining pips (AF-10)."""
    for seed in range(500):
        rng = random.Random(seed)
        state = State(Config.make("all-fives", 2))
        state.deal_next(rng)
        while state.round_end is None:
            state.play(rng.choice(state.legal_actions()))
        end = state.round_end
        last = state.log[-1]
        if end.reason == "domino" and last[3] > 0 and end.payment == "pool" and any(end.points):
            return record_of(state), state
    raise AssertionError("no such round in 500 seeds")


def test_a_round_ending_play_shows_the_scores_before_the_payment() -> None:
    """AF-10: ``(scores 50–65)`` after a 10-point play from 45 read as if the play had scored
    the payment too; the play's line now shows the scores the play made, and the payment
    follows in the round's summary."""
    record, state = _round_won_by_a_scoring_last_play()
    end = state.round_end
    assert end is not None
    after_play = [s - p for s, p in zip(state.scores_out(), end.points)]
    lines = account(record)
    last_play = next(line for line in reversed(lines) if "points (scores " in line or "point (scores " in line)
    assert f"(scores {fmt_scores(after_play)})" in last_play
    assert f"(scores {fmt_scores(state.scores_out())})" not in last_play
    assert any(line.strip().startswith("Added at the round's end:") for line in lines)


# -- q at the round's end ------------------------------------------------------------------


def test_q_at_press_enter_for_the_next_round_quits(tmp_path: Path) -> None:
    record = tmp_path / "q.json"
    game = Game("--seed", "1", "--bots", "easy", "--record", str(record), home=tmp_path)
    try:
        play_until(game, "Press Enter for round 2")
        game.send("q")
        rest = game.finish()
    finally:
        game.close()
    assert "The match is saved; carry on with: fives play --resume" in rest
    assert game.status == 0
    assert len(json.loads(record.read_text(encoding="utf-8"))["rounds"]) == 1


# -- records that Python's JSON reader refuses ---------------------------------------------


@pytest.mark.parametrize(
    ("lang", "why"),
    [
        ("C.UTF-8", "error: {path}: malformed JSON: a number has too many digits"),
        ("hi_IN.UTF-8", "error: {path}: JSON ठीक नहीं: किसी संख्या में बहुत अधिक अंक हैं"),
    ],
)
def test_a_record_with_a_100000_digit_number_is_one_translated_error_line(
    tmp_path: Path, lang: str, why: str
) -> None:
    path = tmp_path / "huge.json"
    path.write_text('{"game": "all-fives", "players": 2, "target": ' + "9" * 100_000 + ', "rounds": []}')
    for command in (("replay", path), ("analyse", path), ("replay", path, "--json")):
        proc = fives(*command, lang=lang)
        assert proc.returncode == 2, (command, proc.stderr)
        assert proc.stderr.splitlines() == [why.format(path=path)], (command, proc.stderr)
        assert "ValueError" not in proc.stderr


def test_resuming_a_record_with_a_100000_digit_number_is_one_error_line(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    path.write_text('{"game": "all-fives", "players": 2, "rounds": [' + "1" * 100_000 + "]}")
    proc = fives("play", "--resume", path, "--plain", lang="hi_IN.UTF-8")
    assert proc.returncode == 2
    assert len(proc.stderr.splitlines()) == 1
    assert proc.stderr.startswith("error: ") and "किसी संख्या में बहुत अधिक अंक हैं" in proc.stderr


# -- Hindi error lines carry no English ----------------------------------------------------


def _english(text: str, path: Path) -> set[str]:
    return set(re.findall(r"[A-Za-z]{2,}", text.replace(str(path), "")))


def test_hindi_errors_for_a_folder_and_malformed_json_are_all_hindi(tmp_path: Path) -> None:
    folder = tmp_path / "dir.json"
    folder.mkdir()
    broken = tmp_path / "broken.json"
    broken.write_text('{"game": "all-fives", "players": ')
    for args, path in [
        (("replay", folder), folder),
        (("analyse", folder), folder),
        (("play", "--resume", folder, "--plain"), folder),
        (("replay", broken), broken),
        (("analyse", broken), broken),
        (("play", "--resume", broken, "--plain"), broken),
    ]:
        proc = fives(*args, lang="hi_IN.UTF-8")
        assert proc.returncode == 2, (args, proc.stderr)
        assert len(proc.stderr.splitlines()) == 1, proc.stderr
        # the line begins ``error:`` in every language (RECORD.md); the rest is Hindi
        assert proc.stderr.startswith("error: "), proc.stderr
        assert not _english(proc.stderr.removeprefix("error: "), path) - {"JSON"}, (args, proc.stderr)
        assert "Is a directory" not in proc.stderr and "malformed" not in proc.stderr
    assert "यह एक फ़ोल्डर है" in fives("replay", folder, lang="hi_IN.UTF-8").stderr
    assert "JSON ठीक नहीं: पंक्ति 1, स्तंभ 34" in fives("replay", broken, lang="hi_IN.UTF-8").stderr


# -- analyse speaks Hindi ------------------------------------------------------------------


def test_analyse_tells_its_review_in_hindi(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    subprocess.run(
        [FIVES, "random", "--game", "all-fives", "--players", "2", "--seed", "3", "-o", str(path)],
        check=True, capture_output=True,
    )
    proc = fives("analyse", path, "--bot", "easy", "--round", "1", "--lang", "hi")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "समीक्षक: आसान" in out and "दौर 1" in out and "कुल हानि" in out
    words = _english(out, path) - {"all", "fives"}
    assert not words, words


# -- outside bots that cannot start ---------------------------------------------------------


@pytest.mark.parametrize(
    ("bot", "why"),
    [
        ("cmd:/nonexistent", "Cannot start the bot program “/nonexistent”: it cannot be run."),
        ("cmd:no-such-program-here", "Cannot start the bot program “no-such-program-here”: no such program."),
        ("cmd:false", "Cannot start the bot program “false”: it stopped at once (exit status 1)."),
    ],
)
def test_a_bot_program_that_cannot_start_is_said_at_once_and_nothing_is_played(
    tmp_path: Path, bot: str, why: str
) -> None:
    record = tmp_path / "r.json"
    proc = subprocess.run(
        [FIVES, "play", "--bots", bot, "--record", str(record), "--plain"],
        capture_output=True, text=True, timeout=60, input="",
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8"},
    )
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [f"error: {why}"]
    assert proc.stdout == ""
    assert not record.exists()


# -- hot seat: the next player's summary tells the draws --------------------------------------


def test_the_hot_seat_hand_over_tells_the_other_players_draws_without_their_tiles(tmp_path: Path) -> None:
    game = Game(
        "--seed", "1", "--bots", "human", "--names", "Asha,Ravi", "--record", str(tmp_path / "h.json"),
        home=tmp_path,
    )
    handovers = []
    try:
        for _ in range(80):
            text = game.prompt()
            if "pass the keyboard" in text:
                handovers.append(text)
            if "Press Enter for round 2" in text:
                break
            game.send("1")
    finally:
        game.close()
    summaries = [game.screens[i + 1] for i, s in enumerate(game.screens[:-1]) if "pass the keyboard" in s]
    told = [s for s in summaries if "Since your last turn:" in s and "draws a tile from the stock" in s]
    assert told, "no hand-over summary told a draw"
    for s in told:
        since = s.split("Since your last turn:")[1]
        for line in since.splitlines():
            if "draws" in line and ("Asha" in line.split(":")[0] or "Ravi" in line.split(":")[0]):
                who = line.split(":")[0].strip("• ")
                if f"Turn of {who}" not in s:
                    assert "draws a tile from the stock" in line, line
    assert any("Turn of Asha (seat 1)" in h for h in handovers)
    assert any("Turn of Ravi (seat 2)" in h for h in handovers)


# -- Draw and Block: no counts that never score ---------------------------------------------


@pytest.mark.parametrize("name", ["draw", "block"])
def test_draw_and_block_mark_open_ends_without_counts(name: str, tmp_path: Path) -> None:
    lay = Layout(spinner_rules=False)
    for a in ("5-5", "5-2@E", "3-5@W"):
        lay.place_text(a)
    drawn = "\n".join(draw(lay, scoring=Config.make(name, 2).game.ends_score).lines())
    assert "W:" in drawn and "E:2" in drawn
    assert "(+" not in drawn
    game = Game("--game", name, "--seed", "2", "--bots", "easy", "--record", str(tmp_path / "d.json"), home=tmp_path)
    try:
        text = play_until(game, "Press Enter for round 2")
        game.send("h")
    finally:
        game.close()
    assert "(+" not in text
    assert "counts" not in text
    assert re.search(r"\b[WE]:\d\b", text)


# -- plurals ---------------------------------------------------------------------------------


def test_one_pip_and_one_point_are_singular(tmp_path: Path) -> None:
    tr = Tr("en")
    cfg = Config.make("block", 2)
    from fives.core.state import RoundEnd
    from fives.core.tiles import Tile

    end = RoundEnd("blocked", 0, (1, 0), (0, 1), "plain", left=(0, Tile.parse("0-1").mask))
    names = Names(tr, cfg, ["human", "easy"], 0)
    lines = round_end_lines(names, account_of(cfg, end), 1)
    assert any("(1 pip)" in line for line in lines), lines
    assert not any("1 pips" in line for line in lines)
    game = Game("--target", "1", "--bots", "easy", "--record", str(tmp_path / "t.json"), home=tmp_path)
    try:
        text = game.prompt()
    finally:
        game.close()
    assert "Target: 1 point\n" in text


# -- --version -------------------------------------------------------------------------------


def test_version_is_printed() -> None:
    proc = fives("--version")
    assert proc.returncode == 0
    # the version, then which core runs (tests/test_compiled.py checks that part)
    assert re.fullmatch(r"fives \d+\.\d+\.\d+: (compiled|pure Python) core \(.+\)\n", proc.stdout)


def test_transcript_in_a_pipe_has_no_escape_codes(tmp_path: Path) -> None:
    """Issue 16 item 3: with standard output a pipe, the transcript is told (no full screen,
    no escape codes) and input lines are read as they come."""
    proc = subprocess.run(
        [FIVES, "play", "--seed", "1", "--bots", "easy", "--record", str(tmp_path / "p.json")],
        capture_output=True, text=True, timeout=60, input="\x1b[A1\n" * 30,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8", "TERM": "xterm-256color"},
    )
    assert proc.returncode == 0, proc.stderr
    assert "\x1b" not in proc.stdout
    assert "All Fives · round 1 · target 250" in proc.stdout
    assert "Not understood" not in proc.stdout
    assert "Input closed; the match is saved" in proc.stdout
    assert clean(proc.stdout) == proc.stdout
