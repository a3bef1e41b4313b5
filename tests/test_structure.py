"""The shape of the code, checked: interfaces ask the game model instead of testing a game's
name, and bot names are parsed in one place."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "fives"
SOURCES = sorted(
    p for p in [*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.js")] if "locales" not in p.parts
)
GAME_NAMES = "all-fives|fives-and-threes|muggins"
# a comparison with a game's name (Draw and Block's names are also action kinds: only a
# comparison that reads a game is one)
NAME_TEST = re.compile(
    rf"""(={{2,3}}|!={{1,2}})\s*["']({GAME_NAMES})["']|["']({GAME_NAMES})["']\s*(={{2,3}}|!={{1,2}})"""
    rf"""|game(\.name)?\s*(={{2,3}}|!={{1,2}})\s*["'](draw|block)["']"""
)


def _lines(path: Path) -> list[tuple[int, str]]:
    return list(enumerate(path.read_text(encoding="utf-8").splitlines(), 1))


def test_no_interface_tests_a_games_name() -> None:
    """Pass or knock, which score sheet, whether ends score: asked of the game model."""
    found = [
        f"{p.relative_to(PACKAGE)}:{n}: {line.strip()}"
        for p in SOURCES
        if p.name != "games.py"
        for n, line in _lines(p)
        if NAME_TEST.search(line) and "scoring" not in line  # a scoring kind is a property
    ]
    assert not found, "\n".join(found)


def test_bot_names_are_parsed_in_one_place() -> None:
    """``cmd:COMMAND LINE`` is read by ``fives.bots.registry.BotName`` alone."""
    found = [
        f"{p.relative_to(PACKAGE)}:{n}: {line.strip()}"
        for p in SOURCES
        if p.name != "registry.py"
        for n, line in _lines(p)
        if re.search(r"""startswith\(\s*["']cmd:|\[4:\]""", line)
    ]
    assert not found, "\n".join(found)
