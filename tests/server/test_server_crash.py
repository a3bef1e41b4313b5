"""Fault injection (issue 10): the server is killed (SIGKILL) at 20 random moments while
people and bots play several tables, match after match, and started again on the same
database each time. Every action any client saw acknowledged (a broadcast is sent only once
the action is stored) must be in the store, at its place, once: nothing lost, nothing
doubled; every match a client saw end is stored finished."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
from dataclasses import dataclass, field
from typing import Any

import pytest
import websockets

from fives.core.record import Record, replay
from fives.store import SqliteStore, StoredTable

from .harness import SeatClient, create_table, serve

pytestmark = pytest.mark.timeout(600)

KILLS = 20


@dataclass
class Seat:
    """A person's seat, followed from match to match through rematches."""

    table: str
    token: str
    invite: str | None = None


@dataclass
class Seen:
    """What the clients were told, per table: each event by its counter n."""

    events: dict[str, dict[int, tuple[str, Any, Any]]] = field(default_factory=dict)
    results: set[str] = field(default_factory=set)

    def notes(self, messages: list[dict[str, Any]]) -> None:
        for msg in messages:
            self.note(msg)

    def note(self, msg: dict[str, Any]) -> None:
        if msg["type"] != "state":
            return
        table = msg["table"]
        event = msg["event"]
        if event is not None:
            if event["kind"] == "deal":
                told = ("deal", event["round"], event["leader"])
            else:
                told = (event["kind"], event["seat"], event["action"])
            earlier = self.events.setdefault(table, {}).setdefault(event["n"], told)
            assert earlier == told, f"{table}: n={event['n']} told as {earlier} and as {told}"
        if msg["result"] is not None:
            self.results.add(table)


async def play(base: str, seats: list[Seat], seen: Seen, rng: random.Random,
               stop: asyncio.Event) -> None:
    """Every seat plays random legal moves (and says ready, and asks for the rematch) until
    the server goes away."""

    async def one(seat: Seat) -> None:
        while not stop.is_set():
            client = SeatClient(base, seat.table, seat.token, invite=seat.invite)
            try:
                await asyncio.wait_for(client.connect(), 3)
            except (OSError, websockets.WebSocketException, TimeoutError):  # the server died
                seen.notes(client.messages)
                return
            done: set[tuple[str, int]] = set()
            moved_to: str | None = None
            try:
                while not stop.is_set() and moved_to is None:
                    st = client.state
                    moved_to = next((m["table"] for m in client.messages
                                     if m["type"] == "rematch"), None)
                    if st is not None and moved_to is None:
                        key = (st["table"], st["n"])
                        if key not in done:
                            done.add(key)
                            try:
                                await act(client, st, rng)
                            except websockets.ConnectionClosed:
                                return  # the server died
                    if client._task.done():
                        return
                    await asyncio.sleep(0.005)
            finally:
                seen.notes(client.messages)
                with contextlib.suppress(Exception):
                    await client.close()
            if moved_to is not None:
                seat.table = moved_to

    await asyncio.gather(*(one(s) for s in seats))


async def act(client: SeatClient, st: dict[str, Any], rng: random.Random) -> None:
    if st["result"] is not None:
        await client.send({"type": "rematch"})
        return
    view = st["view"]
    if view is None:
        return
    if st["summary"] is not None:
        if client.seat in st["info"]["waiting_for"]:
            await client.send({"type": "ready"})
        return
    if view["turn"] == client.seat and view["legal"] and view["legal"] not in (["draw"], ["pass"]):
        await client.send({"type": "act", "action": rng.choice(view["legal"]), "n": st["n"]})


def stored_events(stored: StoredTable | None,
                  table: str) -> tuple[dict[int, tuple[str, Any, Any]], str]:
    """The store's account of a table by counter n (deals and actions), checking on the way
    that the counters run 1, 2, 3 ... with no gap and no repeat."""
    assert stored is not None, f"{table} is not in the store"
    events: dict[int, tuple[str, Any, Any]] = {}
    n = 0
    for rnd in stored.rounds:
        n += 1
        events[n] = ("deal", rnd.round_no, rnd.leader)
        for action in rnd.actions:
            n += 1
            assert action.seq == n, f"{table}: action {action.seq} stored where {n} belongs"
            kind = ("draw" if action.action == "draw" else "pass" if action.action == "pass"
                    else "play" if "@" in action.action else "lead")
            events[n] = (kind, action.seat, action.action)
    return events, stored.status


@pytest.mark.slow
def test_nothing_acknowledged_is_lost_or_doubled_across_twenty_kills(tmp_path) -> None:
    db = str(tmp_path / "fives.sqlite3")
    rng = random.Random(2026)
    seen = Seen()
    seats: list[Seat] = []
    with serve(db, "--bot-delay", "0.01") as (_proc, base):
        for game, players, target in (("all-fives", 2, 30), ("fives-and-threes", 3, 15),
                                      ("muggins", 2, 20), ("block", 4, 20)):
            created = create_table(base, game=game, players=players, name="Asha",
                                   target=target, turn_time=0, seed=rng.randrange(10**6))
            seats.append(Seat(created["table"], created["token"]))
        # two people at one table
        duo = create_table(base, game="draw", players=2, name="Asha", target=25, turn_time=0,
                           seats=[{"kind": "human"}, {"kind": "human"}], seed=7)
        seats.append(Seat(duo["table"], duo["token"], duo["invite"]))

        async def join() -> str:
            c = await SeatClient(base, duo["table"], invite=duo["invite"]).connect()
            await c.send({"type": "join", "seat": 1, "name": "Bea"})
            joined = await c.wait(lambda m: m["type"] == "joined")
            await c.close()
            return str(joined["token"])

        seats.append(Seat(duo["table"], asyncio.run(join()), duo["invite"]))

    async def cycle(base: str, pid: int, moment: float) -> None:
        stop = asyncio.Event()
        players = asyncio.ensure_future(play(base, seats, seen, rng, stop))
        await asyncio.sleep(moment)
        os.kill(pid, signal.SIGKILL)  # in the middle of whatever it was doing
        await asyncio.sleep(0.3)  # the players see the drop and end on their own; stop any other
        stop.set()
        await asyncio.wait_for(players, 30)

    for _ in range(KILLS):
        with serve(db, "--bot-delay", "0.01") as (proc, base):
            asyncio.run(cycle(base, proc.pid, rng.uniform(0.2, 1.5)))
            proc.wait(10)

    store = SqliteStore(db, exclusive=False)
    try:
        told = 0
        for table, events in seen.events.items():
            kept, status = stored_events(asyncio.run(store.load(table)), table)
            for n, event in events.items():
                assert kept.get(n) == event, f"{table}: n={n} was told {event}, stored {kept.get(n)}"
                told += 1
            if table in seen.results:
                assert status == "over", f"{table}: seen finished, stored {status}"
                record = asyncio.run(store.load(table)).record  # type: ignore[union-attr]
                assert record is not None and replay(Record.from_data(record))["over"]
        finished = len(seen.results)
    finally:
        store.close_now()
    assert told > 300, told  # the clients saw a good deal of play
    assert finished >= 3, finished  # across several matches
