"""One match at the terminal: deals (with a visible lot where the rules say so), turns of
people and bots, scoring sentences, round summaries, hints, rules, the countdown, hot seat,
and the record written after every action so that nothing is lost.

Randomness comes from the match seed alone, per round and per decision, so a resumed match
deals and plays exactly as the uninterrupted one would have.
"""

from __future__ import annotations

import contextlib
import math
import os
import subprocess
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any

from rich.console import Console
from rich.text import Text

from fives.bots import Bot, BotError, BotName, make_bot
from fives.bots.host import Seeds, deal_round, decide, notify
from fives.core.account import account_of
from fives.core.games import Config
from fives.core.outcome import RoundEnd
from fives.core.record import record_of
from fives.core.state import State
from fives.core.tiles import ACTIONS, ALL_TILES, Action
from fives.core.view import View, view_of
from fives.phrasing import (
    HUMAN,
    Names,
    Tr,
    action_text,
    draw_line,
    ends_text,
    fmt_scores,
    leader_reason,
    pass_line,
    play_line,
    result_line,
    round_end_lines,
)
from fives.tui import board
from fives.tui.inputs import TIMEOUT, LineReader, Refusal, understand

__all__ = ["HINT_BOTS", "Setup", "Session", "Stop"]

#: the bot asked for ``?`` hints, and the one used while it is not there yet
HINT_BOTS = ("hard", "easy")
#: bots whose values are searched estimates of the round's point difference
SEARCH_BOTS = ("hard", "expert")
#: the bot that moves for a player whose countdown runs out
TIMER_BOT = "easy"


class Stop(Exception):
    """The player leaves: ``quit`` (typed q) or ``eof`` (the input closed)."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


@dataclass(frozen=True)
class Setup:
    """Everything a match at the terminal is played with."""

    config: Config
    seats: tuple[str, ...]  # per seat: "human" or a bot name
    seed: int
    record_path: Path
    lang: str = "en"
    timer: float | None = None

    def again(self, record_path: Path) -> Setup:
        """The same table for a new match (a new seed, a new record)."""
        return replace(self, seed=Seeds(self.seed).of("again").seed, record_path=record_path)


class Session:
    """Plays one match of :class:`Setup` on ``console``, reading ``reader``."""

    def __init__(
        self,
        setup: Setup,
        console: Console,
        reader: LineReader,
        state: State | None = None,
    ) -> None:
        self.setup = setup
        self.console = console
        self.reader = reader
        self.tr = Tr(setup.lang)
        cfg = setup.config
        self.humans = [s for s, name in enumerate(setup.seats) if name == HUMAN]
        self.me = self.humans[0] if len(self.humans) == 1 else None
        self.names = Names(self.tr, cfg, setup.seats, self.me)
        self.bots: dict[int, Bot] = {}
        self.state = state if state is not None else State(cfg)
        self.seeds = Seeds(setup.seed)
        self.shown: int | None = None  # hot seat: the person whose hand may be on screen
        self.last_tile: int | None = None
        self._hint_bot: tuple[str, Bot] | None = None
        self._timer_bot: Bot | None = None
        self._save_failed = False
        self._warned: set[int] = set()
        self._log: IO[str] | None = None
        self._legend_round = -1  # the legend of the layout is shown once a round

    # -- output ----------------------------------------------------------------------------

    def say(self, text: str | Text, style: str = "") -> None:
        if isinstance(text, str):
            text = Text(text, style)
        self.console.print(text)

    def ask(self, prompt: str, deadline: float | None = None) -> str | Any:
        """Show ``prompt`` and read one line; :data:`TIMEOUT` once ``deadline`` passes."""
        self.console.file.flush()
        shown = prompt
        if deadline is not None:
            secs = max(0, math.ceil(deadline - time.monotonic()))
            shown += " " + self.tr("timer.prompt", s=secs)
        self._write(f"{shown} » ")
        if deadline is None:
            line = self.reader.readline()
        else:
            self._warned = set()
            left = deadline - time.monotonic()
            line = TIMEOUT if left <= 0 else self.reader.readline(timeout=left, tick=self._tick)
            if line is TIMEOUT:
                self._write("\n")
        if line is None:
            self._write("\n")
            raise Stop("eof")
        return line

    def _write(self, text: str) -> None:
        out = self.console.file
        out.write(text)
        out.flush()

    def _tick(self, left: float) -> None:
        secs = math.ceil(left)
        for mark in (10, 5, 3):
            start = self.setup.timer if self.setup.timer is not None else math.inf
            if secs <= mark and mark not in self._warned and mark < start:
                self._warned.add(mark)
                self._write(f"\n{self.tr('timer.left', s=secs)} » ")
                return

    # -- the record ------------------------------------------------------------------------

    def save(self) -> None:
        record = record_of(self.state, seats=list(self.setup.seats), seed=self.setup.seed)
        path = self.setup.record_path
        tmp = path.with_name(path.name + ".tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(record.to_json(indent=1) + "\n", encoding="utf-8")
            os.replace(tmp, path)
        except OSError as exc:
            if not self._save_failed:
                self._save_failed = True
                self.say(self.tr("record.write_error", path=path, why=exc.strerror or exc), "bold red")

    # -- bots ------------------------------------------------------------------------------

    def bot(self, seat: int) -> Bot:
        if seat not in self.bots:
            name = self.setup.seats[seat]
            bot = BotName.parse(name)
            # An outside program's own log (its standard error) goes beside the record, not
            # over the table.
            self.bots[seat] = bot.make(stderr=self._bot_log() if bot.outside else None)
        return self.bots[seat]

    def _bot_log(self) -> IO[str] | int:
        if self._log is None:
            path = self.setup.record_path.with_suffix(".bots.log")
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                self._log = open(path, "a", encoding="utf-8")  # noqa: SIM115 (closed in close())
            except OSError:
                return subprocess.DEVNULL
        return self._log

    def _notify(self, hook: str) -> None:
        seats = range(self.setup.config.players)
        notify({s: self.bot(s) for s in seats if self.setup.seats[s] != HUMAN}, self.state, hook)

    def close(self) -> None:
        for bot in self.bots.values():
            with contextlib.suppress(Exception):
                bot.close()
        if self._log is not None:
            self._log.close()
            self._log = None

    def bot_move(self, seat: int) -> Action:
        decision = decide(self.state, self.bot(seat), self.seeds, name=self.setup.seats[seat])
        if decision.fault is not None:  # the bot forfeited: the host's replacement is played
            self.say(
                self.tr("bot.fault", who=self.names.seat(seat), detail=decision.fault.detail,
                        move=str(decision.action)),
                "yellow",
            )
        return decision.action

    # -- the match -------------------------------------------------------------------------

    def run(self) -> str:
        """Play until the match is over; returns ``over``. Raises :class:`Stop`."""
        state = self.state
        if state.rounds():
            self.say(
                self.tr(
                    "resume",
                    game=self.names.game(),
                    n=len(state.rounds()) + (1 if state.needs_deal() else 0),
                    scores=fmt_scores(state.scores_out()),
                ),
                "bold",
            )
            self.say(self.tr("record.where", path=self.setup.record_path), "dim")
            if state.in_round:
                self._notify("round_start")
        else:
            self.opening()
        while not state.over:
            if state.needs_deal():
                self.deal()
                continue
            self.step()
        self.match_over()
        return "over"

    def opening(self) -> None:
        cfg = self.setup.config
        tr = self.tr
        self.console.rule(Text(self.names.game(), "bold"))
        players = ", ".join(self.names.seat_long(s) for s in range(cfg.players))
        self.say(tr("intro.players", players=players))
        if cfg.teams:
            self.say(tr("intro.teams", a=self.names.side(0), b=self.names.side(1)))
        key = "intro.target_exact" if cfg.game.exact_target else "intro.target"
        self.say(tr(key, target=cfg.target))
        path = self.setup.record_path
        self.say(tr("record.where", path=path), "dim")
        self.say(tr("intro.keys"), "dim")

    def deal(self) -> None:
        state = self.state
        cfg = self.setup.config
        tr = self.tr
        k = len(state.rounds())
        previous: RoundEnd | None = state.round_end
        lot = deal_round(state, self.seeds)
        info = state.current_round_info()
        hands, stock, leader, size = info.hands, info.stock, info.leader, cfg.hand_size
        draws = lot.draws if lot is not None else ()
        reason = leader_reason(tr, cfg, hands, leader, previous, k, by_lot=lot is not None)
        self.last_tile = None
        self.save()
        self.say("")
        self.console.rule(Text(tr("round.title", n=k + 1), "bold"))
        if cfg.game.drawing:
            self.say(tr("round.dealt", size=size, stock=len(stock)))
        else:
            self.say(tr("round.dealt_out", size=size, stock=len(stock)))
        if draws:
            self.say(tr("lot.intro"))
            for i, this in enumerate(draws):
                shown = " · ".join(
                    f"{self.names.seat(seat)} {tile} ({tile.pips})" for seat, tile in this
                )
                self.say(("  " + tr("lot.again") + " " if i else "  ") + shown)
        self.say(tr("round.leader", who=self.names.seat_long(leader), why=reason), "bold")
        self._notify("round_start")

    def step(self) -> None:
        state = self.state
        seat = state.turn
        human = self.setup.seats[seat] == HUMAN
        action = self.human_move(seat) if human else self.bot_move(seat)
        spinner_before = state.layout.spinner
        entry = state.play(action)
        self.save()
        if action.tile is not None:
            self.last_tile = action.tile.id
        if human and self.me is None and (state.turn != seat or state.round_end is not None):
            self.hide()  # hot seat: the hand leaves the screen with the turn
        self.tell(entry, spinner_before)
        if state.round_end is not None:
            self.round_over()

    def tell(self, entry: tuple[int, int, int, int, int], spinner_before: int) -> None:
        state = self.state
        seat, code, _ends, points, tile_id = entry
        action = ACTIONS[code]
        names = self.names
        if action.is_play:
            became = spinner_before < 0 <= state.layout.spinner
            line = play_line(
                names,
                action,
                seat,
                state.layout,
                points,
                state.scores_out(),
                state.round_end,
                became,
            )
            self.say("• " + line, "green" if points else "")
            cfg = self.setup.config
            if cfg.teams and cfg.game.partners_play_on and state.round_end is None and state.out[seat]:
                self.say("  " + self.tr("log.sits_out", who=names.seat(seat)), "dim")
        elif action.kind == "draw":
            seen = ALL_TILES[tile_id] if self.setup.seats[seat] == HUMAN and tile_id >= 0 else None
            self.say("• " + draw_line(names, seat, seen))
        else:
            self.say("• " + pass_line(names, seat))

    def hide(self) -> None:
        if self.console.is_terminal:
            self.console.clear()
            self._write("\x1b[3J")
        else:
            self._write("\n" * 3)
        self.shown = None

    # -- a person's turn -------------------------------------------------------------------

    def human_move(self, seat: int) -> Action:
        state = self.state
        tr = self.tr
        if self.me is None and self.shown != seat:
            if self.shown is not None:
                self.hide()  # (already hidden when the last person's turn ended)
            self.say(tr("hotseat.pass", who=self.names.seat_long(seat)), "bold")
            self.ask(tr("prompt.ready"))
            self.shown = seat
        view = view_of(state, seat)
        new_turn = not state.log or state.log[-1][0] != seat
        if new_turn:
            self.show_table(view)
        else:
            playable = {a.tile for a in view.legal if a.tile is not None}
            hand_line = Text(tr("table.your_hand") + " ", "bold")
            hand_line.append_text(board.hand_text(view.hand, playable))
            self.say(hand_line)
        deadline = time.monotonic() + self.setup.timer if self.setup.timer else None
        legal = list(view.legal)
        if len(legal) == 1:
            self.say(self.forced_text(view, legal[0]), "bold")
            while True:
                line = self.ask(tr("prompt.enter"), deadline)
                word = line.strip().lower() if isinstance(line, str) else ""
                if word in ("q", "quit", "exit"):
                    raise Stop("quit")
                if word in ("r", "rules"):
                    self.show_rules()
                    continue
                if word in ("h", "help"):
                    self.say(tr("help"))
                    continue
                return legal[0]
        self.say(Text(tr("moves.title"), "bold"))
        for text in board.move_lines(tr, view):
            self.say(text)
        while True:
            line = self.ask(tr("prompt.move"), deadline)
            if line is TIMEOUT:
                return self.timed_out(view)
            assert isinstance(line, str)
            what = understand(line, view, tr)
            if isinstance(what, Refusal):
                self.say("  " + what.reason, "bold red")
                continue
            if what == "hint":
                self.hint(view)
                continue
            if what == "rules":
                self.show_rules()
                continue
            if what == "help":
                self.say(tr("help"))
                continue
            if what == "quit":
                raise Stop("quit")
            assert isinstance(what, Action)
            return what

    def forced_text(self, view: View, action: Action) -> str:
        tr = self.tr
        game = view.config.game
        ends = ends_text(view.layout)
        if action.kind == "draw":
            return tr("forced.draw", ends=ends)
        if action.kind == "pass":
            if game.no_play == "knock":
                return tr("forced.knock", ends=ends)
            if game.drawing:
                return tr("forced.pass", ends=ends)
            return tr("forced.pass_nostock", ends=ends)
        return tr("forced.play", move=action_text(tr, action, game))

    def timed_out(self, view: View) -> Action:
        if self._timer_bot is None:
            self._timer_bot = make_bot(TIMER_BOT)
        action = decide(self.state, self._timer_bot, self.seeds.of("timer"), name=TIMER_BOT).action
        self.say(
            self.tr(
                "timer.up",
                bot=self.names.bot(TIMER_BOT),
                move=action_text(self.tr, action, view.config.game),
            ),
            "bold yellow",
        )
        return action

    def show_table(self, view: View) -> None:
        cfg = view.config
        tr = self.tr
        k = view.round + 1
        key = "table.title_exact" if cfg.game.exact_target else "table.title"
        self.say("")
        self.console.rule(Text(tr(key, game=self.names.game(), n=k, target=cfg.target), "bold"))
        legend = self._legend_round != view.round and view.layout.count > 0
        if legend:
            self._legend_round = view.round
        for part in board.table(
            tr, self.names, view, width=self.console.width, last=self.last_tile, legend=legend
        ):
            self.console.print(part)

    def hint(self, view: View) -> None:
        tr = self.tr
        if self._hint_bot is None:
            for name in HINT_BOTS:
                try:
                    self._hint_bot = (name, make_bot(name))
                    break
                except BotError:
                    continue
        if self._hint_bot is None:
            self.say(tr("hint.none"), "yellow")
            return
        name, bot = self._hint_bot
        self.say(tr("hint.thinking", bot=self.names.bot(name)), "dim")
        state = self.state
        try:
            rng = self.seeds.of("hint").decision(view.seat, state.round_index, len(state.log))
            values = bot.values(view, rng)
        except Exception:
            self.say(tr("hint.none"), "yellow")
            return
        legal = list(view.legal)
        ranked = sorted(legal, key=lambda a: -values.get(a, -math.inf))
        best = ranked[0]
        game = view.config.game
        self.say(
            tr("hint.best", bot=self.names.bot(name), n=legal.index(best) + 1, move=action_text(tr, best, game)),
            "bold magenta",
        )
        self.say(tr("hint.values_search" if name in SEARCH_BOTS else "hint.values"), "magenta")
        for action in ranked[:5]:
            value = values.get(action)
            shown = "–" if value is None else f"{value:.2f}"
            self.say(
                f"  {legal.index(action) + 1:>2}) {action_text(tr, action, game)}: {shown}", "magenta"
            )

    def show_rules(self) -> None:
        cfg = self.setup.config
        self.console.rule(Text(self.tr("rules.title", game=self.names.game()), "bold"))
        self.say(self.tr(f"rules.{cfg.game.name}"))
        self.say(self.tr("rules.notation"), "dim")
        self.console.rule()

    # -- round and match ends --------------------------------------------------------------

    def score_table(self) -> list[Any]:
        """The scores with their sheet, as on the table (public)."""
        view = view_of(self.state, None)
        parts = board.table(self.tr, self.names, view, width=self.console.width, show_hand=False)
        return parts[:2]

    def round_over(self) -> None:
        state = self.state
        end = state.round_end
        assert end is not None
        k = len(state.rounds())
        self.say("")
        self.console.rule(Text(self.tr("end.rule", n=k), "bold"))
        lines = round_end_lines(self.names, account_of(state.config, end), k)
        self.say(lines[0], "bold")
        for line in lines[1:]:
            self.say(line)
        self.say("")
        self.say(Text(self.tr("sheet.title"), "bold"))
        for part in self.score_table():
            self.console.print(part)
        self._notify("round_end")
        if not state.over and self.humans:
            self.ask(self.tr("prompt.next_round", n=k + 1))

    def match_over(self) -> None:
        state = self.state
        self.say("")
        self.console.rule(Text(self.tr("match.rule"), "bold"))
        self.say(result_line(self.names, state.over, state.winner, state.scores_out()), "bold green")
        rounds = len(state.rounds())
        self.say(self.tr("match.rounds", n=rounds))
        self.say(self.tr("record.final", path=self.setup.record_path), "dim")

