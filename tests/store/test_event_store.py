"""The events in the store, the same tests on SQLite and PostgreSQL (issue 30): an event and
its entrants round trip; each step of an event's life happens once; one process pairs an
event at a time, and a process whose lease lapsed cannot store a pairing; a match's result
counts once; the listings the home page shows."""

from __future__ import annotations

import asyncio

import pytest

from fives.store import Store, StoreError
from fives.store.events import SITE, StoredEntrant, StoredEvent, StoredEventGame

from .test_store_suite import run

META = {"game": "all-fives", "players": 2, "target": 61, "title": "शाम का एरीना", "minutes": 30}


def _event(event_id: str = "e1", **kw: object) -> StoredEvent:
    values: dict[str, object] = {"id": event_id, "kind": "arena", "meta": META,
                                 "creator": "p-asha", "created": 1.0, "starts": 100.0}
    values.update(kw)
    return StoredEvent(**values)  # type: ignore[arg-type]


def test_an_event_and_its_entrants_round_trip(store_url: str) -> None:
    async def body(store: Store) -> None:
        assert await store.create_event(_event())
        got = await store.event("e1")
        assert got == _event()  # the meta's Devanagari and numbers intact
        assert not await store.create_event(_event(starts=5.0, creator="p-x"))  # kept as it was
        assert await store.event("e1") == got
        assert await store.event("e2") is None
        first = await store.join_event(StoredEntrant("e1", "p-ravi", "रवि", 5.0, browser="b1"))
        again = await store.join_event(StoredEntrant("e1", "p-ravi", "Ravi 2", 9.0, bot=True))
        assert again == first == StoredEntrant("e1", "p-ravi", "रवि", 5.0, browser="b1")
        await store.join_event(StoredEntrant("e1", "p-asha", "Asha", 4.0))
        await store.join_event(StoredEntrant("e1", "bot-1", "Bot", 6.0, bot=True))
        assert [e.player for e in await store.entrants("e1")] == ["p-asha", "p-ravi", "bot-1"]
        assert await store.set_paused("e1", "p-ravi", True)
        assert not await store.set_paused("e1", "p-nobody", True)
        paused = {e.player: e.paused for e in await store.entrants("e1")}
        assert paused == {"p-asha": False, "p-ravi": True, "bot-1": False}
        assert await store.entrants("e2") == []

    run(store_url, body)


def test_each_step_of_an_events_life_happens_once(store_url: str) -> None:
    async def body(store: Store) -> None:
        await store.create_event(_event())
        starts = await asyncio.gather(*(store.advance_event("e1", "scheduled", "running", 100.0)
                                        for _ in range(6)))
        assert sorted(starts) == [False] * 5 + [True]
        running = await store.event("e1")
        assert running is not None and running.status == "running" and running.ended is None
        assert not await store.advance_event("e1", "scheduled", "cancelled", 101.0)
        assert await store.advance_event("e1", "running", "finished", 1900.0)
        over = await store.event("e1")
        assert over is not None and (over.status, over.ended) == ("finished", 1900.0)

    run(store_url, body)


def test_one_process_pairs_an_event_until_its_lease_lapses(store_url: str) -> None:
    async def body(store: Store) -> None:
        await store.create_event(_event())
        assert await store.claim_event("e1", "node-a", 10.0, 30.0)
        assert await store.claim_event("e1", "node-a", 20.0, 30.0)  # renewed: till 50
        assert not await store.claim_event("e1", "node-b", 45.0, 30.0)
        game = StoredEventGame("e1", "t1", 1, ["p-asha", "p-ravi"], {}, 21.0)
        assert await store.add_event_games("e1", "node-a", 21.0, [game])
        assert not await store.add_event_games(
            "e1", "node-b", 22.0, [StoredEventGame("e1", "t2", 1, ["p-x", "p-y"], {}, 22.0)])
        assert await store.claim_event("e1", "node-b", 51.0, 30.0)  # a's lapsed at 50
        late = StoredEventGame("e1", "t3", 2, ["p-asha", "p-ravi"], {}, 52.0)
        assert not await store.add_event_games("e1", "node-a", 52.0, [late])
        assert [g.table_id for g in await store.event_games("e1")] == ["t1"]

    run(store_url, body)


def test_two_processes_claiming_at_once_one_wins(store_url: str) -> None:
    async def body(store: Store) -> None:
        await store.create_event(_event())
        won = await asyncio.gather(*(store.claim_event("e1", f"node-{n}", 10.0, 30.0)
                                     for n in range(8)))
        assert sum(won) == 1

    run(store_url, body)


def test_a_pairing_is_stored_whole_or_not_at_all(store_url: str) -> None:
    async def body(store: Store) -> None:
        await store.create_event(_event())
        await store.create_event(_event("e2"))
        assert await store.claim_event("e1", "node-a", 10.0, 30.0)
        assert await store.claim_event("e2", "node-a", 10.0, 30.0)
        assert await store.add_event_games(
            "e2", "node-a", 11.0, [StoredEventGame("e2", "t9", 1, ["p-x", "p-y"], {}, 11.0)])
        # a table belongs to one event: the second game's table is e2's, so neither is kept
        games = [StoredEventGame("e1", "t1", 1, ["p-a", "p-b"], {}, 12.0),
                 StoredEventGame("e1", "t9", 1, ["p-c", "p-d"], {}, 12.0)]
        with pytest.raises(StoreError):
            await store.add_event_games("e1", "node-a", 12.0, games)
        assert await store.event_games("e1") == []

    run(store_url, body)


def test_a_matchs_result_counts_once(store_url: str) -> None:
    async def body(store: Store) -> None:
        await store.create_event(_event())
        assert await store.claim_event("e1", "node-a", 10.0, 30.0)
        games = [StoredEventGame("e1", "t1", 1, ["p-a", "p-b"], {"p-a": "tok-a", "p-b": "tok-b"},
                                 11.0),
                 StoredEventGame("e1", "t2", 1, ["p-c", "p-d"], {"p-c": "tok-c"}, 11.0)]
        assert await store.add_event_games("e1", "node-a", 11.0, games)
        result = {"places": [1, 2], "scores": [61, 40]}
        told = await asyncio.gather(*(store.finish_event_game("e1", "t1", result, 20.0 + k)
                                      for k in range(4)))
        assert sorted(told) == [False] * 3 + [True]
        assert not await store.finish_event_game("e2", "t2", result, 21.0)  # not e2's match
        stored = {g.table_id: g for g in await store.event_games("e1")}
        assert stored["t1"].result == result and not stored["t1"].playing
        assert stored["t2"].result is None and stored["t2"].playing
        assert stored["t1"].players == ["p-a", "p-b"]
        assert stored["t1"].tokens == {}  # forgotten once the match is over
        assert stored["t2"].tokens == {"p-c": "tok-c"}  # kept while it is played

    run(store_url, body)


def test_the_listings_show_coming_events_soonest_and_ended_ones_newest(store_url: str) -> None:
    async def body(store: Store) -> None:
        await store.create_event(_event("later", starts=300.0, creator=SITE))
        await store.create_event(_event("soon", starts=200.0, creator=SITE))
        await store.create_event(_event("club", starts=150.0, listed=False))
        await store.create_event(_event("old", starts=10.0, created=2.0))
        await store.create_event(_event("older", starts=5.0, created=3.0))
        await store.advance_event("old", "scheduled", "running", 10.0)
        await store.advance_event("old", "running", "finished", 50.0)
        await store.advance_event("older", "scheduled", "running", 5.0)
        await store.advance_event("older", "running", "finished", 40.0)
        coming = await store.events(["scheduled", "running"])
        assert [e.id for e in coming] == ["soon", "later"]
        assert [e.id for e in await store.events(["scheduled"], listed_only=False)] == [
            "club", "soon", "later"]
        assert [e.id for e in await store.events(["finished"])] == ["old", "older"]
        assert [e.id for e in await store.events(["finished"], limit=1)] == ["old"]
        assert await store.events([]) == []
        assert await store.events_created("p-asha", 2.0) == 2  # old and older, not club (1.0)
        assert await store.events_created(SITE, 0.0) == 2

    run(store_url, body)
