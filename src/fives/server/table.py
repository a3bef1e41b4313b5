"""One authoritative table per match.

The table runs the engine one action at a time (an asyncio lock), counts every change (``n``:
each deal and each action adds one, so a message about an older position is refused as stale),
stores each deal and each accepted action before anyone hears of it, and sends each seat its own
view (``view_of(state, seat).to_json()``) and spectators the public view, never more.

Its parts: the connections (:mod:`fives.server.conn`), its metadata
(:mod:`fives.server.meta`), the events it tells (:mod:`fives.server.events`), and the driver
that makes everything happen that is not a person's choice (:mod:`fives.server.driver`). What
it needs from the server (settings, store, bots, seat counts, making a rematch) is handed to
it as :class:`TableServices`, so a table knows nothing of the manager that holds it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from fives.bots.host import Seeds, deal_round
from fives.core.record import Record, RecordRound, record_of, replay_state
from fives.core.state import State
from fives.core.tiles import ACTIONS, Action, NotationError, Tile
from fives.core.view import View, public_view, view_of
from fives.server.bots import BotRunner
from fives.server.conn import Conn, dumps
from fives.server.driver import Driver
from fives.server.events import Event, deal_event, event_of
from fives.server.illegal import illegal_reason
from fives.server.messages import ClientError, clean_name
from fives.server.meta import TableMeta, hash_token
from fives.server.metrics import ACTION_COUNT, LATENCY
from fives.server.online_bots import OnlineBots, Unreachable, is_outside
from fives.server.phrases import PHRASE_GAP, PHRASES
from fives.server.rated import casual_reason, same_pair_reason
from fives.server.settings import Settings
from fives.server.summary import result_of, round_summary
from fives.store.base import How, StaleOwner, Store, StoredAction, StoredTable, StoreError

__all__ = ["Table", "TableServices", "hash_token", "lobby_entry", "replay_stored"]

log = logging.getLogger("fives.server")


def replay_stored(stored: StoredTable, meta: TableMeta) -> tuple[State, int]:
    """The engine's state of a stored table and the number of its deals and actions: its
    rows replayed, or once they are archived (a finished match's rows dropped) its record.
    RecordError or RulesError if they cannot be replayed."""
    if stored.rounds:
        record = Record(meta.config, [
            RecordRound(
                r.leader,
                [[Tile.parse(x) for x in hand] for hand in r.hands],
                [Tile.parse(x) for x in r.stock],
                [a.action for a in r.actions],
            )
            for r in stored.rounds
        ])
    elif stored.status == "over" and stored.record is not None:
        record = Record.from_data(stored.record)
    else:
        return State(meta.config), 0
    return replay_state(record), len(record.rounds) + sum(len(r.actions) for r in record.rounds)


def lobby_entry(table_id: str, meta: TableMeta, state: State, status: str,
                created: float) -> dict[str, Any]:
    """A table as the lobby lists it (its own process's, or read from the store)."""
    cfg = meta.config
    return {
        "id": table_id,
        "game": cfg.game.name,
        "players": cfg.players,
        "teams": cfg.teams,
        "target": cfg.target,
        "turn_time": meta.turn_time,
        "status": status,
        "seats": [
            {"kind": s.kind, "level": s.level, "name": s.name, "claimed": s.claimed,
             "player": s.player}
            for s in meta.seats
        ],
        "free": [i for i, s in enumerate(meta.seats) if not s.claimed],
        "rated": meta.rated,
        "scores": state.scores_out() if status != "waiting" else None,
        "created": created,
    }


@dataclass(frozen=True)
class TableServices:
    """What a table needs from the server around it."""

    settings: Settings
    store: Store
    bots: BotRunner
    #: seats held by people from an address at tables not yet over (seat caps)
    seats_held: Callable[[str], int]
    #: make the next match at this table (same seats and tokens); its id
    rematch: Callable[[Table], Awaitable[str]]
    #: a match just ended (or was found ended): its players' records and ratings
    match_over: Callable[[Table], Coroutine[Any, Any, None]] | None = None
    #: the bots online (this process's, or the cluster's)
    outside: OnlineBots | None = None
    #: a hint for a view: the best action and the values (``Analyst.hint``)
    hint: Callable[[View], Awaitable[dict[str, Any]]] | None = None


class Table:
    """A match: its engine state, seats, connections, and the driver of its turns."""

    def __init__(
        self,
        services: TableServices,
        table_id: str,
        meta: TableMeta,
        state: State,
        created: float,
    ) -> None:
        self.services = services
        self.settings = services.settings
        self.store = services.store
        self.bots = services.bots
        self.outside = services.outside
        self.id = table_id
        self.meta = meta
        self.state = state
        self.created = created
        now = time.monotonic()
        for seat in meta.seats:
            if seat.held_by_person:
                seat.left_at = now  # nobody is connected yet
        self.n = 0
        self.status = "waiting"
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()  # something changed: the driver plans again
        self.spectators: set[Conn] = set()
        self.ready: set[int] = set()
        self.round_ended_at: float | None = None
        self.summary: dict[str, Any] | None = None
        # the newest deal or action, told again to whoever (re)connects: the banner's subject
        self.last_event: Event | None = None
        self.finished_at: float | None = None
        self.last_seen = time.time()
        self._presence: asyncio.TimerHandle | None = None
        self.driver = Driver(self)
        self.closed = False
        #: the owner's fencing token, carried by every write (None: the only process)
        self.fence: int | None = None
        self._recording: asyncio.Task[None] | None = None
        self._phrased: dict[int, float] = {}  # when each seat last said a quick phrase
        self._hinted: set[tuple[int, int]] = set()  # (seat, n): hints given, one a turn
        self._telling: set[asyncio.Task[None]] = set()  # start/end lines on their way

    # -- creation and restore ----------------------------------------------------------------

    @classmethod
    async def new(cls, services: TableServices, table_id: str, meta: TableMeta,
                  fence: int | None = None) -> Table:
        """A new table, stored at once; ``fence``: its owner's token (in a cluster)."""
        table = cls(services, table_id, meta, State(meta.config), time.time())
        table.fence = fence
        if all(seat.claimed for seat in meta.seats):
            await table._settle_rated()
        await services.store.create_table(table_id, meta.to_json(), table.created, fence)
        if all(seat.claimed for seat in meta.seats):
            table.status = "playing"
        return table

    @classmethod
    async def restore(cls, services: TableServices, stored: StoredTable,
                      fence: int | None = None) -> Table:
        """Rebuild a table from the store: replay its deals and actions through the engine
        (after a restart, or a takeover: then ``fence`` is the new owner's token)."""
        meta = TableMeta.from_json(stored.meta)
        state, n = replay_stored(stored, meta)
        table = cls(services, stored.id, meta, state, stored.created)
        table.fence = fence
        table.n = n
        for r in stored.rounds:
            for a in r.actions:
                seat = meta.seats[a.seat]
                if a.how == "player":
                    seat.timeouts = 0
                    seat.away = False
                elif a.how == "timeout":
                    seat.timed_out()
        last = stored.rounds[-1] if stored.rounds else None
        if last is not None:
            table.last_event = (
                event_of(state, state.log[-1], last.actions[-1].how, table.n)
                if last.actions and state.log
                else deal_event(state, table.n)
            )
        if stored.status == "over" or state.over:
            table.status = "over"
            ended = last.actions[-1].ts if last and last.actions else time.time()
            table.finished_at = stored.finished or ended
            if stored.status != "over":
                # The last action is stored but not the finished match (a crash between the
                # two, from before they were one transaction): finish it now.
                try:
                    await services.store.finish(stored.id, table.final_record(),
                                                table.finished_at, fence)
                    log.warning("table %s: its finished match is stored now", stored.id)
                except StoreError:
                    log.exception("table %s: cannot store its finished match", stored.id)
        elif all(seat.claimed for seat in meta.seats):
            table.status = "playing"
        if state.round_end is not None:
            table.summary = round_summary(state)
            table.round_ended_at = time.monotonic()
        elif meta.turn_time > 0 and last is not None and state.turn >= 0:
            # the clock resumes from when the turn began: the last stored action, or the deal
            table.driver.resume_clock(last.actions[-1].ts if last.actions else last.ts)
        return table

    def start(self) -> None:
        """Start the driver (after creation or restore)."""
        if self.status != "over":
            self.driver.start()
        else:
            self.match_over()  # stored already, or missed by a crash: recorded once either way

    async def close(self) -> None:
        self.closed = True
        if self._presence is not None:
            self._presence.cancel()
        self.wake.set()
        await self.driver.stop()

    # -- public information ------------------------------------------------------------------

    @property
    def connected(self) -> int:
        return len(self.spectators) + sum(len(s.conns) for s in self.meta.seats)

    def conns(self) -> list[Conn]:
        """Every connection at the table: seats' and watchers'."""
        return [*self.spectators, *(c for s in self.meta.seats for c in s.conns)]

    @property
    def people_here(self) -> bool:
        """Whether a seated person is connected."""
        return any(s.conns for s in self.meta.seats if s.kind == "human")

    def waiting_for(self) -> list[int]:
        """Human seats whose player is here and has not said they are ready to go on."""
        return [
            i
            for i, s in enumerate(self.meta.seats)
            if s.kind == "human" and s.conns and not s.away and i not in self.ready
        ]

    def info(self) -> dict[str, Any]:
        meta = self.meta
        cfg = meta.config
        game = cfg.game
        return {
            "id": self.id,
            **game.properties(),
            "players": cfg.players,
            "teams": cfg.teams,
            "target": cfg.target,
            "turn_time": meta.turn_time,
            "status": self.status,
            "private": meta.private,
            "rated": meta.rated,
            "casual": meta.casual,
            "hints": meta.hints_open,
            "host": meta.host,
            "seats": [
                {
                    "kind": s.kind,
                    "level": s.level,
                    "name": s.name,
                    "player": s.player,  # public: a profile's id
                    "claimed": s.claimed,
                    "connected": bool(s.conns),
                    "away": s.away,
                    "timeouts": s.timeouts,
                    "hints": s.hints,
                    "side": cfg.side_of(i),
                }
                for i, s in enumerate(meta.seats)
            ],
            "clock": self.driver.clock(),
            "ready": sorted(self.ready),
            "waiting_for": self.waiting_for() if self.summary and not self.state.over else [],
            "rematch": meta.rematch,
            "rematch_of": meta.rematch_of,
            "event": meta.event,
            "spectators": len(self.spectators),
        }

    def lobby_entry(self) -> dict[str, Any]:
        return lobby_entry(self.id, self.meta, self.state, self.status, self.created)

    def lobby_candidate(self) -> dict[str, Any]:
        """The lobby entry with what the lobby sorts and limits by (who made the table,
        whether a seated person is here), taken out before it is shown."""
        return {**self.lobby_entry(), "by": self.meta.by, "people_here": self.people_here}

    def _message(self, seat: int | None, event: Event | None, ts: float) -> str:
        """The state message for one seat (None: a spectator), with its own event."""
        state = self.state
        view = None
        if state.leader >= 0:
            view = (view_of(state, seat) if seat is not None else public_view(state)).to_json()
        return dumps({
            "type": "state",
            "table": self.id,
            "n": self.n,
            "t": ts,
            "you": seat,
            "info": self.info(),
            "view": view,
            "event": event.for_seat(seat) if event is not None else None,
            "summary": self.summary,
            "result": result_of(state),
        })

    def broadcast(self, event: Event | None = None, ts: float | None = None) -> None:
        """Each connected seat its own message, and every spectator one shared public one."""
        if self._presence is not None:  # this message tells who is here as well
            self._presence.cancel()
            self._presence = None
        ts = time.time() if ts is None else ts
        for i, seat in enumerate(self.meta.seats):
            if seat.conns:
                text = self._message(i, event, ts)
                for conn in seat.conns:
                    conn.send_text(text)
        if self.spectators:
            text = self._message(None, event, ts)
            for conn in self.spectators:
                conn.send_text(text)

    def send_state(self, conn: Conn) -> None:
        """The whole state for one connection, with the newest event (a reload still says who
        played what, and what it scored)."""
        conn.send_text(self._message(conn.seat, self.last_event, time.time()))

    # -- connections -------------------------------------------------------------------------

    def admits(self, invite: str | None) -> bool:
        """Whether a connection without a seat may watch: always at an open table, with the
        invite at a private one."""
        if not self.meta.private:
            return True
        secret = self.meta.invite
        return bool(invite and secret and hmac.compare_digest(invite, secret))

    def _welcome(self, conn: Conn) -> None:
        # the invite goes only to those already let in (to share it, or to open the replay)
        conn.send({"type": "welcome", "table": self.id, "seat": conn.seat,
                   "private": self.meta.private, "invite": self.meta.invite})

    def seat_of(self, token: str) -> int | None:
        """The seat a token opens, if any."""
        return self.meta.seat_of(token)

    def attach(self, conn: Conn, token: str | None, invite: str | None = None) -> None:
        """A ``hello``: take the seat the token opens, or watch. A ClientError: not let in (a
        private table without its invite or a seat's token, or too many watching); the
        caller closes the connection."""
        self.last_seen = time.time()
        seats = self.meta.seats
        seat_no = self.seat_of(token) if token else None
        if seat_no is None:
            if not self.admits(invite):
                raise ClientError("private_table")
            if len(self.spectators) >= self.settings.max_spectators:
                raise ClientError("too_many_watchers")
        conn.greeted = True
        conn.seat = seat_no
        self._welcome(conn)
        if seat_no is not None:
            seat = seats[seat_no]
            seat.conns.add(conn)
            seat.left_at = None
            if seat.away or seat.timeouts:
                seat.away = False
                seat.timeouts = 0
                self.broadcast()  # the seat is back in its player's hands: everyone sees it
            else:
                self.send_state(conn)
                self._presence_changed()
            self.wake.set()
            return
        self.spectators.add(conn)
        self.send_state(conn)
        if token:
            conn.error(ClientError("bad_token"), self.n)
        self._presence_changed()

    def _presence_changed(self) -> None:
        """Someone came or went: told to the others once per short while, however many come
        and go (1,000 watchers joining cost 501k messages when each join was broadcast)."""
        if self._presence is None and not self.closed:
            self._presence = asyncio.get_running_loop().call_later(
                self.settings.presence_delay, self._tell_presence)

    def _tell_presence(self) -> None:
        self._presence = None
        if not self.closed:
            # with the newest event again (pages tell an event once, by its number): a page
            # that has just reconnected keeps its banner's subject whichever message is last
            self.broadcast(self.last_event)

    def detach(self, conn: Conn) -> None:
        self.last_seen = time.time()
        if conn.seat is not None:
            seat = self.meta.seats[conn.seat]
            seat.conns.discard(conn)
            if not seat.conns:
                seat.left_at = time.monotonic()
        self.spectators.discard(conn)
        if not self.closed:
            self._presence_changed()
            self.wake.set()

    # -- messages ----------------------------------------------------------------------------

    async def handle(self, conn: Conn, msg: dict[str, Any], received: float = 0.0) -> None:
        """A greeted connection's message (``received``: when it reached a server process,
        Unix time, for the action-to-broadcast latency)."""
        kind = msg["type"]
        if kind == "lang":
            conn.lang = msg["lang"]
            return
        if kind == "ping":
            conn.send({"type": "pong", "n": self.n})
            return
        if kind == "phrase":
            self._phrase(conn, msg["key"])
            return
        if kind == "hint":  # computed outside the lock: the table plays on meanwhile
            await self._hint(conn, msg["n"])
            return
        async with self.lock:
            if kind == "join":
                await self._join(conn, msg["seat"], msg["name"], msg.get("rated") == 1)
            elif kind == "start":
                await self._start_with_bots(conn)
            elif kind == "act":
                await self._player_act(conn, msg["action"], msg["n"], received)
            elif kind == "ready":
                self._ready(conn)
            elif kind == "back":
                self._back(conn)
            elif kind == "rematch":
                await self._rematch(conn)
            elif kind == "hints":
                await self._hints(conn, bool(msg["on"]))
            elif kind == "hello":
                raise ClientError("already_greeted")

    async def save_meta(self) -> None:
        await self.store.update_meta(self.id, self.meta.to_json(), self.fence)

    async def _join(self, conn: Conn, seat_no: int, raw_name: str, agrees: bool = False) -> None:
        if conn.seat is not None:
            raise ClientError("already_seated")
        if self.status != "waiting":
            raise ClientError("no_free_seat")
        seats = self.meta.seats
        player = conn.player
        if self.meta.rated:
            # a rated match: identified people only, each agreeing, one seat per address (two
            # identities of one browser cannot farm a rating off each other)
            if player is None:
                raise ClientError("rated_needs_identity")
            if not agrees:
                raise ClientError("rated_consent")
            if conn.browser and any(s.browser == conn.browser for s in seats):
                raise ClientError("same_browser")
        if player is not None and any(s.player == player.id for s in seats):
            raise ClientError("same_player")
        name = player.label if player is not None else clean_name(raw_name)
        if not 0 <= seat_no < len(seats):
            raise ClientError("bad_seat")
        seat = seats[seat_no]
        if seat.claimed:
            raise ClientError("seat_taken")
        # Seat caps, so that nobody can squat free seats: at an open table (strangers) one seat
        # per address; anywhere, a bounded number of seats held at once.
        if not self.meta.private and sum(s.held_by_person and s.addr == conn.addr
                                         for s in seats) >= self.settings.open_seats_per_address:
            raise ClientError("one_seat_each")
        if self.services.seats_held(conn.addr) >= self.settings.seats_per_address:
            raise ClientError("too_many_seats", {"n": self.settings.seats_per_address})
        token = secrets.token_urlsafe(24)
        seat.name = name
        seat.token_hash = hash_token(token)
        seat.addr = conn.addr
        seat.player = player.id if player is not None else None
        seat.browser = conn.browser
        host, casual = self.meta.host, self.meta.casual
        if host is None:
            self.meta.host = seat_no
        try:
            if all(s.claimed for s in seats):
                await self._settle_rated()
            await self.save_meta()
        except StoreError:
            seat.release()
            self.meta.host, self.meta.casual = host, casual
            raise ClientError("server") from None
        self.spectators.discard(conn)
        conn.seat = seat_no
        seat.conns.add(conn)
        seat.left_at = None
        conn.send({"type": "joined", "table": self.id, "seat": seat_no, "token": token})
        if all(s.claimed for s in seats):
            self.status = "playing"
        self.broadcast()
        self.wake.set()

    async def _start_with_bots(self, conn: Conn) -> None:
        if conn.seat is None or conn.seat != self.meta.host:
            raise ClientError("not_host")
        if self.status != "waiting":
            raise ClientError("already_started")
        for seat in self.meta.seats:
            if not seat.claimed:
                seat.kind = "bot"
                seat.level = "easy"
        await self._settle_rated()
        await self.save_meta()
        self.status = "playing"
        self.broadcast()
        self.wake.set()

    async def _settle_rated(self) -> None:
        """Every seat is taken: whether a match asked for rated counts, decided once and kept
        with the table (:mod:`fives.server.rated`)."""
        meta = self.meta
        if meta.rated and meta.casual is None:
            meta.casual = (casual_reason(meta)
                           or await same_pair_reason(self.services.store, meta))

    async def _player_act(self, conn: Conn, text: str, n: int, received: float) -> None:
        if conn.seat is None:
            raise ClientError("not_seated")
        if self.status == "waiting":
            raise ClientError("not_started")
        state = self.state
        if state.over:
            raise ClientError("match_over")
        if n != self.n:
            raise ClientError("stale", {"n": n, "now": self.n})
        if state.turn < 0:
            raise ClientError("between_rounds")
        seat = conn.seat
        if state.turn != seat:
            raise ClientError("not_your_turn")
        try:
            action = Action.parse(text)
        except NotationError:
            raise ClientError("illegal_notation") from None
        if int(action) not in state.legal_codes():
            code, params = illegal_reason(state, text)
            raise ClientError(code, params)
        player = self.meta.seats[seat]
        player.timeouts = 0
        player.away = False
        await self.apply(seat, int(action), "player")
        if received:
            LATENCY.observe(max(0.0, time.time() - received))

    async def _hint(self, conn: Conn, n: int) -> None:
        """The best action for the asking seat at its turn, and its value, to it alone: once a
        turn, where hints are open (:attr:`TableMeta.hints_open`)."""
        seat = conn.seat
        if seat is None:
            raise ClientError("not_seated")
        if self.status == "waiting" or self.state.over:
            raise ClientError("not_started" if self.status == "waiting" else "match_over")
        if not self.meta.hints_open:
            raise ClientError("hints_rated" if self.meta.rated else "hints_off")
        if n != self.n:
            raise ClientError("stale", {"n": n, "now": self.n})
        if self.state.turn != seat:
            raise ClientError("not_your_turn")
        if (seat, n) in self._hinted:
            raise ClientError("hint_given")
        if self.services.hint is None:
            raise ClientError("hints_off")
        self._hinted.add((seat, n))
        found = await self.services.hint(view_of(self.state, seat))
        conn.send({"type": "hint", "n": n, **found})

    async def _hints(self, conn: Conn, on: bool) -> None:
        """A seated person lets the table ask for hints (or no longer)."""
        if conn.seat is None:
            raise ClientError("not_seated")
        seat = self.meta.seats[conn.seat]
        if seat.hints != on:
            seat.hints = on
            await self.save_meta()
            self.broadcast()

    def _phrase(self, conn: Conn, key: str) -> None:
        """A seated player's quick phrase, to everyone at the table (each page translates it
        and may mute the table)."""
        if conn.seat is None:
            raise ClientError("not_seated")
        if key not in PHRASES:
            raise ClientError("bad_phrase")
        now = time.monotonic()
        if now - self._phrased.get(conn.seat, -PHRASE_GAP) < PHRASE_GAP:
            raise ClientError("phrase_wait")
        self._phrased[conn.seat] = now
        text = dumps({"type": "phrase", "seat": conn.seat, "key": key})
        for c in self.conns():
            c.send_text(text)

    def _ready(self, conn: Conn) -> None:
        if conn.seat is None:
            raise ClientError("not_seated")
        if self.summary is None or self.state.over:
            return
        self.ready.add(conn.seat)
        self.broadcast()
        self.wake.set()

    def _back(self, conn: Conn) -> None:
        if conn.seat is None:
            raise ClientError("not_seated")
        seat = self.meta.seats[conn.seat]
        seat.away = False
        seat.timeouts = 0
        self.broadcast()
        self.wake.set()

    async def _rematch(self, conn: Conn) -> None:
        if conn.seat is None:
            raise ClientError("not_seated")
        if not self.state.over:
            raise ClientError("match_not_over")
        if self.meta.event is not None:
            raise ClientError("event_match")  # the event pairs its players next
        new_id = self.meta.rematch
        if not new_id:
            new_id = self.meta.rematch = await self.services.rematch(self)
            try:
                await self.save_meta()
            except StoreError:
                log.warning("table %s: cannot save the rematch link", self.id)
            self.broadcast()
        conn.send({"type": "rematch", "table": new_id})

    # -- the waiting table -------------------------------------------------------------------

    async def release_silent_seats(self) -> None:
        """Free the seats (not the host's) whose holders left a waiting table long ago."""
        if self.status != "waiting":
            return
        now = time.monotonic()
        released = False
        for i, seat in enumerate(self.meta.seats):
            if (i != self.meta.host and seat.held_by_person and seat.left_at is not None
                    and now - seat.left_at >= self.settings.seat_release):
                seat.release()
                released = True
        if released:
            await self.save_meta()
            self.broadcast()

    # -- deals and actions -------------------------------------------------------------------

    async def apply(self, seat: int, code: int, how: How) -> None:
        """Apply, store and broadcast one legal action (checked by the caller). The action
        that ends the match is stored with the finished match in one transaction; if the
        store refuses, nobody hears of it. The action is tried on a copy: while the store
        writes, whoever reads the table (a reconnecting player) still sees the stored position.
        """
        ts = time.time()
        round_no = self.state.round_index
        state = self.state.copy()
        entry = state.apply_code(code)
        try:
            await self.store.add_action(
                self.id, round_no, StoredAction(self.n + 1, seat, str(ACTIONS[code]), how, ts),
                finished=self.final_record(state) if state.over else None, fence=self.fence,
            )
        except StaleOwner as exc:  # this process lets the table go; its pages reconnect
            log.warning("table %s: action not stored: %s", self.id, exc)
            raise ClientError("server") from None
        except StoreError:
            log.exception("table %s: cannot store an action", self.id)
            raise ClientError("server") from None
        self.state = state
        self.n += 1
        event = event_of(state, entry, how, self.n)
        self.last_event = event
        if state.round_end is not None:
            self.summary = round_summary(state)
            self.round_ended_at = time.monotonic()
            self.ready.clear()
        if state.over:
            self.status = "over"
            self.finished_at = ts
        self.broadcast(event, ts)
        if state.round_end is not None:
            self._tell_outside("end")
        ACTION_COUNT.labels(how).inc()
        self.wake.set()
        if state.over:
            self.match_over()

    def match_over(self) -> None:
        """Record the players' parts and ratings (after the match itself is stored)."""
        if self.services.match_over is not None:
            self._recording = asyncio.get_running_loop().create_task(
                self.services.match_over(self))

    async def outside_leaves(self, seat_no: int) -> None:
        """An online bot leaves its seat: it broke the protocol (and was disconnected), or
        the people left the match for long. Our easy bot keeps the seat for the rest of the
        match, and the match is not the bot account's any more (it is free to play
        elsewhere)."""
        seat = self.meta.seats[seat_no]
        bot_id = seat.player
        seat.player, seat.name, seat.level = None, None, "easy"
        if bot_id is not None and self.outside is not None:
            with contextlib.suppress(Unreachable):  # else its booking lapses on its own
                await self.outside.free(bot_id, self.id)
        try:
            await self.save_meta()
        except StoreError:
            log.warning("table %s: cannot store the seat's new bot", self.id)
        self.broadcast()

    async def deal(self) -> None:
        """Deal the next round from the table's secret seed; stored before anyone hears."""
        state = self.state
        round_no = state.round_index + (1 if state.leader >= 0 else 0)
        trial = state.copy()
        deal_round(trial, Seeds(self.meta.seed))
        info = trial.current_round_info()
        ts = time.time()
        await self.store.add_round(
            self.id,
            round_no,
            info.leader,
            [[str(t) for t in hand] for hand in info.hands],
            [str(t) for t in info.stock],
            ts,
            self.fence,
        )
        state.start_round(info.hands, info.stock, info.leader)
        self.n += 1
        self.summary = None
        self.ready.clear()
        self.round_ended_at = None
        self.last_event = deal_event(state, self.n)
        self.broadcast(self.last_event, ts)
        self._tell_outside("start")

    def _tell_outside(self, kind: str) -> None:
        """Bots online at the table hear of a deal (``start``) or a round's end (``end``), as
        BOT-PROTOCOL.md lets a host tell them."""
        if self.outside is None:
            return
        for seat_no, seat in enumerate(self.meta.seats):
            if seat.kind == "bot" and is_outside(seat.player):
                task = asyncio.get_running_loop().create_task(self.outside.tell(
                    str(seat.player), self.id, view_of(self.state, seat_no), kind))
                self._telling.add(task)
                task.add_done_callback(self._telling.discard)

    async def told(self) -> None:
        """Wait until the start/end lines on their way to the bots online are sent."""
        if self._telling:
            await asyncio.gather(*self._telling, return_exceptions=True)

    def final_record(self, state: State | None = None) -> dict[str, Any]:
        """The finished match's record (RECORD.md), with the table's own fields."""
        seats = self.meta.seats
        data = record_of(state or self.state, seats=[s.record_name() for s in seats]).to_data()
        data["table"] = self.id
        # whether the deals were the server's secret or a test's fixed seed
        data["deals"] = self.meta.deals
        # who sat where by kind: a bot is known by this, never by its name
        data["seat_kinds"] = [s.kind for s in seats]
        return data
