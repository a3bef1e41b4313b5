"""The store: a round trip through SQLite, and a failing store that refuses an action cleanly
(nothing applied, nothing broadcast, a clear error)."""

from __future__ import annotations

import asyncio

from fives.store import SqliteStore, StoredAction, StoreError

from .harness import SeatClient, create_table, fast_settings, running_server


def test_sqlite_round_trip(tmp_path) -> None:
    path = tmp_path / "s.sqlite3"
    store = SqliteStore(path)
    store.create_table("t1", {"game": "block", "seats": []}, 1.0)
    store.add_round("t1", 0, 1, [["0-0"], ["1-1"]], ["2-2"], 2.0)
    store.add_action("t1", 0, StoredAction(2, 1, "1-1", "player", 3.0))
    store.add_action("t1", 0, StoredAction(3, 0, "pass", "forced", 4.0))
    store.update_meta("t1", {"game": "block", "seats": [1]})
    store.close()
    again = SqliteStore(path)
    [table] = again.unfinished()
    assert table.meta["seats"] == [1]
    assert table.rounds[0].hands == [["0-0"], ["1-1"]]
    assert [a.action for a in table.rounds[0].actions] == ["1-1", "pass"]
    again.finish("t1", {"game": "block"}, 5.0)
    assert again.unfinished() == []
    assert again.finished()[0].record == {"game": "block"}
    assert again.load("nope") is None
    again.close()


class FlakyStore(SqliteStore):
    """Writes actions until told to fail."""

    fail = False

    def add_action(self, table_id, round_no, action):  # type: ignore[no-untyped-def]
        if self.fail:
            raise StoreError("disk full")
        super().add_action(table_id, round_no, action)


def test_a_failing_store_refuses_the_action(tmp_path) -> None:
    store = FlakyStore(tmp_path / "f.sqlite3")
    with running_server(fast_settings(str(tmp_path / "unused.sqlite3")), store) as base:
        created = create_table(base, game="all-fives", players=2, name="Asha", seed=3,
                               seats=[{"kind": "human"}, {"kind": "human"}])

        async def go() -> None:
            a = await SeatClient(base, created["table"], created["token"]).connect()
            b = await SeatClient(base, created["table"], invite=created["invite"]).connect()
            await b.send({"type": "join", "seat": 1, "name": "Bea"})
            await b.wait(lambda m: m["type"] == "joined")
            b.seat = 1
            for c in (a, b):
                await c.wait(lambda m: m["type"] == "state" and m["view"] is not None)
            mover = a if a.state["view"]["turn"] == 0 else b
            st = mover.state
            store.fail = True
            start = len(mover.messages)
            await mover.send({"type": "act", "action": st["view"]["legal"][0], "n": st["n"]})
            err = await mover.wait(lambda m: m["type"] == "error", 5, start)
            assert err["code"] == "server"
            await asyncio.sleep(0.2)
            assert mover.state["n"] == st["n"]
            store.fail = False
            await mover.send({"type": "act", "action": st["view"]["legal"][0], "n": st["n"]})
            await mover.wait(lambda m: m["type"] == "state" and m["n"] == st["n"] + 1, 5)
            await a.close()
            await b.close()

        asyncio.run(go())
