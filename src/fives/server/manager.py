"""All tables of the server: creation from the lobby, restore after a restart, lookup."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Protocol

from fives.bots.host import Seeds
from fives.core.games import GAMES, Config, RulesError
from fives.core.record import RecordError
from fives.server.analyses import Analyst
from fives.server.bots import BotRunner, bot_levels
from fives.server.contests import Contests
from fives.server.messages import ClientError, clean_name
from fives.server.meta import Seat, TableMeta
from fives.server.online_bots import OnlineBots, Unreachable, is_outside
from fives.server.rated import RATED_TURN_TIME, check_rated_spec
from fives.server.ratings import bot_player, match_rows, rating_step
from fives.server.settings import Settings
from fives.server.table import Table, TableServices, hash_token, lobby_entry, replay_stored
from fives.server.tickets import Ticket
from fives.store.base import DamagedRow, Store, StoreError
from fives.store.events import StoredEntrant, StoredEvent
from fives.store.players import NameLooksTaken, NameTaken, StoredPlayer

__all__ = ["MOVED", "Owners", "TableManager", "TableSpec", "player_count"]

log = logging.getLogger("fives.server")

TableSpec = dict[str, Any]

#: tables the lobby shows at most
LOBBY_SIZE = 60

#: the close code that sends a page to reconnect: its table moved (or is moving) elsewhere
MOVED = 1012


def player_count(value: Any) -> int:
    """The number of players asked for: 2, 3 or 4, as a whole JSON number (2.0 is refused:
    it passed ``in (2, 3, 4)`` and failed further on)."""
    if type(value) is not int or value not in (2, 3, 4):
        raise ClientError("bad_players")
    return value


def game_and_players(spec: Any) -> tuple[str, int]:
    """The game and number of players a request's JSON object asks for (the lobby's form,
    the pairing queue): ``bad_request``, ``bad_game`` or ``bad_players`` refused."""
    if not isinstance(spec, dict):
        raise ClientError("bad_request")
    game = spec.get("game", "all-fives")
    if not isinstance(game, str) or game not in GAMES:
        raise ClientError("bad_game")
    return game, player_count(spec.get("players", 2))


class Owners(Protocol):
    """Who owns which table, when several processes share the store (fives.cluster)."""

    async def acquire(self, table_id: str) -> str | None:
        """Own the table unless a live process does: None if this process owns it now,
        else the owner's id."""

    async def release(self, table_id: str) -> None:
        """This process no longer holds the table (dropped from memory, or never loaded)."""

    async def lobby(self) -> list[dict[str, Any]]:
        """The lobby's candidates of the other processes, as they published them."""

    def usage_elsewhere(self, addr: str) -> tuple[int, int, int]:
        """What the other processes' tables hold of an address, as they last published it
        (at most a second old): its tables, its bots' tables and the seats it holds."""


class TableManager:
    """The tables this process holds. Alone (``owners`` None) it holds every table of its
    store; in a cluster only those it owns (each taken with a fencing token from the store)."""

    def __init__(self, store: Store, settings: Settings, owners: Owners | None = None,
                 outside: OnlineBots | None = None) -> None:
        self.store = store
        self.settings = settings
        self.owners = owners
        self.tables: dict[str, Table] = {}
        self.bots = BotRunner(settings.bot_workers, settings.bot_deadline)
        self.analyst = Analyst(store, workers=settings.analysis_workers,
                               bot=settings.analysis_bot, lease=settings.analysis_lease,
                               max_waiting=settings.max_analyses_waiting,
                               mine_puzzles=settings.mine_puzzles)
        #: the bots online: this process's alone, or a cluster's shared registry
        self.outside = outside if outside is not None else OnlineBots(settings.bot_move_time)
        self.services = TableServices(settings, store, self.bots, self.seats_held,
                                      self.create_rematch, self.match_over, self.outside,
                                      self.analyst.hint)
        self._sweeper: asyncio.Task[None] | None = None
        self._taking: dict[str, asyncio.Task[Table | str | None]] = {}  # restores under way
        #: the site's events, told of their matches' ends (set by the app once both exist)
        self.contests: Contests | None = None

    # -- life cycle --------------------------------------------------------------------------

    async def startup(self) -> None:
        """Bring back every unfinished table exactly where it was (a table that waited for
        players longer than waiting_ttl is set aside instead); in a cluster, those that no
        live process owns."""
        await self._bot_players()
        now = time.time()
        for table_id in await self.store.unfinished_ids():
            await self.take(table_id, expire_before=now - self.settings.waiting_ttl)
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())
        self.analyst.start()

    async def shutdown(self) -> None:
        await self.analyst.close()
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        for table in list(self.tables.values()):
            # not released: in a cluster the others take them over as soon as we are gone
            await table.close()
        self.tables.clear()
        self.bots.close()

    async def _sweep(self) -> None:
        """Forget finished tables nobody watches (they stay in the store); set aside tables
        that waited for players too long, and bots' matches nobody watches; archive the
        deals and actions of matches long finished."""
        while True:
            await asyncio.sleep(self.settings.sweep_every)
            now = time.time()
            if self.settings.archive_after > 0:
                try:
                    await self.store.archive(now - self.settings.archive_after)
                except StoreError as exc:
                    log.warning("finished matches not archived now: %s", exc)
            for table_id, table in list(self.tables.items()):
                if table.connected:
                    continue
                idle = now - table.last_seen
                if table.status == "over":
                    if now - max(table.finished_at or 0, table.last_seen) > self.settings.finished_ttl:
                        await self.drop(table_id)
                elif table.status == "waiting" and idle > self.settings.waiting_ttl:
                    await self._retire(table, "expired")
                elif (table.meta.bot_only and table.meta.event is None
                      and idle > self.settings.unwatched_ttl):  # an event's counts, watched or not
                    await self._retire(table, "abandoned")
                elif idle > self.settings.unwatched_ttl:
                    # the match pauses till someone comes back: a bot online is not kept
                    # from every other challenge meanwhile
                    await self._let_outside_go(table)

    async def _retire(self, table: Table, status: str) -> None:
        """Take an unfinished table out of play: its bots online let go, set aside as
        ``status``, and dropped."""
        await self._let_outside_go(table)
        await self._set_aside(table.id, status, table.fence)
        await self.drop(table.id)

    @staticmethod
    async def _let_outside_go(table: Table) -> None:
        for seat_no, seat in enumerate(table.meta.seats):
            if is_outside(seat.player):
                await table.outside_leaves(seat_no)

    async def _bot_players(self) -> None:
        """Each bot level is a player of the store (rated from its matches against people)."""
        for level in bot_levels():
            player_id = bot_player(level)
            try:
                if await self.store.player(player_id) is None:
                    await self.store.create_player(
                        StoredPlayer(player_id, level, "bot", "bot", time.time()), None)
            except (StoreError, NameTaken, NameLooksTaken):  # made by another process meanwhile
                continue

    async def match_over(self, table: Table) -> None:
        """A finished match's players' parts, and at a rated table their new ratings, stored
        once (a restart or a takeover finding it finished again changes nothing)."""
        await table.told()  # the bot hears the match's end before another table may book it
        await self.analyst.match_over(table.id, table.meta)
        if self.contests is not None:
            await self.contests.match_over(table.id, table.meta, table.state)
        for seat in table.meta.seats:
            if is_outside(seat.player):
                await self.free_bot(str(seat.player), table.id)
        rows = match_rows(table.id, table.meta, table.state, table.finished_at or time.time())
        if not rows:
            return
        people = sum(table.meta.seats[row.seat].kind == "human" for row in rows)
        rate = (rating_step(table.meta, table.state, rows)
                if table.meta.counts and people and len(rows) > 1 else None)
        try:
            await self.store.record_match(rows, rate)
        except StoreError:
            log.exception("table %s: its players' results are not stored", table.id)

    async def free_bot(self, bot_id: str, table_id: str) -> None:
        """Let an online bot go from a table (a registry out of reach lets the booking lapse
        on its own)."""
        try:
            await self.outside.free(bot_id, table_id)
        except Unreachable as exc:
            log.warning("table %s: online bot %s not freed now (%s)", table_id, bot_id, exc)

    async def drop(self, table_id: str, moved: bool = False) -> None:
        """Let the table go: stop it and give up its ownership. ``moved``: it belongs to
        another process now (or will), and its connections are closed so that their pages
        reconnect and find it there."""
        table = self.tables.pop(table_id, None)
        if table is not None:
            await table.close()
            if moved:
                for conn in table.conns():
                    conn.end(MOVED)
            if self.owners is not None:
                await self.owners.release(table_id)

    async def _set_aside(self, table_id: str, status: str, fence: int | None = None) -> None:
        log.info("table %s: %s", table_id, status)
        try:
            await self.store.set_aside(table_id, status, fence)
        except StoreError:
            log.exception("table %s: cannot be set aside", table_id)

    # -- lookup ------------------------------------------------------------------------------

    async def get(self, table_id: str) -> Table | None:
        """The table if this process holds it or can take it (None: not there, or owned by
        another process: see :meth:`find`)."""
        found = await self.find(table_id)
        return found if isinstance(found, Table) else None

    async def find(self, table_id: str) -> Table | str | None:
        """The table held here (taken first if nobody holds it), the id of the process that
        holds it, or None (no such table)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not isinstance(table_id, str) or not 4 <= len(table_id) <= 32:
            return None
        return await self.take(table_id)

    async def take(self, table_id: str, expire_before: float | None = None) -> Table | str | None:
        """Hold the stored table: own it (in a cluster: acquire it and claim a fencing token),
        restore it and start it. The owner's id if another live process holds it. Callers
        that ask for the same table meanwhile wait for the one restore."""
        pending = self._taking.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        task = asyncio.get_running_loop().create_task(self._take(table_id, expire_before))
        self._taking[table_id] = task
        try:
            return await asyncio.shield(task)
        finally:
            if task.done():
                self._taking.pop(table_id, None)
            else:
                task.add_done_callback(lambda _: self._taking.pop(table_id, None))

    async def _take(self, table_id: str, expire_before: float | None) -> Table | str | None:
        table = self.tables.get(table_id)
        if table is not None:
            return table
        fence = None
        if self.owners is not None:
            owner = await self.owners.acquire(table_id)
            if owner is not None:
                return owner
            fence = await self.store.claim(table_id)
            if fence is None:  # no such table
                await self.owners.release(table_id)
                return None
        table = await self._restore(table_id, expire_before, fence)
        if table is None:
            if self.owners is not None:
                await self.owners.release(table_id)
            return None
        table.start()
        return table

    async def _restore(self, table_id: str, expire_before: float | None = None,
                       fence: int | None = None) -> Table | None:
        """A stored table back in play, or None: not there, set aside, or damaged (then
        quarantined: logged, kept and marked, and every other table goes on)."""
        try:
            stored = await self.store.load(table_id)
        except DamagedRow as exc:
            log.error("%s; it is set aside", exc)
            await self._set_aside(table_id, "damaged", fence)
            return None
        if stored is None or stored.status not in ("open", "over"):
            return None
        if (expire_before is not None and stored.status == "open" and not stored.rounds
                and stored.created < expire_before):
            await self._set_aside(table_id, "expired", fence)
            return None
        try:
            table = await Table.restore(self.services, stored, fence)
        except (RecordError, RulesError, KeyError, ValueError, TypeError, IndexError) as exc:
            log.error("table %s cannot be restored (%s); it is set aside", table_id, exc)
            if stored.status == "open":
                await self._set_aside(table_id, "damaged", fence)
            return None
        self.tables[table_id] = table
        return table

    def seats_held(self, addr: str) -> int:
        """Seats held by people from ``addr`` at tables not yet over (in a cluster, at every
        process's tables)."""
        here = sum(
            seat.held_by_person and seat.addr == addr
            for table in self.tables.values()
            if table.status != "over"
            for seat in table.meta.seats
        )
        return here + (self.owners.usage_elsewhere(addr)[2] if self.owners is not None else 0)

    def usage(self) -> dict[str, list[int]]:
        """What this process's live tables hold of each address, for the per-address quotas
        of a cluster (each process publishes it): [tables, bots' tables, seats held]."""
        by: dict[str, list[int]] = {}
        for table in self.tables.values():
            if table.status == "over":
                continue
            meta = table.meta
            row = by.setdefault(meta.by, [0, 0, 0])
            row[0] += 1
            row[1] += meta.bot_only
            for seat in meta.seats:
                if seat.held_by_person and seat.addr:
                    by.setdefault(seat.addr, [0, 0, 0])[2] += 1
        return by

    def listed(self) -> list[Table]:
        """This process's tables that the lobby may show."""
        return [t for t in self.tables.values()
                if t.status in ("waiting", "playing") and not t.meta.private]

    async def mine(self, claims: list[tuple[str, str]]) -> list[dict[str, Any]]:
        """The tables not yet over where a browser holds a seat, from the (table, token) pairs
        it kept: private ones too, since the token proves the seat. Unknown tables and tokens
        that open no seat are left out, saying nothing of them. In a cluster a table held by
        another process is read from the store (the store holds every seat's token hash)."""
        found = []
        for table_id, token in claims:
            table = self.tables.get(table_id)
            if table is not None:
                seat = table.seat_of(token)
                entry = table.lobby_entry() if seat is not None and table.status != "over" else None
                private = table.meta.private
            elif self.owners is not None:
                seat, entry, private = await self._stored_claim(table_id, token)
            else:
                continue
            if entry is not None:
                found.append({**entry, "seat": seat, "private": private})
        return found

    async def _stored_claim(self, table_id: str, token: str
                            ) -> tuple[int | None, dict[str, Any] | None, bool]:
        """A table not held here, as :meth:`mine` lists it: (seat, entry, private), the entry
        None if the token opens no seat or the match is over."""
        try:
            stored = await self.store.load(table_id)
            if stored is None or stored.status != "open":
                return None, None, False
            meta = TableMeta.from_json(stored.meta)
            seat = meta.seat_of(token)
            if seat is None:
                return None, None, False
            state, _ = replay_stored(stored, meta)
        except (StoreError, RecordError, RulesError, KeyError, ValueError, TypeError,
                IndexError):
            return None, None, False
        if state.over:
            return None, None, False
        status = "playing" if all(s.claimed for s in meta.seats) else "waiting"
        return seat, lobby_entry(table_id, meta, state, status, stored.created), meta.private

    async def lobby(self) -> list[dict[str, Any]]:
        """Open tables, those where someone is waiting for players now first; a few per
        creating address, so that nobody can bury the others' tables under their own. In a
        cluster, every process's tables."""
        entries = self.lobby_candidates()
        if self.owners is not None:
            entries = self._pick(entries + await self.owners.lobby())
        for entry in entries:
            del entry["by"], entry["people_here"]
        return entries

    def lobby_candidates(self) -> list[dict[str, Any]]:
        """This process's part of the lobby (what it publishes to the others in a cluster):
        the lobby's choice among its own tables, which always holds every table the choice
        among all processes' tables could show."""
        return self._pick([t.lobby_candidate() for t in self.listed()])

    def _pick(self, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        entries.sort(key=lambda e: (e["status"] != "waiting", not e["people_here"],
                                    -e["created"]))
        shown: list[dict[str, Any]] = []
        per_address: Counter[str] = Counter()
        for entry in entries:
            if per_address[entry["by"]] >= self.settings.lobby_per_address:
                continue
            per_address[entry["by"]] += 1
            shown.append(entry)
            if len(shown) == LOBBY_SIZE:
                break
        return shown

    def _check_quotas(self, meta: TableMeta, addr: str) -> None:
        """Tables in all, per address, and bots' matches (they play on with nobody there).
        The totals are this process's (what it can hold); an address's counts are the whole
        site's in a cluster (a load balancer spreads its tables over the processes)."""
        live = [t.meta for t in self.tables.values() if t.status != "over"]
        if len(live) >= self.settings.max_tables:
            raise ClientError("server_full")
        tables_elsewhere, bots_elsewhere, _ = (self.owners.usage_elsewhere(addr)
                                               if self.owners is not None else (0, 0, 0))
        if sum(m.by == addr for m in live) + tables_elsewhere >= self.settings.tables_per_address:
            raise ClientError("too_many_tables", {"n": self.settings.tables_per_address})
        if meta.bot_only:
            cfg = meta.config
            usual = cfg.game.targets[cfg.players]
            if cfg.target > usual:
                raise ClientError("bots_target", {"max": usual})
            bots = [m for m in live if m.bot_only]
            if (len(bots) >= self.settings.max_bot_tables
                    or sum(m.by == addr for m in bots) + bots_elsewhere
                    >= self.settings.bot_tables_per_address):
                raise ClientError("too_many_bot_tables")

    # -- creation ----------------------------------------------------------------------------

    async def _new_id(self) -> str:
        while True:
            table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
            if table_id not in self.tables and await self.store.load(table_id) is None:
                return table_id

    async def create(self, spec: TableSpec, addr: str = "?", player: StoredPlayer | None = None,
                     browser: str | None = None) -> tuple[Table, int | None, str | None]:
        """A new table from the lobby's form; the creator (at ``addr``; ``player``: their
        identity, ``browser``: their browser's) takes the first human seat.

        Returns the table, the creator's seat and its secret token.
        """
        meta, creator, token = self._prepare(spec, addr, player, browser)
        return await self._open(meta), creator, token

    def _prepare(self, spec: TableSpec, addr: str, player: StoredPlayer | None,
                 browser: str | None) -> tuple[TableMeta, int | None, str | None]:
        """A new table's meta from the lobby's form, its quotas checked, the creator seated:
        the meta, the creator's seat and its token."""
        if player is not None and isinstance(spec, dict):
            spec = {**spec, "name": player.name}  # an identity sits under its own name
        meta, creator = self._meta_of(spec)
        if meta.rated and (player is None or creator is None):
            raise ClientError("rated_needs_identity")
        self._check_quotas(meta, addr)
        meta.by = addr
        token = None
        if creator is not None:
            if self.seats_held(addr) >= self.settings.seats_per_address:
                raise ClientError("too_many_seats", {"n": self.settings.seats_per_address})
            token = secrets.token_urlsafe(24)
            seat = meta.seats[creator]
            seat.token_hash = hash_token(token)
            seat.addr = addr
            if player is not None:
                seat.player, seat.name, seat.browser = player.id, player.label, browser
            meta.host = creator
        return meta, creator, token

    async def _open(self, meta: TableMeta, table_id: str | None = None) -> Table:
        """A new table, held (and in a cluster owned, with the first fencing token) here;
        ``table_id``: one chosen before (to book an online bot for it first)."""
        table_id = table_id or await self._new_id()
        fence = None
        if self.owners is not None:
            # a fresh random id nobody holds yet: acquiring it cannot fail
            await self.owners.acquire(table_id)
            fence = 1
        table = await Table.new(self.services, table_id, meta, fence)
        self.tables[table.id] = table
        table.start()
        return table

    def _meta_of(self, spec: TableSpec) -> tuple[TableMeta, int | None]:
        game, players = game_and_players(spec)
        teams = spec.get("teams")
        if teams is not None and not isinstance(teams, bool):
            raise ClientError("bad_teams")
        target = spec.get("target")
        if target in ("", 0):
            target = None
        if target is not None and (isinstance(target, bool) or not isinstance(target, int)):
            raise ClientError("bad_target")
        try:
            cfg = Config.make(game, players, teams=teams, target=target)
        except RulesError:
            if teams and players != 4:
                raise ClientError("bad_teams") from None
            raise ClientError("bad_target") from None
        turn_time = spec.get("turn_time", self.settings.turn_time)
        if isinstance(turn_time, bool) or not isinstance(turn_time, (int, float)):
            raise ClientError("bad_turn_time")
        if turn_time and not self.settings.min_turn_time <= turn_time <= 600:
            raise ClientError("bad_turn_time")
        levels = bot_levels()
        raw_seats = spec.get("seats")
        if raw_seats is None:
            raw_seats = [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * (players - 1)
        if not isinstance(raw_seats, list) or len(raw_seats) != players:
            raise ClientError("bad_seats")
        seats = []
        for raw in raw_seats:
            if not isinstance(raw, dict) or raw.get("kind") not in ("human", "bot"):
                raise ClientError("bad_seats")
            if raw["kind"] == "bot":
                level = raw.get("level", "easy")
                if not isinstance(level, str) or level not in levels:
                    raise ClientError("bad_level")
                seats.append(Seat("bot", level))
            else:
                seats.append(Seat("human"))
        creator = None
        if spec.get("watch") is not True:
            creator = next((i for i, s in enumerate(seats) if s.kind == "human"), None)
            if creator is None:
                raise ClientError("bad_seats")
            name = spec.get("name") or ""
            if not isinstance(name, str):
                raise ClientError("bad_name")
            seats[creator].name = clean_name(name[:200])
        # Private (reached by its invite link, never listed) or open (in the lobby); a table
        # with seats for friends is private unless asked otherwise.
        private = spec.get("private")
        if private is None:
            private = any(s.kind == "human" for i, s in enumerate(seats) if i != creator)
        if not isinstance(private, bool):
            raise ClientError("bad_private")
        rated = spec.get("rated", False)
        if not isinstance(rated, bool):
            raise ClientError("bad_request")
        if rated:
            if "turn_time" not in spec and not turn_time:
                turn_time = RATED_TURN_TIME  # a site without clocks still times rated play
            check_rated_spec(cfg, float(turn_time or 0))
        seed = spec.get("seed")
        if seed is not None:
            # A client that chooses the seed knows every hand and the stock: tests only.
            if not self.settings.dev_seeds:
                raise ClientError("seed_not_allowed")
            if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
                raise ClientError("bad_request")
        meta = TableMeta(
            config=cfg,
            seats=seats,
            seed=seed if seed is not None else secrets.randbits(64),
            deals="fixed-seed" if seed is not None else "server-random",
            turn_time=float(turn_time or 0),
            private=private,
            invite=secrets.token_urlsafe(12) if private else None,
            rated=rated,
        )
        return meta, creator

    async def create_paired(self, group: list[Ticket], bots: list[str]) -> tuple[str, list[str]]:
        """A table for players the queue paired (and the bots of the remaining seats): open,
        so that others may watch; rated if their queue was. Partnerships seat the strongest
        with the weakest. The table's id and each ticket's seat token, in their order."""
        first = group[0]
        players = len(group) + len(bots)
        order = sorted(range(len(group)), key=lambda i: -group[i].mu)
        if players == 4 and len(group) == 4:
            order = [order[0], order[1], order[3], order[2]]  # sides: 1st+4th, 2nd+3rd
        spec = {"game": first.game, "players": players, "rated": first.rated,
                "private": False, "name": first.player.name,
                "seats": [{"kind": "human"}] * len(group)
                + [{"kind": "bot", "level": level} for level in bots]}
        meta, _ = self._meta_of(spec)
        if sum(t.status != "over" for t in self.tables.values()) >= self.settings.max_tables:
            raise ClientError("server_full")
        meta.by = first.addr
        tokens = [""] * len(group)
        for seat_no, i in enumerate(order):
            ticket = group[i]
            token = secrets.token_urlsafe(24)
            seat = meta.seats[seat_no]
            seat.token_hash, seat.addr = hash_token(token), ticket.addr
            seat.player, seat.name, seat.browser = (ticket.player.id, ticket.player.label,
                                                   ticket.browser)
            tokens[i] = token
        meta.host = 0
        table = await self._open(meta)
        return table.id, tokens

    async def create_event_table(self, event: StoredEvent, entrants: Sequence[StoredEntrant],
                                 seed: int | None = None) -> tuple[str, list[str]]:
        """The table of an event's pairing (the entrants in seat order; a bot entrant's seat
        played by its level): open to watchers, rated if the event is, its result told to the
        event when it ends; ``seed``: its deals' (a duplicate Swiss deals every table of a
        round alike), else the server's own. The table's id and each entrant's seat token
        (empty for a bot)."""
        info = event.meta
        spec = {"game": info["game"], "players": len(entrants), "rated": bool(info.get("rated")),
                "private": False, "target": info.get("target"), "teams": info.get("teams"),
                "seats": [{"kind": "bot", "level": e.name} if e.bot else {"kind": "human"}
                          for e in entrants], "watch": True}
        meta, _ = self._meta_of(spec)
        meta.event = event.id
        if seed is not None:
            meta.seed = seed  # secret as any table's: the event's own seed is never sent out
        tokens = []
        for seat, entrant in zip(meta.seats, entrants, strict=True):
            if entrant.bot:
                tokens.append("")
                continue
            token = secrets.token_urlsafe(24)
            seat.token_hash = hash_token(token)  # no address: one browser per entrant instead
            seat.player, seat.name, seat.browser = entrant.player, entrant.name, entrant.browser
            tokens.append(token)
        meta.host = 0
        table = await self._open(meta)
        return table.id, tokens

    async def withdraw(self, table_id: str) -> None:
        """Take back a paired table its players were never told of: set aside (as abandoned)
        and let go, so that no table waits for players who will be seated again elsewhere."""
        table = self.tables.get(table_id)
        if table is not None:
            await self._retire(table, "abandoned")

    async def challenge(self, spec: TableSpec, addr: str, player: StoredPlayer,
                        browser: str | None) -> tuple[Table, int | None, str | None]:
        """A person challenges a bot online: a table of the person, the bot's seat (labelled
        a bot, with our easy bot's level should it break the protocol) and easy bots for any
        other seat; rated if asked. The bot is booked for the table before it opens, so that
        of two challenges at once one gets the bot and the other ``bot_busy``."""
        if not isinstance(spec, dict):
            raise ClientError("bad_request")
        bot_id = spec.get("bot")
        if not isinstance(bot_id, str) or not is_outside(bot_id) or len(bot_id) > 32:
            raise ClientError("bot_offline")
        players = player_count(spec.get("players", 2))
        if spec.get("rated") is True and any(
                bot.id == bot_id for bot in await self.store.bot_accounts_of(player.id)):
            raise ClientError("own_bot_rated")  # its owner plays both sides
        meta, seat, token = self._prepare({
            "game": spec.get("game", "all-fives"), "players": players,
            "rated": spec.get("rated", False), "private": False,
            "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * (players - 1),
        }, addr, player, browser)
        table_id = await self._new_id()
        try:
            refusal = await self.outside.take(bot_id, table_id)
        except Unreachable:
            raise ClientError("bots_unreachable") from None
        if refusal is not None:
            raise ClientError(refusal)
        try:
            account = await self.store.player(bot_id)
            if account is None:  # connected a moment ago, and deleted since
                raise ClientError("bot_offline")
            bot_seat = meta.seats[1]
            bot_seat.player, bot_seat.name = account.id, account.label
            table = await self._open(meta, table_id)
        except BaseException:
            await self.free_bot(bot_id, table_id)
            raise
        return table, seat, token

    async def create_rematch(self, old: Table) -> str:
        """A new match at the same table: same game, seats, players and their tokens, the
        same privacy and invite. An online bot's seat books the bot again; one gone or busy
        elsewhere is our easy bot's from the start, as a bot that lost its seat is."""
        # a test's seeded table stays predictable in its rematch; any other gets a new secret
        fixed = old.meta.deals == "fixed-seed"
        meta = replace(
            old.meta,
            seats=[Seat.from_json(s.to_json()) for s in old.meta.seats],
            seed=Seeds(old.meta.seed).of("rematch").seed if fixed else secrets.randbits(64),
            deals="fixed-seed" if fixed else "server-random",
            rematch=None,
            rematch_of=old.id,
        )
        table_id = await self._new_id()
        booked = []
        for seat in meta.seats:
            if seat.kind != "bot" or not is_outside(seat.player):
                continue
            bot_id = str(seat.player)
            try:
                refusal = await self.outside.take(bot_id, table_id)
            except Unreachable:
                refusal = "bots_unreachable"
            if refusal is None:
                booked.append(bot_id)
            else:
                log.info("table %s: online bot %s not in the rematch (%s)", table_id, bot_id,
                         refusal)
                seat.player, seat.name, seat.level = None, None, "easy"
        try:
            return (await self._open(meta, table_id)).id
        except BaseException:
            for bot_id in booked:
                await self.free_bot(bot_id, table_id)
            raise
