"""Honest levels: each level a person can pick is described, in both languages and in both
interfaces, by what it measurably does, and the English words are the README's (its Bots
section quotes every description beside the tournament it comes from)."""

from __future__ import annotations

from pathlib import Path

from fives.bots import BOT_NAMES
from fives.core.games import Config
from fives.i18n import LANGUAGES, catalogue
from fives.tui.match import LEVELS, Match, Setup

README = Path(__file__).resolve().parents[2] / "README.md"


def test_every_level_is_described_alike_in_the_browser_and_the_terminal() -> None:
    assert list(LEVELS) == BOT_NAMES
    for lang in LANGUAGES:
        cat = catalogue(lang)
        for level in BOT_NAMES:
            # one text each, read by the lobby and the terminal alike
            assert cat[f"common.level.{level}"].strip(), (lang, level)
            assert f"web.level.{level}" not in cat and f"tui.level.{level}" not in cat


def test_the_english_descriptions_are_the_readmes() -> None:
    readme = " ".join(README.read_text(encoding="utf-8").split())
    en = catalogue("en")
    for level in BOT_NAMES:
        assert en[f"common.level.{level}"] in readme, level


def test_a_terminal_match_opens_by_describing_its_bots(tmp_path: Path) -> None:
    setup = Setup(Config.make("all-fives", 2), ("human", "hard"), 1, tmp_path / "m.json")
    match = Match(setup)
    match.start()
    texts = [line.text for line in match.lines]
    assert catalogue("en")["common.level.hard"] in texts
    assert catalogue("en")["common.level.easy"] not in texts
