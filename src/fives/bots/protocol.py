"""The bot protocol (BOT-PROTOCOL.md v1), both sides.

Host side: :class:`ProcessBot` runs an outside program (``cmd:COMMAND LINE``) as a bot. It
writes one JSON line per decision::

    {"type": "act", "view": {...}, "legal": ["1-4@W", "1-4@E"]}

and reads one answer line, ``{"action": "1-4@E"}``, within the move time. It also sends
``{"type": "start", ...}`` when a round is dealt and ``{"type": "end", ...}`` when it ends.
An answer that is not JSON, names no legal action, comes too late, or never comes because the
program exited raises :class:`BotFault`; the host (:mod:`fives.bots.host`) then forfeits that
decision (plays the ``random`` bot's choice), logs and reports it, and goes on. A program that
died, or that was stopped for answering too late, is started again at its next decision (up to
:attr:`ProcessBot.max_restarts` times a match; after that its decisions are forfeited). A
program may play many matches in a row (a tournament keeps it running between matches); a
``start`` line with ``"round": 0`` begins a new match.

Bot side: :func:`serve` runs one of our bots as such a program (``fives bot NAME``), and
:meth:`View.from_json <fives.core.view.View.from_json>` rebuilds the view from the JSON a host sends.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import random
import shlex
import subprocess
import threading
import time
from collections.abc import Mapping
from typing import IO, Any, TextIO

from fives.bots.base import Bot
from fives.core.tiles import Action, NotationError
from fives.core.view import View

__all__ = [
    "DEFAULT_MOVE_TIME",
    "PROTOCOL_VERSION",
    "BotFault",
    "ProcessBot",
    "act_message",
    "end_message",
    "read_answer",
    "serve",
    "start_message",
]

PROTOCOL_VERSION = 1
#: seconds an outside bot may take to answer one ``act`` line
DEFAULT_MOVE_TIME = 10.0
#: seconds a bot program gets to exit after its standard input is closed
_CLOSE_GRACE = 1.0

log = logging.getLogger("fives.bots")


class BotFault(Exception):
    """A bot broke the protocol or failed: ``kind`` is ``garbage``, ``illegal``, ``timeout``,
    ``exit``, ``start`` or ``error``; the message says what happened."""

    def __init__(self, kind: str, detail: str) -> None:
        self.kind = kind
        self.detail = detail
        super().__init__(f"{kind}: {detail}")


# -- messages -----------------------------------------------------------------------------------


def act_message(view: View, legal: list[Action] | tuple[Action, ...] | None = None) -> dict[str, Any]:
    """The ``act`` line for a seat's decision."""
    acts = view.legal if legal is None else legal
    return {"type": "act", "view": view.to_json(), "legal": [str(a) for a in acts]}


def start_message(view: View) -> dict[str, Any]:
    """The ``start`` line: a round has been dealt (the view holds the seat's new hand)."""
    return {"type": "start", "version": PROTOCOL_VERSION, "round": view.round, "view": view.to_json()}


def end_message(view: View) -> dict[str, Any]:
    """The ``end`` line: a round has ended; ``view["end"]`` says how, ``view["over"]`` whether
    the match is over too."""
    data = view.to_json()
    return {
        "type": "end",
        "round": view.round,
        "result": data["end"],
        "scores": data["scores"],
        "over": data["over"],
        "winner": data["winner"],
        "view": data,
    }


# -- the host side: an outside program as a bot -------------------------------------------------


class ProcessBot(Bot):
    """An outside program speaking the protocol, named ``cmd:COMMAND LINE``.

    The program is started on first use (or by :meth:`start`). ``move_time`` is the time limit
    for one answer, in seconds. ``stderr`` is where the program's own log goes (a file object;
    ``None`` leaves it on ours). :attr:`faults` counts the faults by kind.
    """

    name = "cmd"
    #: how many times a program that died (or was stopped for answering late) is started again
    max_restarts = 3

    def __init__(
        self,
        command: str,
        move_time: float = DEFAULT_MOVE_TIME,
        stderr: IO[str] | int | None = None,
    ) -> None:
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise ValueError(f"cannot read the command line {command!r}: {exc}") from None
        if not argv:
            raise ValueError("a bot command line is empty")
        self.command = command
        self.argv = argv
        self.name = f"cmd:{command}"
        self.move_time = move_time
        self.stderr = stderr
        self.proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader: threading.Thread | None = None
        self.starts = 0
        self.faults: dict[str, int] = {}
        self._dead_for_good = False
        self._starts_before_match = 0
        self._start_error: str | None = None

    # process management ------------------------------------------------------------------------

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self) -> None:
        """Start the program (again); raise :class:`BotFault` if that is not possible."""
        if self.alive():
            return
        self._stop()
        if self._start_error is not None:
            raise BotFault("start", self._start_error)
        stopped = self.starts - self._starts_before_match
        if self._dead_for_good or stopped > self.max_restarts:
            self._dead_for_good = True
            raise BotFault("exit", f"the program has stopped {stopped} times; not restarted")
        self.starts += 1
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.stderr,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                start_new_session=True,  # Ctrl-C reaches the host, which then closes the bot
            )
        except OSError as exc:
            self._dead_for_good = True
            self._start_error = f"cannot start {self.command!r}: {exc}"
            raise BotFault("start", self._start_error) from None
        lines: queue.Queue[str | None] = queue.Queue()
        self._lines = lines
        stdout = self.proc.stdout
        assert stdout is not None
        self._reader = threading.Thread(
            target=_read_lines, args=(stdout, lines), name="fives-bot-reader", daemon=True
        )
        self._reader.start()

    def _send(self, message: Mapping[str, Any]) -> None:
        proc = self.proc
        if proc is None or proc.stdin is None:
            raise BotFault("exit", "the program is not running")
        try:
            proc.stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            code = proc.poll()
            raise BotFault("exit", f"the program exited (status {code})") from None

    def _stop(self) -> None:
        proc = self.proc
        self.proc = None
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=_CLOSE_GRACE)
        except subprocess.TimeoutExpired:
            proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=_CLOSE_GRACE)
        if proc.stdout is not None:
            with contextlib.suppress(OSError):
                proc.stdout.close()

    def _kill(self) -> None:
        proc = self.proc
        if proc is not None and proc.poll() is None:
            proc.kill()
        self._stop()

    def close(self) -> None:
        """Close the program's input (it should exit on EOF); kill it if it does not."""
        self._stop()

    def __del__(self) -> None:  # a safety net: never leave a program behind
        with contextlib.suppress(Exception):
            self._kill()

    # notifications -----------------------------------------------------------------------------

    def _notify(self, message: Mapping[str, Any]) -> None:
        """Send a ``start``/``end`` line; a program that is down hears nothing (no fault)."""
        if not self.alive():
            return
        with contextlib.suppress(BotFault):
            self._send(message)

    def round_start(self, view: View) -> None:
        if view.round == 0:  # a new match: a fresh budget of restarts
            self._starts_before_match = self.starts
            if self._start_error is None:
                self._dead_for_good = False
        if not self.alive() and not self._dead_for_good:
            try:
                self.start()
            except BotFault:
                return
        self._notify(start_message(view))

    def round_end(self, view: View) -> None:
        self._notify(end_message(view))

    # deciding ----------------------------------------------------------------------------------

    def choose(self, view: View, rng: random.Random) -> Action:
        try:
            return self._choose(view)
        except BotFault as exc:
            self.faults[exc.kind] = self.faults.get(exc.kind, 0) + 1
            raise

    def _choose(self, view: View) -> Action:
        self.start()
        # A line waiting before the question is stale (an extra line of an earlier answer).
        while True:
            try:
                if self._lines.get_nowait() is None:
                    self._lines.put(None)
                    break
            except queue.Empty:
                break
        self._send(act_message(view))
        deadline = time.monotonic() + self.move_time
        try:
            line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            self._kill()  # it may still answer; a fresh start keeps question and answer in step
            raise BotFault("timeout", f"no answer within {self.move_time:g} s") from None
        if line is None:
            proc = self.proc
            code = proc.poll() if proc is not None else None
            if proc is not None and code is None:
                try:
                    code = proc.wait(timeout=_CLOSE_GRACE)
                except subprocess.TimeoutExpired:
                    code = None
            self._stop()
            raise BotFault("exit", f"the program exited (status {code}) without answering")
        return read_answer(line, view.legal)


def _read_lines(stream: TextIO, out: queue.Queue[str | None]) -> None:
    try:
        for line in stream:
            if line.strip():
                out.put(line)
    except (OSError, ValueError):
        pass
    out.put(None)


def read_answer(line: str, legal: tuple[Action, ...] | list[Action]) -> Action:
    """A bot's answer line read (the one parser of answers: local programs and online bots);
    :class:`BotFault` if it is not one of ``legal``."""
    shown = line.strip()
    if len(shown) > 200:
        shown = shown[:200] + "..."
    try:
        data = json.loads(line)
    except (json.JSONDecodeError, RecursionError):
        raise BotFault("garbage", f"the answer is not JSON: {shown!r}") from None
    if not isinstance(data, dict) or "action" not in data:
        raise BotFault("garbage", f'the answer is not {{"action": ...}}: {shown!r}')
    try:
        action = Action.parse(data["action"])
    except NotationError as exc:
        raise BotFault("garbage", f"the answer names no action: {exc}") from None
    if action not in legal:
        raise BotFault(
            "illegal",
            f"{action} is not legal here (legal: {', '.join(str(a) for a in legal)})",
        )
    return action


# -- the bot side: the program loop -------------------------------------------------------------


def serve(bot: Bot, seed: int, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Run ``bot`` as a protocol program until end of input; return the exit status.

    Every ``act`` line gets one answer line. A line that cannot be read is logged on ``stderr``
    and skipped; an ``act`` whose view cannot be rebuilt is answered with a random legal action
    (and logged). Types other than ``act`` are ignored.
    """
    rng = random.Random(seed)
    name = getattr(bot, "name", "bot")
    for number, line in enumerate(stdin, 1):
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            print(f"fives bot {name}: line {number} is not JSON; ignored", file=stderr)
            continue
        if not isinstance(message, dict) or message.get("type") != "act":
            continue
        legal_raw = message.get("legal")
        try:
            legal = [Action.parse(a) for a in legal_raw] if isinstance(legal_raw, list) else None
        except NotationError as exc:
            print(f"fives bot {name}: line {number}: bad legal action: {exc}", file=stderr)
            legal = None
        if not legal:
            print(f"fives bot {name}: line {number}: an act line without legal actions", file=stderr)
            continue
        action: Action | None = None
        try:
            view = View.from_json(message.get("view") or {}, [str(a) for a in legal])
        except (ValueError, TypeError, KeyError) as exc:
            print(f"fives bot {name}: line {number}: cannot read the view ({exc}); "
                  "answering at random", file=stderr)
            action = legal[int(rng.random() * len(legal))]
        else:
            try:
                action = bot.choose(view, rng)
            except Exception as exc:  # a bot bug must not stop the program
                print(f"fives bot {name}: line {number}: the bot failed ({exc!r}); "
                      "answering at random", file=stderr)
                action = legal[int(rng.random() * len(legal))]
            if action not in legal:
                print(f"fives bot {name}: line {number}: the bot chose {action}, which is "
                      "not legal; answering at random", file=stderr)
                action = legal[int(rng.random() * len(legal))]
        stdout.write(json.dumps({"action": str(action)}) + "\n")
        stdout.flush()
    return 0
