"""The examples of docs/bridges.md run as written and print what the doc says they print.

Where a ``print(...)`` line of an example states its output in a comment, the printed value is
compared with it: a Python literal (``# (440, 640, 3)``, ``# [-37.5, -37.5, 75.0]: ...``) must
equal the value, and ``a == b`` clauses (``# partners share: player_0 == player_2``) must hold
between the printed mapping's entries.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

DOC = Path(__file__).resolve().parents[2] / "docs" / "bridges.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
PRINT = re.compile(r"^print\((?P<args>.*?)\)\s*(?:#\s*(?P<stated>.*))?$")
EQUAL = re.compile(r"(\w+) == (\w+)")


def _stated(block: str) -> list[str | None]:
    """Each print line of an example, in order: the output its comment states, or None."""
    return [m["stated"] for line in block.splitlines() if (m := PRINT.match(line.strip()))]


def _run(block: str, index: int) -> list[tuple[Any, ...]]:
    """Run an example; return the arguments of each print call."""
    printed: list[tuple[Any, ...]] = []
    code = compile(block, f"docs/bridges.md example {index + 1}", "exec")
    exec(code, {"print": lambda *args, **_: printed.append(args)})
    return printed


def _literal(stated: str) -> Any:
    """The literal a statement starts with (``[1, 2]: words`` -> [1, 2]), or None."""
    for text in (stated, stated.split(": ", 1)[0]):
        try:
            return ast.literal_eval(text)
        except (ValueError, SyntaxError):
            continue
    return None


def _check(printed: tuple[Any, ...], stated: str) -> None:
    (value,) = printed
    literal = _literal(stated)
    if literal is not None:
        assert value == (pytest.approx(literal) if isinstance(literal, list) else literal)
        return
    pairs = EQUAL.findall(stated)
    assert pairs, f"no output to compare in {stated!r}"
    for a, b in pairs:
        assert value[a] == value[b], (a, b, value)


def test_the_doc_states_what_its_examples_print() -> None:
    assert len(BLOCKS) >= 4
    stated = [s for block in BLOCKS for s in _stated(block) if s]
    assert len(stated) >= 3, stated


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_example_prints_what_the_doc_states(index: int) -> None:
    block = BLOCKS[index]
    printed = _run(block, index)
    stated = _stated(block)
    assert len(printed) == len(stated), "each print line of the example prints once"
    for args, claim in zip(printed, stated):
        assert args and all(str(a) for a in args)
        if claim:
            _check(args, claim)


def test_the_search_example_pays_zero_sum_returns_as_the_doc_says() -> None:
    """OpenSpiel returns of one round: each seat's points minus the others' mean, zero-sum."""
    (index,) = [i for i, block in enumerate(BLOCKS) if "ISMCTSBot(" in block]
    ((label, ours, other, theirs),) = _run(BLOCKS[index], index)
    assert (label, other) == ("ISMCTS", "medium")
    assert ours == -theirs
