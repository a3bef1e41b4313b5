"""Driving the real ``fives play`` through a pseudo-terminal (pexpect), as a player would.

Every prompt of the terminal game ends with ``» ``; a test waits for it, reads what was shown
since the last one, and answers. Output is read with colours off (``NO_COLOR``) and any
remaining escape sequences stripped.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect

from clikit import FIVES, ctrl_c_heard

ROOT = Path(__file__).resolve().parents[2]

PROMPT = "» "
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*(?:\x07|\x1b\\)|\x1b[()][A-Z0-9]")


def clean(text: str) -> str:
    """Terminal output as plain text: escape sequences gone, ``\\r\\n`` -> ``\\n``."""
    return _ANSI.sub("", text).replace("\r\n", "\n").replace("\r", "\n")


class Game:
    """One ``fives play`` process on a pseudo-terminal."""

    def __init__(
        self,
        *args: str,
        home: Path,
        timeout: float = 30,
        columns: int = 130,
        rows: int = 50,
        env: dict[str, str | None] | None = None,
    ) -> None:
        """``env`` changes the environment (None removes a variable)."""
        base = {
            **os.environ,
            "COLUMNS": str(columns),
            "LINES": str(rows),
            "TERM": "xterm-256color",
            "NO_COLOR": "1",
            "HOME": str(home),
            "XDG_DATA_HOME": str(home / "data"),
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "PYTHONUNBUFFERED": "1",
        }
        base.pop("LANGUAGE", None)
        for key, value in (env or {}).items():
            if value is None:
                base.pop(key, None)
            else:
                base[key] = value
        self.child = pexpect.spawn(
            FIVES,
            ["play", *args],
            env=base,
            encoding="utf-8",
            codec_errors="replace",
            timeout=timeout,
            dimensions=(rows, columns),
            preexec_fn=ctrl_c_heard,  # the Ctrl-C tests' signal, even when run in the background
        )
        self.child.logfile_read = None
        self.raw: list[str] = []
        self.screens: list[str] = []

    def prompt(self) -> str:
        """Wait for the next prompt; return (plain) what was shown since the last one,
        the prompt line included."""
        self.child.expect_exact(PROMPT)
        shown = self.child.before + self.child.after
        self.raw.append(shown)
        text = clean(shown)
        self.screens.append(text)
        return text

    def send(self, line: str) -> None:
        self.child.sendline(line)

    def finish(self) -> str:
        """Wait for the program to end; return the rest of its output."""
        self.child.expect(pexpect.EOF)
        rest = self.child.before or ""
        self.raw.append(rest)
        self.child.close()
        text = clean(rest)
        self.screens.append(text)
        return text

    @property
    def status(self) -> int | None:
        return self.child.exitstatus

    @property
    def transcript(self) -> str:
        return "".join(self.screens)

    def close(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)


def play_until(game: Game, marker: str, answer: str = "1", limit: int = 200) -> str:
    """Answer every prompt with ``answer`` until ``marker`` has been shown; return the
    transcript so far."""
    for _ in range(limit):
        text = game.prompt()
        if marker in text:
            return game.transcript
        game.send(answer)
    raise AssertionError(f"{marker!r} never shown; last screen:\n{game.screens[-1]}")


def dump(game: Game) -> str:  # pragma: no cover (for failing tests)
    return game.transcript[-4000:]


if __name__ == "__main__":  # pragma: no cover
    print(FIVES, file=sys.stderr)
