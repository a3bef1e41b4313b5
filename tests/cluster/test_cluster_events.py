"""An arena across processes (issue 30): four people join through two processes; the process
that paired the first round is killed with SIGKILL; its tables move, the matches finish, and
the survivor takes the event's lease when it lapses and pairs the next round from the stored
results (never the last opponents), the standings equal to those computed from the store's
rows."""

from __future__ import annotations

import asyncio
import os
import random
import signal
from typing import Any

import httpx
import pytest

from fives.contests.arena import ArenaResult, arena_standings, outcomes_of_places
from fives.store import Store, open_store
from fives.store.events import StoredEvent, StoredEventGame
from server.harness import wait_until
from server.test_server_crash import Seen

from .kit import nodes, play_on

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

ARENA = {"title": "Cluster arena", "game": "block", "players": 2, "target": 10, "minutes": 30}


def _stored(db: str, event_id: str) -> tuple[StoredEvent | None, list[StoredEventGame], list[str]]:
    async def go() -> tuple[StoredEvent | None, list[StoredEventGame], list[str]]:
        store: Store = open_store(db)
        await store.start()
        try:
            return (await store.event(event_id), await store.event_games(event_id),
                    [e.player for e in await store.entrants(event_id)])
        finally:
            await store.close()

    return asyncio.run(go())


def test_the_process_that_paired_a_round_is_killed_and_the_arena_goes_on(
        cluster_db: str, cluster_redis: str) -> None:
    with nodes(cluster_db, cluster_redis, 2, "--lease", "1") as live:
        a, b = live
        people = []
        for n, name in enumerate(("Asha", "Ravi", "Meera", "Kabir")):
            node = live[n % 2]  # each through one process or the other
            client = httpx.Client(base_url=node.base, timeout=10,
                                  headers={"X-Forwarded-For": f"10.0.0.{n + 1}"})
            assert client.post("/api/me", json={"name": name}).status_code == 201
            people.append(client)
        event_id = people[0].post("/api/events", json=ARENA).json()["id"]
        for person in people:
            assert person.post(f"/api/events/{event_id}/join", json={}).status_code == 200

        def parts() -> list[dict[str, Any]] | None:
            got = [p.get(f"/api/events/{event_id}").json().get("me", {}) for p in people]
            return got if all(part.get("token") for part in got) else None

        first = wait_until(parts, timeout=30, what="the first round's seats")
        event, games, _ = _stored(cluster_db, event_id)
        assert event is not None and len(games) == 2
        pairer = next(n for n in live if n.id == event.owner)
        survivor = b if pairer is a else a
        os.kill(pairer.proc.pid, signal.SIGKILL)
        pairer.proc.wait(10)
        for person in people:  # the pages ask the live process from now on
            person.base_url = httpx.URL(survivor.base)
        seen = Seen()

        async def play_all() -> None:
            rng = random.Random(30)
            await asyncio.gather(*(play_on(live, part["table"], part["token"], seen,
                                           random.Random(rng.random()), first=survivor)
                                   for part in first))

        asyncio.run(play_all())
        second = wait_until(parts, timeout=60, what="the second round, paired by the survivor")
        assert {p["table"] for p in second}.isdisjoint({p["table"] for p in first})
        event, games, entrants = _stored(cluster_db, event_id)
        assert event is not None and event.owner == survivor.id
        # (an arena numbers its pairings, not rounds: the first two tables may be two of them)
        before = {part["table"] for part in first}
        after = {part["table"] for part in second}
        assert {g.table_id for g in games} == before | after and len(games) == 4
        last = {p: set(g.players) for g in games if g.table_id in before for p in g.players}
        for game in (g for g in games if g.table_id in after):
            assert set(game.players) != last[game.players[0]]  # never the last opponent
        results = [ArenaResult(tuple(g.players), tuple(outcomes_of_places(g.result["places"])),
                               g.finished) for g in games if g.result and g.finished]
        assert len(results) == 2
        shown = people[0].get(f"/api/events/{event_id}").json()["standings"]
        assert [(s["player"], s["points"]) for s in shown] == [
            (s.player, s.points) for s in arena_standings(entrants, results)]
