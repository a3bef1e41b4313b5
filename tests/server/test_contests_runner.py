"""The events' runner on a store, without a server (issue 30): an event's life follows its
clock, each step once; only the process holding an event's lease pairs it, and another takes
over when that lease lapses; a pairing never stored is taken back; an entrant a bot finished
two matches for in a row is paused; a match's result is each seat's place, partners sharing."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

from fives.contests.schedule import parse_schedule
from fives.contests.swiss import Board, Bye, SwissMatch, swiss_standings
from fives.core.games import Config
from fives.core.state import State
from fives.server.contests import Contests, arena_of, event_result, swiss_of
from fives.server.messages import ClientError
from fives.server.meta import Seat, TableMeta
from fives.store.events import SITE, StoredEntrant, StoredEvent
from fives.store.sqlite import SqliteStore

META = {"title": "Evening", "game": "block", "players": 2, "teams": False, "target": 10,
        "minutes": 30, "rated": False}


class Tables:
    """The tables a runner opens and takes back, by name."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.opened: list[tuple[str, list[str]]] = []
        self.withdrawn: list[str] = []
        self.seeds: dict[str, int | None] = {}

    async def open(self, event: StoredEvent, entrants: Sequence[StoredEntrant],
                   seed: int | None) -> tuple[str, list[str]]:
        table_id = f"{self.prefix}{len(self.opened) + 1}"
        self.opened.append((table_id, [e.player for e in entrants]))
        self.seeds[table_id] = seed
        return table_id, ["" if e.bot else f"tok-{e.player}" for e in entrants]

    async def withdraw(self, table_id: str) -> None:
        self.withdrawn.append(table_id)


def _runner(store: SqliteStore, name: str) -> tuple[Contests, Tables]:
    tables = Tables(name)
    return Contests(store, tables.open, tables.withdraw, owner=name, lease=15.0), tables


async def _arena(store: SqliteStore, players: Sequence[str], starts: float = 100.0) -> None:
    await store.create_event(StoredEvent("e1", "arena", META, "p0", 1.0, starts))
    for n, player in enumerate(players):
        await store.join_event(StoredEntrant("e1", player, player.upper(), 2.0 + n))


def _finished(players: int, teams: bool = False, seed: int = 3) -> State:
    rng = random.Random(seed)
    state = State(Config.make("block", players, teams=teams or None, target=10))
    while not state.over:
        state.deal_next(rng)
        while state.round_end is None:
            state.play(rng.choice(state.legal_actions()))
    return state


def test_an_arena_follows_its_clock_and_each_step_happens_once(tmp_path: Path) -> None:
    async def body() -> None:
        store = SqliteStore(tmp_path / "f.sqlite3")
        await _arena(store, ["a", "b"])
        a, tables = _runner(store, "a")
        b, _ = _runner(store, "b")
        await a.tick(99.0)
        assert (await store.event("e1")).status == "scheduled"  # type: ignore[union-attr]
        assert tables.opened == []
        await asyncio.gather(a.tick(100.0), b.tick(100.0))
        assert (await store.event("e1")).status == "running"  # type: ignore[union-attr]
        games = await store.event_games("e1")
        assert len(games) == 1 and sorted(games[0].players) == ["a", "b"]
        assert games[0].tokens == {"a": "tok-a", "b": "tok-b"}
        await a.tick(100.0 + 30 * 60)  # its end: finished, nobody paired again
        over = await store.event("e1")
        assert over is not None and over.status == "finished" and over.ended == 1900.0
        await store.close()

    asyncio.run(body())


def test_only_the_lease_holder_pairs_and_another_takes_over_when_it_lapses(
        tmp_path: Path) -> None:
    async def body() -> None:
        store = SqliteStore(tmp_path / "f.sqlite3")
        await _arena(store, ["a", "b", "c", "d"])
        first, first_tables = _runner(store, "x")
        second, second_tables = _runner(store, "y")
        await store.set_paused("e1", "c", True)
        await store.set_paused("e1", "d", True)
        await first.tick(100.0)  # x holds the lease till 115 and pairs a with b
        assert [p for _, p in first_tables.opened] == [["a", "b"]]
        await store.set_paused("e1", "c", False)
        await store.set_paused("e1", "d", False)
        await second.tick(110.0)  # c and d are free, but the event is x's
        assert second_tables.opened == []
        await second.tick(116.0)  # x went quiet: its lease lapsed at 115
        assert [p for _, p in second_tables.opened] == [["c", "d"]]
        stored = {g.table_id: g.players for g in await store.event_games("e1")}
        assert stored == {"x1": ["a", "b"], "y1": ["c", "d"]}
        await store.close()

    asyncio.run(body())


def test_a_pairing_the_store_refuses_is_taken_back(tmp_path: Path) -> None:
    async def body() -> None:
        store = SqliteStore(tmp_path / "f.sqlite3")
        await _arena(store, ["a", "b"])
        runner, tables = _runner(store, "x")
        event = await store.event("e1")
        assert event is not None
        await store.advance_event("e1", "scheduled", "running", 100.0)
        await store.claim_event("e1", "x", 0.0, 15.0)  # a lease that lapsed long ago ...
        assert await store.claim_event("e1", "y", 100.0, 15.0)  # ... and y holds it now
        await runner._pair(await arena_of(store, event), 101.0)
        assert tables.withdrawn == ["x1"] and await store.event_games("e1") == []
        await store.close()

    asyncio.run(body())


def test_nobody_meets_their_last_opponent_again_at_once(tmp_path: Path) -> None:
    async def body() -> None:
        store = SqliteStore(tmp_path / "f.sqlite3")
        await _arena(store, ["a", "b", "c"])
        runner, tables = _runner(store, "x")
        await runner.tick(100.0)
        (table, pair), = tables.opened
        meta = TableMeta(Config.make("block", 2, target=10),
                         [Seat("human", player=p) for p in pair], seed=1, event="e1")
        await runner.match_over(table, meta, _finished(2))
        await runner.tick(101.0)
        # three free again: the one who waited meets one of the two, never those two again
        (_, second), = tables.opened[1:]
        assert set(second) != set(pair)
        await store.close()

    asyncio.run(body())


def test_an_entrant_a_bot_finished_two_matches_for_is_paused(tmp_path: Path) -> None:
    async def body() -> None:
        store = SqliteStore(tmp_path / "f.sqlite3")
        await _arena(store, ["a", "b", "c"])
        runner, tables = _runner(store, "x")
        await store.set_paused("e1", "c", True)
        for k, (other, idle) in enumerate((("b", "c"), ("c", "b"))):
            await store.set_paused("e1", other, False)
            await store.set_paused("e1", idle, True)
            await runner.tick(100.0 + k)
            table, pair = tables.opened[-1]
            assert sorted(pair) == sorted(["a", other])
            seats = [Seat("human", player=p) for p in pair]
            seats[pair.index("a")].away = True  # a left; a bot finished it for them
            meta = TableMeta(Config.make("block", 2, target=10), seats, seed=1, event="e1")
            await runner.match_over(table, meta, _finished(2, seed=k))
            paused = {e.player: e.paused for e in await store.entrants("e1")}
            assert paused == {"a": k == 1, other: False, idle: True}
        await store.set_paused("e1", "b", False)
        await runner.tick(105.0)
        assert [sorted(p) for _, p in tables.opened[2:]] == [["b", "c"]]  # a is paused
        await store.close()

    asyncio.run(body())


def test_a_matchs_result_is_each_seats_place_and_partners_share_it() -> None:
    state = _finished(4, teams=True)
    meta = TableMeta(state.config, [Seat("human", player=f"p{i}") for i in range(4)], seed=1)
    result = event_result(meta, state)
    winner = state.winner
    assert winner is not None
    assert result["places"] == [1 if state.config.side_of(s) == winner else 2 for s in range(4)]
    assert result["places"][0] == result["places"][2] and result["places"][1] == result["places"][3]
    assert result["scores"][0] == result["scores"][2] and result["away"] == [False] * 4


def test_the_sites_next_scheduled_arena_is_made_once_by_every_process(tmp_path: Path) -> None:
    [hourly] = parse_schedule('{"arenas": [{"key": "hourly", "title": "Hourly", "game": '
                              '"block", "players": 2, "minutes": 30, "every": "hour", '
                              '"at": ":00"}]}')

    async def body() -> None:
        store = SqliteStore(tmp_path / "f.sqlite3")
        runners = [Contests(store, Tables(n).open, Tables(n).withdraw, owner=n,
                            scheduled=[hourly]) for n in ("x", "y")]
        now = 1_800_000_000.0  # 2027-01-15 08:00 UTC
        await asyncio.gather(*(r.tick(now + 1) for r in runners))
        coming = await store.events(["scheduled"])
        assert [(e.id, e.starts, e.creator) for e in coming] == [
            ("s-hourly-202701150900", now + 3600, SITE)]
        assert coming[0].meta["title"] == "Hourly" and coming[0].listed
        # once it has started, the next one is made
        for r in runners:
            await r.tick(now + 3600)
        assert [e.id for e in await store.events(["scheduled", "running"])] == [
            "s-hourly-202701150900", "s-hourly-202701151000"]
        await store.close()

    asyncio.run(body())


def test_a_duplicate_swiss_deals_alike_pairs_without_rematch_and_stands_as_stored(
        tmp_path: Path) -> None:
    """Seven entrants (a bot among them), three rounds: every table of a round gets the same
    deals, nobody meets anyone twice, a bye once at most, and after every round the standings
    equal those computed from the stored rows; after the last round the event is finished."""
    async def body() -> None:
        store = SqliteStore(tmp_path / "f.sqlite3")
        meta = {**META, "rounds": 3, "seed": 99, "target": 10}
        await store.create_event(StoredEvent("s1", "swiss", meta, "p0", 1.0, 100.0))
        names = ["a", "b", "c", "d", "e", "f"]
        for n, player in enumerate(names):
            await store.join_event(StoredEntrant("s1", player, player.upper(), 2.0 + n))
        await store.join_event(StoredEntrant("s1", "bot-hard", "hard", 9.0, bot=True))
        runner, tables = _runner(store, "x")
        met: set[frozenset[str]] = set()
        byes: list[str] = []
        now = 100.0
        for number in (1, 2, 3):
            await runner.tick(now)
            games = [g for g in await store.event_games("s1") if g.round == number]
            pairs = [g for g in games if len(g.players) == 2]
            assert len(pairs) == 3 and len(games) == 4  # three tables and a bye
            assert len({tables.seeds[g.table_id] for g in pairs}) == 1  # the same deals
            byes += [g.players[0] for g in games if len(g.players) == 1]
            for k, game in enumerate(pairs):
                pair = frozenset(game.players)
                assert pair not in met
                met.add(pair)
                assert game.tokens == {p: f"tok-{p}" for p in game.players if p != "bot-hard"}
                seats = [Seat("bot", "hard") if p == "bot-hard" else Seat("human", player=p)
                         for p in game.players]
                meta_t = TableMeta(Config.make("block", 2, target=10), seats, seed=1, event="s1")
                await runner.match_over(game.table_id, meta_t, _finished(2, seed=number * 10 + k))
            await runner.tick(now + 1)  # the round is done: the next one paired at once
            stored = await swiss_of(store, (await store.event("s1")))  # type: ignore[arg-type]
            rows = await store.event_games("s1")
            done = [g for g in rows if g.result and not g.result.get("bye")]
            recomputed = swiss_standings(
                [*names, "bot-hard"],
                [SwissMatch(g.round, g.players[0], g.players[1],
                            tuple(Board(i, m) for i, m in enumerate(g.result["boards"])),
                            Fraction(1) if g.result["places"][0] < g.result["places"][1]
                            else Fraction(1, 2) if g.result["places"][0] == g.result["places"][1]
                            else Fraction(0)) for g in done if g.result is not None],
                [Bye(g.round, g.players[0]) for g in rows if g.result and g.result.get("bye")])
            assert [(s.entrant, s.points, s.buchholz, s.margin) for s in stored.standings] == [
                (s.entrant, s.points, s.buchholz, s.margin) for s in recomputed]
            now += 10
        assert len(byes) == len(set(byes)) == 3
        over = await store.event("s1")
        assert over is not None and over.status == "finished"
        await store.close()

    asyncio.run(body())


def test_an_event_whose_tables_are_refused_holds_no_other_back(tmp_path: Path) -> None:
    """The server full for one arena's table (a ClientError from the manager): that arena
    waits for the next beat, the other is paired, and the runner goes on."""
    async def body() -> None:
        store = SqliteStore(tmp_path / "f.sqlite3")
        for event_id in ("e1", "e2"):
            await store.create_event(StoredEvent(event_id, "arena", META, "p0", 1.0, 100.0))
            for player in ("a", "b"):
                await store.join_event(StoredEntrant(event_id, player, player, 2.0))
        tables = Tables("x")

        async def choosy(event: StoredEvent, entrants: Sequence[StoredEntrant],
                         seed: int | None) -> tuple[str, list[str]]:
            if event.id == "e1":
                raise ClientError("server_full")
            return await tables.open(event, entrants, seed)

        runner = Contests(store, choosy, tables.withdraw, owner="x")
        await runner.tick(100.0)
        assert await store.event_games("e1") == []
        assert [g.players for g in await store.event_games("e2")] == [["a", "b"]]
        await store.close()

    asyncio.run(body())
