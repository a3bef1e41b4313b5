"""The terminal game in a real terminal (tmux), in Hindi: every row fits its width and the
panels' separators stay in one column, measured as the terminal lays text out (the C library's
``wcwidth``, code point by code point). Textual's own test pilot measures with the game's widths
and so cannot see a disagreement with the terminal; this test can (issue 40: ``2 + 4 + + 5 =
15`` where a Hindi line overran its panel)."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import re
import shutil
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import pytest

from fives.tui.widths import width

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120),
              pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")]

SEPARATOR = "\u2502"


def _libc_width() -> object:
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    libc.setlocale(6, b"C.UTF-8")  # LC_ALL
    return libc.wcwidth


def test_widths_are_the_c_librarys_for_every_indic_code_point() -> None:
    """The game's width of each code point of the Indic blocks is the one terminals use (the C
    library's ``wcwidth``): a spacing vowel sign one column, even after a conjunct."""
    wcwidth = _libc_width()
    if wcwidth(ord("\u093e")) != 1:  # type: ignore[operator]
        pytest.skip("the C library has no UTF-8 locale here")
    wrong = [f"U+{cp:04X}" for cp in range(0x900, 0xE00)
             if unicodedata.category(chr(cp)) != "Cn"
             and width(chr(cp)) != max(wcwidth(cp), 0)]  # type: ignore[operator]
    assert not wrong
    assert width("\u0925\u094d\u0930\u0940") == 3  # थ्री: थ, virama, र, ी


class Tmux:
    """A tmux server of its own (its own socket) running one command in a window of a size."""

    def __init__(self, tmp: Path, columns: int, rows: int, command: list[str]) -> None:
        self.base = ["tmux", "-u", "-S", str(tmp / "tmux.sock")]
        # COLUMNS and LINES (set by other tests' harness) would override the window's size
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        env.update(LANG="C.UTF-8", LC_ALL="C.UTF-8", TERM="xterm-256color")
        self.env = env
        # a shell first, the window sized, then the game: a program started with the session
        # may read the size before the window has it (seen under load: an 80-column screen)
        subprocess.run([*self.base, "-f", "/dev/null", "new-session", "-d", "-x", str(columns),
                        "-y", str(rows), "sh"], check=True, env=env)
        subprocess.run([*self.base, "resize-window", "-x", str(columns), "-y", str(rows)],
                       check=True, env=env)
        line = " ".join(f"'{part}'" for part in command) + "; sleep 60"
        subprocess.run([*self.base, "send-keys", f"exec {line}", "Enter"], check=True, env=env)

    def screen(self) -> list[str]:
        out = subprocess.run([*self.base, "capture-pane", "-p"], check=True, env=self.env,
                             capture_output=True, text=True).stdout
        return out.rstrip("\n").split("\n")

    def settled(self, timeout: float = 15.0) -> list[str]:
        """The screen once two captures a moment apart agree: a capture taken while the game
        is still drawing a frame holds half of one row and half of another (seen under load)."""
        deadline = time.monotonic() + timeout
        last = self.screen()
        while True:
            time.sleep(0.3)
            rows = self.screen()
            if rows == last or time.monotonic() > deadline:
                return rows
            last = rows

    def keys(self, *keys: str) -> None:
        subprocess.run([*self.base, "send-keys", *keys], check=True, env=self.env)

    def wait_for(self, text: str, timeout: float = 30.0) -> list[str]:
        deadline = time.monotonic() + timeout
        while True:
            rows = self.screen()
            if any(text in row for row in rows) or time.monotonic() > deadline:
                return rows
            time.sleep(0.2)

    def close(self) -> None:
        subprocess.run([*self.base, "kill-server"], env=self.env, capture_output=True)


def _is_separator(row: str, i: int, col: int, columns: int) -> bool:
    """Whether ``row[i]``, at column ``col``, is the side panel's separator: the bar in the
    right half that is not a tile's middle (``[1│6]``: a chain that grows reaches that half)."""
    if row[i] != SEPARATOR or col <= columns // 2:
        return False
    return not (0 < i < len(row) - 1 and row[i - 1].isdigit() and row[i + 1].isdigit())


def _faults(rows: list[str], columns: int) -> list[str]:
    """Rows wider than the terminal, and the side panel's separator missing from a row between
    the title and the keys' line, or out of its one column."""
    wcwidth = _libc_width()
    faults, seps = [], set()
    for n, row in enumerate(rows):
        col, found = 0, False
        for i, ch in enumerate(row):
            if _is_separator(row, i, col, columns):
                seps.add(col)
                found = True
            col += max(wcwidth(ord(ch)), 0)  # type: ignore[operator]
        if col > columns:
            faults.append(f"row {n} takes {col} columns: {row!r}")
        if 0 < n < len(rows) - 1 and not found:
            faults.append(f"row {n} has lost the panel's separator: {row!r}")
    if len(seps) > 1:
        faults.append(f"the panel's separator sits at columns {sorted(seps)}")
    return faults


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_hindi_rows_fit_the_terminal_and_panels_keep_their_column(
        size: tuple[int, int], tmp_path: Path) -> None:
    if _libc_width()(ord("\u093e")) != 1:  # type: ignore[operator]
        pytest.skip("the C library has no UTF-8 locale here")
    columns, rows = size
    tmux = Tmux(tmp_path, columns, rows, [
        str(Path(sys.executable).parent / "fives"), "play", "--game", "fives-and-threes", "--lang", "hi",
        "--seed", "7", "--bots", "medium", "--record", str(tmp_path / "match.json")])
    try:
        screen = tmux.wait_for("q ")
        assert any("q " in row for row in screen), "\n".join(screen)
        panel: list[str] = []
        for _ in range(6):  # play the chosen tile, turn after turn: the log grows
            screen = tmux.settled()
            if any("\u256d" in row for row in screen):
                break  # the round's end is shown over the table: its rows are another test's
            faults = _faults(screen, columns)
            assert not faults, "\n".join(faults + screen)
            panel = screen
            tmux.keys("Enter")
            time.sleep(1.0)
        assert panel, "\n".join(screen)
        # the log, its wrapped lines joined again, adds up as the engine added
        log = _side_panel(panel, columns)
        sums = _sums(log)
        assert sums, "\n".join(panel)
        assert not re.search(r"\+ [+=]|[+=] \+", log), log  # no number lost from a sum
        assert all(sum(terms) == total for terms, total in sums), sums
    finally:
        tmux.close()


def _side_panel(rows: list[str], columns: int) -> str:
    """The side panel's text (after the separator), its rows joined with spaces."""
    wcwidth = _libc_width()
    parts = []
    for row in rows[1:-1]:
        col = 0
        for i, ch in enumerate(row):
            if _is_separator(row, i, col, columns):
                parts.append(row[i + 1:].strip())
                break
            col += max(wcwidth(ord(ch)), 0)  # type: ignore[operator]
    return " ".join(p for p in parts if p)


def _sums(text: str) -> list[tuple[list[int], int]]:
    """Every ``a + b + c = N`` in ``text`` (not the division step after it: ``15 ÷ 3 + ...``)."""
    found = []
    for m in re.finditer(r"(?<![÷\d] )(?<!\d)(\d+(?: \+ \d+)+) = (\d+)", text):
        found.append(([int(x) for x in m.group(1).split(" + ")], int(m.group(2))))
    return found
