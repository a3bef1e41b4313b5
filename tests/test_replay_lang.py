"""Issue 7 for ``fives replay``: the text account and its errors in Hindi and English, told by
the same catalogue-driven phrasing as ``fives play`` (:mod:`fives.phrasing`); ``--json`` stays
language-neutral; the engine's refusal reasons and the record-level ones exist in both
languages (``engine.json``), as do the account's own words (``replay.json``)."""

from __future__ import annotations

import ast
import copy
import json
import os
import re
import string
import subprocess
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import fives
from clikit import FIVES
from examplekit import EXAMPLES, example_records, needs_examples
from fives.cli.main import main
from fives.core.errors import ERROR_TEXT
from fives.core.record import Record, replay_state, report_of
from fives.core.state import REASON_TEXT, IllegalAction
from fives.i18n import LANGUAGES, catalogue, reason_text
from fives.phrasing import record_error_text
from recordkit import expect_error, rec, rnd

ROOT = Path(__file__).resolve().parents[1]
SEED_AF = EXAMPLES / "seed-all-fives-spinner.json"
SEED_FT = EXAMPLES / "seed-fives-and-threes-line.json"
FT_4P = EXAMPLES / "fives-and-threes-4p.json"
AF_4P = EXAMPLES / "all-fives-4p.json"
PACKAGE = Path(fives.__file__).resolve().parent
LOCALES = Path(str(resources.files("fives") / "locales"))
AREAS = ("engine.json", "replay.json")
DEVANAGARI = re.compile(r"[\u0900-\u097F]")

AF_HANDS = [
    ["1-4", "4-4", "1-2", "5-5", "1-3", "0-0", "0-1", "0-2", "0-3"],
    ["1-1", "3-4", "1-5", "0-5", "0-4", "0-6", "1-6", "2-2", "2-3"],
]
FT_HANDS = [
    ["1-4", "4-4", "1-2", "0-0", "0-1", "0-2", "0-3"],
    ["1-1", "3-4", "0-4", "0-6", "1-6", "2-2", "2-3"],
]
#: seat 1 holds no 6: after the 6-6 lead it must draw
NO_SIX = [
    ["6-6", "0-1", "0-2", "0-3", "0-4", "0-5", "1-2", "1-3", "1-4"],
    ["1-1", "2-2", "3-3", "4-4", "5-5", "2-3", "2-4", "2-5", "3-4"],
]


def fives_cli(*args: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [FIVES, *map(str, args)], capture_output=True, text=True, timeout=120, check=False,
        env=env,
    )


def english_words(text: str, game: str | None = None) -> set[str]:
    """Words of two or more Latin letters: tiles (``3-5``), end letters (W, E, N, S), digits and
    punctuation are language-neutral and never match; so is the game's name as the record and
    ``--game`` write it (``all-fives``), shown beside its title, and the ``error:`` that begins
    an error line in every language (RECORD.md)."""
    text = text.removeprefix("error: ")
    if game is not None:
        text = text.replace(f"({game})", "")
    return set(re.findall(r"[A-Za-z]{2,}", text))


# -- the text account in Hindi ----------------------------------------------------------------


@needs_examples
def test_hindi_account_of_the_seed_example_speaks_the_seeds() -> None:
    proc = fives_cli("replay", SEED_AF, "--lang", "hi", "--layout")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith("ऑल फाइव्स (all-fives), 2 खिलाड़ी\n")
    assert "दौर 1\n" in out
    assert "पहली गोटी: सीट 1 — गोटी खींचकर तय हुआ" in out
    # the seeds' sentence, word for word: 2 + 8 = 10: 10 अंक
    assert "सीट 1: 4-4 पूर्व सिरे पर · 2 + 8 = 10: 10 अंक (स्कोर 15–0)" in out
    assert "सीट 1: 1-4 से शुरुआत · 1 + 4 = 5: 5 अंक (स्कोर 5–0)" in out
    assert "(स्पिनर)" in out
    assert "भंडार (10, उठाने के क्रम में)" in out
    assert "दौर 1 अधूरा है" in out
    assert "सिरों का योग: 2 + 3 + 0 + 3 = 8" in out
    assert out.rstrip().endswith("अधूरा, स्कोर 35–20।\nखेले गए दौर: 1")
    assert not english_words(out, "all-fives"), english_words(out, "all-fives")


@needs_examples
@pytest.mark.parametrize("path", [SEED_FT, FT_4P], ids=lambda p: p.stem)
def test_hindi_account_of_fives_and_threes(path: Path) -> None:
    proc = fives_cli("replay", path, "--lang", "hi")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith("फाइव्स एंड थ्रीज़ (fives-and-threes), ")
    # how Fives and Threes finds its points: "6 + 6 = 12, 12 ÷ 3 = 4 अंक"
    assert re.search(r"= (\d+), \1 ÷ [35]( \+ \1 ÷ 5)? = \d+ अंक", out)
    assert not english_words(out, "fives-and-threes"), english_words(out, "fives-and-threes")
    if path == FT_4P:
        assert ": खटखटाया, यानी बारी छोड़ी (कोई गोटी मेल नहीं खाती)\n" in out
        assert "हर दौर के बाद शुरुआत घड़ी की दिशा में अगली सीट पर जाती है" in out
        assert "साथी का हाथ खाली होने तक बारी नहीं आएगी" in out  # FT-8
        # a round's summary: how it ended, the hands left, what was added
        assert re.search(r"दौर 1 खत्म[^\n]*\n", out)
        assert "  बची गोटियाँ:\n" in out
        assert "दौर के अंत में जुड़े अंक: सीट 1+3 की साझेदारी +" in out
        assert "मैच का विजेता: सीट " in out


@needs_examples
def test_hindi_round_end_payment_of_all_fives() -> None:
    out = fives_cli("replay", AF_4P, "--lang", "hi").stdout
    assert "दौर 1 खत्म: सीट 3 ने हाथ खाली किया (डोमिनो)।" in out
    assert "    सीट 4: 2-5 2-6 6-6 (27 बिंदु)\n" in out
    assert ("(सीट 2 4 + सीट 4 27 = 31) और एक बार पाँच के गुणज तक गोल किए: "
            "सीट 1+3 की साझेदारी को 30 अंक।") in out
    assert "सीट 2: भंडार से 1-5 उठाई\n" in out
    assert "पहली गोटी: सीट 3 — दौर 1 की आखिरी गोटी रखने से" in out


@needs_examples
@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_example_is_told_wholly_in_one_language(
        lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    # in this process (the command as a program is proven by the tests around it): 36 programs
    # started took 30 s of the suite
    for path in example_records():
        code = main(["replay", str(path), "--lang", lang, "--layout"])
        captured = capsys.readouterr()
        assert code == 0, (path, captured.err)
        out = captured.out
        game = json.loads(path.read_text())["game"]
        assert "{" not in out and "}" not in out and "tui." not in out and "replay." not in out
        if lang == "hi":
            assert not english_words(out, game), (path.name, english_words(out, game))
        else:
            assert not DEVANAGARI.search(out), path.name


@needs_examples
def test_the_language_follows_the_locale_by_default() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANGUAGE")}
    hindi = fives_cli("replay", SEED_AF, env={**env, "LANG": "hi_IN.UTF-8"}).stdout
    assert "10 अंक" in hindi
    english = fives_cli("replay", SEED_AF, env={**env, "LANG": "C.UTF-8"}).stdout
    assert "10 points" in english
    assert fives_cli("replay", SEED_AF, "--lang", "en",
                     env={**env, "LANG": "hi_IN.UTF-8"}).stdout == english


@needs_examples
def test_json_stays_language_neutral_byte_for_byte() -> None:
    paths = example_records()
    want = "".join(
        json.dumps(report_of(replay_state(Record.from_json(p.read_text())))) + "\n" for p in paths
    )
    for lang in LANGUAGES:
        proc = fives_cli("replay", *paths, "--json", "--lang", lang)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout == want


# -- errors in Hindi ---------------------------------------------------------------------------


def one_error_line(proc: subprocess.CompletedProcess[str], prefix: str) -> str:
    assert proc.returncode == 2, proc
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(prefix), lines[0]
    assert "Traceback" not in proc.stderr
    return lines[0]


@needs_examples
@pytest.mark.parametrize("json_flag", [[], ["--json"]], ids=["text", "json"])
def test_a_bad_record_in_hindi_is_one_error_line_with_a_hindi_reason(
    tmp_path: Path, json_flag: list[str]
) -> None:
    data = json.loads(AF_4P.read_text())
    data["rounds"][0]["actions"][1] = "6-6@N"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    line = one_error_line(fives_cli("replay", bad, "--lang", "hi", *json_flag), "error: ")
    assert line == (
        f"error: {bad}: दौर 1, चाल 2, सीट 1, '6-6@N': सीट 1 के पास 6-6 नहीं है "
        "(वैध चालें: 0-0@W, 0-6@W)"
    )
    english = one_error_line(fives_cli("replay", bad, "--lang", "en", *json_flag), "error: ")
    assert english == (
        f"error: {bad}: round 1, action 2, seat 1, '6-6@N': seat 1 does not hold 6-6 "
        "(legal: 0-0@W, 0-6@W)"
    )


def test_other_errors_in_hindi(tmp_path: Path) -> None:
    line = one_error_line(fives_cli("replay", tmp_path / "x.json", "--lang", "hi"), "error: ")
    assert "पढ़ा नहीं जा सका" in line
    line = one_error_line(
        fives_cli("replay", tmp_path / "x.json", "--json", "--layout", "--lang", "hi"), "error: "
    )
    assert not english_words(line.replace("--layout", "").replace("--json", ""))
    raw = tmp_path / "bin.json"
    raw.write_bytes(b"\xff\xfe\x00")
    line = one_error_line(fives_cli("replay", raw, "--lang", "hi"), "error: ")
    assert "UTF-8 पाठ नहीं है" in line


# -- engine reasons and record errors, by key ----------------------------------------------------


def _af(actions: list[str], **fields: Any) -> dict[str, Any]:
    return rec("all-fives", 2, rnd(AF_HANDS, actions), **fields)


def _over_after(actions: list[str]) -> dict[str, Any]:
    hands = [["5-5", "0-1"], ["1-5", "0-2"]]
    return rec("all-fives", 2, rnd(hands, actions), target=10, rules={"hand_size": 2})


def _refused() -> dict[str, dict[str, Any]]:
    """A record refused for each reason a key names (bar not_allowed, the engine's fallback)."""
    unfinished = _af(["1-4", "1-1@W"])
    unfinished["rounds"].append(rnd(AF_HANDS, leader=0))
    over = _over_after(["5-5"])
    over["rounds"].append(copy.deepcopy(over["rounds"][0]))
    block = rec("block", 2, rnd([["6-6", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6"],
                                 ["1-1", "1-2", "1-3", "1-4", "1-5", "1-6", "2-2"]], ["6-6", "draw"]))
    return {
        "not_held": _af(["1-1"]),
        "must_play": _af(["1-4", "pass"]),
        "must_play_not_draw": _af(["1-4", "draw"]),
        "side_arm_closed": _af(["1-4", "1-1@W", "4-4@E", "1-5@N"]),
        "does_not_fit": _af(["1-4", "0-4@W"]),
        "end_not_open": rec("fives-and-threes", 2, rnd(FT_HANDS, ["1-4", "1-1@N"])),
        "must_draw": rec("all-fives", 2, rnd(NO_SIX, ["6-6", "pass"])),
        "lead_must_be": rec("muggins", 2, rnd([NO_SIX[0][:7], NO_SIX[1][:7]], ["0-1"])),
        "lead_over": _af(["1-4", "1-1"]),
        "lead_without_end": _af(["1-4@W"]),
        "no_drawing": block,
        "no_more_actions_round": rec("fives-and-threes", 2, rnd([["1-4"], ["0-2"]], ["1-4", "0-2@W"]),
                                     rules={"hand_size": 1}),
        "no_more_actions_match": _over_after(["5-5", "1-5@W"]),
        "no_more_rounds": over,
        "previous_round_unfinished": unfinished,
    }


@pytest.mark.parametrize(("key", "data"), sorted(_refused().items()), ids=sorted(_refused()))
def test_a_refused_record_says_why_by_key_in_both_languages(key: str, data: dict[str, Any]) -> None:
    err = expect_error(data)
    assert err.key == key, (err.key, str(err))
    english = record_error_text(err, "en")
    if key == "no_drawing":
        assert english == str(err).replace("block has", "Block has")  # the game's title
    else:
        assert english == str(err)  # the core's message, unchanged
    hindi = record_error_text(err, "hi")
    assert DEVANAGARI.search(hindi)
    # the action as written and the legal ones are record notation (draw, pass): neutral
    notation = {"draw", "pass"}
    assert english_words(hindi) <= notation, hindi


def test_reason_text_takes_an_exception_a_key_or_a_reason() -> None:
    state = replay_state(Record.from_data(_af(["1-4"])))
    try:
        state.play("0-4@W")
    except IllegalAction as exc:
        assert reason_text(exc, None, "en") == exc.reason
        assert reason_text(exc.key, exc.params, "en") == exc.reason
        assert reason_text(exc, None, "hi") == "0-4 W सिरे से मेल नहीं खाती, वहाँ 1 है (खुले सिरे: W=1, E=4)"
    else:
        raise AssertionError("0-4@W should be refused")
    assert reason_text("stock_empty", None, "hi") == "भंडार खाली है"
    assert reason_text("no_drawing", {"game": "fives-and-threes"}, "hi").startswith("फाइव्स")
    assert reason_text("an English reason without a key") == "an English reason without a key"


# -- the catalogues ------------------------------------------------------------------------------


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("area", AREAS)
def test_every_key_exists_non_empty_in_both_languages_with_the_same_placeholders(area: str) -> None:
    data = {lang: json.loads((LOCALES / lang / area).read_text(encoding="utf-8")) for lang in LANGUAGES}
    english = data["en"]
    assert english
    prefix = area.removesuffix(".json") + "."
    for lang, cat in data.items():
        assert set(cat) == set(english), (lang, sorted(set(cat) ^ set(english)))
        for key, text in cat.items():
            assert key.startswith(prefix), key
            assert isinstance(text, str) and text.strip(), (lang, key)
            assert placeholders(text) == placeholders(english[key]), (lang, key)


def test_every_engine_reason_has_its_catalogue_text() -> None:
    """The engine's refusals and its bad-input errors, each in English as the engine says it
    and in Hindi."""
    en, hi = catalogue("en"), catalogue("hi")
    for key, text in {**REASON_TEXT, **ERROR_TEXT}.items():
        assert en[f"engine.reason.{key}"] == text, key  # English as the engine says it
        assert DEVANAGARI.search(hi[f"engine.reason.{key}"]), key


def test_hindi_engine_and_replay_texts_are_hindi() -> None:
    # the record's own field names (RECORD.md) stay as written
    allowed = {"RECORD", "md", "JSON", "Lines", "UTF", "json", "layout", "en", "hi", "rules", "seats",
               "rounds", "leader", "hands", "actions", "teams", "true", "false", "hand", "size",
               # actions as RECORD.md writes them
               "draw", "pass",
               # option and bot names, typed as written
               "seat", "round", "top", "random", "easy", "medium", "hard", "expert", "cheat",
               "cmd", "COMMAND"}
    for area in AREAS:
        for key, text in json.loads((LOCALES / "hi" / area).read_text(encoding="utf-8")).items():
            plain = re.sub(r"\{\w*\}", "", text)
            words = english_words(plain)
            assert words <= allowed, (key, words - allowed)
            assert DEVANAGARI.search(plain) or not words, key
    words = " ".join(json.loads((LOCALES / "hi" / "engine.json").read_text(encoding="utf-8")).values())
    for word in ("गोटी", "भंडार", "शाखा", "दौर", "मैच"):
        assert word in words, word


def _keys_used(path: Path) -> set[str]:
    """Full catalogue keys asked for in ``path``: ``tr("x")`` (``tui.x``), ``rt("x")``
    (``replay.x``), ``t("full.key", ...)``; keys built with f-strings are left out."""
    prefixes = {"tr": "tui.", "rt": "replay.", "t": ""}
    used: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name not in prefixes:
            continue
        arg = node.args[0]
        texts = [arg] if not isinstance(arg, ast.IfExp) else [arg.body, arg.orelse]
        for text in texts:
            if isinstance(text, ast.Constant) and isinstance(text.value, str):
                used.add(prefixes[name] + text.value)
    return used


def test_every_key_the_shared_phrasing_and_replay_ask_for_exists() -> None:
    used = _keys_used(PACKAGE / "phrasing.py") | _keys_used(PACKAGE / "cli" / "replay_cmd.py")
    assert len(used) > 60
    for lang in LANGUAGES:
        missing = sorted(k for k in used if k not in catalogue(lang))
        assert not missing, (lang, missing)


def test_a_rejected_record_begins_error_whatever_the_locale(tmp_path: Path) -> None:
    """RECORD.md: a rejected record is one line on standard error that starts with ``error:``,
    even where the locale asks for Hindi (the reason after it is then in Hindi)."""
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "all-fives", "players": 9, "rounds": []}', encoding="utf-8")
    env = {**os.environ, "LANG": "hi_IN.UTF-8", "LC_ALL": "hi_IN.UTF-8"}
    proc = subprocess.run([FIVES, "replay", str(bad), "--json"], capture_output=True,
                          text=True, env=env, timeout=60, check=False)
    line = one_error_line(proc, "error: ")
    assert re.search("[\u0900-\u097f]", line), line
