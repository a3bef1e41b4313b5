"""The turn driver: one task per table that makes happen everything that is not a person's
choice. It plans the next step and its delay, waits (a change at the table wakes it to plan
again), then takes the step under the table's lock if nothing moved meanwhile:

- deals, and the pause between rounds (until everyone here says ready; with a clock at most
  ``round_pause``, without one at most ``idle_turn``);
- bots' moves after a natural delay, thinking time included (and the bot that keeps the seat
  of a player who is away);
- forced draws and passes, after a short pause so that they can be seen;
- the turn clock: on timeout the easy bot plays for the player, and three timeouts in a row
  hand the seat to a bot until the player returns; without a clock, a player silent for
  ``idle_turn`` (or gone for ``absent_turn``) hands it over the same way;
- at a table still waiting for players, freeing a seat whose holder left long ago.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from typing import Any, Protocol

from fives.bots.host import Seeds, replacement
from fives.bots.protocol import BotFault
from fives.core.state import State
from fives.core.tiles import DRAW, PASS
from fives.core.view import view_of
from fives.server.bots import BotRunner
from fives.server.messages import ClientError
from fives.server.meta import TableMeta
from fives.server.online_bots import OnlineBots, Unreachable, is_outside
from fives.server.settings import Settings
from fives.store.base import How, StaleOwner, StoreError

__all__ = ["Driven", "Driver"]

log = logging.getLogger("fives.server")

_DRAW = int(DRAW)
_PASS = int(PASS)

#: seconds a turn clock keeps at least when a table comes back after a restart
RESUME_GRACE = 5.0

Plan = tuple[str, float]


class Driven(Protocol):
    """What the driver reads of its table, and the steps it asks of it."""

    id: str
    settings: Settings
    bots: BotRunner
    meta: TableMeta
    state: State
    n: int
    status: str
    lock: asyncio.Lock
    wake: asyncio.Event  # set when something changes: plan again
    closed: bool
    outside: OnlineBots | None  # the bots online (None: none at this server)
    last_seen: float
    round_ended_at: float | None

    @property
    def connected(self) -> int: ...

    @property
    def people_here(self) -> bool: ...

    def waiting_for(self) -> list[int]: ...

    def broadcast(self) -> None: ...

    async def apply(self, seat: int, code: int, how: How) -> None: ...

    async def deal(self) -> None: ...

    async def outside_leaves(self, seat_no: int) -> None: ...

    async def release_silent_seats(self) -> None: ...


class Driver:
    """The driver of one table, and its turn clock."""

    def __init__(self, table: Driven) -> None:
        self.table = table
        self.settings = table.settings
        self.deadline: float | None = None  # monotonic time the turn clock runs out
        self.deadline_n = -1  # ... for the position with this counter
        self.turn_n = -1  # the counter at which the current turn was first planned
        self.turn_began = 0.0  # ... and when (monotonic)
        self._task: asyncio.Task[None] | None = None

    # -- the clock ---------------------------------------------------------------------------

    def clock(self) -> dict[str, Any] | None:
        """The running turn clock, for everyone to see."""
        table = self.table
        if self.deadline is None or self.deadline_n != table.n or table.state.turn < 0:
            return None
        remaining = max(0.0, self.deadline - time.monotonic())
        return {"seat": table.state.turn, "remaining": int(remaining * 1000),
                "total": int(table.meta.turn_time * 1000)}

    def resume_clock(self, began: float) -> None:
        """After a restart the clock goes on from when the turn began (wall time of the last
        stored action or deal); a few seconds are always left so a returning player can act."""
        turn_time = self.table.meta.turn_time
        left = turn_time - max(0.0, time.time() - began)
        self.deadline = time.monotonic() + min(turn_time, max(RESUME_GRACE, left))
        self.deadline_n = self.table.n

    # -- the task ----------------------------------------------------------------------------

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):  # cancelled, or a failure already logged
                await self._task

    async def _run(self) -> None:
        table = self.table
        while not table.closed:
            table.wake.clear()
            try:
                plan = self.plan()
            except Exception:  # never let one table's fault stop it silently
                log.exception("table %s: planning failed", table.id)
                plan = None
            if plan is None:
                await table.wake.wait()
                continue
            step, delay = plan
            planned_n = table.n
            if step == "bot":
                await self._bot_move(planned_n, delay)
                await asyncio.sleep(0)
                continue
            if delay > 0 and await self._woken_within(delay):
                continue  # something changed: plan again
            try:
                await self._step(step, planned_n)
            except ClientError:  # the store refused the action: try again shortly
                await asyncio.sleep(1.0)
            except StaleOwner as exc:  # another process owns the table now
                log.warning("table %s: %s", table.id, exc)
                await asyncio.sleep(1.0)
            except StoreError:
                log.exception("table %s: store failed; retrying shortly", table.id)
                await asyncio.sleep(1.0)
            except Exception:
                log.exception("table %s: step %s failed", table.id, step)
                await asyncio.sleep(1.0)
            await asyncio.sleep(0)

    async def _woken_within(self, seconds: float) -> bool:
        try:
            await asyncio.wait_for(self.table.wake.wait(), seconds)
            return True
        except TimeoutError:
            return False

    # -- planning ----------------------------------------------------------------------------

    def _bot_delay(self) -> float:
        d = self.settings.bot_delay
        return d * random.uniform(0.6, 1.4) if d > 0 else 0.0

    def plan(self) -> Plan | None:
        """What happens next and in how many seconds; None: wait for a person."""
        table = self.table
        state = table.state
        settings = self.settings
        if table.status == "waiting":
            return self._release_plan()
        if table.status != "playing" or state.over:
            return None
        if (not table.meta.bot_only and not table.connected
                and time.time() - table.last_seen > settings.unwatched_ttl):
            return None  # bots would play on for nobody: wait for someone to come back
        if state.needs_deal():
            if state.leader < 0:
                return ("deal", 0.0)
            if not table.waiting_for():
                return ("deal", 0.0 if table.people_here else self._bot_delay())
            # Nobody holds the table up for ever: with a clock the pause between rounds, without
            # one the longest a silent player may keep a turn.
            pause = settings.round_pause if table.meta.turn_time > 0 else settings.idle_turn
            if table.round_ended_at is not None:
                return ("deal", max(0.0, table.round_ended_at + pause - time.monotonic()))
            return None
        seat_no = state.turn
        if seat_no < 0:
            return None
        seat = table.meta.seats[seat_no]
        if seat.kind == "bot" or seat.away:
            return ("bot", self._bot_delay())
        legal = state.legal_codes()
        if len(legal) == 1 and legal[0] in (_DRAW, _PASS):
            return ("forced", settings.forced_delay)
        now = time.monotonic()
        if self.turn_n != table.n:
            self.turn_n = table.n
            self.turn_began = now
        if table.meta.turn_time > 0:
            if self.deadline_n != table.n or self.deadline is None:
                self.deadline_n = table.n
                self.deadline = now + table.meta.turn_time
                table.broadcast()  # everyone sees the clock start
            return ("timeout", max(0.0, self.deadline - now))
        # No clock: a holder who stays silent too long (or left) hands the seat to a bot.
        if seat.conns:
            due = self.turn_began + settings.idle_turn
        else:
            due = max(self.turn_began, seat.left_at or now) + settings.absent_turn
        return ("idle", max(0.0, due - now))

    def _release_plan(self) -> Plan | None:
        """At a waiting table, a seat whose holder left long ago is freed for someone else (the
        host's is kept: a table without its host expires instead)."""
        table = self.table
        due = [s.left_at + self.settings.seat_release for i, s in enumerate(table.meta.seats)
               if i != table.meta.host and s.held_by_person and s.left_at is not None]
        if not due:
            return None
        return ("release", max(0.0, min(due) - time.monotonic()))

    # -- steps -------------------------------------------------------------------------------

    async def _step(self, step: str, planned_n: int) -> None:
        table = self.table
        async with table.lock:
            if table.n != planned_n:
                return  # something happened meanwhile: plan again
            state = table.state
            if step == "release":
                await table.release_silent_seats()
            elif step == "deal":
                if state.needs_deal() and table.status == "playing":
                    await table.deal()
            elif step == "idle":
                seat_no = state.turn
                if seat_no >= 0 and not table.meta.seats[seat_no].away:
                    table.meta.seats[seat_no].away = True
                    table.broadcast()
            elif step == "forced":
                legal = state.legal_codes()
                if len(legal) == 1:
                    await table.apply(state.turn, legal[0], "forced")
            elif step == "timeout":
                await self._time_out(state.turn)

    async def _time_out(self, seat_no: int) -> None:
        """The clock ran out: draw as needed, then the easy bot's choice, for the player."""
        table = self.table
        while table.state.legal_codes() == [_DRAW]:
            await table.apply(seat_no, _DRAW, "forced")
        code = await self.choose("easy", seat_no)
        if table.state.turn == seat_no:
            table.meta.seats[seat_no].timed_out()
            await table.apply(seat_no, code, "timeout")

    async def _bot_move(self, planned_n: int, delay: float) -> None:
        """A bot (or the bot keeping an absent player's seat) thinks, then moves once its
        natural delay has passed (thinking time included); a change meanwhile cancels it."""
        table = self.table
        seat_no = table.state.turn
        seat = table.meta.seats[seat_no]
        level = (seat.level or "easy") if seat.kind == "bot" else "easy"
        how: How = "bot" if seat.kind == "bot" else "away"
        started = time.monotonic()
        try:
            code = await self.choose(level, seat_no)
        except Unreachable as exc:  # who holds an online bot cannot be known now: ask again
            log.warning("table %s: %s", table.id, exc)
            await asyncio.sleep(1.0)
            return
        except Exception:
            log.exception("table %s: bot %s failed", table.id, level)
            await asyncio.sleep(1.0)
            return
        left = delay - (time.monotonic() - started)
        if left > 0 and await self._woken_within(left):
            return  # something changed: plan again
        async with table.lock:
            state = table.state
            if table.n == planned_n and state.turn == seat_no and code in state.legal_codes():
                try:
                    await table.apply(seat_no, code, how)
                except ClientError:
                    await asyncio.sleep(1.0)

    async def choose(self, level: str, seat_no: int) -> int:
        """The bot's action (code) for the seat to play: a forced one at once, a forfeited
        decision replaced as the host replaces one at every table. An online bot's seat asks
        the bot; one that breaks the protocol loses the seat to ``level`` (easy)."""
        table = self.table
        state = table.state
        legal = state.legal_codes()
        if len(legal) == 1:
            return legal[0]
        view = view_of(state, seat_no)
        seat = table.meta.seats[seat_no]
        if seat.kind == "bot" and is_outside(seat.player) and table.outside is not None:
            try:
                return int(await table.outside.ask(str(seat.player), table.id, view))
            except BotFault:
                await table.outside_leaves(seat_no)
        seeds = Seeds(table.meta.seed)
        round_no, action_no = state.round_index, len(state.log)
        seed = seeds.decision(seat_no, round_no, action_no).getrandbits(64)
        action = await table.bots.choose(level, view, seed, table.id, table.people_here)
        if action is None or int(action) not in legal:
            log.warning("table %s: bot %s forfeits; the host's replacement plays", table.id, level)
            action = replacement(view, seeds, round_no, action_no)
        return int(action)
