"""The pairing queue of a cluster in real Redis (cluster/queue.py): several "processes" (one
book each, their own ids) share one queue. Players queued at two processes are paired at one
table by the leader; a second join anywhere gives back the waiting ticket; a poll never undoes
the leader's match; accepting bots while the leader groups the same ticket makes one table,
never two; when the leader dies another process leads; leftovers expire; Redis away is
ClusterDown (the endpoints' 503), never a traceback."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager

import pytest
from redis.asyncio import Redis

from fives.server.cluster import ClusterDown
from fives.server.cluster.queue import (
    IDS,
    KEEP,
    LEADER,
    PREFIX,
    QUIET_PASS,
    STIR,
    RedisBook,
)
from fives.server.pairing import BOT_OFFER, STALE, PairingQueue, Ticket
from server.harness import wait_until_async
from server.test_pairing import (
    SlowTables,
    Tables,
    mus,
    person,
    race_leave_against_pairing,
    run,
)
from services import free_port

pytestmark = pytest.mark.timeout(60)


@asynccontextmanager
async def redis_of(url: str) -> AsyncIterator[Redis]:
    client = Redis.from_url(url, decode_responses=True)
    try:
        yield client
    finally:
        await client.aclose()


def process(redis: Redis, name: str, tables: Tables, lease: float = 3.0) -> PairingQueue:
    """One process's queue: the matcher on a book of its own."""
    return PairingQueue(tables.seat, mus, book=RedisBook(redis, name, lease))


async def join(q: PairingQueue, name: str, mu: float = 25.0, players: int = 2,
               waited: float = 0.0) -> Ticket:
    ticket = await q.join(person(name), f"b-{name}", f"addr-{name}", "block", players, True, mu)
    if waited:
        ticket.since -= waited
        ticket.offer_at -= waited
        await q.book.write([ticket], "since", "offer_at")
    return ticket


async def poll(q: PairingQueue, ticket: Ticket) -> Ticket:
    return await q.get(ticket.id, ticket.player)


@run
async def test_hosts_whose_clocks_differ_share_redis_s_clock(cluster_redis: str) -> None:
    """The leader's host runs 45 s ahead (more than STALE): on its own clock every ticket
    joined elsewhere looked half a minute unpolled and was dropped at once. On Redis's clock
    the two processes agree, and the players are paired."""
    async with redis_of(cluster_redis) as redis:
        tables = Tables()
        ahead = PairingQueue(tables.seat, mus,
                             book=RedisBook(redis, "ahead", clock=lambda: time.time() + 45))
        right = process(redis, "right", tables)
        assert await ahead.book.lead() and not await right.book.lead()
        assert abs(ahead.now() - right.now()) < 0.5
        asha, ravi = await join(right, "Asha"), await join(ahead, "Ravi")
        assert await ahead.match_now() == 1
        assert (await poll(right, asha)).table == (await poll(right, ravi)).table == "t1"


@run
async def test_two_players_queued_at_two_processes_sit_at_one_table(cluster_redis: str) -> None:
    async with redis_of(cluster_redis) as redis:
        tables = Tables()
        one, two = process(redis, "one", tables), process(redis, "two", tables)
        assert await one.book.lead() and not await two.book.lead()
        asha, ravi = await join(one, "Asha"), await join(two, "Ravi", 26.0)
        assert await one.match_now() == 1
        a, b = await poll(two, asha), await poll(one, ravi)
        assert a.table == b.table == "t1" and a.token != b.token
        assert tables.made == [(["Asha", "Ravi"], [])]
        assert a.status(two.now())["state"] == "matched"


@run
async def test_only_the_leader_matches_and_it_pairs_every_processs_tickets(
        cluster_redis: str) -> None:
    async with redis_of(cluster_redis) as redis:
        tables = Tables()
        queues = [process(redis, f"p{i}", tables) for i in range(3)]
        for q in queues:
            q.start()
        try:
            tickets = [await join(queues[i % 3], f"P{i}", 25.0 + i / 100) for i in range(30)]
            for _ in range(100):
                seen = [await poll(queues[(i + 1) % 3], t) for i, t in enumerate(tickets)]
                if all(t.table for t in seen):
                    break
                await asyncio.sleep(0.05)
            assert all(t.table for t in seen) and len(tables.made) == 15
            assert await redis.get(LEADER) in {"p0", "p1", "p2"}
        finally:
            for q in queues:
                await q.stop()
        assert await redis.get(LEADER) is None  # the leader let go on its way out


@run
async def test_joining_twice_at_two_processes_keeps_one_ticket(cluster_redis: str) -> None:
    async with redis_of(cluster_redis) as redis:
        tables = Tables()
        one, two = process(redis, "one", tables), process(redis, "two", tables)
        first, second = await asyncio.gather(join(one, "Asha"), join(two, "Asha"))
        assert first.id == second.id and len(await one.book.tickets()) == 1
        assert (await join(two, "Asha")).id == first.id
        await join(one, "Ravi")
        await one.match_now()
        again = await join(two, "Asha")  # matched: a new join is a new ticket
        assert again.id != first.id and again.table is None


@run
async def test_a_poll_never_undoes_the_leaders_match(cluster_redis: str) -> None:
    async with redis_of(cluster_redis) as redis:
        tables = Tables()
        one, two = process(redis, "one", tables), process(redis, "two", tables)
        asha = await join(one, "Asha", waited=BOT_OFFER + 1)
        await one.match_now()
        stale = await poll(two, asha)  # the page's view: bots offered, no table yet
        assert stale.offer is not None and stale.table is None
        await join(one, "Ravi")
        await one.match_now()
        await poll(two, stale)  # writes seen only
        await two.decline(stale)  # writes the offer and its time only
        now = await poll(one, asha)
        assert now.table == "t1" and now.token is not None
        assert now.status(one.now())["state"] == "matched"


@run
async def test_a_ticket_is_its_players_alone_at_every_process(cluster_redis: str) -> None:
    async with redis_of(cluster_redis) as redis:
        one, two = process(redis, "one", Tables()), process(redis, "two", Tables())
        asha = await join(one, "Asha")
        seen = await redis.hget(f"{PREFIX}t:{asha.id}", "seen")
        for ticket_id in (asha.id, "nope", "x" * 500):
            with pytest.raises(Exception) as refused:
                await two.get(ticket_id, person("Ravi"))
            assert getattr(refused.value, "code", None) == "not_found"
        assert await redis.hget(f"{PREFIX}t:{asha.id}", "seen") == seen  # not touched


@run
async def test_bots_are_offered_to_a_player_at_another_process_and_a_decline_holds(
        cluster_redis: str) -> None:
    async with redis_of(cluster_redis) as redis:
        tables = Tables()
        leader, other = process(redis, "leader", tables), process(redis, "other", tables)
        assert await leader.book.lead()
        ravi = await join(other, "Ravi", 21.0, players=3, waited=BOT_OFFER + 1)
        await leader.match_now()
        offered = await poll(other, ravi)
        assert offered.offer == {"level": "easy", "rating": 1200}
        read_at = offered.offer_at
        await other.decline(offered)
        # an offer the leader had made from what it read before the decline does not stick
        await leader.book.offer([(offered, {"level": "hard", "rating": 1740}, read_at)])
        assert (await poll(other, ravi)).offer is None
        offered.offer_at -= BOT_OFFER + 1
        await other.book.write([offered], "offer_at")
        await leader.match_now()
        accepted = await other.accept(await poll(other, ravi))
        assert accepted.table == "t1" and tables.made == [(["Ravi"], ["easy", "easy"])]
        assert (await poll(leader, ravi)).table == "t1"


@run
async def test_accepting_bots_while_the_leader_groups_the_ticket_makes_one_table_never_two(
        cluster_redis: str) -> None:
    rng = random.Random(3)
    outcomes: set[str] = set()
    async with redis_of(cluster_redis) as redis:
        for round_ in range(30):
            await redis.flushdb()
            tables = SlowTables()
            leader, other = process(redis, "leader", tables), process(redis, "other", tables)
            asha = await join(other, f"Asha{round_}", waited=BOT_OFFER + 1)
            await leader.match_now()
            offered = await poll(other, asha)
            assert offered.offer is not None
            ravi = await join(leader, f"Ravi{round_}")

            async def after(delay: float, step: Awaitable[object]) -> object:
                await asyncio.sleep(delay)
                return await step

            await asyncio.gather(after(rng.uniform(0, 0.012), other.accept(offered)),
                                 after(rng.uniform(0, 0.012), leader.match_now()))
            assert len(tables.made) == 1, tables.made
            a, r = await poll(leader, asha), await poll(other, ravi)
            assert a.table == "t1"
            assert (r.table == "t1") == (len(tables.made[0][0]) == 2)
            assert await redis.keys(f"{PREFIX}claim:*") == []  # every claim let go
            outcomes.add("people" if r.table else "bots")
        assert outcomes == {"people", "bots"}  # each hand came first in some round


@run
async def test_leave_raced_against_the_leaders_pairing_200_times_is_true_or_refused(
        cluster_redis: str) -> None:
    rng = random.Random(43)
    outcomes = []
    async with redis_of(cluster_redis) as redis:
        tables = SlowTables()
        leader, other = process(redis, "leader", tables), process(redis, "other", tables)
        for round_ in range(200):
            outcomes.append(await race_leave_against_pairing(leader, tables, rng, round_,
                                                             leaver=other))
        assert await redis.keys(f"{PREFIX}claim:*") == []  # every claim let go
    assert {"left", "seated"} <= set(outcomes)


@run
async def test_claims_are_all_or_none_and_one_wins(cluster_redis: str) -> None:
    async with redis_of(cluster_redis) as redis:
        one, two = process(redis, "one", Tables()), process(redis, "two", Tables())
        a, b, c, d = [await join(one, name) for name in ("A", "B", "C", "D")]
        won = await asyncio.gather(one.book.claim([[a, b]]), two.book.claim([[b, c]]))
        assert sum(claims[0] is not None for claims in won) == 1
        group, claim = ([a, b], won[0][0]) if won[0][0] is not None else ([b, c], won[1][0])
        assert claim is not None and await two.book.claim([[b]]) == [None]
        await two.book.release([(group, "someone else's")])  # only its holder lets it go
        assert await two.book.claim([[b]]) == [None]
        await one.book.release([(group, claim)])
        # in one pipeline, in order: the second group finds b claimed by the first
        first, second, third = await two.book.claim([[b], [b, d], [d]])
        assert first is not None and second is None and third is not None
        await one.leave(c)
        assert await one.book.claim([[c]]) == [None]  # gone
        a.table = "t9"
        await one.book.write([a], "table")
        assert await one.book.claim([[a]]) == [None]  # matched already


@run
async def test_when_the_leader_dies_another_process_leads(cluster_redis: str) -> None:
    async with redis_of(cluster_redis) as redis:
        lease = 0.4
        tables = Tables()
        queues = {name: process(redis, name, tables, lease) for name in ("first", "second")}
        for q in queues.values():
            q.start()
        try:
            a, b = await join(queues["first"], "Asha"), await join(queues["second"], "Ravi")

            async def both_seated() -> list[Ticket] | None:
                seen = [await poll(queues["second"], a), await poll(queues["first"], b)]
                return seen if all(t.table for t in seen) else None

            seen = await wait_until_async(both_seated, 10, "the leader to pair Asha and Ravi")
            assert [t.table for t in seen] == ["t1", "t1"]
            leading = await redis.get(LEADER)
            leader = queues[leading]
            other_name, other = next(x for x in queues.items() if x[0] != leading)
            assert leader._task is not None
            leader._task.cancel()  # dies: no renewal, no resignation
            died = asyncio.get_running_loop().time()
            c, d = await join(leader, "Chandra"), await join(other, "Dev")
            while (await poll(other, c)).table is None:
                assert asyncio.get_running_loop().time() - died < 3 * lease
                await asyncio.sleep(0.05)
            assert (await poll(leader, d)).table == "t2"
            assert await redis.get(LEADER) == other_name
            assert not await leader.book.lead()  # the old leader, back, does not take it back
        finally:
            for q in queues.values():
                await q.stop()


@run
async def test_a_leader_with_nothing_new_passes_once_a_second(cluster_redis: str) -> None:
    async with redis_of(cluster_redis) as redis:
        tables = Tables()
        leader, other = process(redis, "leader", tables), process(redis, "other", tables)
        assert await leader.book.due()
        assert not await leader.book.due()  # nothing written since
        asha = await join(other, "Asha")
        assert await leader.book.due() and not await leader.book.due()
        await poll(other, asha)  # a poll is no news
        assert not await leader.book.due()
        await asyncio.sleep(QUIET_PASS)
        assert await leader.book.due()  # time alone: windows widen, offers fall due
        ravi = await join(other, "Ravi")
        assert await leader.book.due() and await leader.match_now() == 1
        # a matched ticket is read for its page's polls only, and dropped once stale
        ravi.seen -= STALE + 1
        await other.book.write([ravi], "seen")
        assert await leader.book.due() and await leader.match_now() == 0
        assert [t.player.name for t in await leader.book.tickets()] == ["Asha"]


@run
async def test_a_table_the_matcher_could_not_write_is_not_believed_by_its_next_pass(
        cluster_redis: str) -> None:
    async with redis_of(cluster_redis) as redis:
        leader, other = process(redis, "leader", Tables()), process(redis, "other", Tables())
        asha = await join(other, "Asha")
        for _ in range(2):  # read whole, then only what changes
            (read,) = await leader.book.tickets()
            read.table = "phantom"  # seated, then writing it failed (Redis away a moment)
        (again,) = await leader.book.tickets()
        assert again.table is None and again.id == asha.id


@run
async def test_leftovers_expire_and_stale_tickets_are_dropped(cluster_redis: str) -> None:
    async with redis_of(cluster_redis) as redis:
        leader, other = process(redis, "leader", Tables()), process(redis, "other", Tables())
        asha = await join(other, "Asha")
        for key in (f"{PREFIX}t:{asha.id}", f"{PREFIX}player:{asha.player.id}"):
            assert 0 < await redis.pttl(key) <= KEEP * 1000
        await other.leave(asha)
        assert await redis.keys(f"{PREFIX}*") == [STIR]  # the count of changes, which lapses
        assert 0 < await redis.pttl(STIR) <= KEEP * 1000
        ravi = await join(other, "Ravi")
        assert await leader.match_now() == 0  # read whole once; after, only what changes
        ravi.seen -= STALE + 1  # its page was closed
        await other.book.write([ravi], "seen")
        dev = await join(other, "Dev", players=3)
        await redis.delete(f"{PREFIX}t:{dev.id}")  # as if it lapsed
        await leader.match_now()
        assert await leader.book.tickets() == [] and await redis.scard(IDS) == 0
        with pytest.raises(Exception) as gone:
            await poll(other, ravi)
        assert getattr(gone.value, "code", None) == "not_found"


@run
async def test_redis_away_is_cluster_down() -> None:
    redis = Redis.from_url(f"redis://127.0.0.1:{free_port()}/0", decode_responses=True,
                           socket_connect_timeout=0.5, socket_timeout=0.5)
    try:
        q = process(redis, "alone", Tables())
        with pytest.raises(ClusterDown):
            await join(q, "Asha")
        with pytest.raises(ClusterDown):
            await q.get("abc", person("Asha"))
        with pytest.raises(ClusterDown):
            await q.book.lead()
        await q.stop()  # leaving needs no Redis
    finally:
        await redis.aclose()
