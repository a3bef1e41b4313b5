"""The public example records replay exactly to their expected reports (RECORD.md); without
them the tests that read them skip on a developer's machine and fail in CI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import conftest
from examplekit import EXAMPLES, example_records, needs_examples
from fives.core.record import Record, replay

# Without the records the one test left stands for them all: it skips, or fails in CI.
RECORDS = example_records() or [EXAMPLES]


def _contract(report: dict) -> tuple:
    rounds = [
        (
            r["leader"],
            [(e["seat"], e["action"], e.get("ends"), e.get("points"), e.get("tile")) for e in r["events"]],
            None
            if r["end"] is None
            else (r["end"]["reason"], r["end"]["winner"], [float(p) for p in r["end"]["points"]]),
            [float(s) for s in r["scores"]],
        )
        for r in report["rounds"]
    ]
    return (
        report["game"], report["players"], report["teams"], report["target"], rounds,
        [float(s) for s in report["scores"]], report["winner"], report["over"],
    )


@needs_examples
@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_example_record_replays_to_its_expected_report(path: Path) -> None:
    report = replay(Record.from_json(path.read_text()))
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    assert _contract(report) == _contract(expected)


class _Item:
    """A collected test, as the setup hook sees it: marked or not."""

    def __init__(self, marked: bool) -> None:
        self.marked = marked

    def get_closest_marker(self, name: str) -> object | None:
        return object() if self.marked and name == "shared_examples" else None


def _setup_outcome(item: _Item) -> BaseException | None:
    """What the setup hook does to a test: fail it, skip it (the exception) or nothing."""
    try:
        conftest.pytest_runtest_setup(item)
    except (pytest.fail.Exception, pytest.skip.Exception) as outcome:
        return outcome
    return None


def test_without_the_records_a_marked_test_fails_in_ci_and_skips_elsewhere(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(conftest, "example_records", list)  # the folder holds nothing
    monkeypatch.setenv("CI", "true")
    failed = _setup_outcome(_Item(marked=True))
    assert isinstance(failed, pytest.fail.Exception)
    assert "CI must run the tests that read them" in str(failed)
    assert _setup_outcome(_Item(marked=False)) is None  # other tests run on
    monkeypatch.delenv("CI")
    skipped = _setup_outcome(_Item(marked=True))
    assert isinstance(skipped, pytest.skip.Exception)
    assert "../shared/examples" in str(skipped)
