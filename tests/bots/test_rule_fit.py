"""The report that sets the fits side by side (tools/rule_fit.py, README "medium's weights
against the search's own values") runs end to end on a few decisions."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[2] / "tools" / "rule_fit.py"
_spec = importlib.util.spec_from_file_location("rule_fit", _PATH)
assert _spec is not None and _spec.loader is not None
rule_fit = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rule_fit)


def test_the_command_fits_and_scores_against_mediums_weights(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert rule_fit.main(["draw", "2", "--decisions", "24", "--worlds", "8", "--jobs", "1",
                          "--extra"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("draw, 2 players: 24 decisions")
    assert [line.split()[0] for line in out[1:]] == ["medium's", "least", "least"]
    assert "fit_them_near" in out[1] and "against medium's" in out[2]


def test_without_extra_terms_only_mediums_own_are_fitted(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert rule_fit.main(["all-fives", "2", "--decisions", "16", "--worlds", "4",
                          "--jobs", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "void" in out[1] and "fit_them_near" not in out[1] and "follow" not in out[2]
