"""``fives play`` driven through a pseudo-terminal, as a player plays it (issue 4, issue 7).

The bots are ``easy`` (instant); the seeds give short rounds with the events each test needs
(a spinner with its side arms and a draw, a knock). Where a seed's round lacks the event, the
next seed is tried, so the tests do not hang on one deal.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from tui_harness import Game, clean, play_until

from fives.core.record import Record, replay_state

pytestmark = pytest.mark.timeout(120)

SENTENCE = re.compile(r"\d+(?: \+ \d+)* = \d+: \d+ points?")
SENTENCE_HI = re.compile(r"\d+(?: \+ \d+)* = \d+: \d+ अंक")


def _round_of_all_fives(tmp_path: Path, seed: int) -> tuple[Game, str]:
    record = tmp_path / f"af-{seed}.json"
    game = Game("--seed", str(seed), "--bots", "easy", "--record", str(record), home=tmp_path)
    text = play_until(game, "Press Enter for round 2")
    return game, text


def test_whole_round_of_all_fives_with_a_spinner_and_a_draw(tmp_path: Path) -> None:
    """AF-5 (spinner, SP-3 side arms), AF-7 (drawing), AF-6 scoring sentences, AF-10 payment."""
    for seed in (1, 17, 4, 13):
        game, text = _round_of_all_fives(tmp_path, seed)
        try:
            if "(the spinner)" in text and "you: draws" in text and re.search(r"on [NS] ", text):
                break
        finally:
            game.child.sendeof()
            game.finish()
    else:
        pytest.fail("no seed gave a round with a spinner, side arms and a draw")
    # the table: title, scores with the tally legend, the stock, the hand, the numbered moves
    assert "All Fives · round 1 · target 250" in text
    assert "Tally: │ = 5 points" in text
    assert "Stock: " in text
    assert "Your hand:" in text
    assert re.search(r"^\s+1  \S", text, re.M)
    # the layout drawn as a layout: the spinner box, its side arms, marked open ends
    assert "╔" in text and "╠═╣" in text and "╚" in text
    assert re.search(r"\bN:\d\(\+\d+\)", text) and re.search(r"\bS:\d\(\+\d+\)", text)
    assert re.search(r"\bW:\d\(\+\d+\)", text) and re.search(r"\bE:\d\(\+\d+\)", text)
    assert "Ends total: " in text
    # every play tells its scoring sentence
    assert SENTENCE.search(text)
    # forced draws are shown and need one key
    assert "you must draw from the stock" in text
    assert "Press Enter to go on" in text
    # the round-end summary: remaining pips, the payment, the points, the score sheet
    assert "End of round 1" in text
    assert "Remaining tiles:" in text
    assert "pips)" in text
    assert re.search(r"rounded to five once: \d+ points? to|Tie for the fewest pips", text)
    assert "Added at the round's end:" in text
    assert "Score sheet" in text
    # the record was written as the match went: it replays, round 1 finished
    record = Record.from_json((tmp_path / f"af-{seed}.json").read_text(encoding="utf-8"))
    state = replay_state(record)
    assert record.seats == ["human", "easy"]
    assert len(state.rounds()) == 1 and state.round_end is not None


def test_fives_and_threes_round_with_a_knock_and_the_61_track(tmp_path: Path) -> None:
    """FT-5 (knocking), FT-6 (the 3s and 5s sentence), FT-7 (the point for going out)."""
    for seed in (7, 8, 2, 14):
        game = Game(
            "--game", "fives-and-threes", "--seed", str(seed), "--bots", "easy",
            "--record", str(tmp_path / f"ft-{seed}.json"), home=tmp_path,
        )
        text = play_until(game, "Press Enter for round 2")
        game.child.sendeof()
        rest = game.finish()
        if "knocks (no tile fits)" in text:
            break
    else:
        pytest.fail("no seed gave a knock")
    assert "Fives and Threes · round 1 · target exactly 61" in text
    assert "No drawing: 14 tiles out of play" in text
    assert "Track of 61 holes" in text
    assert re.search(r"[●◆][●◆·]{4} [●◆·]{5}", text)  # the track, in groups of five
    assert re.search(r"÷ [35] = \d", text)  # how the points were found
    if "you: knocks" in text:
        assert "you knock." in text  # a forced knock, shown, one key
    assert "End of round 1" in text
    if "for going out" in text:  # FT-7: a player went out and scored the extra point
        assert "(counted with the last play)." in text
    else:  # FT-9: blocked, nobody wins the round
        assert "Nobody wins the round" in text
    assert "Remaining tiles never score in Fives and Threes." in text  # FT-9, either way
    assert "Input closed; the match is saved" in rest
    assert game.status == 0


def test_bad_input_reprompts_with_a_reason_and_never_crashes(tmp_path: Path) -> None:
    game = Game(
        "--game", "fives-and-threes", "--seed", "7", "--bots", "easy",
        "--record", str(tmp_path / "bad.json"), home=tmp_path,
    )
    try:
        text = game.prompt()
        while "Your moves:" not in text or "lead " in text:
            game.send("1")
            text = game.prompt()
        held = re.search(r"Your hand: (.*)", text)
        assert held is not None
        hand = re.findall(r"\[(\d)│(\d)\]", held.group(1))
        mine = {f"{a}-{b}" for a, b in hand}
        missing = next(f"{a}-{b}" for a in range(7) for b in range(a, 7) if f"{a}-{b}" not in mine)
        first = re.search(r"^\s+1  (\d-\d) on ([WE])", text, re.M)
        assert first is not None
        for typed, reason in [
            ("xyz", "Not understood: “xyz”"),
            ("", "Type a number from the list"),
            ("42", "There is no move 42"),
            (f"{missing} e", f"You do not hold {missing}."),
            (f"{first.group(1)} n", "End N is not open (open ends: W "),
            ("draw", "Fives and Threes has no drawing."),
            ("pass", "You hold a tile that fits, so you must play it."),
        ]:
            game.send(typed)
            answer = game.prompt()
            assert reason in answer, (typed, answer)
            assert "Your move" in answer  # asked again
        # a wrong end for a tile that fits elsewhere
        other = "W" if first.group(2) == "E" else "E"
        game.send(f"{first.group(1)} {other.lower()}")
        answer = game.prompt()
        if first.group(1) not in re.findall(rf"(\d-\d) on {other}", text):
            assert f"does not fit end {other}" in answer
        # a good move written as tile and end is accepted
        game.send(f"{first.group(1).replace('-', '')}{first.group(2).lower()}")
        answer = game.prompt()
        assert f"you: {first.group(1)} on {first.group(2)}" in answer
        assert "Traceback" not in game.transcript
    finally:
        game.close()


def test_hint_gives_the_best_moves_with_their_values_and_r_shows_the_rules(tmp_path: Path) -> None:
    game = Game(
        "--seed", "1", "--bots", "easy", "--record", str(tmp_path / "hint.json"), home=tmp_path,
    )
    try:
        text = game.prompt()
        while "Your moves:" not in text:
            game.send("1")
            text = game.prompt()
        game.send("?")
        answer = game.prompt()
        assert re.search(r"Hint from the (hard|easy) bot: move \d+, ", answer), answer
        # signed points with one decimal (issue 40: a bare "3.47" read as a raw number)
        assert re.search(r"^\s+\d+\) .+: [+-]\d+\.\d points$", answer, re.M), answer
        game.send("r")
        answer = game.prompt()
        assert "Rules: All Fives" in answer
        assert "spinner" in answer and "rounded to five once" in answer
        game.send("h")
        assert "How to move" in game.prompt()
        game.send("q")
        rest = game.finish()
        assert "The match is saved; carry on with: fives play --resume" in rest
        assert game.status == 0
    finally:
        game.close()


def test_interrupted_match_resumes_from_its_record(tmp_path: Path) -> None:
    """Ctrl-C loses nothing: the record holds every action; --resume carries on, dealing and
    playing exactly as the uninterrupted match would."""
    # the uninterrupted match, to compare with
    whole = tmp_path / "whole.json"
    game = Game("--seed", "4", "--bots", "easy", "--record", str(whole), home=tmp_path)
    play_until(game, "Press Enter for round 2")
    game.close()
    # the same match, interrupted after a few answers
    cut = tmp_path / "cut.json"
    game = Game("--seed", "4", "--bots", "easy", "--record", str(cut), home=tmp_path)
    for _ in range(4):
        game.prompt()
        game.send("1")
    game.prompt()
    game.child.sendintr()
    rest = game.finish()
    assert "Interrupted; the match is saved: fives play --resume" in rest
    assert game.status == 130
    saved = json.loads(cut.read_text(encoding="utf-8"))
    assert saved["seats"] == ["human", "easy"] and saved["seed"] == 4
    done = len(saved["rounds"][0]["actions"])
    assert done >= 4
    # carry on
    game = Game("--resume", str(cut), home=tmp_path)
    try:
        first = game.prompt()
        assert "Carrying on All Fives in round 1, scores " in first
        game.send("1")
        play_until(game, "Press Enter for round 2")
    finally:
        game.close()
    a = json.loads(whole.read_text(encoding="utf-8"))["rounds"][0]
    b = json.loads(cut.read_text(encoding="utf-8"))["rounds"][0]
    assert b == a
    assert len(b["actions"]) > done


def test_a_round_in_hindi(tmp_path: Path) -> None:
    """Issue 7: with --lang hi every sentence is Hindi: the scoring sentence, the summary."""
    record = tmp_path / "hi.json"
    game = Game(
        "--seed", "1", "--bots", "easy", "--record", str(record), "--lang", "hi", home=tmp_path
    )
    try:
        text = play_until(game, "दौर 2 के लिए Enter दबाएँ")
        game.child.sendeof()
        rest = game.finish()
    finally:
        game.close()
    assert "ऑल फाइव्स · दौर 1 · लक्ष्य 250" in text
    assert SENTENCE_HI.search(text)
    assert "(स्पिनर)" in text
    assert "आपकी संभव चालें:" in text
    assert "भंडार" in text
    assert "दौर 1 का अंत" in text
    assert "बची गोटियाँ:" in text
    assert "दौर 1 खत्म" in text
    assert "दौर के अंत में जुड़े अंक:" in text
    assert "स्कोर पत्रक" in text
    assert "इनपुट बंद; मैच सहेजा गया" in rest
    # no English word on screen: only tile notation, end letters, digits and the Enter key
    shown = "\n".join(
        # (a line naming the record's file: a path is written as it is, now short)
        line for line in (text + rest).splitlines()
        if str(tmp_path) not in line and ".json" not in line
    )
    words = set(re.findall(r"[A-Za-z]{2,}", shown))
    assert words <= {"Enter"}, words


def test_timer_lets_the_easy_bot_move_for_a_slow_player(tmp_path: Path) -> None:
    game = Game(
        "--seed", "1", "--bots", "easy", "--timer", "1", "--record", str(tmp_path / "t.json"),
        home=tmp_path,
    )
    try:
        text = game.prompt()
        while "Your moves:" not in text:
            game.send("1")
            text = game.prompt()
        assert "[1 s]" in text
        text = game.prompt()  # no answer: the countdown runs out
        assert "Time is up: the easy bot moves for you: " in text
    finally:
        game.close()


def test_hot_seat_hides_hands_between_turns(tmp_path: Path) -> None:
    game = Game(
        "--seed", "3", "--bots", "human", "--record", str(tmp_path / "hs.json"), home=tmp_path
    )
    try:
        turns = 0
        for _ in range(12):
            text = game.prompt()
            if "pass the keyboard" in text:
                turns += 1
                assert re.search(r"Turn of seat [12] \(player\)", text)
                assert "Your hand:" not in text  # nobody's hand is on screen at a hand-over
            game.send("1")
        assert turns >= 2
        raw = "".join(game.raw)
        # screen and scrollback are cleared before every hand-over but the first (no hand yet)
        assert raw.count("\x1b[2J") == raw.count("\x1b[3J") >= turns - 1
    finally:
        game.close()


def test_bad_options_give_one_error_line(tmp_path: Path) -> None:
    for args, message in [
        (("--players", "5"), "error: --players must be 2, 3 or 4, not 5."),
        (("--bots", "nobody"), "error: Unknown bot nobody"),
        (("--seat", "3"), "error: --seat must be a seat from 1 to 2, not 3."),
        (("--resume", str(tmp_path / "missing.json")), "error: Cannot read"),
        (("--lang", "hi", "--players", "7"), "error: --players 2, 3 या 4 हो, 7 नहीं।"),
    ]:
        game = Game(*args, home=tmp_path)
        rest = game.finish()
        assert game.status == 2, (args, rest)
        assert message in clean(rest), (args, rest)
        assert "Traceback" not in rest


def test_a_protocol_bot_takes_a_seat(tmp_path: Path) -> None:
    """BOT-PROTOCOL.md: ``cmd:COMMAND`` seats an outside program (here ``fives bot easy``)."""
    from tui_harness import FIVES

    record = tmp_path / "cmd.json"
    game = Game(
        "--seed", "2", "--bots", f"cmd:{FIVES} bot easy", "--record", str(record), home=tmp_path
    )
    try:
        text = ""
        for _ in range(3):
            text += game.prompt()
            game.send("1")
        text += game.prompt()
    finally:
        game.close()
    assert re.search(r"• seat 2 \(fives bot easy\): (leads|\d-\d on [WENS])", text), text
    assert "made no legal move" not in text
    saved = json.loads(record.read_text(encoding="utf-8"))
    assert saved["seats"][1] == f"cmd:{FIVES} bot easy"


def test_resume_takes_over_a_bots_only_record(tmp_path: Path) -> None:
    """A record written by ``fives random`` (every seat a bot) is carried on with the player in
    seat 0 and ``--bots`` for the others."""
    import subprocess

    from tui_harness import FIVES

    source = tmp_path / "random.json"
    subprocess.run(
        [FIVES, "random", "--game", "muggins", "--players", "3", "--seed", "5", "-o", str(source)],
        check=True, capture_output=True,
    )
    data = json.loads(source.read_text(encoding="utf-8"))
    data["rounds"] = data["rounds"][:1]
    data["rounds"][0]["actions"] = data["rounds"][0]["actions"][:3]
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps(data), encoding="utf-8")
    game = Game("--resume", str(cut), "--bots", "easy", home=tmp_path)
    try:
        text = game.prompt()
    finally:
        game.close()
    assert "Carrying on Muggins in round 1" in text
    assert "you (seat 1)" in text and "seat 3 (easy)" in text
    saved = json.loads(cut.read_text(encoding="utf-8"))
    assert saved["seats"] == ["human", "easy", "easy"]
    assert saved["rounds"][0]["actions"][:3] == data["rounds"][0]["actions"]


# -- issue 16: which mode, and line editing in the transcript --------------------------------


def test_up_arrow_recalls_the_last_line_and_no_escape_code_is_echoed(tmp_path: Path) -> None:
    """Item 3: readline at the transcript's prompt: Up brings back the last line (here ``h``)
    instead of ``Not understood: "ESC[A"``."""
    game = Game("--seed", "1", "--bots", "easy", "--record", str(tmp_path / "u.json"), home=tmp_path)
    try:
        text = game.prompt()
        while "Your moves:" not in text:
            game.send("1")
            text = game.prompt()
        game.send("h")
        assert "How to move" in game.prompt()
        game.child.send("\x1b[A\r")
        again = game.prompt()
        assert "How to move" in again
        assert "Not understood" not in again
        assert "[A" not in again and "^[" not in again
    finally:
        game.close()


def test_a_terminal_gets_the_full_screen_game_and_q_leaves_it(tmp_path: Path) -> None:
    """Item 1: with a colour terminal the game is full screen (the alternate screen), at
    80x24; q leaves and the record is saved."""
    import pexpect

    game = Game(
        "--seed", "1", "--bots", "easy", "--record", str(tmp_path / "f.json"), home=tmp_path,
        columns=80, rows=24, env={"NO_COLOR": None, "TERM": "xterm-256color"},
    )
    try:
        game.child.expect_exact("\x1b[?1049h", timeout=30)  # the alternate screen
        game.child.expect("All Fives", timeout=30)
        game.child.expect("Score sheet", timeout=30)
        game.child.send("q")
        game.child.expect(pexpect.EOF, timeout=30)
        rest = clean(game.child.before or "")
        game.child.close()
        assert "The match is saved; carry on with: fives play --resume" in rest
        assert game.child.exitstatus == 0
    finally:
        game.close()
    assert json.loads((tmp_path / "f.json").read_text(encoding="utf-8"))["seats"] == ["human", "easy"]


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (("--plain",), {"NO_COLOR": None, "TERM": "xterm-256color"}),
        ((), {"NO_COLOR": "1", "TERM": "xterm-256color"}),
        ((), {"NO_COLOR": None, "TERM": "dumb"}),
    ],
    ids=["plain", "no-color", "dumb"],
)
def test_plain_no_color_and_dumb_terminals_get_the_transcript(
    tmp_path: Path, args: tuple[str, ...], env: dict[str, str | None]
) -> None:
    game = Game(
        *args, "--seed", "1", "--bots", "easy", "--record", str(tmp_path / "p.json"),
        home=tmp_path, env=env,
    )
    try:
        text = game.prompt()
        raw = "".join(game.raw)
    finally:
        game.close()
    assert "\x1b[?1049h" not in raw
    assert "Players: you (seat 1), seat 2 (medium)" in text or "Players: you (seat 1), seat 2 (easy)" in text
