"""One authoritative table per match.

The table runs the engine one action at a time (an asyncio lock), counts every change (``n``:
each deal and each action adds one, so a message about an older position is refused as stale),
stores each deal and each accepted action before anyone hears of it, and sends each seat its own
view (``view_of(state, seat).to_json()``) and spectators the public view, never more.

A single driver task per table makes everything that is not a person's choice happen: deals,
bots' moves after a natural delay, forced draws and passes, the turn clock (on timeout the easy
bot plays for the absent player; three timeouts in a row and a bot keeps the seat until the
player returns), and the pause between rounds.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fives.bots.host import bot_rng, deal_rng
from fives.core.games import Config
from fives.core.record import Record, RecordRound, record_of, replay_state
from fives.core.state import State
from fives.core.tiles import ACTIONS, DRAW, PASS, Action, NotationError, Tile
from fives.core.view import public_view, view_of
from fives.server.illegal import illegal_reason
from fives.server.messages import ClientError, clean_name, error_message
from fives.server.ratelimit import TokenBucket
from fives.server.summary import event_of, result_of, round_summary
from fives.store.base import StoredAction, StoredTable, StoreError

if TYPE_CHECKING:
    from fives.server.manager import TableManager

__all__ = ["Conn", "Seat", "Table", "hash_token"]

log = logging.getLogger("fives.server")

_DRAW = int(DRAW)
_PASS = int(PASS)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


class Conn:
    """One WebSocket connection: its seat (None: spectator), language, outbox and rate limit.

    Messages wait in the outbox until the socket takes them. A reader that cannot keep up
    (the outbox full) is let go: what it has not read is stale, so the outbox is emptied and
    ``drop`` closes the connection (code 4008); the page reconnects and gets one fresh
    snapshot.
    """

    def __init__(
        self,
        send: Callable[[str], Awaitable[None]],
        rate: float,
        burst: int,
        queue_size: int = 1000,
        drop: Callable[[], Awaitable[None]] | None = None,
        addr: str = "?",
    ) -> None:
        self._send = send
        self._drop = drop
        self.addr = addr  # the client's address (per-address limits)
        self.seat: int | None = None
        self.lang = "en"
        self.greeted = False
        self.table: Table | None = None
        self.bucket = TokenBucket(rate, burst)
        self.strikes = 0  # messages refused in a row (one that keeps flooding is closed)
        self.outbox: asyncio.Queue[str] = asyncio.Queue(queue_size)
        self.closed = False
        self.dropping: asyncio.Task[None] | None = None

    def send_text(self, text: str) -> None:
        if self.closed:
            return
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.too_slow()

    def too_slow(self) -> None:
        self.closed = True
        while not self.outbox.empty():
            self.outbox.get_nowait()
        if self._drop is not None and self.dropping is None:
            self.dropping = asyncio.get_running_loop().create_task(self._drop())

    def send(self, obj: dict[str, Any]) -> None:
        self.send_text(_dumps(obj))

    def error(self, err: ClientError, n: int | None = None) -> None:
        self.send(error_message(err, self.lang, n))

    async def pump(self) -> None:
        """Write the outbox to the socket, in order, until cancelled."""
        while True:
            await self._send(await self.outbox.get())


@dataclass
class Seat:
    kind: str  # "human" or "bot"
    level: str | None = None  # the bot's level
    name: str | None = None  # a person's display name
    token_hash: str | None = None
    addr: str | None = None  # the address that took the seat (seat caps; never sent out)
    conns: set[Conn] = field(default_factory=set)
    timeouts: int = 0  # timeouts in a row
    away: bool = False  # a bot plays for the absent player
    #: monotonic time the last connection of the seat's holder went away (None: here)
    left_at: float | None = None

    @property
    def claimed(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    @property
    def held_by_person(self) -> bool:
        return self.kind == "human" and self.token_hash is not None

    def to_meta(self) -> dict[str, Any]:
        return {"kind": self.kind, "level": self.level, "name": self.name,
                "token": self.token_hash, "addr": self.addr}

    def release(self) -> None:
        """Free the seat for someone else (its holder was gone too long)."""
        self.name = self.token_hash = self.addr = None
        self.left_at = None
        self.timeouts = 0
        self.away = False

    def record_name(self) -> str:
        if self.kind == "bot":
            return self.level or "easy"
        return self.name or "player"


#: seconds a turn clock keeps at least when a table comes back after a restart
_RESUME_GRACE = 5.0


class Table:
    """A match: its engine state, seats, connections, clock and driver."""

    def __init__(
        self,
        manager: TableManager,
        table_id: str,
        meta: dict[str, Any],
        state: State,
        created: float,
    ) -> None:
        self.manager = manager
        self.settings = manager.settings
        self.store = manager.store
        self.id = table_id
        self.meta = meta
        self.state = state
        self.config: Config = state.config
        self.created = created
        self.seed: int = int(meta["seed"])
        self.turn_time: float = float(meta.get("turn_time") or 0)
        self.seats = [
            Seat(s["kind"], s.get("level"), s.get("name"), s.get("token"), s.get("addr"))
            for s in meta["seats"]
        ]
        now = time.monotonic()
        for seat in self.seats:
            if seat.held_by_person:
                seat.left_at = now  # nobody is connected yet
        self.host: int | None = meta.get("host")
        #: a private table is reached only with its invite (or a seat's token), never listed
        self.private = bool(meta.get("private"))
        self.invite: str | None = meta.get("invite")
        self.by: str = meta.get("by") or "?"  # the address that made it (quotas, lobby)
        self.bot_only = all(seat.kind == "bot" for seat in self.seats)
        self.n = 0
        self.status = "waiting"
        self.lock = asyncio.Lock()
        self.spectators: set[Conn] = set()
        self.ready: set[int] = set()
        self.round_ended_at: float | None = None
        self.deadline: float | None = None  # monotonic time the turn clock runs out
        self.deadline_n = -1
        self.turn_n = -1  # the counter at which the current turn was first planned
        self.turn_began = 0.0  # ... and when (monotonic)
        self.last_event: dict[str, Any] | None = None
        self.summary: dict[str, Any] | None = None
        self.finished_at: float | None = None
        self.last_seen = time.time()
        self._wake = asyncio.Event()
        self._presence: asyncio.TimerHandle | None = None
        self._driver: asyncio.Task[None] | None = None
        self.closed = False

    # -- creation and restore ----------------------------------------------------------------

    @classmethod
    def new(cls, manager: TableManager, table_id: str, meta: dict[str, Any]) -> Table:
        cfg = Config.make(
            meta["game"], meta["players"], teams=meta.get("teams"), target=meta.get("target"),
            rules=meta.get("rules") or None,
        )
        meta["teams"] = cfg.teams
        meta["target"] = cfg.target
        table = cls(manager, table_id, meta, State(cfg), time.time())
        manager.store.create_table(table_id, meta, table.created)
        if all(seat.claimed for seat in table.seats):
            table.status = "playing"
        return table

    @classmethod
    def restore(cls, manager: TableManager, stored: StoredTable) -> Table:
        """Rebuild a table from the store: replay its deals and actions through the engine."""
        meta = stored.meta
        cfg = Config.make(
            meta["game"], meta["players"], teams=meta.get("teams"), target=meta.get("target"),
            rules=meta.get("rules") or None,
        )
        record = Record(
            cfg,
            [
                RecordRound(
                    r.leader,
                    [[Tile.parse(x) for x in hand] for hand in r.hands],
                    [Tile.parse(x) for x in r.stock],
                    [a.action for a in r.actions],
                )
                for r in stored.rounds
            ],
        )
        state = replay_state(record) if stored.rounds else State(cfg)
        table = cls(manager, stored.id, meta, state, stored.created)
        table.n = len(stored.rounds) + sum(len(r.actions) for r in stored.rounds)
        for r in stored.rounds:
            for a in r.actions:
                seat = table.seats[a.seat]
                if a.how == "player":
                    seat.timeouts = 0
                    seat.away = False
                elif a.how == "timeout":
                    seat.timeouts += 1
                    if seat.timeouts >= 3:
                        seat.away = True
        if stored.status == "over" or state.over:
            table.status = "over"
            last = stored.rounds[-1] if stored.rounds else None
            ended = last.actions[-1].ts if last and last.actions else time.time()
            table.finished_at = stored.finished or ended
            if stored.status != "over":
                # The last action is stored but not the finished match (a crash between the
                # two, from before they were one transaction): finish it now.
                try:
                    manager.store.finish(stored.id, table.final_record(), table.finished_at)
                    log.warning("table %s: its finished match is stored now", stored.id)
                except StoreError:
                    log.exception("table %s: cannot store its finished match", stored.id)
        elif all(seat.claimed for seat in table.seats):
            table.status = "playing"
        if state.round_end is not None:
            table.summary = round_summary(state)
            table.round_ended_at = time.monotonic()
        elif table.turn_time > 0 and stored.rounds and state.turn >= 0:
            # The clock resumes where it was: the turn began at the last stored action (or the
            # deal); a few seconds are always left so a returning player can still act.
            last = stored.rounds[-1]
            began = last.actions[-1].ts if last.actions else last.ts
            left = table.turn_time - max(0.0, time.time() - began)
            table.deadline = time.monotonic() + min(table.turn_time, max(_RESUME_GRACE, left))
            table.deadline_n = table.n
        return table

    def start(self) -> None:
        """Start the driver (after creation or restore)."""
        if self._driver is None and self.status != "over":
            self._driver = asyncio.get_running_loop().create_task(self._drive())

    async def close(self) -> None:
        self.closed = True
        if self._presence is not None:
            self._presence.cancel()
        self._wake.set()
        if self._driver is not None:
            self._driver.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._driver

    # -- public information ------------------------------------------------------------------

    @property
    def connected(self) -> int:
        return len(self.spectators) + sum(len(s.conns) for s in self.seats)

    @property
    def people_here(self) -> bool:
        """Whether a seated person is connected."""
        return any(s.conns for s in self.seats if s.kind == "human")

    def clock(self) -> dict[str, Any] | None:
        if self.deadline is None or self.deadline_n != self.n or self.state.turn < 0:
            return None
        remaining = max(0.0, self.deadline - time.monotonic())
        return {"seat": self.state.turn, "remaining": int(remaining * 1000),
                "total": int(self.turn_time * 1000)}

    def info(self) -> dict[str, Any]:
        cfg = self.config
        game = cfg.game
        return {
            "id": self.id,
            "game": game.name,
            "players": cfg.players,
            "teams": cfg.teams,
            "target": cfg.target,
            "scoring": game.play_scoring,
            "spinner": game.spinner,
            "drawing": game.drawing,
            "turn_time": self.turn_time,
            "status": self.status,
            "private": self.private,
            "host": self.host,
            "seats": [
                {
                    "kind": s.kind,
                    "level": s.level,
                    "name": s.name,
                    "claimed": s.claimed,
                    "connected": bool(s.conns),
                    "away": s.away,
                    "timeouts": s.timeouts,
                    "side": cfg.side_of(i),
                }
                for i, s in enumerate(self.seats)
            ],
            "clock": self.clock(),
            "ready": sorted(self.ready),
            "waiting_for": self._waiting_for() if self.summary and not self.state.over else [],
            "rematch": self.meta.get("rematch"),
            "rematch_of": self.meta.get("rematch_of"),
            "spectators": len(self.spectators),
        }

    def lobby_entry(self) -> dict[str, Any]:
        info = self.info()
        return {
            "id": self.id,
            "game": info["game"],
            "players": info["players"],
            "teams": info["teams"],
            "target": info["target"],
            "turn_time": info["turn_time"],
            "status": self.status,
            "seats": [
                {"kind": s["kind"], "level": s["level"], "name": s["name"], "claimed": s["claimed"]}
                for s in info["seats"]
            ],
            "free": [i for i, s in enumerate(self.seats) if not s.claimed],
            "scores": self.state.scores_out() if self.status != "waiting" else None,
            "created": self.created,
        }

    def _message(self, seat: int | None, event: dict[str, Any] | None, ts: float) -> str:
        state = self.state
        view = None
        if state.leader >= 0:
            view = (view_of(state, seat) if seat is not None else public_view(state)).to_json()
        if event is not None and "drawn" in event:
            event = dict(event)
            drawn = event.pop("drawn")
            if seat is not None and seat == event["seat"] and drawn is not None:
                event["tile"] = str(Tile.from_id(drawn))
        return _dumps({
            "type": "state",
            "table": self.id,
            "n": self.n,
            "t": ts,
            "you": seat,
            "info": self.info(),
            "view": view,
            "event": event,
            "summary": self.summary,
            "result": result_of(state),
        })

    def broadcast(self, event: dict[str, Any] | None = None, ts: float | None = None) -> None:
        """Each connected seat its own message, and every spectator one shared public one."""
        if self._presence is not None:  # this message tells who is here as well
            self._presence.cancel()
            self._presence = None
        ts = time.time() if ts is None else ts
        cache: dict[int | None, str] = {}
        for i, seat in enumerate(self.seats):
            if seat.conns:
                text = cache[i] = self._message(i, event, ts)
                for conn in seat.conns:
                    conn.send_text(text)
        if self.spectators:
            text = cache.get(None) or self._message(None, event, ts)
            for conn in self.spectators:
                conn.send_text(text)

    def send_state(self, conn: Conn) -> None:
        conn.send_text(self._message(conn.seat, None, time.time()))

    # -- connections -------------------------------------------------------------------------

    def admits(self, invite: str | None) -> bool:
        """Whether a connection without a seat may watch: always at an open table, with the
        invite at a private one."""
        if not self.private:
            return True
        return bool(invite and self.invite and hmac.compare_digest(invite, self.invite))

    def _welcome(self, conn: Conn) -> None:
        # the invite goes only to those already let in (to share it, or to open the replay)
        conn.send({"type": "welcome", "table": self.id, "seat": conn.seat,
                   "private": self.private, "invite": self.invite})

    def attach(self, conn: Conn, token: str | None, invite: str | None = None) -> None:
        """A ``hello``: take the seat the token opens, or watch. A ClientError: not let in (a
        private table without its invite or a seat's token, or too many watching); the
        caller closes the connection."""
        self.last_seen = time.time()
        seat_no = None
        if token:
            digest = hash_token(token)
            seat_no = next((i for i, seat in enumerate(self.seats)
                            if seat.token_hash and hmac.compare_digest(seat.token_hash, digest)),
                           None)
        if seat_no is None:
            if not self.admits(invite):
                raise ClientError("private_table")
            if len(self.spectators) >= self.settings.max_spectators:
                raise ClientError("too_many_watchers")
        conn.table = self
        conn.greeted = True
        conn.seat = seat_no
        self._welcome(conn)
        if seat_no is not None:
            seat = self.seats[seat_no]
            seat.conns.add(conn)
            seat.left_at = None
            if seat.away or seat.timeouts:
                seat.away = False
                seat.timeouts = 0
                self.broadcast()  # the seat is back in its player's hands: everyone sees it
            else:
                self.send_state(conn)
                self._presence_changed()
            self._wake.set()
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
            self.broadcast()

    def detach(self, conn: Conn) -> None:
        self.last_seen = time.time()
        if conn.seat is not None:
            seat = self.seats[conn.seat]
            seat.conns.discard(conn)
            if not seat.conns:
                seat.left_at = time.monotonic()
        self.spectators.discard(conn)
        if not self.closed:
            self._presence_changed()
            self._wake.set()

    # -- messages ----------------------------------------------------------------------------

    async def handle(self, conn: Conn, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "lang":
            conn.lang = msg["lang"]
            return
        if kind == "ping":
            conn.send({"type": "pong", "n": self.n})
            return
        async with self.lock:
            if kind == "join":
                self._join(conn, msg["seat"], msg["name"])
            elif kind == "start":
                self._start_with_bots(conn)
            elif kind == "act":
                await self._player_act(conn, msg["action"], msg["n"])
            elif kind == "ready":
                self._ready(conn)
            elif kind == "back":
                self._back(conn)
            elif kind == "rematch":
                await self._rematch(conn)
            elif kind == "hello":
                raise ClientError("already_greeted")

    def _save_meta(self) -> None:
        self.meta["seats"] = [s.to_meta() for s in self.seats]
        self.meta["host"] = self.host
        self.store.update_meta(self.id, self.meta)

    def _join(self, conn: Conn, seat_no: int, raw_name: str) -> None:
        if conn.seat is not None:
            raise ClientError("already_seated")
        if self.status != "waiting":
            raise ClientError("no_free_seat")
        name = clean_name(raw_name)
        if not 0 <= seat_no < len(self.seats):
            raise ClientError("bad_seat")
        seat = self.seats[seat_no]
        if seat.claimed:
            raise ClientError("seat_taken")
        # Seat caps, so that nobody can squat free seats: at an open table (strangers) one seat
        # per address; anywhere, a bounded number of seats held at once.
        if not self.private and sum(s.held_by_person and s.addr == conn.addr
                                    for s in self.seats) >= self.settings.open_seats_per_address:
            raise ClientError("one_seat_each")
        if self.manager.seats_held(conn.addr) >= self.settings.seats_per_address:
            raise ClientError("too_many_seats", {"n": self.settings.seats_per_address})
        token = secrets.token_urlsafe(24)
        seat.name = name
        seat.token_hash = hash_token(token)
        seat.addr = conn.addr
        if self.host is None:
            self.host = seat_no
        try:
            self._save_meta()
        except StoreError:
            seat.release()
            raise ClientError("server") from None
        self.spectators.discard(conn)
        conn.seat = seat_no
        seat.conns.add(conn)
        seat.left_at = None
        conn.send({"type": "joined", "table": self.id, "seat": seat_no, "token": token})
        if all(s.claimed for s in self.seats):
            self.status = "playing"
        self.broadcast()
        self._wake.set()

    def _start_with_bots(self, conn: Conn) -> None:
        if conn.seat is None or conn.seat != self.host:
            raise ClientError("not_host")
        if self.status != "waiting":
            raise ClientError("already_started")
        for seat in self.seats:
            if not seat.claimed:
                seat.kind = "bot"
                seat.level = "easy"
        self._save_meta()
        self.status = "playing"
        self.broadcast()
        self._wake.set()

    async def _player_act(self, conn: Conn, text: str, n: int) -> None:
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
        player = self.seats[seat]
        player.timeouts = 0
        player.away = False
        self._apply(seat, int(action), "player")

    def _ready(self, conn: Conn) -> None:
        if conn.seat is None:
            raise ClientError("not_seated")
        if self.summary is None or self.state.over:
            return
        self.ready.add(conn.seat)
        self.broadcast()
        self._wake.set()

    def _back(self, conn: Conn) -> None:
        if conn.seat is None:
            raise ClientError("not_seated")
        seat = self.seats[conn.seat]
        seat.away = False
        seat.timeouts = 0
        self.broadcast()
        self._wake.set()

    async def _rematch(self, conn: Conn) -> None:
        if conn.seat is None:
            raise ClientError("not_seated")
        if not self.state.over:
            raise ClientError("match_not_over")
        new_id = self.meta.get("rematch")
        if not new_id:
            new_id = self.manager.create_rematch(self)
            self.meta["rematch"] = new_id
            try:
                self.store.update_meta(self.id, self.meta)
            except StoreError:
                log.warning("table %s: cannot save the rematch link", self.id)
            self.broadcast()
        conn.send({"type": "rematch", "table": new_id})

    # -- applying actions --------------------------------------------------------------------

    def _apply(self, seat: int, code: int, how: str) -> None:
        """Apply, store and broadcast one legal action (checked by the caller). The action
        that ends the match is stored with the finished match in one transaction; if the
        store refuses, the action is taken back and nobody hears of it."""
        state = self.state
        ts = time.time()
        round_no = state.round_index
        before = state.copy()
        entry = state.apply_code(code)
        try:
            self.store.add_action(
                self.id, round_no, StoredAction(self.n + 1, seat, str(ACTIONS[code]), how, ts),
                finished=self.final_record() if state.over else None,
            )
        except StoreError:
            self.state = before
            log.exception("table %s: cannot store an action", self.id)
            raise ClientError("server") from None
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
        self._wake.set()

    def final_record(self) -> dict[str, Any]:
        """The finished match's record (RECORD.md), with the table's own fields."""
        data = record_of(self.state, seats=[s.record_name() for s in self.seats]).to_data()
        data["table"] = self.id
        # whether the deals were the server's secret or a test's fixed seed
        data["deals"] = self.meta.get("deals", "unknown")
        # who sat where by kind: a bot is known by this, never by its name
        data["seat_kinds"] = [s.kind for s in self.seats]
        return data

    def _deal(self) -> None:
        state = self.state
        round_no = state.round_index + (1 if state.leader >= 0 else 0)
        trial = state.copy()
        trial.deal_next(deal_rng(self.seed, round_no))
        info = trial.current_round_info()
        ts = time.time()
        self.store.add_round(
            self.id,
            round_no,
            info.leader,
            [[str(t) for t in hand] for hand in info.hands],
            [str(t) for t in info.stock],
            ts,
        )
        state.start_round(info.hands, info.stock, info.leader)
        self.n += 1
        self.summary = None
        self.ready.clear()
        self.round_ended_at = None
        event = {"n": self.n, "kind": "deal", "round": state.round_index, "leader": info.leader}
        self.last_event = event
        self.broadcast(event, ts)

    # -- the driver --------------------------------------------------------------------------

    def _waiting_for(self) -> list[int]:
        """Human seats whose player is here and has not said they are ready to go on."""
        return [
            i
            for i, s in enumerate(self.seats)
            if s.kind == "human" and s.conns and not s.away and i not in self.ready
        ]

    def _bot_delay(self) -> float:
        d = self.settings.bot_delay
        return d * random.uniform(0.6, 1.4) if d > 0 else 0.0

    def _plan(self) -> tuple[str, float] | None:
        """What happens next and in how many seconds; None: wait for a person."""
        state = self.state
        if self.status == "waiting":
            return self._release_plan()
        if self.status != "playing" or state.over:
            return None
        if (not self.bot_only and not self.connected
                and time.time() - self.last_seen > self.settings.unwatched_ttl):
            return None  # bots would play on for nobody: wait for someone to come back
        if state.needs_deal():
            if state.leader < 0:
                return ("deal", 0.0)
            waiting = self._waiting_for()
            if not waiting:
                humans_here = any(s.kind == "human" and s.conns for s in self.seats)
                return ("deal", 0.0 if humans_here else self._bot_delay())
            # Nobody holds the table up for ever: with a clock the pause between rounds, without
            # one the longest a silent player may keep a turn.
            pause = self.settings.round_pause if self.turn_time > 0 else self.settings.idle_turn
            if self.round_ended_at is not None:
                return ("deal", max(0.0, self.round_ended_at + pause - time.monotonic()))
            return None
        seat_no = state.turn
        if seat_no < 0:
            return None
        seat = self.seats[seat_no]
        if seat.kind == "bot" or seat.away:
            return ("bot", self._bot_delay())
        legal = state.legal_codes()
        if len(legal) == 1 and legal[0] in (_DRAW, _PASS):
            return ("forced", self.settings.forced_delay)
        now = time.monotonic()
        if self.turn_n != self.n:
            self.turn_n = self.n
            self.turn_began = now
        if self.turn_time > 0:
            if self.deadline_n != self.n or self.deadline is None:
                self.deadline_n = self.n
                self.deadline = now + self.turn_time
                self.broadcast()  # everyone sees the clock start
            return ("timeout", max(0.0, self.deadline - now))
        # No clock: a holder who stays silent too long (or left) hands the seat to a bot.
        if seat.conns:
            due = self.turn_began + self.settings.idle_turn
        else:
            due = max(self.turn_began, seat.left_at or now) + self.settings.absent_turn
        return ("idle", max(0.0, due - now))

    def _release_plan(self) -> tuple[str, float] | None:
        """At a waiting table, a seat whose holder left long ago is freed for someone else (the
        host's is kept: a table without its host expires instead)."""
        due = [s.left_at + self.settings.seat_release for i, s in enumerate(self.seats)
               if i != self.host and s.held_by_person and s.left_at is not None]
        if not due:
            return None
        return ("release", max(0.0, min(due) - time.monotonic()))

    async def _drive(self) -> None:
        while not self.closed:
            self._wake.clear()
            try:
                plan = self._plan()
            except Exception:  # never let one table's fault stop it silently
                log.exception("table %s: planning failed", self.id)
                plan = None
            if plan is None:
                await self._wake.wait()
                continue
            step, delay = plan
            planned_n = self.n
            if step == "bot":
                await self._bot_move(planned_n, delay)
                await asyncio.sleep(0)
                continue
            if delay > 0:
                try:
                    await asyncio.wait_for(self._wake.wait(), delay)
                    continue  # something changed: plan again
                except TimeoutError:
                    pass
            try:
                await self._step(step, planned_n)
            except ClientError:  # the store refused the action: try again shortly
                await asyncio.sleep(1.0)
            except StoreError:
                log.exception("table %s: store failed; retrying shortly", self.id)
                await asyncio.sleep(1.0)
            except Exception:
                log.exception("table %s: step %s failed", self.id, step)
                await asyncio.sleep(1.0)
            await asyncio.sleep(0)

    async def _step(self, step: str, planned_n: int) -> None:
        state = self.state
        if step == "release":
            async with self.lock:
                self._release_silent_seats()
            return
        if step == "idle":
            async with self.lock:
                seat_no = state.turn
                if self.n == planned_n and seat_no >= 0 and not self.seats[seat_no].away:
                    self.seats[seat_no].away = True
                    self.broadcast()
            return
        if step == "deal":
            async with self.lock:
                if self.n == planned_n and state.needs_deal() and self.status == "playing":
                    self._deal()
            return
        seat_no = state.turn
        if step == "forced":
            async with self.lock:
                if self.n == planned_n and state.turn == seat_no:
                    legal = state.legal_codes()
                    if len(legal) == 1:
                        self._apply(seat_no, legal[0], "forced")
            return
        if step == "timeout":
            async with self.lock:
                if self.n != planned_n or state.turn != seat_no:
                    return
                # draw as needed, then the easy bot's choice
                legal = state.legal_codes()
                while legal == [_DRAW]:
                    self._apply(seat_no, _DRAW, "forced")
                    legal = state.legal_codes()
                code = await self._choose("easy", seat_no)
                if state.turn == seat_no:
                    seat = self.seats[seat_no]
                    seat.timeouts += 1
                    if seat.timeouts >= 3:
                        seat.away = True
                    self._apply(seat_no, code, "timeout")
            return

    def _release_silent_seats(self) -> None:
        if self.status != "waiting":
            return
        now = time.monotonic()
        released = False
        for i, seat in enumerate(self.seats):
            if (i != self.host and seat.held_by_person and seat.left_at is not None
                    and now - seat.left_at >= self.settings.seat_release):
                seat.release()
                released = True
        if released:
            self._save_meta()
            self.broadcast()

    async def _bot_move(self, planned_n: int, delay: float) -> None:
        """A bot (or the bot keeping an absent player's seat) thinks, then moves once its
        natural delay has passed (thinking time included); a change meanwhile cancels it."""
        state = self.state
        seat_no = state.turn
        seat = self.seats[seat_no]
        level = (seat.level or "easy") if seat.kind == "bot" else "easy"
        how = "bot" if seat.kind == "bot" else "away"
        started = time.monotonic()
        try:
            code = await self._choose(level, seat_no)
        except Exception:
            log.exception("table %s: bot %s failed", self.id, level)
            await asyncio.sleep(1.0)
            return
        left = delay - (time.monotonic() - started)
        if left > 0:
            try:
                await asyncio.wait_for(self._wake.wait(), left)
                return  # something changed: plan again
            except TimeoutError:
                pass
        async with self.lock:
            if self.n == planned_n and state.turn == seat_no and code in state.legal_codes():
                try:
                    self._apply(seat_no, code, how)
                except ClientError:
                    await asyncio.sleep(1.0)

    async def _choose(self, level: str, seat_no: int) -> int:
        state = self.state
        legal = state.legal_codes()
        if len(legal) == 1:
            return legal[0]
        view = view_of(state, seat_no)
        seed = bot_rng(self.seed, seat_no, self.n).getrandbits(64)
        action = await self.manager.bots.choose(level, view, seed, self.id, self.people_here)
        code = int(action)
        if code not in legal:
            log.warning("table %s: bot %s answered an illegal %s", self.id, level, action)
            return legal[0]
        return code

    # -- for the replay of a finished table --------------------------------------------------

    def record_data(self) -> dict[str, Any]:
        data = record_of(self.state, seats=[s.record_name() for s in self.seats]).to_data()
        data["table"] = self.id
        return data


def config_of(meta: dict[str, Any]) -> Config:
    return Config.make(
        meta["game"], meta["players"], teams=meta.get("teams"), target=meta.get("target"),
        rules=meta.get("rules") or None,
    )
