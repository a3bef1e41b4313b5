"""The ``fives`` program under test: the one installed beside the interpreter that runs the
tests (the project's venv under ``make test``), else the first on PATH."""

from __future__ import annotations

import shutil
import signal
import sys
from pathlib import Path

FIVES = (
    shutil.which("fives", path=str(Path(sys.executable).parent)) or shutil.which("fives") or "fives"
)


def ctrl_c_heard() -> None:
    """``preexec_fn`` of a program that a test stops with SIGINT, as Ctrl-C at a terminal
    would: SIGINT's default restored in the child. Tests run in the background of a script
    (``make test &``, nohup, some CI runners) inherit SIGINT ignored, and a program started so
    rightly keeps ignoring it (Python then raises no KeyboardInterrupt, bash traps nothing):
    the test's Ctrl-C would be lost, and the program would run on to its end."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
