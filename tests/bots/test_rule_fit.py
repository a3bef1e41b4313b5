"""Fitting the weights of medium's terms to the search's values (tools/rule_fit.py, README
"medium's weights against the search's own values"): on decisions whose values are a known
weighting of the terms both fits find weights that choose the best action every time, and the
command runs end to end on a few decisions."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import numpy as np
import pytest

_PATH = Path(__file__).resolve().parents[2] / "tools" / "rule_fit.py"
_spec = importlib.util.spec_from_file_location("rule_fit", _PATH)
assert _spec is not None and _spec.loader is not None
rule_fit = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rule_fit)


def _rows(truth: np.ndarray, count: int, seed: int) -> list:  # type: ignore[type-arg]
    """Decisions of 2 to 5 actions, random terms, each action's value the ``truth`` weighting."""
    rng = random.Random(seed)
    rows = []
    for _ in range(count):
        n = rng.randint(2, 5)
        terms = [[rng.gauss(0, 1) for _ in truth] for _ in range(n)]
        values = [float(np.dot(t, truth)) for t in terms]
        rows.append((values, terms, [rng.randint(0, 12) for _ in range(n)]))
    return rows


def test_both_fits_recover_a_weighting_that_the_values_follow() -> None:
    truth = np.array([1.0, -2.0, 0.5, 3.0])
    train, held = _rows(truth, 400, 1), _rows(truth, 100, 2)
    assert rule_fit.least_squares(train) == pytest.approx(truth, abs=1e-3)
    assert rule_fit.regrets(truth, held).max() == 0.0
    start = np.array([1.0, 1.0, 1.0, 1.0])  # a poor start: it chooses worse
    assert rule_fit.regrets(start, held).mean() > 0.5
    fitted = rule_fit.least_regret(train, start, steps=1500)
    assert rule_fit.regrets(fitted, held).mean() < 0.1 * rule_fit.regrets(start, held).mean()


def test_the_command_fits_and_scores_against_mediums_weights(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert rule_fit.main(["draw", "2", "--decisions", "24", "--worlds", "8", "--jobs", "1",
                          "--extra"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("draw, 2 players: 24 decisions")
    assert [line.split()[0] for line in out[1:]] == ["medium's", "least", "least"]
    assert "fit_them_near" in out[1] and "against medium's" in out[2]
