"""CI installs both extras (``fives[dev]`` holds them): there the bridge tests must run, not
skip. Elsewhere this test is skipped."""

from __future__ import annotations

import importlib
import os

import pytest


@pytest.mark.skipif(not os.environ.get("CI"), reason="only CI must have the extras")
@pytest.mark.parametrize("module", ["pyspiel", "pettingzoo", "gymnasium", "numpy", "PIL"])
def test_extras_are_installed_in_ci(module: str) -> None:
    importlib.import_module(module)
