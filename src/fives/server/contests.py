"""Events on the site (issue 30): arenas and duplicate Swiss, run by whichever process holds
each event's lease.

Every process runs the same loop (:meth:`Contests.run`): it moves each event through its life
(scheduled, running from its start, finished at its end; each step once, whoever takes it) and,
for the events whose lease it holds, pairs the free entrants into new tables. The store keeps
what was played (:mod:`fives.store.events`); the standings are computed from it each time by
:mod:`fives.contests`, so a process that dies mid-event loses nothing: another takes the lease
when it lapses and pairs from the same rows. A table's result is told to its event by the
process that owns the table, when its match ends (:func:`event_result`).

Fair play (docs/events.md): a paused entrant is not paired; an entrant whose last two matches
were finished by a bot for them (they had left) is paused until they say they are back; one
browser enters one identity.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fives.bots.host import Seeds
from fives.contests.arena import (
    ArenaResult,
    ArenaStanding,
    arena_standings,
    outcomes_of_places,
    pair_arena,
)
from fives.contests.schedule import Recurring, next_start, occurrence_id
from fives.contests.swiss import (
    Board,
    Bye,
    SwissMatch,
    SwissStanding,
    swiss_pairing,
    swiss_standings,
)
from fives.core.state import State
from fives.server.messages import ClientError
from fives.server.meta import TableMeta
from fives.server.ratings import side_places
from fives.store.base import Store, StoreError
from fives.store.events import SITE, StoredEntrant, StoredEvent, StoredEventGame

__all__ = ["AWAY_PAUSES", "Arena", "Contests", "Swiss", "arena_of", "event_result",
           "round_seed", "swiss_of"]

log = logging.getLogger("fives.server")

#: matches in a row finished by a bot for an entrant who had left, before they are paused
AWAY_PAUSES = 2


def event_result(meta: TableMeta, state: State) -> dict[str, Any]:
    """What an event keeps of a finished match: each seat's place (1 the best; partners
    share their side's), final score, and whether a bot was finishing it for a person who
    had left."""
    ranks = side_places(state)  # the rating's order: dense here, 1, 2, ... as people count
    places = [1 + sorted(set(ranks)).index(r) for r in ranks]
    scores = state.scores_out()
    cfg = meta.config
    out: dict[str, Any] = {"places": [places[cfg.side_of(s)] for s in range(cfg.players)],
                           "scores": [int(scores[cfg.side_of(s)]) for s in range(cfg.players)],
                           "away": [seat.away for seat in meta.seats]}
    if cfg.sides == 2:
        # each deal's margin for seat 0's side (a duplicate Swiss compares each board with
        # the same board at the other tables)
        boards, last = [], [0, 0]
        for info in state.rounds():
            now = [int(x) for x in info.scores]
            boards.append((now[0] - last[0]) - (now[1] - last[1]))
            last = now
        out["boards"] = boards
    return out


def _arena_result(game: StoredEventGame) -> ArenaResult | None:
    if game.result is None or game.finished is None:
        return None
    outcomes = outcomes_of_places(game.result["places"])
    return ArenaResult(tuple(game.players), tuple(outcomes), game.finished)


@dataclass
class Arena:
    """An arena as read from the store: its event, entrants, matches and standings."""

    event: StoredEvent
    entrants: list[StoredEntrant]
    games: list[StoredEventGame]
    standings: list[ArenaStanding]

    @property
    def ends(self) -> float:
        return self.event.starts + 60.0 * float(self.event.meta["minutes"])

    def playing(self) -> dict[str, StoredEventGame]:
        """Each entrant at a match of the event now, with that match."""
        return {p: g for g in self.games if g.playing for p in g.players}

    def last_opponents(self) -> dict[str, set[str]]:
        last: dict[str, set[str]] = {}
        for game in self.games:  # in the order they started: the latest wins
            for player in game.players:
                last[player] = set(game.players) - {player}
        return last

    def may_pair(self) -> bool:
        """Whether enough are free for a table, a person among them (bots play people)."""
        free = set(self.free())
        return len(free) >= int(self.event.meta["players"]) and any(
            e.player in free and not e.bot for e in self.entrants)

    def free(self) -> list[str]:
        """The entrants who may be paired now: not paused, not at a match."""
        busy = self.playing()
        return [e.player for e in self.entrants if not e.paused and e.player not in busy]


async def arena_of(store: Store, event: StoredEvent) -> Arena:
    entrants = await store.entrants(event.id)
    games = await store.event_games(event.id)
    results = [r for r in (_arena_result(g) for g in games) if r is not None]
    return Arena(event, entrants, games,
                 arena_standings([e.player for e in entrants], results))


def _swiss_match(game: StoredEventGame) -> SwissMatch | Bye | None:
    if game.result is None:
        return None
    if game.result.get("bye"):
        return Bye(game.round, game.players[0])
    first, second = game.result["places"][:2]
    score = Fraction(1) if first < second else Fraction(1, 2) if first == second else Fraction(0)
    boards = tuple(Board(i, m) for i, m in enumerate(game.result.get("boards", [])))
    return SwissMatch(game.round, game.players[0], game.players[1], boards, score)


@dataclass
class Swiss:
    """A duplicate Swiss as read from the store: its event, entrants, matches and standings."""

    event: StoredEvent
    entrants: list[StoredEntrant]
    games: list[StoredEventGame]
    standings: list[SwissStanding]

    @property
    def rounds(self) -> int:
        return int(self.event.meta["rounds"])

    @property
    def round(self) -> int:
        """The round under way or last played (0 before the first)."""
        return max((g.round for g in self.games), default=0)

    @property
    def round_done(self) -> bool:
        return all(not g.playing for g in self.games if g.round == self.round)

    def playing(self) -> dict[str, StoredEventGame]:
        return {p: g for g in self.games if g.playing for p in g.players}


async def swiss_of(store: Store, event: StoredEvent) -> Swiss:
    entrants = await store.entrants(event.id)
    games = await store.event_games(event.id)
    played = [m for m in (_swiss_match(g) for g in games) if m is not None]
    standings = swiss_standings([e.player for e in entrants],
                                [m for m in played if isinstance(m, SwissMatch)],
                                [m for m in played if isinstance(m, Bye)])
    return Swiss(event, entrants, games, standings)


def round_seed(event: StoredEvent, number: int) -> int:
    """The deals of a Swiss round: the same seed at every table of it (duplicate)."""
    return Seeds(int(event.meta["seed"])).of(f"round-{number}").seed


#: makes the table of a pairing: (event, entrants in seat order, the deals' seed or None for
#: the server's own) -> (table id, seat tokens)
OpenTable = Callable[[StoredEvent, Sequence[StoredEntrant], int | None],
                     Awaitable[tuple[str, list[str]]]]
#: takes a table back whose pairing could not be stored
Withdraw = Callable[[str], Awaitable[None]]


class Contests:
    """This process's part in the site's events."""

    def __init__(self, store: Store, open_table: OpenTable, withdraw: Withdraw,
                 owner: str = "", every: float = 2.0, lease: float = 15.0,
                 scheduled: Sequence[Recurring] = ()) -> None:
        self.store = store
        #: the site's own arenas (``fives serve --events FILE``): the next of each is made
        #: as soon as the last has started, so that the home page always shows it
        self.scheduled = list(scheduled)
        self._made: set[str] = set()
        self.open_table = open_table
        self.withdraw = withdraw
        self.owner = owner or f"p-{secrets.token_hex(4)}"
        self.every = every
        self.lease = lease
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self.run())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def wake(self) -> None:
        """Pair now rather than at the next beat (someone joined, a match ended)."""
        self._wake.set()

    async def run(self) -> None:
        while True:
            try:
                await self.tick(time.time())
            except StoreError as exc:
                log.warning("events: not paired now: %s", exc)
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.every)

    async def tick(self, now: float) -> None:
        """One beat: the site's next arenas made, every event moved on as its clock says, every
        arena this process holds paired."""
        await self._schedule(now)
        for event in await self.store.events(["scheduled", "running"], limit=200,
                                             listed_only=False):
            try:
                await self._move_on(event, now)
            except (StoreError, ClientError, KeyError, ValueError, TypeError) as exc:
                # one event that cannot move on (its tables refused, a row damaged) does not
                # hold the others back: it is tried again at the next beat
                log.warning("event %s: not moved on now: %s", event.id, exc)

    async def _move_on(self, event: StoredEvent, now: float) -> None:
        if event.status == "scheduled" and event.starts <= now:
            await self.store.advance_event(event.id, "scheduled", "running", now)
            event.status = "running"
        if event.status != "running":
            return
        if event.kind == "swiss":
            swiss = await swiss_of(self.store, event)
            if swiss.round_done and await self.store.claim_event(event.id, self.owner, now,
                                                                 self.lease):
                await self._next_round(swiss, now)
            return
        arena = await arena_of(self.store, event)
        if now >= arena.ends:
            # the matches in play finish and count; nobody is paired any more
            await self.store.advance_event(event.id, "running", "finished", now)
            return
        if arena.may_pair() and await self.store.claim_event(event.id, self.owner, now,
                                                             self.lease):
            await self._pair(arena, now)

    async def _schedule(self, now: float) -> None:
        for recurring in self.scheduled:
            start = next_start(recurring, now)
            event_id = occurrence_id(recurring, start)
            if event_id in self._made:
                continue
            # every process makes the same one: the store keeps the first
            await self.store.create_event(StoredEvent(event_id, "arena", recurring.meta(), SITE,
                                                      now, start))
            self._made.add(event_id)

    async def _next_round(self, swiss: Swiss, now: float) -> None:
        """The next round's tables, all dealt the same boards (better-ranked in seat 0), and
        its bye; the event finished after its last round (or when no pairing without a
        rematch is left)."""
        event = swiss.event
        if swiss.round >= swiss.rounds:
            await self.store.advance_event(event.id, "running", "finished", now)
            return
        try:
            pairing = swiss_pairing(swiss.standings)
        except ValueError:
            await self.store.advance_event(event.id, "running", "finished", now)
            return
        number = swiss.round + 1
        by_id = {e.player: e for e in swiss.entrants}
        seed = round_seed(event, number)
        games = []
        for first, second in pairing.pairs:
            table_id, tokens = await self.open_table(event, [by_id[first], by_id[second]], seed)
            games.append(StoredEventGame(event.id, table_id, number, [first, second],
                                         {p: t for p, t in ((first, tokens[0]),
                                                            (second, tokens[1])) if t}, now))
        if pairing.bye is not None:
            games.append(StoredEventGame(event.id, f"bye-{event.id}-{number}", number,
                                         [pairing.bye], {}, now, {"bye": True}, now))
        await self._store_pairing(event, games, now)

    async def _store_pairing(self, event: StoredEvent, games: list[StoredEventGame],
                             now: float) -> None:
        stored = False
        try:
            stored = await self.store.add_event_games(event.id, self.owner, now, games)
        finally:
            if not stored:  # another process holds the event now: it pairs them itself
                for game in games:
                    if not game.table_id.startswith("bye-"):
                        await self.withdraw(game.table_id)

    async def _pair(self, arena: Arena, now: float) -> None:
        event = arena.event
        points = {s.player: s.points for s in arena.standings}
        # bots play people: among themselves nobody would watch or learn from them
        groups = pair_arena(arena.free(), points, arena.last_opponents(),
                            size=int(event.meta["players"]),
                            people={e.player for e in arena.entrants if not e.bot})
        if not groups:
            return
        by_id = {e.player: e for e in arena.entrants}
        number = 1 + max((g.round for g in arena.games), default=0)
        games = []
        for group in groups:
            seated = [by_id[p] for p in group]
            table_id, tokens = await self.open_table(event, seated, None)
            games.append(StoredEventGame(event.id, table_id, number, list(group),
                                         {p: t for p, t in zip(group, tokens, strict=True) if t},
                                         now))
        await self._store_pairing(event, games, now)

    async def match_over(self, table_id: str, meta: TableMeta, state: State) -> None:
        """A match of an event ended (told by the table's owner): its result kept, once; an
        entrant a bot finished it for twice in a row paused."""
        if meta.event is None:
            return
        result = event_result(meta, state)
        try:
            if not await self.store.finish_event_game(meta.event, table_id, result, time.time()):
                return
            games = [g for g in await self.store.event_games(meta.event) if g.result]
            for seat, player in enumerate(s.player for s in meta.seats):
                if player is None or not result["away"][seat]:
                    continue
                theirs = [g for g in games if player in g.players][-AWAY_PAUSES:]
                if len(theirs) == AWAY_PAUSES and all(
                        g.result is not None and g.result["away"][g.players.index(player)]
                        for g in theirs):
                    await self.store.set_paused(meta.event, player, True)
        except StoreError as exc:
            log.warning("event %s: the result of %s not kept: %s", meta.event, table_id, exc)
        self.wake()

