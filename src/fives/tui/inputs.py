"""Reading the player: plain lines (with an optional deadline) and what they mean.

A move is typed as the number of a listed move, or as a tile and an end: ``3-5 e``, ``35e``,
``5-3@E``, ``3 5 e``; the end may be left out when the tile fits only one. ``draw``/``d``,
``pass``/``p``/``knock``/``k`` name those actions. Other keys: ``?`` a hint, ``r`` the rules,
``h`` help, ``u`` undo, ``q`` quit (the record is already saved).

Lines are read with line editing and history (readline) when the input is a terminal, and
straight from the file descriptor otherwise; either way escape sequences and control characters
typed or piped in are dropped before the line is understood, so none is ever echoed.

>>> from fives.phrasing import Tr
>>> tr = Tr("en")
>>> from fives.core.games import Config
>>> from fives.core.state import State
>>> from fives.core.view import view_of
>>> from fives.core.tiles import Tile
>>> st = State(Config.make("all-fives", 2))
>>> deal = [[Tile.parse(x) for x in "1-4 4-4 1-2 5-5 1-3 0-0 0-1 0-2 0-3".split()],
...         [Tile.parse(x) for x in "1-1 3-4 1-5 0-5 0-4 0-6 1-6 2-2 2-3".split()]]
>>> from fives.core.tiles import ALL_TILES
>>> stock = [t for t in ALL_TILES if not any(t in h for h in deal)]
>>> st.start_round(deal, stock, 0)
>>> _ = st.play("1-4")
>>> v = view_of(st, 1)
>>> [str(a) for a in v.legal]
['0-4@E', '1-1@W', '1-5@W', '1-6@W', '3-4@E']
>>> str(understand("2", v, tr)), str(understand("34", v, tr)), str(understand("1-1 w", v, tr))
('1-1@W', '3-4@E', '1-1@W')
>>> str(understand("16", v, tr)), str(understand("5-1", v, tr))
('1-6@W', '1-5@W')
>>> understand("6-6", v, tr)
Refusal('You do not hold 6-6.')
>>> understand("1-1 e", v, tr)
Refusal('1-1 does not fit end E, which shows 4 (open ends: W 1, E 4).')
>>> understand("9", v, tr)
Refusal('There is no move 9: choose 1 to 5.')
>>> understand("?", v, tr)
'hint'
"""

from __future__ import annotations

import os
import re
import select
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO

from fives.core.tiles import DRAW, END_NAMES, PASS, Action, Tile
from fives.core.view import View
from fives.phrasing import (
    Tr,
    ends_text,
)

__all__ = ["TIMEOUT", "LineReader", "ReadlineReader", "Refusal", "clean_line", "make_reader", "understand"]


class _Timeout:
    def __repr__(self) -> str:
        return "TIMEOUT"


#: what :meth:`LineReader.readline` returns when the deadline passes
TIMEOUT = _Timeout()

_ESCAPES = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[O\]][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b.?|[\x00-\x08\x0b-\x1f\x7f]")


def clean_line(text: str) -> str:
    """A typed line without escape sequences (arrow keys in a terminal without line editing)
    or control characters.

    >>> clean_line("\x1b[A3-5 e\x07")
    '3-5 e'
    """
    return _ESCAPES.sub("", text)


def make_reader(stream: IO[str] | None = None) -> LineReader:
    """The reader for standard input: readline's when it is a terminal, else plain lines."""
    stream = stream if stream is not None else sys.stdin
    try:
        terminal = stream.isatty()
    except (AttributeError, ValueError):
        terminal = False
    if terminal:
        try:
            return ReadlineReader(stream)
        except ImportError:  # a Python without readline
            pass
    return LineReader(stream)


class LineReader:
    """Lines from standard input, read straight from its file descriptor so that a deadline can
    be kept (``select``); falls back to ``readline`` where that is not possible.

    ``readline`` returns the line without its newline, ``None`` at the end of input, or
    :data:`TIMEOUT`.
    """

    def __init__(self, stream: IO[str] | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdin
        self.buf = b""
        self.eof = False
        try:
            self.fd: int | None = self.stream.fileno()
            select.select([self.fd], [], [], 0)
        except (AttributeError, OSError, ValueError):
            self.fd = None

    def ask(
        self,
        prompt: str,
        timeout: float | None = None,
        tick: Callable[[float], str | None] | None = None,
    ) -> str | _Timeout | None:
        """Show ``prompt`` and read one line (cleaned); ``tick(seconds_left)`` may return a
        warning to show while waiting."""
        out = sys.stdout
        out.write(prompt)
        out.flush()

        def warn(left: float) -> None:
            text = tick(left) if tick is not None else None
            if text:
                out.write(f"\n{text}\n{prompt}")
                out.flush()

        line = self.readline(timeout, warn)
        if line is TIMEOUT or line is None:
            out.write("\n")
            out.flush()
        return clean_line(line) if isinstance(line, str) else line

    def readline(
        self,
        timeout: float | None = None,
        tick: Callable[[float], None] | None = None,
    ) -> str | _Timeout | None:
        """One line; ``tick(seconds_left)`` is called about once a second while waiting."""
        if self.fd is None:
            if self.eof:
                return None
            text = self.stream.readline()
            if not text:
                self.eof = True
                return None
            return text.rstrip("\r\n")
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.buf and not self.eof:
            if deadline is None:
                wait: float | None = None
            else:
                left = deadline - time.monotonic()
                if left <= 0:
                    return TIMEOUT
                wait = min(1.0, left)
            ready, _, _ = select.select([self.fd], [], [], wait)
            if ready:
                data = os.read(self.fd, 4096)
                if data:
                    self.buf += data
                else:
                    self.eof = True
            elif deadline is not None and tick is not None:
                left = deadline - time.monotonic()
                if left > 0:
                    tick(left)
        if b"\n" in self.buf:
            line, _, self.buf = self.buf.partition(b"\n")
        elif self.buf:
            line, self.buf = self.buf, b""
        else:
            return None
        return line.decode("utf-8", "replace").rstrip("\r")


class _Alarm(Exception):
    pass


class ReadlineReader(LineReader):
    """Lines from a terminal with readline's line editing and history (arrow keys recall
    earlier lines); a deadline is kept with an interval timer that interrupts the wait."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        import readline

        super().__init__(stream)
        self.readline_module = readline
        readline.set_auto_history(True)

    def ask(
        self,
        prompt: str,
        timeout: float | None = None,
        tick: Callable[[float], str | None] | None = None,
    ) -> str | _Timeout | None:
        import signal

        if timeout is None:
            return self._input(prompt)
        deadline = time.monotonic() + timeout
        state = {"timed_out": False}

        def on_alarm(_signum: int, _frame: object) -> None:
            left = deadline - time.monotonic()
            if left <= 0:
                state["timed_out"] = True
                raise _Alarm()
            text = tick(left) if tick is not None else None
            if text:
                # a warning on its own line, then the prompt and what was typed, again
                sys.stdout.write(f"\r\x1b[K{text}\n")
                sys.stdout.flush()
                self.readline_module.redisplay()

        previous = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, min(1.0, timeout), 1.0)
        try:
            return self._input(prompt)
        except _Alarm:
            sys.stdout.write("\n")
            sys.stdout.flush()
            return TIMEOUT
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)

    def _input(self, prompt: str) -> str | None:
        try:
            line = input(prompt)
        except EOFError:
            sys.stdout.write("\n")
            return None
        cleaned = clean_line(line)
        if cleaned != line:  # keep the history free of stray escape codes
            readline = self.readline_module
            n = readline.get_current_history_length()
            if n:
                readline.remove_history_item(n - 1)
                if cleaned.strip():
                    readline.add_history(cleaned)
        return cleaned


@dataclass(frozen=True)
class Refusal:
    """Input that is not a legal move here, with the short reason to show."""

    reason: str

    def __repr__(self) -> str:
        return f"Refusal({self.reason!r})"


_COMMANDS = {
    "u": "undo",
    "undo": "undo",
    "?": "hint",
    "hint": "hint",
    "r": "rules",
    "rules": "rules",
    "h": "help",
    "help": "help",
    "q": "quit",
    "quit": "quit",
    "exit": "quit",
}
_TILE = re.compile(r"^([0-6])\s*[-|│:/,.]?\s*([0-6])\s*(?:@|on)?\s*([wensWENS])?$")


def understand(text: str, view: View, tr: Tr) -> Action | Refusal | str:
    """What the player typed: a legal action, a command name (``hint``, ``rules``, ``help``,
    ``undo``, ``quit``), or a refusal with its reason."""
    legal = list(view.legal)
    raw = text.strip()
    word = raw.lower()
    if not word:
        return Refusal(tr("err.empty"))
    if word in _COMMANDS:
        return _COMMANDS[word]
    held = set(view.hand)
    if word in ("d", "draw"):
        return _wanted(DRAW, legal, view, tr)
    if word in ("p", "pass", "k", "knock"):
        return _wanted(PASS, legal, view, tr)
    if word.startswith("#"):
        word = word[1:].strip()
        if word.isdigit():
            return _numbered(int(word), legal, tr)
    match = _TILE.match(word)
    if word.isdigit() and (len(word) == 1 or match is None or Tile.parse(f"{word[0]}-{word[1]}") not in held):
        return _numbered(int(word), legal, tr)
    if match is None:
        return Refusal(tr("err.unknown", text=raw))
    tile = Tile(int(match.group(1)), int(match.group(2)))
    end_letter = match.group(3)
    return _tile_move(tile, end_letter.upper() if end_letter else None, legal, view, tr)


def _numbered(n: int, legal: list[Action], tr: Tr) -> Action | Refusal:
    if 1 <= n <= len(legal):
        return legal[n - 1]
    return Refusal(tr("err.number", n=n, max=len(legal)))


def _wanted(action: Action, legal: list[Action], view: View, tr: Tr) -> Action | Refusal:
    if action in legal:
        return action
    game = view.config.game
    if action == DRAW and not game.drawing:
        return Refusal(tr("err.no_drawing", game=tr.game(game.name)))
    if action == DRAW and DRAW not in legal and PASS in legal:
        return Refusal(tr("err.stock_empty"))
    if action == PASS and DRAW in legal:
        return Refusal(tr("err.must_draw"))
    return Refusal(tr("err.must_play"))


def _tile_move(
    tile: Tile, end: str | None, legal: list[Action], view: View, tr: Tr
) -> Action | Refusal:
    if tile not in view.hand:
        return Refusal(tr("err.not_held", tile=tile))
    mine = [a for a in legal if a.tile == tile]
    lay = view.layout
    if mine and mine[0].kind == "lead":
        return mine[0]
    if lay.count == 0:
        lead = next((a for a in legal if a.kind == "lead"), None)
        assert lead is not None and lead.tile is not None
        return Refusal(tr("err.must_lead", tile=lead.tile))
    ends = ends_text(lay, tr)
    if end is not None:
        index = END_NAMES.index(end)
        for a in mine:
            if a.end == index:
                return a
        open_values = dict(lay.ends)
        if index not in open_values:
            if lay.spinner >= 0 and end in "NS":
                return Refusal(tr("err.side_arm"))
            return Refusal(tr("err.end_not_open", end=tr.end(index), ends=ends))
        if not tile.has(open_values[index]):
            return Refusal(tr("err.wrong_end", tile=tile, end=tr.end(index), value=open_values[index], ends=ends))
        return Refusal(_not_now(legal, tile, view, tr))
    if len(mine) == 1:
        return mine[0]
    if len(mine) > 1:
        names = ", ".join(tr.end_key(a.end) for a in mine if a.end is not None)
        first = mine[0].end
        example = f"{tile} {END_NAMES[first].lower()}" if first is not None else str(tile)
        return Refusal(tr("err.which_end", tile=tile, ends=names, example=example))
    if any(tile.has(v) for _, v in lay.ends):
        return Refusal(_not_now(legal, tile, view, tr))
    return Refusal(tr("err.no_fit", tile=tile, ends=ends))


def _not_now(legal: list[Action], tile: Tile, view: View, tr: Tr) -> str:
    """A tile that fits the layout but may not be played now (after a draw, only the drawn
    tile may be played)."""
    playable = [a.tile for a in legal if a.tile is not None]
    if playable:
        return tr("err.drawn_tile", tile=playable[0])
    return tr("err.unknown", text=str(tile))
