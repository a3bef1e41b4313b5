"""The examples in the core's and the phrasing's docstrings run as written."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import fives.core

MODULES = sorted(
    [f"fives.core.{m.name}" for m in pkgutil.iter_modules(fives.core.__path__)]
    + ["fives.phrasing", "fives.tui.inputs", "fives.bots.registry", "fives.cli.errors", "fives.i18n"]
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run_as_written(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
