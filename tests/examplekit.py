"""The shared example records (``../shared/examples``: RECORD.md's public examples).

They sit beside the checkout, not in it. Tests that read them carry :data:`needs_examples`:
without the records those tests skip on a developer's machine and fail in CI (``CI`` set),
where they must run (the hook is in conftest.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "shared" / "examples"

#: the mark of a test that reads the example records
needs_examples = pytest.mark.shared_examples


def example_records() -> list[Path]:
    """The example records (each beside its ``.expected.json``), in name order."""
    return sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".expected.json"))


def missing_examples(ci: bool) -> None:
    """Fail (in CI) or skip (elsewhere) a test whose example records are not there."""
    where = f"the shared example records are missing ({EXAMPLES})"
    if ci:
        pytest.fail(f"{where}: CI must run the tests that read them", pytrace=False)
    pytest.skip(f"{where}: they sit beside the checkout, as ../shared/examples")
