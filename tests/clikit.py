"""The ``fives`` program under test: the one installed beside the interpreter that runs the
tests (the project's venv under ``make test``), else the first on PATH."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

FIVES = (
    shutil.which("fives", path=str(Path(sys.executable).parent)) or shutil.which("fives") or "fives"
)
