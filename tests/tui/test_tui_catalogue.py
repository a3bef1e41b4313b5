"""Issue 7 for the terminal: every ``tui.*`` key exists, non-empty, in English and Hindi, with
the same placeholders; every key the terminal code asks for exists; and whole random matches of
every game are told in both languages without a missing word (nor an English one in Hindi)."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

import fives
from fives.cli.random_cmd import play_random
from fives.core.account import account_of
from fives.core.games import GAMES, Config
from fives.core.state import State
from fives.core.tiles import ACTIONS
from fives.core.view import view_of
from fives.i18n import LANGUAGES, catalogue
from fives.phrasing import (
    Names,
    Tr,
    draw_line,
    pass_line,
    play_line,
    result_line,
    round_end_lines,
)
from fives.tui import board

PACKAGE = Path(fives.__file__).resolve().parent
LOCALES = PACKAGE / "locales"
SOURCES = [*sorted((PACKAGE / "tui").glob("*.py")), PACKAGE / "cli" / "play_cmd.py"]
PLACEHOLDER = re.compile(r"\{(\w*)\}")


def _catalogue(lang: str) -> dict[str, str]:
    return json.loads((LOCALES / lang / "tui.json").read_text(encoding="utf-8"))


def test_every_key_exists_non_empty_in_both_languages_with_the_same_placeholders() -> None:
    cats = {lang: _catalogue(lang) for lang in LANGUAGES}
    english = cats["en"]
    assert english, "the English terminal catalogue is empty"
    for lang, cat in cats.items():
        assert set(cat) == set(english), (lang, sorted(set(cat) ^ set(english)))
        for key, text in cat.items():
            assert key.startswith("tui."), key
            assert isinstance(text, str) and text.strip(), (lang, key)
            assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(english[key])), (
                lang,
                key,
            )


def test_hindi_texts_are_hindi() -> None:
    """Every Hindi text is written in Devanagari (bar notation, option names, key names)."""
    allowed = {"Enter", "fives", "play", "resume", "human", "cmd", "COMMAND", "pip", "install",
               "tui", "rich", "random", "easy", "medium", "hard", "expert", "all", "players",
               "teams", "seat", "bots", "target", "timer", "local", "share", "records", "en",
               "hi", "lang", "NO", "COLOR", "names", "plain", "Esc"}
    for key, text in _catalogue("hi").items():
        plain = PLACEHOLDER.sub("", text)
        words = set(re.findall(r"[A-Za-z]{2,}", plain))
        assert words <= allowed, (key, words - allowed)
        assert re.search(r"[\u0900-\u097F]", plain) or not words, key


def _keys_used() -> tuple[set[str], set[str]]:
    """Keys the code passes to ``tr(...)`` (exact), and prefixes of keys built with f-strings."""
    exact: set[str] = set()
    prefixes: set[str] = set()
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name != "tr":
                continue
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                exact.add(arg.value)
            elif isinstance(arg, ast.JoinedStr) and arg.values:
                first = arg.values[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    prefixes.add(first.value)
            elif isinstance(arg, ast.IfExp):
                for branch in (arg.body, arg.orelse):
                    if isinstance(branch, ast.Constant) and isinstance(branch.value, str):
                        exact.add(branch.value)
    return exact, prefixes


def test_every_key_the_terminal_asks_for_exists() -> None:
    english = _catalogue("en")
    exact, prefixes = _keys_used()
    assert len(exact) > 50
    missing = sorted(k for k in exact if f"tui.{k}" not in english)
    assert not missing, missing
    for prefix in prefixes:
        assert any(k.startswith(f"tui.{prefix}") for k in english), prefix
    for game in GAMES:
        # a game's name is the one the browser shows too (common.game.*)
        assert f"tui.game.{game}" not in english and catalogue("en")[f"common.game.{game}"]
        # the rules are the browser's pages (rules.<game>.*), not a second text of the terminal's
        assert f"tui.rules.{game}" not in english


CASES = [(g, n, teams) for g in GAMES for n in (2, 3, 4) for teams in ((False, True) if n == 4 else (False,))]


@pytest.mark.parametrize(("game", "players", "teams"), CASES)
@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_random_matches_are_told_in_both_languages(
    game: str, players: int, teams: bool, lang: str
) -> None:
    """Every play, draw, pass, round end and result of random matches, and the table each seat
    sees, come out with all placeholders filled (and no English word in Hindi)."""
    config = Config.make(game, players, teams=teams)
    for seed in range(3):
        final = play_random(config, seed)
        tr = Tr(lang)
        names = Names(tr, config, ["human", *["easy"] * (players - 1)], 0)
        state = State(config)
        lines: list[str] = []
        for info in final.rounds():
            state.start_round(info.hands, info.stock, info.leader)
            for k, (_seat, code, *_rest) in enumerate(info.log):
                spinner_before = state.layout.spinner
                if k % 7 == 0 and state.turn >= 0:
                    view = view_of(state, state.turn)
                    for part in board.table(tr, names, view, width=100):
                        lines.append(str(getattr(part, "plain", "")))
                    lines.extend(t.plain for t in board.move_lines(tr, view))
                seat, code, _ends, points, _tile = state.play(ACTIONS[code])
                action = ACTIONS[code]
                if action.is_play:
                    became = spinner_before < 0 <= state.layout.spinner
                    lines.append(
                        play_line(names, action, seat, state.layout, points, state.scores_out(),
                                  state.round_end, became)
                    )
                elif action.kind == "draw":
                    lines.append(draw_line(names, seat, None))
                else:
                    lines.append(pass_line(names, seat))
            if state.round_end is not None:
                account = account_of(state.config, state.round_end)
                lines.extend(round_end_lines(names, account, len(state.rounds())))
        lines.append(result_line(names, state.over, state.winner, state.scores_out()))
        text = "\n".join(lines)
        assert "{" not in text and "}" not in text, text[:2000]
        assert "tui." not in text
        if lang == "hi":
            words = set(re.findall(r"[A-Za-z]{2,}", text))
            assert not words, words
        else:
            assert not re.search(r"[\u0900-\u097F]", text)


def test_scoring_sentences_match_the_seeds() -> None:
    """The seeds' worked examples: 2 + 8 = 10: 10 points (All Fives), 2 points (F&T)."""
    from fives.core.layout import Layout
    from fives.phrasing import play_sentence

    lay = Layout(spinner_rules=True)
    for text in ("1-4", "1-1@W", "4-4@E"):
        lay.place_text(text)
    af = Config.make("all-fives", 2)
    ft = Config.make("fives-and-threes", 2)
    assert play_sentence(Tr("en"), af, lay, 10) == "2 + 8 = 10: 10 points"
    assert play_sentence(Tr("hi"), af, lay, 10) == "2 + 8 = 10: 10 अंक"
    line = Layout(spinner_rules=False)
    for text in ("3-6", "6-6@E"):
        line.place_text(text)
    # Fives and Threes writes the step from the total to the points (issue 40: "12 = 12, 4
    # points" read as a contradiction)
    assert play_sentence(Tr("en"), ft, line, 8) == "3 + 12 = 15, 15 ÷ 3 + 15 ÷ 5 = 8 points"
    assert play_sentence(Tr("hi"), ft, line, 8) == "3 + 12 = 15, 15 ÷ 3 + 15 ÷ 5 = 8 अंक"
    twelve = Layout(spinner_rules=False)
    for text in ("6-6",):
        twelve.place_text(text)
    assert play_sentence(Tr("en"), ft, twelve, 4) == "12 = 12, 12 ÷ 3 = 4 points"
    seven = Layout(spinner_rules=False)
    seven.place_text("3-4")
    assert play_sentence(Tr("en"), ft, seven, 0) == "3 + 4 = 7: 0 points"


def test_random_seed_deals_are_reproducible() -> None:
    """The same seed deals the same rounds, round by round (resume depends on it)."""
    from fives.bots.host import Seeds, deal_round

    def first_deals(seed: int) -> list[list[list[str]]]:
        state = State(Config.make("all-fives", 2, target=20))
        out = []
        while not state.over and len(out) < 3:
            deal_round(state, Seeds(seed))
            out.append([[str(t) for t in h] for h in state.current_round_info().hands])
            while state.round_end is None:
                state.apply(state.legal_actions()[0])
        return out

    assert first_deals(4) == first_deals(4) != first_deals(5)
    assert Seeds(4).deal(0).random() == Seeds(4).deal(0).random() != Seeds(4).deal(1).random()


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_round_end_payment_is_phrased(lang: str) -> None:
    """AF-10 pool, AF-11 split and tie, MG-8 each, DB-4 plain, FT-7 bonus, FT-10 discarded,
    AF-3 target: each summary names its arithmetic."""
    from fractions import Fraction

    from fives.core.outcome import RoundEnd
    from fives.core.tiles import Tile, mask_of

    tr = Tr(lang)
    three = Config.make("all-fives", 3)
    two = Config.make("all-fives", 2)
    mg = Config.make("muggins", 3)
    db = Config.make("draw", 2)
    ft = Config.make("fives-and-threes", 2)
    # a hand of each pip count the cases use (C-9)
    by_pips = {0: [], 3: ["1-2"], 4: ["0-4"], 5: ["0-5"], 6: ["0-6"], 7: ["1-6"], 9: ["3-6"],
               10: ["4-6"], 12: ["6-6"], 13: ["6-6", "0-1"]}

    def end(reason: str, winner: int | None, points: tuple, pips: tuple, payment: str,
            *more: int, reached: int | None = None) -> RoundEnd:
        left = tuple(mask_of(Tile.parse(x) for x in by_pips[p]) for p in pips)
        return RoundEnd(reason, winner, points, pips, payment, *more, left=left,
                        reached=reached)

    cases = [
        (three, end("blocked", None, (Fraction(5, 2), Fraction(5, 2), 0), (4, 4, 6), "split"),
         {"en": "split in half: 2.5 points each", "hi": "दोनों को 2.5 अंक"}),
        (two, end("blocked", None, (0, 0), (7, 7), "tie"),
         {"en": "nobody scores the remaining tiles", "hi": "किसी को नहीं"}),
        (two, end("domino", 0, (15, 0), (0, 13), "pool", 0),
         {"en": "(seat 2 (easy) 13 = 13) and rounded to five once: 15 points to you (seat 1)",
          "hi": "(सीट 2 (आसान) 13 = 13) और एक बार पाँच के गुणज तक गोल किए: आप (सीट 1) को 15 अंक"}),
        (mg, end("blocked", 0, (25, 0, 0), (3, 13, 12), "each"),
         {"en": "13 → 15, seat 3 (easy) 12 → 10): 25 points", "hi": "13 → 15"}),
        (db, end("domino", 1, (0, 9), (9, 0), "plain", 1),
         {"en": "not rounded (you 9 = 9): 9 points to seat 2 (easy)", "hi": "गोल किए बिना (आप 9 = 9): सीट 2 (आसान) को 9 अंक"}),
        (ft, end("domino", 0, (1, 0), (0, 5), "bonus", 0),
         {"en": "1 point for going out to you (seat 1)", "hi": "हाथ खाली करने का 1 अंक आप (सीट 1) को मिला"}),
        (ft, end("domino", 0, (0, 0), (0, 5), "discarded", 0, 3),
         {"en": "(3 points) are discarded: you (seat 1) would pass 61", "hi": "61 से ऊपर चला जाता"}),
        (two, end("target", None, (0, 0), (10, 12), "target", reached=0),
         {"en": "remaining tiles are not counted", "hi": "बची गोटियाँ नहीं गिनी जातीं"}),
    ]
    for config, ending, expected in cases:
        names = Names(tr, config, ["human", *["easy"] * (config.players - 1)], 0)
        text = "\n".join(round_end_lines(names, account_of(config, ending), 1))
        assert expected[lang] in text, (ending.payment, text)
        assert "{" not in text


def test_the_log_shows_a_records_path_short(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 40: the log printed the record's absolute path, a third of the narrow panel."""
    from fives.tui.match import shown_path

    home, work = tmp_path / "home", tmp_path / "home" / "work"
    work.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(work)
    assert shown_path(work / "match.json") == "match.json"
    assert shown_path(Path("games/m.json")) == "games/m.json"
    assert shown_path(home / ".local" / "m.json") == "~/.local/m.json"
    assert shown_path(tmp_path / "elsewhere.json") == str((tmp_path / "elsewhere.json").resolve())
