"""One match at the terminal, whatever draws it: deals (with a visible lot where the rules say
so), the bots' turns through the match host's :func:`~fives.bots.host.decide`, the people's
actions, what happened told line by line, the record written after every action, hot-seat
hand-overs, hints, the countdown's stand-in and undo.

The full-screen app (:mod:`fives.tui.app`) and the transcript (:mod:`fives.tui.session`) both
drive a :class:`Match`: :meth:`Match.step` does the next thing that needs nobody (a deal, a
bot's move) or says what a person must do (:class:`Turn`, :class:`Handover`,
:class:`RoundOver`, :class:`MatchOver`).

Randomness comes from the match seed alone, per round and per decision, so a resumed match
deals and plays exactly as the uninterrupted one would have, and an undone move is followed by
the same bot decisions as before when the person plays the same again.
"""

from __future__ import annotations

import contextlib
import math
import os
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO

from fives.bots import Bot, BotError, BotName, make_bot
from fives.bots.host import Seeds, deal_round, decide, notify
from fives.bots.transpose import action_classes
from fives.core.account import account_of
from fives.core.games import Config
from fives.core.record import record_of
from fives.core.state import State
from fives.core.tiles import ACTIONS, ALL_TILES, Action
from fives.core.view import View, view_of
from fives.i18n import t
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
    round_end_lines,
    sits_out_line,
)

__all__ = [
    "HINT_BOTS",
    "Handover",
    "Hint",
    "Line",
    "Match",
    "MatchOver",
    "RoundOver",
    "Setup",
    "Stop",
    "Turn",
]

#: the bot asked for ``?`` hints, and the one used while it is not there yet
HINT_BOTS = ("hard", "easy")
#: bots whose values are searched estimates of the round's point difference
SEARCH_BOTS = ("hard", "expert")
#: the levels the terminal describes at the start of a match (``common.level.*``, as the lobby)
LEVELS = ("random", "easy", "medium", "hard", "expert")
#: the bot that moves for a player whose countdown runs out
TIMER_BOT = "easy"


class Stop(Exception):
    """The player leaves: ``quit`` (typed q) or ``eof`` (the input closed)."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


class BotStartError(Exception):
    """An outside bot's program cannot be started; already phrased for the player."""


def shown_path(path: Path) -> str:
    """A record's path as the log shows it, short: from the current folder when it is inside
    it, else from the home folder (~) when inside that, else whole (a full path filled the
    narrow log panel, a third of it the user's home)."""
    full = path.expanduser().resolve()
    for base, prefix in ((Path.cwd(), ""), (Path.home(), "~/")):
        with contextlib.suppress(ValueError):
            return prefix + str(full.relative_to(base.resolve()))
    return str(full)


@dataclass(frozen=True)
class Setup:
    """Everything a match at the terminal is played with."""

    config: Config
    seats: tuple[str, ...]  # per seat: "human" or a bot name
    seed: int
    record_path: Path
    lang: str = "en"
    timer: float | None = None
    people: tuple[str | None, ...] = ()  # the people's names by seat (hot seat)

    def again(self, record_path: Path) -> Setup:
        """The same table for a new match (a new seed, a new record)."""
        return replace(self, seed=Seeds(self.seed).of("again").seed, record_path=record_path)

    def recorded_seats(self) -> list[str]:
        """The record's ``seats``: a person's name where they gave one (RECORD.md)."""
        out = []
        for seat, name in enumerate(self.seats):
            person = self.people[seat] if seat < len(self.people) else None
            out.append(person if name == HUMAN and person else name)
        return out


# -- what happened ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """One line of what happened. ``secret`` is shown instead of ``text`` to everyone but the
    person in seat ``owner`` (a drawn tile is seen by its drawer only)."""

    text: str
    style: str = ""
    owner: int | None = None
    secret: str | None = None
    round: int = 0  # 0-based; -1 before the first deal

    def seen_by(self, seat: int | None) -> str:
        if self.owner is None or self.secret is None or seat == self.owner:
            return self.text
        return self.secret


# -- what a person must do ----------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    """A person's turn: ``forced`` is the only legal action, when there is just one."""

    seat: int
    view: View
    forced: Action | None


@dataclass(frozen=True)
class Handover:
    """Hot seat: the keyboard passes to the person in ``seat`` before their hand is shown."""

    seat: int
    summary: list[str]  # what happened since their last turn, as they may see it


@dataclass(frozen=True)
class RoundOver:
    """A round has ended (``number`` 1-based); the people read its summary, then go on."""

    number: int


@dataclass(frozen=True)
class MatchOver:
    """The match is over."""


Need = Turn | Handover | RoundOver | MatchOver


@dataclass(frozen=True)
class Hint:
    """A bot's advice: its best action and the values it gave the best few (identical
    actions, :mod:`fives.bots.transpose`, as one entry: ``twins`` names the others)."""

    bot: str
    best: Action
    ranked: list[tuple[Action, float | None]]
    search: bool
    twins: dict[Action, list[Action]] = field(default_factory=dict)


@dataclass
class _Mark:
    """The match as it was before a person's decision (for undo)."""

    state: State
    lines: int
    last_tile: int | None


class Match:
    """A match of :class:`Setup` with its :class:`State` (a resumed one, or a new one)."""

    def __init__(self, setup: Setup, state: State | None = None) -> None:
        self.setup = setup
        self.tr = Tr(setup.lang)
        cfg = setup.config
        self.state = state if state is not None else State(cfg)
        self.humans = [s for s, name in enumerate(setup.seats) if name == HUMAN]
        #: the one person at the keyboard, or None in hot seat
        self.me = self.humans[0] if len(self.humans) == 1 else None
        self.names = Names(self.tr, cfg, setup.seats, self.me, setup.people or None)
        self.lines: list[Line] = []
        #: the summary of the last round that ended (its end's lines)
        self.summary: list[str] = []
        self.bots: dict[int, Bot] = {}
        self.seeds = Seeds(setup.seed)
        self.last_tile: int | None = None
        #: hot seat: the person whose hand may be on screen now
        self.shown: int | None = self.me
        self._seen_upto: dict[int, int] = {}  # hot seat: lines each person has seen
        self._round_over_seen = -1  # the last round whose end the people acknowledged
        self._marks: list[_Mark] = []
        self._hint_bot: tuple[str, Bot] | None = None
        self._timer_bot: Bot | None = None
        self._log: IO[str] | None = None
        self._save_failed = False
        if self.state.round_end is not None or self.state.over:
            self._round_over_seen = len(self.state.rounds()) - 1

    # -- telling ---------------------------------------------------------------------------

    def say(
        self, text: str, style: str = "", owner: int | None = None, secret: str | None = None
    ) -> None:
        rnd = self.state.round_index if self.state.rounds() else -1
        self.lines.append(Line(text, style, owner, secret, rnd))

    @property
    def viewer(self) -> int | None:
        """The seat whose secrets may be shown now (None: only what everyone may see)."""
        return self.me if self.me is not None else self.shown

    # -- bots ------------------------------------------------------------------------------

    def open_bots(self) -> None:
        """Seat every bot now; an outside program that cannot be started is said at once
        (:class:`BotStartError`) rather than found out at its first turn."""
        tr = self.tr
        for seat, text in enumerate(self.setup.seats):
            if text == HUMAN or seat in self.bots:
                continue
            name = BotName.parse(text)
            if not name.outside:
                self.bots[seat] = name.make()
                continue
            from fives.bots.protocol import BotFault, ProcessBot

            if not name.program_found():
                why = tr("bot.not_runnable") if os.sep in name.argv[0] else tr("bot.not_found")
                raise BotStartError(tr("bot.cannot_start", command=name.command, why=why))
            bot = name.make(stderr=self._bot_log())
            assert isinstance(bot, ProcessBot)
            try:
                bot.start()
            except BotFault:
                why = tr("bot.not_runnable")
                raise BotStartError(tr("bot.cannot_start", command=name.command, why=why)) from None
            # a program that stops at once (a wrong argument, a missing file of its own)
            proc = bot.proc
            deadline = time.monotonic() + 0.3
            while proc is not None and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.02)
            if proc is not None and proc.poll() is not None:
                status = proc.returncode
                bot.close()
                why = tr("bot.exited", status=status)
                raise BotStartError(tr("bot.cannot_start", command=name.command, why=why))
            self.bots[seat] = bot

    def _bot_log(self) -> IO[str] | int:
        """Where outside programs' own logs go: beside the record, not over the table."""
        if self._log is None:
            path = self.setup.record_path.with_suffix(".bots.log")
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                self._log = open(path, "a", encoding="utf-8")  # noqa: SIM115 (closed in close())
            except OSError:
                return subprocess.DEVNULL
        return self._log

    def bot(self, seat: int) -> Bot:
        if seat not in self.bots:
            self.open_bots()
        return self.bots[seat]

    def _notify(self, hook: str) -> None:
        seats = range(self.setup.config.players)
        notify({s: self.bot(s) for s in seats if self.setup.seats[s] != HUMAN}, self.state, hook)

    def close(self) -> None:
        helpers = [self._hint_bot[1]] if self._hint_bot is not None else []
        for bot in [*self.bots.values(), *helpers]:
            with contextlib.suppress(Exception):
                bot.close()
        if self._log is not None:
            self._log.close()
            self._log = None

    # -- the record ------------------------------------------------------------------------

    def save(self) -> None:
        record = record_of(self.state, seats=self.setup.recorded_seats(), seed=self.setup.seed)
        path = self.setup.record_path
        tmp = path.with_name(path.name + ".tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(record.to_json(indent=1) + "\n", encoding="utf-8")
            os.replace(tmp, path)
        except OSError as exc:
            if not self._save_failed:
                from fives.phrasing import os_error_text

                self._save_failed = True
                why = os_error_text(exc, self.tr.lang)
                self.say(self.tr("record.write_error", path=path, why=why), "bold red")

    # -- the flow --------------------------------------------------------------------------

    def start(self) -> None:
        """The opening lines (or, resuming, where the match stands)."""
        state = self.state
        tr = self.tr
        if state.rounds():
            n = len(state.rounds()) + (1 if state.needs_deal() else 0)
            self.say(
                tr("resume", game=self.names.game(), n=n, scores=fmt_scores(state.scores_out())),
                "bold",
            )
            self.say(tr("record.where", path=shown_path(self.setup.record_path)), "dim")
            if state.in_round:
                self._notify("round_start")
            return
        cfg = self.setup.config
        players = ", ".join(self.names.seat_long(s) for s in range(cfg.players))
        self.say(tr("intro.players", players=players))
        # what each level at the table measurably does (the README's table of tournaments)
        for level in dict.fromkeys(name for name in self.setup.seats if name in LEVELS):
            self.say(t(f"common.level.{level}", tr.lang), "dim")
        if cfg.teams:
            self.say(tr("intro.teams", a=self.names.side(0), b=self.names.side(1)))
        key = "intro.target_exact" if cfg.game.exact_target else "intro.target"
        self.say(tr(key, points=tr.points(cfg.target)))
        self.say(tr("record.where", path=shown_path(self.setup.record_path)), "dim")

    def step(self) -> Need | None:
        """Do the next thing that needs nobody and return None, or say what a person must do."""
        state = self.state
        finished = len(state.rounds()) - 1
        if state.round_end is not None and self._round_over_seen < finished:
            if self.humans and not state.over:
                return RoundOver(finished + 1)
            self._round_over_seen = finished
        if state.over:
            return MatchOver()
        if state.needs_deal():
            self.deal()
            return None
        seat = state.turn
        if self.setup.seats[seat] != HUMAN:
            self.bot_move(seat)
            return None
        if self.me is None and self.shown != seat:
            return Handover(seat, self.summary_for(seat))
        view = view_of(state, seat)
        legal = view.legal
        return Turn(seat, view, legal[0] if len(legal) == 1 else None)

    def next_round(self) -> None:
        """The people have read the round's end: on to the next round."""
        self._round_over_seen = len(self.state.rounds()) - 1

    def ready(self, seat: int) -> None:
        """Hot seat: the person in ``seat`` has the keyboard."""
        self.shown = seat
        self._seen_upto[seat] = len(self.lines)

    def summary_for(self, seat: int) -> list[str]:
        """What happened since the person in ``seat`` last had the keyboard, as they may see it
        (their own draws with the tiles, everyone else's without)."""
        start = self._seen_upto.get(seat, 0)
        return [line.seen_by(seat) for line in self.lines[start:]]

    def deal(self) -> None:
        """Deal the next round through the host (the lot drawn visibly where the rules say)."""
        state = self.state
        cfg = self.setup.config
        tr = self.tr
        k = len(state.rounds())
        previous = state.round_end
        lot = deal_round(state, self.seeds)
        info = state.current_round_info()
        hands, stock, leader, size = info.hands, info.stock, info.leader, cfg.hand_size
        reason = leader_reason(tr, cfg, hands, leader, previous, k, by_lot=lot is not None)
        self.last_tile = None
        self._marks = []
        self.save()
        self.say(tr("round.title", n=k + 1), "bold rule")
        if cfg.game.drawing:
            self.say(tr("round.dealt", size=size, stock=len(stock)))
        else:
            self.say(tr("round.dealt_out", size=size, stock=len(stock)))
        if lot is not None:
            self.say(tr("lot.intro"))
            for i, this in enumerate(lot.draws):
                shown = " · ".join(f"{self.names.seat(s)} {tile} ({tile.pips})" for s, tile in this)
                self.say(("  " + tr("lot.again") + " " if i else "  ") + shown)
        self.say(tr("round.leader", who=self.names.seat_long(leader), why=reason), "bold")
        self._notify("round_start")

    def bot_move(self, seat: int) -> None:
        decision = decide(self.state, self.bot(seat), self.seeds, name=self.setup.seats[seat])
        if decision.fault is not None:  # the bot forfeited: the host's replacement is played
            self.say(
                self.tr(
                    "bot.fault", who=self.names.seat(seat), detail=decision.fault.kind,
                    move=str(decision.action),
                ),
                "yellow",
            )
        self._apply(decision.action)

    def act(self, action: Action) -> None:
        """A person's action (one of the turn's legal actions)."""
        state = self.state
        seat = state.turn
        if action not in state.legal_actions():
            raise ValueError(f"{action} is not legal here")
        self._marks.append(_Mark(state.copy(), len(self.lines), self.last_tile))
        self._apply(action)
        if self.me is None and (state.turn != seat or state.round_end is not None):
            self.shown = None  # hot seat: the hand leaves the screen with the turn
            self._seen_upto[seat] = len(self.lines)

    def _apply(self, action: Action) -> None:
        state = self.state
        spinner_before = state.layout.spinner
        entry = state.play(action)
        if action.tile is not None:
            self.last_tile = action.tile.id
        self.save()
        self._tell(entry, spinner_before)
        if state.round_end is not None:
            self._round_end()

    def _tell(self, entry: tuple[int, int, int, int, int], spinner_before: int) -> None:
        state = self.state
        seat, code, _ends, points, tile_id = entry
        action = ACTIONS[code]
        names = self.names
        cfg = self.setup.config
        if action.is_play:
            became = spinner_before < 0 <= state.layout.spinner
            line = play_line(
                names, action, seat, state.layout, points, state.scores_out(),
                state.round_end, became,
            )
            self.say("• " + line, "green" if points else "")
            if cfg.teams and cfg.game.partners_play_on and state.round_end is None and state.out[seat]:
                self.say("  " + sits_out_line(names, seat), "dim")
        elif action.kind == "draw":
            if self.setup.seats[seat] == HUMAN and tile_id >= 0:
                self.say(
                    "• " + draw_line(names, seat, ALL_TILES[tile_id]),
                    owner=seat,
                    secret="• " + draw_line(names, seat, None),
                )
            else:
                self.say("• " + draw_line(names, seat, None))
        else:
            self.say("• " + pass_line(names, seat))

    def _round_end(self) -> None:
        state = self.state
        end = state.round_end
        assert end is not None
        k = len(state.rounds())
        self.say(self.tr("end.rule", n=k), "bold rule")
        lines = round_end_lines(self.names, account_of(state.config, end), k)
        self.summary = lines
        self.say(lines[0], "bold")
        for line in lines[1:]:
            self.say(line)
        self._marks = []
        self._notify("round_end")

    def result(self) -> str:
        from fives.phrasing import result_line

        state = self.state
        return result_line(self.names, state.over, state.winner, state.scores_out())

    # -- undo ------------------------------------------------------------------------------

    @property
    def undo_allowed(self) -> bool:
        """Undo is for one person against our own bots: their later decisions replay exactly
        (an outside program's might not, and other people have seen the move)."""
        seats = self.setup.seats
        return self.me is not None and all(
            name == HUMAN or not BotName.parse(name).outside for name in seats
        )

    def can_undo(self) -> bool:
        return self.undo_allowed and any(len(m.state.legal_actions()) > 1 for m in self._marks)

    def undo(self) -> bool:
        """Take back the person's last decision in this round (and everything after it: the
        bots' replies, forced draws). False when there is nothing to take back."""
        if not self.can_undo():
            return False
        while self._marks:
            mark = self._marks.pop()
            if len(mark.state.legal_actions()) > 1:
                break
        self.state = mark.state
        del self.lines[mark.lines :]
        self.last_tile = mark.last_tile
        self.save()
        self.say(self.tr("undo.done"), "yellow")
        return True

    # -- help for the person ---------------------------------------------------------------

    @property
    def hint_bot(self) -> str:
        """The name of the bot that gives hints (the first of :data:`HINT_BOTS` until asked)."""
        return self._hint_bot[0] if self._hint_bot is not None else HINT_BOTS[0]

    def hint(self, view: View) -> Hint | None:
        """The hint bot's advice on ``view`` (None when no bot can give one)."""
        if self._hint_bot is None:
            for name in HINT_BOTS:
                try:
                    self._hint_bot = (name, make_bot(name))
                    break
                except BotError:
                    continue
        if self._hint_bot is None:
            return None
        name, bot = self._hint_bot
        state = self.state
        try:
            assert view.seat is not None
            rng = self.seeds.of("hint").decision(view.seat, state.round_index, len(state.log))
            values = bot.values(view, rng)
        except Exception:  # a hint that fails is no hint, never a crash
            return None
        legal = list(view.legal)
        classes = action_classes(view.layout, legal)
        twins = {g[0]: g[1:] for g in classes if len(g) > 1}
        firsts = [g[0] for g in classes]
        ranked = sorted(firsts, key=lambda a: -values.get(a, -math.inf))
        return Hint(
            name, ranked[0], [(a, values.get(a)) for a in ranked[:5]], name in SEARCH_BOTS, twins
        )

    def hint_lines(self, hint: Hint, view: View, numbered: bool = True) -> list[str]:
        tr = self.tr
        legal = list(view.legal)
        game = view.config.game
        bot = self.names.bot(hint.bot)
        best = action_text(tr, hint.best, game)
        if numbered:
            head = tr("hint.best", bot=bot, n=legal.index(hint.best) + 1, move=best)
        else:
            head = tr("hint.best_tile", bot=bot, move=best)
        out = [head, tr("hint.values_search" if hint.search else "hint.values")]
        for action, value in hint.ranked:
            # points, signed, one decimal: "+3.5 points" (a bare "3.47" read as a raw number)
            shown = "–" if value is None else tr("hint.estimate", value=f"{value:+.1f}")
            number = f"{legal.index(action) + 1:>2}) " if numbered else "• "
            text = " = ".join(action_text(tr, a, game) for a in [action, *hint.twins.get(action, [])])
            out.append(f"  {number}{text}: {shown}")
        return out

    def timed_out(self, view: View) -> Action:
        """The countdown ran out: the timer's bot moves for the person (and it is said)."""
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

    def forced_text(self, view: View, action: Action) -> str:
        """Why a person's turn has just one action, and what it is."""
        tr = self.tr
        game = view.config.game
        ends = ends_text(view.layout, tr)
        if action.kind == "draw":
            return tr("forced.draw", ends=ends)
        if action.kind == "pass":
            if game.no_play == "knock":
                return tr("forced.knock", ends=ends)
            if game.drawing:
                return tr("forced.pass", ends=ends)
            return tr("forced.pass_nostock", ends=ends)
        return tr("forced.play", move=action_text(tr, action, game))


def people_names(seats: Sequence[str], given: Sequence[str]) -> tuple[str | None, ...]:
    """The people's names by seat: ``given`` in seat order for the seats where people sit."""
    out: list[str | None] = [None] * len(seats)
    humans = [s for s, name in enumerate(seats) if name == HUMAN]
    for seat, name in zip(humans, given):
        out[seat] = name
    return tuple(out)
