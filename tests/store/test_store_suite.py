"""The Store interface, the same tests on SQLite and on PostgreSQL: a round trip, the
finished-match listing, the one transaction that ends a match, migrations recorded once, and
fencing (a write with a stale owner's token is refused)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from fives.store import StaleOwner, Store, StoredAction, StoreError, open_store
from fives.store.migrations import migrations
from fives.store.open import upgrade

META = {"game": "block", "seats": []}


def run(store_url: str, body: Callable[[Store], Awaitable[Any]]) -> Any:
    """``body`` with the store at ``store_url`` open, closed afterwards."""

    async def go() -> Any:
        store = open_store(store_url)
        await store.start()
        try:
            return await body(store)
        finally:
            await store.close()

    return asyncio.run(go())


def test_a_table_round_trips(store_url: str) -> None:
    async def write(store: Store) -> None:
        await store.create_table("t1", META, 1.0)
        await store.add_round("t1", 0, 1, [["0-0"], ["1-1"]], ["2-2"], 2.0)
        await store.add_action("t1", 0, StoredAction(2, 1, "1-1", "player", 3.0))
        await store.add_action("t1", 0, StoredAction(3, 0, "pass", "forced", 4.0))
        await store.update_meta("t1", {"game": "block", "seats": [1], "name": "आशा"})

    async def read(store: Store) -> None:
        [table] = await store.unfinished()
        assert table.meta == {"game": "block", "seats": [1], "name": "आशा"}
        assert table.rounds[0].hands == [["0-0"], ["1-1"]]
        assert table.rounds[0].stock == ["2-2"]
        assert [(a.seq, a.seat, a.action, a.how) for a in table.rounds[0].actions] == [
            (2, 1, "1-1", "player"), (3, 0, "pass", "forced")]
        await store.finish("t1", {"game": "block"}, 5.0)
        assert await store.unfinished() == []
        [over] = await store.finished()
        assert over.record == {"game": "block"} and over.finished == 5.0
        assert await store.load("nope") is None

    run(store_url, write)
    run(store_url, read)  # read back by another connection (another process, in effect)


def test_the_action_that_ends_a_match_finishes_it_in_one_transaction(store_url: str) -> None:
    async def body(store: Store) -> None:
        await store.create_table("t1", META, 1.0)
        await store.add_round("t1", 0, 0, [["0-0"], ["1-1"]], [], 2.0)
        await store.add_action("t1", 0, StoredAction(2, 0, "0-0", "player", 3.0),
                               finished={"game": "block", "done": True})
        table = await store.load("t1")
        assert table is not None and table.status == "over" and table.finished == 3.0
        assert table.record == {"game": "block", "done": True}
        # the same action again (a replayed write) is refused, and changes nothing
        with pytest.raises(StoreError):
            await store.add_action("t1", 0, StoredAction(2, 0, "0-0", "player", 3.0))

    run(store_url, body)


def test_listed_matches_leave_out_private_ones_newest_first(store_url: str) -> None:
    async def body(store: Store) -> None:
        for i, private in enumerate([False, True, False]):
            await store.create_table(f"t{i}", {**META, "private": private}, float(i))
            await store.finish(f"t{i}", {"n": i}, 10.0 + i)
        await store.create_table("open", META, 9.0)
        assert [t.id for t in await store.finished()] == ["t2", "t1", "t0"]
        assert [t.id for t in await store.finished(listed_only=True)] == ["t2", "t0"]
        assert [t.id for t in await store.finished(limit=1, offset=1)] == ["t1"]

    run(store_url, body)


def test_a_table_set_aside_is_no_longer_unfinished(store_url: str) -> None:
    async def body(store: Store) -> None:
        await store.create_table("t1", META, 1.0)
        await store.create_table("t2", META, 2.0)
        await store.set_aside("t1", "expired")
        assert await store.unfinished_ids() == ["t2"]
        loaded = await store.load("t1")
        assert loaded is not None and loaded.status == "expired"

    run(store_url, body)


def test_a_stale_owners_writes_are_refused_after_a_takeover(store_url: str) -> None:
    """Fencing: the first owner holds token 1; a takeover claims token 2; from then on every
    write with token 1 is refused (StaleOwner) and leaves the table as the new owner wrote it."""

    async def body(store: Store) -> None:
        await store.create_table("t1", META, 1.0, fence=1)
        await store.add_round("t1", 0, 0, [["0-0"], ["1-1"]], ["2-2"], 2.0, fence=1)
        await store.add_action("t1", 0, StoredAction(2, 0, "0-0", "player", 3.0), fence=1)
        assert await store.claim("t1") == 2  # the new owner
        assert await store.claim("nope") is None
        writes: list[Callable[[], Awaitable[None]]] = [
            lambda: store.add_action("t1", 0, StoredAction(3, 1, "1-1", "player", 4.0), fence=1),
            lambda: store.add_action("t1", 0, StoredAction(3, 1, "1-1", "player", 4.0),
                                     finished={"x": 1}, fence=1),
            lambda: store.update_meta("t1", {"stale": True}, fence=1),
            lambda: store.add_round("t1", 1, 0, [], [], 5.0, fence=1),
            lambda: store.finish("t1", {"x": 1}, 5.0, fence=1),
            lambda: store.set_aside("t1", "abandoned", fence=1),
        ]
        for write in writes:
            with pytest.raises(StaleOwner):
                await write()
        table = await store.load("t1")
        assert table is not None and table.fence == 2 and table.status == "open"
        assert table.meta == META and len(table.rounds) == 1
        assert [a.seq for a in table.rounds[0].actions] == [2]
        await store.add_action("t1", 0, StoredAction(3, 1, "1-1", "player", 4.0), fence=2)
        assert [a.seq for a in (await store.load("t1")).rounds[0].actions] == [2, 3]  # type: ignore[union-attr]

    run(store_url, body)


def test_a_takeover_waits_for_a_write_under_way_and_sees_it(store_url: str) -> None:
    """Many writes by the old owner racing one claim: every write the store accepted is in
    what the new owner loads right after its claim, and none lands after it."""

    async def body(store: Store) -> None:
        await store.create_table("t1", META, 1.0, fence=1)
        await store.add_round("t1", 0, 0, [], [], 2.0, fence=1)
        accepted: list[int] = []

        async def old_owner() -> None:
            for seq in range(2, 100_000):
                try:
                    await store.add_action("t1", 0, StoredAction(seq, 0, "0-0", "bot", 3.0),
                                           fence=1)
                except StaleOwner:
                    return
                accepted.append(seq)
                await asyncio.sleep(0)

        async def new_owner() -> list[int]:
            while len(accepted) < 20:
                await asyncio.sleep(0)
            assert await store.claim("t1") == 2
            loaded = await store.load("t1")
            assert loaded is not None
            return [a.seq for a in loaded.rounds[0].actions]

        _, seen = await asyncio.gather(old_owner(), new_owner())
        assert seen == accepted and len(accepted) < 1000
        final = await store.load("t1")
        assert final is not None and [a.seq for a in final.rounds[0].actions] == accepted

    run(store_url, body)


def test_migrations_are_applied_once_and_recorded(store_url: str) -> None:
    dialect = "postgresql" if store_url.startswith("postgresql") else "sqlite"
    names = [m.label for m in migrations(dialect)]
    assert names[:3] == ["0001_tables", "0002_fencing", "0003_analyses"]
    # 0001-0099: the tables and matches; 0100 and up: the player store
    assert [m.label for m in migrations(dialect) if m.version >= 100] == [
        "0100_players", "0101_spent_secrets", "0102_name_looks", "0103_puzzle_ratings", "0104_events"]
    assert upgrade(store_url) == names
    assert upgrade(store_url) == []

    async def body(store: Store) -> None:
        assert await store.migrate() == []

    run(store_url, body)


def test_both_databases_have_the_same_migrations() -> None:
    assert [m.label for m in migrations("sqlite")] == [m.label for m in migrations("postgresql")]


def test_an_unknown_database_is_a_clear_error() -> None:
    with pytest.raises(StoreError, match="unknown database mysql://"):
        open_store("mysql://x/y")


def test_archiving_drops_only_long_finished_matches_rows_and_keeps_their_records(
        store_url: str) -> None:
    """A finished match's deals and actions go once it is older than the cut-off (its record
    keeps them); a newer one, an unfinished one and a set-aside one keep theirs; archiving
    again finds nothing more."""
    async def body(store: Store) -> None:
        for table_id in ("old", "new", "open", "aside"):
            await store.create_table(table_id, META, 1.0)
            await store.add_round(table_id, 0, 1, [["0-0"], ["1-1"]], ["2-2"], 2.0)
            await store.add_action(table_id, 0, StoredAction(2, 1, "1-1", "player", 3.0))
        await store.finish("old", {"game": "block", "n": 1}, 10.0)
        await store.finish("new", {"game": "block", "n": 2}, 100.0)
        await store.set_aside("aside", "abandoned")
        assert await store.archive(50.0) == 1
        assert await store.archive(50.0) == 0
        old = await store.load("old")
        assert old is not None and old.rounds == [] and old.record == {"game": "block", "n": 1}
        assert old.status == "over" and old.finished == 10.0
        for kept in ("new", "open", "aside"):
            table = await store.load(kept)
            assert table is not None and len(table.rounds[0].actions) == 1, kept
        assert [t.id for t in await store.finished()] == ["new", "old"]

    run(store_url, body)
