"""The transcript: a match told line after line, for pipes, screen readers and terminals
without colour (``--plain``, ``NO_COLOR``, ``TERM=dumb``, or standard output not a terminal).
Every prompt ends with ``» ``; lines are read with line editing and history where the input
is a terminal (:mod:`fives.tui.inputs`).
"""

from __future__ import annotations

import math
import time

from rich.console import Console
from rich.text import Text

from fives.core.tiles import Action
from fives.core.view import View, view_of
from fives.tui import board
from fives.tui.inputs import TIMEOUT, LineReader, Refusal, understand
from fives.tui.match import Handover, Match, MatchOver, RoundOver, Stop, Turn
from fives.tui.rulestext import rules_text

__all__ = ["Session"]

#: what quits at a prompt that only waits for Enter
QUIT_WORDS = ("q", "quit", "exit")


class Session:
    """Plays ``match`` on ``console``, reading ``reader``."""

    def __init__(self, match: Match, console: Console, reader: LineReader) -> None:
        self.match = match
        self.console = console
        self.reader = reader
        self.tr = match.tr
        self.names = match.names
        self.told = 0  # lines of the match already printed
        self._legend_round = -1  # the layout's legend is shown once a round
        self._warned: set[int] = set()

    # -- output ----------------------------------------------------------------------------

    def say(self, text: str | Text, style: str = "") -> None:
        if isinstance(text, str):
            text = Text(text, style)
        self.console.print(text)

    def tell(self) -> None:
        """Print the match's new lines, as the person at the screen may see them."""
        match = self.match
        viewer = match.viewer
        for line in match.lines[self.told :]:
            text = line.seen_by(viewer)
            if "rule" in line.style:
                self.say("")
                self.console.rule(Text(text, "bold"))
            else:
                self.say(text, line.style)
        self.told = len(match.lines)

    def ask(self, prompt: str, deadline: float | None = None) -> str | object:
        """Show ``prompt`` and read one line; :data:`TIMEOUT` once ``deadline`` passes."""
        self.console.file.flush()
        shown = prompt
        timeout = None
        if deadline is not None:
            timeout = max(0.0, deadline - time.monotonic())
            shown += " " + self.tr("timer.prompt", s=math.ceil(timeout))
            self._warned = set()
        line = self.reader.ask(f"{shown} » ", timeout, self._tick)
        if line is None:
            raise Stop("eof")
        return line

    def _tick(self, left: float) -> str | None:
        secs = math.ceil(left)
        start = self.match.setup.timer or math.inf
        for mark in (10, 5, 3):
            if secs <= mark and mark not in self._warned and mark < start:
                self._warned.add(mark)
                return self.tr("timer.left", s=secs)
        return None

    def clear(self) -> None:
        """Hot seat: the last person's hand leaves the screen."""
        if self.console.is_terminal:
            self.console.clear()
            self.console.file.write("\x1b[3J")
            self.console.file.flush()
        else:
            self.say("\n" * 3)

    # -- the match -------------------------------------------------------------------------

    def run(self) -> str:
        """Play until the match is over; returns ``over``. Raises :class:`Stop`."""
        match = self.match
        if not match.state.rounds():
            self.console.rule(Text(self.names.game(), "bold"))
        match.start()
        self.tell()
        if not match.state.rounds():
            self.say(self.tr("intro.keys"), "dim")
        while True:
            need = match.step()
            if need is None:
                self.tell()
                continue
            self.tell()
            if isinstance(need, MatchOver):
                self.match_over()
                return "over"
            if isinstance(need, RoundOver):
                self.round_over(need.number)
            elif isinstance(need, Handover):
                self.handover(need)
            else:
                self.turn(need)

    def handover(self, need: Handover) -> None:
        """Hot seat: the screen is cleared, the next person takes the keyboard and reads what
        happened since their last turn (their own draws with the tiles)."""
        self.clear()
        self.say(self.tr("hotseat.pass", who=self.names.seat_long(need.seat)), "bold")
        self.wait(self.tr("prompt.ready"))
        self.match.ready(need.seat)
        if need.summary:
            self.say(self.tr("hotseat.since"), "bold")
            for line in need.summary:
                self.say(line)

    def wait(self, prompt: str) -> None:
        """A prompt that waits for Enter; q quits."""
        answer = self.ask(prompt)
        if isinstance(answer, str) and answer.strip().lower() in QUIT_WORDS:
            raise Stop("quit")

    def turn(self, need: Turn) -> None:
        match = self.match
        state = match.state
        view = need.view
        new_turn = not state.log or state.log[-1][0] != need.seat
        if new_turn:
            self.show_table(view)
        else:
            self.say(board.hand_line(self.tr, self.names, view))
        deadline = time.monotonic() + match.setup.timer if match.setup.timer else None
        if need.forced is not None:
            self.say(match.forced_text(view, need.forced), "bold")
        else:
            self.say(Text(self.tr("moves.title"), "bold"))
            for text in board.move_lines(self.tr, view):
                self.say(text)
        action = self.choose(view, need.forced, deadline)
        if action is not None:
            match.act(action)

    def choose(self, view: View, forced: Action | None, deadline: float | None) -> Action | None:
        """The person's action (None when they took back a move instead)."""
        tr = self.tr
        prompt = tr("prompt.enter") if forced is not None else tr("prompt.move")
        while True:
            line = self.ask(prompt, deadline)
            if line is TIMEOUT:
                action = self.match.timed_out(view)
                self.tell()
                return action
            assert isinstance(line, str)
            if forced is not None:
                word = line.strip().lower()
                what: object = understand(line, view, tr) if word else forced
                if isinstance(what, Refusal) or what == "hint":
                    what = forced
            else:
                what = understand(line, view, tr)
            if isinstance(what, Refusal):
                self.say("  " + what.reason, "bold red")
            elif what == "hint":
                self.hint(view)
            elif what == "rules":
                self.show_rules()
            elif what == "help":
                self.show_help()
            elif what == "quit":
                raise Stop("quit")
            elif what == "undo":
                if self.undo():
                    return None
            else:
                assert isinstance(what, Action)
                return what

    def undo(self) -> bool:
        match = self.match
        if not match.undo_allowed:
            self.say(self.tr("undo.off"), "yellow")
            return False
        if not match.undo():
            self.say(self.tr("undo.none"), "yellow")
            return False
        self.told = len(match.lines) - 1
        self.tell()
        return True

    def show_table(self, view: View) -> None:
        cfg = view.config
        tr = self.tr
        key = "table.title_exact" if cfg.game.exact_target else "table.title"
        self.say("")
        self.console.rule(
            Text(tr(key, game=self.names.game(), n=view.round + 1, target=cfg.target), "bold")
        )
        legend = self._legend_round != view.round and view.layout.count > 0
        if legend:
            self._legend_round = view.round
        for part in board.table(
            tr, self.names, view, width=self.console.width, last=self.match.last_tile, legend=legend
        ):
            self.console.print(part)

    def hint(self, view: View) -> None:
        tr = self.tr
        match = self.match
        self.say(tr("hint.thinking", bot=self.names.bot(match.hint_bot)), "dim")
        hint = match.hint(view)
        if hint is None:
            self.say(tr("hint.none"), "yellow")
            return
        lines = match.hint_lines(hint, view)
        self.say(lines[0], "bold magenta")
        for line in lines[1:]:
            self.say(line, "magenta")

    def show_rules(self) -> None:
        cfg = self.match.setup.config
        self.console.rule(Text(self.tr("rules.title", game=self.names.game()), "bold"))
        self.console.print(rules_text(cfg.game.name, self.tr.lang, min(96, self.console.width)))
        self.console.rule()

    def show_help(self) -> None:
        game = self.match.setup.config.game
        self.say(self.tr("help"))
        self.say(self.tr("help.marks" if game.play_scoring != "none" else "help.marks_plain"))
        if self.match.undo_allowed:
            self.say(self.tr("help.undo"))

    # -- round and match ends --------------------------------------------------------------

    def round_over(self, number: int) -> None:
        self.say("")
        self.say(Text(self.tr("sheet.title"), "bold"))
        view = view_of(self.match.state, None)
        for part in board.scores_table(self.tr, self.names, view, width=self.console.width):
            self.console.print(part)
        self.wait(self.tr("prompt.next_round", n=number + 1))
        self.match.next_round()

    def match_over(self) -> None:
        state = self.match.state
        self.say("")
        self.say(Text(self.tr("sheet.title"), "bold"))
        view = view_of(state, None)
        for part in board.scores_table(self.tr, self.names, view, width=self.console.width):
            self.console.print(part)
        self.say("")
        self.console.rule(Text(self.tr("match.rule"), "bold"))
        self.say(self.match.result(), "bold green")
        self.say(self.tr("match.rounds", n=len(state.rounds())))
        self.say(self.tr("record.final", path=self.match.setup.record_path), "dim")
