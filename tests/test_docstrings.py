"""The examples in the core's and the phrasing's docstrings run as written, on the build that
runs (compiled or pure)."""

from __future__ import annotations

import ast
import doctest
import importlib
import pkgutil
from pathlib import Path
from types import ModuleType

import pytest

import fives.core

MODULES = sorted(
    [f"fives.core.{m.name}" for m in pkgutil.iter_modules(fives.core.__path__)]
    + ["fives.phrasing", "fives.tui.inputs", "fives.bots.registry", "fives.cli.errors", "fives.i18n",
       "fives.rulespages", "fives.contests.arena"]
)


def source_doctests(module: ModuleType) -> list[doctest.DocTest]:
    """Every docstring example of a module, read from its source and run in its namespace.
    doctest's own finder does not see into a compiled module (its functions and classes are
    native), so it would run none of them there."""
    name = module.__name__
    path = Path(fives.core.__path__[0]).parent.joinpath(*name.split(".")[1:]).with_suffix(".py")
    parser = doctest.DocTestParser()
    tests = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc and ">>>" in doc:
                where = name if isinstance(node, ast.Module) else f"{name}.{node.name}"
                line = 0 if isinstance(node, ast.Module) else node.lineno
                tests.append(parser.get_doctest(doc, dict(vars(module)), where, str(path), line))
    return tests


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run_as_written(name: str) -> None:
    runner = doctest.DocTestRunner()
    for test in source_doctests(importlib.import_module(name)):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_read_from_source_are_the_ones_doctest_finds(name: str) -> None:
    # checked where doctest's finder sees everything (a pure module; make test runs this file
    # on the pure build too): the same examples, so none is lost on the compiled build
    module = importlib.import_module(name)
    if not str(module.__file__).endswith(".py"):
        pytest.skip("compiled here: compared on the pure build")
    found = sorted(e.source for t in doctest.DocTestFinder().find(module) for e in t.examples)
    assert sorted(e.source for t in source_doctests(module) for e in t.examples) == found
