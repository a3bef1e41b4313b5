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


def _found(pattern: re.Pattern[str], skip_file: str, skip_line: str | None = None) -> list[str]:
    """The lines of the package's sources (but ``skip_file``) that match ``pattern``."""
    return [
        f"{p.relative_to(PACKAGE)}:{n}: {line.strip()}"
        for p in SOURCES
        if p.name != skip_file
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line) and (skip_line is None or skip_line not in line)
    ]


def test_no_interface_tests_a_games_name() -> None:
    """Pass or knock, which score sheet, whether ends score: asked of the game model (a play
    scoring kind is a property of the model, not a name)."""
    found = _found(NAME_TEST, "games.py", skip_line="scoring")
    assert not found, "\n".join(found)


def test_bot_names_are_parsed_in_one_place() -> None:
    """``cmd:COMMAND LINE`` is read by ``fives.bots.registry.BotName`` alone."""
    found = _found(re.compile(r"""startswith\(\s*["']cmd:|\[4:\]"""), "registry.py")
    assert not found, "\n".join(found)
