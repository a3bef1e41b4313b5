"""The full-screen terminal game (Textual): the table redrawn in place.

The layout fills the middle, drawn to fit its pane (arms turn corners at the edges, as on a
real table, so no tile is ever hidden); the other players' tile counts and the stock above
it; the hand at the bottom as tiles to choose with the arrow keys, a tile's number, a click,
or typed notation (``3-5 e``); the scores with the All Fives tally or the 61 track, the hint
and the log of what happened at the side. Rules, help, round ends, the match's end and the
hot-seat hand-over come up in panels over the table. It works from 80×24 and uses a wide
terminal's room for the layout and the log.

The match itself is a :class:`~fives.tui.match.Match`; bots move in a worker thread, one move at
a time (``pace`` seconds apart, so that a person can follow them).
"""

from __future__ import annotations

import math
import time
from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Footer, Input, Static

from fives.core.tiles import Action, Tile
from fives.core.view import View, view_of
from fives.phrasing import action_text, fmt_score, play_sentence
from fives.tui import board
from fives.tui.inputs import Refusal, clean_line, understand
from fives.tui.match import Handover, Hint, Line, Match, MatchOver, RoundOver, Turn
from fives.tui.rulestext import rules_text
from fives.tui.sheet import tally_parts, tally_rows, track_rows

__all__ = ["FivesApp"]

#: seconds between two bots' moves, so that a person can follow them
PACE = 0.4
#: keys that act at once when nothing is typed
COMMAND_KEYS = {"?": "hint", "r": "rules", "h": "help", "u": "undo", "q": "quit"}


def _rule(text: str, width: int) -> Text:
    """A title in a line: ``── Round 2 ──``."""
    side = max(2, (width - len(text) - 2) // 2)
    return Text(f"{'─' * side} {text} {'─' * side}", "bold")


def line_text(line: Line, seat: int | None, width: int) -> Text:
    text = line.seen_by(seat)
    if "rule" in line.style:
        return _rule(text, width)
    return Text(text, line.style)


# -- the panes ---------------------------------------------------------------------------------


class LayoutPane(Static):
    """The layout, drawn for the pane's size, centred."""

    def __init__(self) -> None:
        super().__init__(id="layout")
        self.view: View | None = None
        self.last: int | None = None
        self.empty = ""

    def show(self, view: View | None, last: int | None, empty: str) -> None:
        self.view, self.last, self.empty = view, last, empty
        self.refresh(layout=True)

    def render(self) -> RenderableType:
        view = self.view
        if view is None or view.layout.count == 0:
            return Text(self.empty, "dim", justify="center")
        box = self.parent if isinstance(self.parent, Widget) else self
        width = max(20, box.size.width - 2)
        height = max(6, box.size.height)
        scoring = view.config.game.ends_score
        rows = board.layout_text(view.layout, self.last, width, scoring, height)
        wide = max((r.cell_len for r in rows), default=0)
        for row in rows:
            row.pad_right(wide - row.cell_len)
        return Group(*rows)


class HandPane(Static):
    """The hand as numbered tiles; the chosen one reversed, playable ones bright."""

    def __init__(self) -> None:
        super().__init__(id="hand")
        self.tiles: list[Tile] = []
        self.playable: set[Tile] = set()
        self.chosen: int | None = None
        self.hidden = ""
        self._spots: dict[tuple[int, int], int] = {}

    def show(self, tiles: list[Tile], playable: set[Tile], chosen: int | None, hidden: str = "") -> None:
        self.tiles, self.playable, self.chosen, self.hidden = tiles, playable, chosen, hidden
        self.refresh(layout=True)

    def render(self) -> RenderableType:
        if self.hidden:
            return Text(self.hidden, "dim")
        width = max(6, self.size.width or 60)
        per_row = max(1, (width + 1) // 6)
        out = Text()
        self._spots = {}
        numbered = list(enumerate(self.tiles))
        for start in range(0, len(numbered), per_row):
            chunk = numbered[start : start + per_row]
            row = 2 * (start // per_row)  # a row of tiles, then a row of their numbers
            tiles, numbers = Text(), Text()
            for k, (i, tile) in enumerate(chunk):
                if k:
                    tiles.append(" ")
                    numbers.append(" ")
                style = "bold green" if tile in self.playable else "dim"
                if i == self.chosen:
                    style = "bold reverse green" if tile in self.playable else "reverse"
                for col in range(k * 6, k * 6 + 5):
                    self._spots[(row, col)] = i
                    self._spots[(row + 1, col)] = i
                tiles.append(f"[{tile.low}│{tile.high}]", style)
                numbers.append(f"{i + 1:^5}", "bold" if i == self.chosen else "dim")
            if out.plain:
                out.append("\n")
            out.append_text(tiles)
            out.append("\n")
            out.append_text(numbers)
        return out

    def on_click(self, event: events.Click) -> None:
        index = self._spots.get((event.y, event.x))
        if index is not None:
            app = self.app
            if isinstance(app, FivesApp):
                app.tile_clicked(index)


class MoveInput(Input):
    """The move line: typed notation; with nothing typed, arrows choose, Enter plays and the
    command keys act at once."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        # with nothing typed the command keys are the app's (and the footer shows them)
        if not self.value and character in COMMAND_KEYS:
            return False
        return super().check_consume_key(key, character)

    def watch_value(self, value: str) -> None:
        if len(value) <= 1:
            self.app.refresh_bindings()

    async def _on_key(self, event: events.Key) -> None:
        app = self.app
        if isinstance(app, FivesApp) and not self.value:
            if event.key in ("left", "right", "up", "down"):
                event.stop()
                event.prevent_default()
                app.arrow(event.key)
                return
            if event.character in COMMAND_KEYS:
                event.stop()
                event.prevent_default()
                app.command(COMMAND_KEYS[event.character])
                return
        await super()._on_key(event)


# -- the panels --------------------------------------------------------------------------------


class Panel(ModalScreen[str]):
    """Text over the table (which it hides: a hot-seat hand-over must show nothing of it);
    the keys listed in ``answers`` close it with their answer."""

    DEFAULT_CSS = """
    Panel { align: center middle; background: $background; }
    Panel > Vertical {
        width: 90%; max-width: 100; height: auto; max-height: 90%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    Panel #panel-title { text-style: bold; height: auto; }
    Panel VerticalScroll { height: auto; max-height: 100%; }
    Panel #panel-keys { color: $text-muted; height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = []

    def __init__(self, title: str, body: RenderableType, keys: str, answers: dict[str, str]) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.keys_text = keys
        self.answers = answers

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.title_text), id="panel-title")
            with VerticalScroll():
                yield Static(self.body, id="panel-body")
            yield Static(Text(self.keys_text), id="panel-keys")

    def on_key(self, event: events.Key) -> None:
        key = event.character.lower() if event.character else event.key
        answer = self.answers.get(key) or self.answers.get(event.key)
        if answer is not None:
            event.stop()
            self.dismiss(answer)


# -- the app -----------------------------------------------------------------------------------


class FivesApp(App[str]):
    """One match, full screen. ``run()`` answers ``over``, ``again``, ``quit`` or
    ``interrupt``. Made with :meth:`for_match`, which names the keys in the match's language."""

    CSS = """
    Screen { layout: vertical; }
    #title { height: 1; background: $primary; color: $text; text-style: bold; padding: 0 1; }
    #body { height: 1fr; }
    #main { width: 1fr; }
    #side { width: 35%; min-width: 26; max-width: 52; border-left: solid $primary; padding: 0 1; }
    #seats { height: auto; color: $text; }
    #table { height: 1fr; align: center middle; overflow: auto auto; }
    #layout { width: auto; height: auto; }
    #ends { height: auto; }
    #hand { height: auto; min-height: 2; margin-top: 1; }
    #status { height: 2; }
    #move { height: 1; border: none; padding: 0; background: $boost; }
    #scores { height: auto; }
    #hint { height: auto; color: $warning; }
    #log-scroll { height: 1fr; }
    """
    ENABLE_COMMAND_PALETTE = False

    @classmethod
    def for_match(cls, match: Match, pace: float = PACE) -> FivesApp:
        """The app for ``match``, its keys named in the match's language."""
        tr = match.tr
        bindings: list[BindingType] = [
            Binding("question_mark", "command('hint')", tr("key.hint"), key_display="?"),
            Binding("r", "command('rules')", tr("key.rules")),
            Binding("h", "command('help')", tr("key.help")),
        ]
        if match.undo_allowed:
            bindings.append(Binding("u", "command('undo')", tr("key.undo")))
        bindings.append(Binding("q", "command('quit')", tr("key.quit")))
        bindings.append(Binding("ctrl+c", "interrupt", show=False, priority=True))
        named = type(cls.__name__, (cls,), {"BINDINGS": bindings})
        return named(match, pace)

    def __init__(self, match: Match, pace: float = PACE) -> None:
        super().__init__()
        self.match = match
        self.tr = match.tr
        self.names = match.names
        self.pace = pace
        self.need: Turn | Handover | RoundOver | MatchOver | None = None
        self.busy = False
        self.chosen: int | None = None  # index into the hand
        self.end_choice = 0  # which of the chosen tile's actions
        self.message = Text("")
        self.hint_lines: list[str] = []
        self.deadline: float | None = None
        self.clock: list[Timer] = []  # this turn's time-out and its once-a-second redraw
        self._log_seen: tuple[int | None, int] = (None, -1)

    # -- building the screen ---------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="body"):
            with Vertical(id="main"):
                yield Static(id="seats")
                with Container(id="table"):
                    yield LayoutPane()
                yield Static(id="ends")
                yield HandPane()
                yield Static(id="status")
                yield MoveInput(placeholder=self.tr("app.prompt"), id="move", select_on_focus=False)
            with Vertical(id="side"):
                yield Static(id="scores")
                yield Static(id="hint")
                with VerticalScroll(id="log-scroll"):
                    yield Static(id="log")
        yield Footer()

    def on_mount(self) -> None:
        self.title = self.names.game()
        self.match.start()
        self.query_one("#move", Input).focus()
        self.refresh_all()
        self.advance()

    def on_resize(self, event: events.Resize) -> None:
        self.refresh_all()

    # -- the flow --------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="flow")
    def advance(self) -> None:
        """Let the match run until a person must act (bots' moves, deals), then ask them."""
        self.busy = True
        match = self.match
        while True:
            before = len(match.state.log)
            need = match.step()
            if need is not None:
                self.call_from_thread(self.on_need, need)
                return
            self.call_from_thread(self.refresh_all)
            if self.pace and len(match.state.log) > before:
                time.sleep(self.pace)

    def on_need(self, need: Turn | Handover | RoundOver | MatchOver) -> None:
        if not self.is_running:
            return  # what the match needs next came as the app was closing
        self.busy = False
        self.need = need
        self.hint_lines = []
        self.stop_clock()
        if isinstance(need, Turn):
            self.start_turn(need)
        elif isinstance(need, Handover):
            self.refresh_all()
            self.show_handover(need)
        elif isinstance(need, RoundOver):
            self.refresh_all()
            self.show_round_over(need)
        else:
            self.refresh_all()
            self.show_match_over()

    def start_turn(self, need: Turn) -> None:
        view = need.view
        self.chosen = None
        self.end_choice = 0
        if need.forced is not None:
            self.message = Text(self.match.forced_text(view, need.forced), "bold")
        else:
            self.message = Text(self.tr("table.turn", who=self.names.seat_long(need.seat)), "bold")
            playable = [i for i, t in enumerate(view.hand) if any(a.tile == t for a in view.legal)]
            self.chosen = playable[0] if playable else None
            self.describe_choice()
        timer = self.match.setup.timer
        if timer:
            self.deadline = time.monotonic() + timer
            self.clock = [
                self.set_timer(timer, self.time_up),
                self.set_interval(1.0, self.refresh_all, repeat=math.ceil(timer)),
            ]
        self.refresh_all()

    def stop_clock(self) -> None:
        self.deadline = None
        for timer in self.clock:
            timer.stop()
        self.clock = []

    def time_up(self) -> None:
        need = self.need
        if not self.is_running or not isinstance(need, Turn) or self.deadline is None:
            return
        if time.monotonic() < self.deadline - 0.05:
            return
        action = self.match.timed_out(need.view)
        self.play(action)

    def play(self, action: Action) -> None:
        if not isinstance(self.need, Turn) or self.busy:
            return
        self.need = None
        self.stop_clock()
        self.query_one("#move", Input).value = ""
        self.match.act(action)
        self.message = Text("")
        self.refresh_all()
        self.advance()

    # -- the person's choices --------------------------------------------------------------

    def current(self) -> Turn | None:
        return self.need if isinstance(self.need, Turn) and not self.busy else None

    def choices(self, turn: Turn) -> list[Action]:
        """The chosen tile's legal actions (one per end it fits)."""
        if self.chosen is None or self.chosen >= len(turn.view.hand):
            return []
        tile = turn.view.hand[self.chosen]
        return [a for a in turn.view.legal if a.tile == tile]

    def describe_choice(self) -> None:
        """Say what the chosen tile would do (or why it cannot be played now)."""
        turn = self.need if isinstance(self.need, Turn) else None
        if turn is None or self.chosen is None:
            return
        view = turn.view
        options = self.choices(turn)
        tile = view.hand[self.chosen]
        if not options:
            what = understand(str(tile), view, self.tr)
            reason = what.reason if isinstance(what, Refusal) else ""
            self.message = Text(reason, "yellow")
            return
        action = options[self.end_choice % len(options)]
        self.message = self.preview(view, action)
        if len(options) > 1:
            ends = ", ".join(self.tr.end_key(a.end) for a in options if a.end is not None)
            self.message.append("\n" + self.tr("app.ends_choice", ends=ends), "dim")

    def preview(self, view: View, action: Action) -> Text:
        text = Text(action_text(self.tr, action, view.config.game), "bold")
        after = board.projected(view, action)
        if after is not None:
            lay, points = after
            if view.config.game.ends_score:
                text.append("  → " + play_sentence(self.tr, view.config, lay, points), "green" if points else "dim")
            else:
                text.append("  → " + self.tr("log.open_ends", ends=board.ends_text(lay, self.tr)), "dim")
        return text

    def arrow(self, key: str) -> None:
        turn = self.current()
        if turn is None or not turn.view.hand:
            return
        if key in ("left", "right") and turn.forced is None:
            n = len(turn.view.hand)
            step = 1 if key == "right" else -1
            self.chosen = (self.chosen + step) % n if self.chosen is not None else 0
            self.end_choice = 0
        elif key in ("up", "down"):
            self.end_choice += 1 if key == "down" else -1
        self.describe_choice()
        self.refresh_all()

    def tile_clicked(self, index: int) -> None:
        turn = self.current()
        if turn is None or turn.forced is not None:
            return
        if self.chosen == index:
            self.submit_choice()
            return
        self.chosen = index
        self.end_choice = 0
        self.describe_choice()
        self.refresh_all()

    def submit_choice(self) -> None:
        turn = self.current()
        if turn is None:
            return
        if turn.forced is not None:
            self.play(turn.forced)
            return
        options = self.choices(turn)
        if options:
            self.play(options[self.end_choice % len(options)])
        else:
            self.describe_choice()
            self.refresh_all()

    def on_input_changed(self, event: Input.Changed) -> None:
        turn = self.current()
        if turn is None or turn.forced is not None:
            return
        index = self.tile_number(event.value, turn.view)
        if index is not None:
            self.chosen = index
            self.end_choice = 0
            self.describe_choice()
            self.refresh_all()

    def tile_number(self, text: str, view: View) -> int | None:
        """The hand's tile a typed number names: a tile held (``35`` is 3-5), else the Nth."""
        word = text.strip().lstrip("#")
        if not word.isdigit():
            return None
        if len(word) == 2 and not text.strip().startswith("#") and max(word) <= "6":
            tile = Tile(int(word[0]), int(word[1]))
            if tile in view.hand:
                return view.hand.index(tile)
        n = int(word)
        return n - 1 if 1 <= n <= len(view.hand) else None

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = clean_line(event.value).strip()
        turn = self.current()
        if not text:
            self.submit_choice()
            return
        if turn is None:
            event.input.value = ""
            return
        view = turn.view
        index = self.tile_number(text, view)
        if index is not None and turn.forced is None:
            self.chosen = index
            event.input.value = ""
            self.submit_choice()
            return
        what = understand(text, view, self.tr)
        if turn.forced is not None and isinstance(what, Action | Refusal):
            what = turn.forced
        event.input.value = ""
        if isinstance(what, Action):
            self.play(what)
        elif isinstance(what, Refusal):
            self.message = Text(what.reason, "bold red")
            self.refresh_all()
        else:
            self.command(str(what))

    # -- commands --------------------------------------------------------------------------

    def action_command(self, name: str) -> None:
        self.command(name)

    def action_interrupt(self) -> None:
        self.exit("interrupt")

    def command(self, name: str) -> None:
        if name == "quit":
            self.exit("quit")
        elif name == "rules":
            self.show_rules()
        elif name == "help":
            self.show_help()
        elif name == "hint":
            turn = self.current()
            if turn is not None and turn.forced is None:
                self.message = Text(self.tr("hint.thinking", bot=self.names.bot(self.match.hint_bot)), "dim")
                self.refresh_all()
                self.ask_hint(turn)
        elif name == "undo":
            self.undo()

    @work(thread=True, exclusive=True, group="hint")
    def ask_hint(self, turn: Turn) -> None:
        hint = self.match.hint(turn.view)
        self.call_from_thread(self.show_hint, turn, hint)

    def show_hint(self, turn: Turn, hint: Hint | None) -> None:
        if self.need is not turn:
            return
        if hint is None:
            self.message = Text(self.tr("hint.none"), "yellow")
        else:
            self.hint_lines = self.match.hint_lines(hint, turn.view, numbered=False)
            tile = hint.best.tile
            if tile is not None and tile in turn.view.hand:
                self.chosen = turn.view.hand.index(tile)
                options = self.choices(turn)
                self.end_choice = options.index(hint.best) if hint.best in options else 0
            self.describe_choice()
        self.refresh_all()

    def undo(self) -> None:
        match = self.match
        if self.busy:
            return
        if not match.undo_allowed:
            self.message = Text(self.tr("undo.off"), "yellow")
        elif not match.undo():
            self.message = Text(self.tr("undo.none"), "yellow")
        else:
            self.need = None
            self.refresh_all()
            self.advance()
            return
        self.refresh_all()

    # -- panels ----------------------------------------------------------------------------

    def show_rules(self) -> None:
        game = self.match.setup.config.game
        body = rules_text(game.name, self.tr.lang, max(40, min(96, self.size.width - 8)))
        self.push_screen(
            Panel(self.tr("rules.title", game=self.names.game()), body, self.tr("app.close"), _CLOSE)
        )

    def show_help(self) -> None:
        game = self.match.setup.config.game
        parts = [self.tr("app.help")]
        parts.append(self.tr("help.marks" if game.ends_score else "help.marks_plain"))
        if self.match.undo_allowed:
            parts.append(self.tr("help.undo"))
        self.push_screen(Panel(self.tr("app.help_title"), Text("\n".join(parts)), self.tr("app.close"), _CLOSE))

    def show_handover(self, need: Handover) -> None:
        body = Text()
        if need.summary:
            body.append(self.tr("hotseat.since") + "\n", "bold")
            body.append("\n".join(need.summary))
        title = self.tr("hotseat.pass", who=self.names.seat_long(need.seat))

        def ready(answer: str | None) -> None:
            if answer == "quit":
                self.exit("quit")
                return
            self.match.ready(need.seat)
            self.need = None
            self.advance()

        self.push_screen(
            Panel(title, body, self.tr("app.ready"), {"enter": "ready", "q": "quit"}), ready
        )

    def show_round_over(self, need: RoundOver) -> None:
        body = Text("\n".join(self.match.summary))
        body.append("\n\n")
        body.append(self.tr("sheet.title") + "\n", "bold")
        body.append_text(self.sheet_text(view_of(self.match.state, None), 60))

        def go_on(answer: str | None) -> None:
            if answer == "quit":
                self.exit("quit")
                return
            self.match.next_round()
            self.need = None
            self.advance()

        self.push_screen(
            Panel(
                self.tr("end.rule", n=need.number),
                body,
                self.tr("app.next_round", n=need.number + 1),
                {"enter": "next", "q": "quit"},
            ),
            go_on,
        )

    def show_match_over(self) -> None:
        match = self.match
        state = match.state
        body = Text()
        if match.summary:
            body.append("\n".join(match.summary) + "\n\n")
        body.append(self.tr("sheet.title") + "\n", "bold")
        body.append_text(self.sheet_text(view_of(state, None), 60))
        body.append("\n\n")
        body.append(match.result() + "\n", "bold green")
        body.append(self.tr("match.rounds", n=len(state.rounds())) + "\n")
        body.append(self.tr("record.final", path=match.setup.record_path), "dim")

        def done(answer: str | None) -> None:
            self.exit("again" if answer == "again" else "over")

        self.push_screen(
            Panel(
                self.tr("match.rule"),
                body,
                self.tr("app.again"),
                {"y": "again", "j": "again", "n": "over", "q": "over", "enter": "over", "escape": "over"},
            ),
            done,
        )

    # -- drawing ---------------------------------------------------------------------------

    def view(self) -> View:
        """What the person at the screen may see of the table now."""
        match = self.match
        seat = match.viewer
        return view_of(match.state, seat if seat is not None else None)

    def refresh_all(self) -> None:
        if not self.is_running:
            return  # closing: the widgets may be gone already (a tick, a bot's move just made)
        match = self.match
        tr = self.tr
        view = self.view()
        cfg = view.config
        state = match.state
        title = self.query_one("#title", Static)
        if state.rounds():
            key = "table.title_exact" if cfg.game.exact_target else "table.title"
            title.update(Text(tr(key, game=self.names.game(), n=view.round + 1, target=cfg.target)))
        else:
            title.update(Text(self.names.game()))
        seats = Text()
        if state.rounds():
            for i, part in enumerate(board.seat_texts(tr, self.names, view)):
                if i:
                    seats.append(" · ")
                seats.append_text(part)
            seats.append(" · ")
            seats.append_text(board.stock_text(tr, view))
        self.query_one("#seats", Static).update(seats)
        self.query_one(LayoutPane).show(view, match.last_tile, tr("table.empty") if state.rounds() else "")
        ends = Text()
        if view.layout.count:
            ends = board.ends_line(tr, view)
        self.query_one("#ends", Static).update(ends)
        self.refresh_hand(view)
        status = Text()
        if self.busy and state.in_round and state.turn is not None and state.turn >= 0:
            status = Text(tr("app.waiting", who=self.names.seat_long(state.turn)), "dim")
        elif self.message.plain:
            status = self.message.copy()
        if self.deadline is not None and isinstance(self.need, Turn):
            left = max(0, math.ceil(self.deadline - time.monotonic()))
            status.append("  " + tr("timer.prompt", s=left), "bold yellow")
        self.query_one("#status", Static).update(status)
        side = self.query_one("#side")
        width = max(20, side.size.width - 3 if side.size.width else 26)
        self.query_one("#scores", Static).update(self.scores_text(view, width))
        self.query_one("#hint", Static).update(Text("\n".join(self.hint_lines)))
        self.refresh_log(width)

    def refresh_hand(self, view: View) -> None:
        hand = self.query_one(HandPane)
        need = self.need
        seat = self.match.viewer
        if seat is None or view.seat is None:
            hand.show([], set(), None, self.tr("app.hand_hidden") if self.match.me is None else "")
            return
        playable: set[Tile] = set()
        chosen = None
        if isinstance(need, Turn) and need.seat == seat:
            playable = {a.tile for a in need.view.legal if a.tile is not None}
            chosen = self.chosen
        hand.show(list(view.hand), playable, chosen)

    def scores_text(self, view: View, width: int) -> Text:
        out = Text(self.tr("sheet.title") + "\n", "bold")
        out.append_text(self.sheet_text(view, width))
        return out

    def sheet_text(self, view: View, width: int) -> Text:
        """Each side's total with the game's sheet under it, and the sheet's legend."""
        cfg = view.config
        game = cfg.game
        out = Text()
        for side in range(cfg.sides):
            name = self.names.side(side)
            total = fmt_score(view.scores[side])
            gap = max(1, width - len(name) - len(total))
            out.append(name + " " * gap)
            out.append(total + "\n", "bold")
            rows: list[str] = []
            if game.score_sheet == "tally":
                rows = [r for r in tally_rows(view.scores[side]) if r.strip()]
                _, _, apart = tally_parts(view.scores[side])
                if apart:
                    rows.append(self.tr("sheet.apart", n=fmt_score(apart)))
            elif game.score_sheet == "track":
                holes = 30 if width >= 36 else 20
                rows = track_rows(view.scores[side], holes)
            for row in rows:
                out.append("  " + row + "\n", "cyan")
        if game.score_sheet == "tally":
            out.append(self.tr("sheet.tally_legend"), "dim")
        elif game.score_sheet == "track":
            out.append(self.tr("sheet.track_legend", target=cfg.target), "dim")
        return out

    def refresh_log(self, width: int) -> None:
        seat = self.match.viewer
        lines = self.match.lines
        if self._log_seen == (seat, len(lines)):
            return
        self._log_seen = (seat, len(lines))
        text = Text()
        for i, line in enumerate(lines):
            if i:
                text.append("\n")
            text.append_text(line_text(line, seat, width))
        self.query_one("#log", Static).update(text)
        self.call_after_refresh(self.show_latest)

    def show_latest(self) -> None:
        """The log's latest line in view, once the new lines are laid out."""
        self.query_one("#log-scroll", VerticalScroll).scroll_end(animate=False, immediate=True)


_CLOSE: dict[str, Any] = {"escape": "close", "enter": "close", "q": "close", "r": "close", "h": "close"}
