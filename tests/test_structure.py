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


def _imports(path: Path) -> set[str]:
    """The ``fives`` modules a source file imports, at any depth (functions included), but not
    under ``if TYPE_CHECKING:`` (types only, never run)."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = {
        id(node)
        for top in ast.walk(tree)
        if isinstance(top, ast.If) and "TYPE_CHECKING" in ast.unparse(top.test)
        for node in ast.walk(top)
    }
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("fives"):
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("fives"))
    return out


def test_no_import_cycle_in_the_package() -> None:
    """Layers import downwards only: no module reaches, however indirectly, back to itself."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        name = ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
        modules[name] = path
    graph = {
        name: {m for m in _imports(path) if m in modules and m != name and not name.startswith(m + ".")}
        for name, path in modules.items()
    }
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append([*trail[trail.index(nxt):], nxt] if nxt in trail else [node, nxt])
            elif nxt not in state:
                visit(nxt, [*trail, nxt])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert not cycles, "\n".join(" -> ".join(c) for c in cycles)
