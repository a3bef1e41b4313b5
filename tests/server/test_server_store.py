"""The server over a failing store: an action refused cleanly (nothing applied, nothing
broadcast, a clear error); a match's end never half kept; damaged rows set aside. (The store
itself, on every database: tests/store.)"""

from __future__ import annotations

import asyncio
import time

from fives.store import SqliteStore, StoredAction, StoreError

from .harness import SeatClient, create_table, fast_settings, running_server, seat_both


class FlakyStore(SqliteStore):
    """Writes actions until told to fail."""

    fail = False

    async def add_action(self, table_id, round_no, action, finished=None, fence=None):  # type: ignore[no-untyped-def]
        if self.fail:
            raise StoreError("disk full")
        await super().add_action(table_id, round_no, action, finished, fence)


def test_a_failing_store_refuses_the_action(tmp_path) -> None:
    store = FlakyStore(tmp_path / "f.sqlite3")
    with running_server(fast_settings(str(tmp_path / "unused.sqlite3")), store) as base:
        created = create_table(base, game="all-fives", players=2, name="Asha", seed=3,
                               seats=[{"kind": "human"}, {"kind": "human"}])

        async def go() -> None:
            a, b = await seat_both(base, created)
            mover = a if a.state["view"]["turn"] == 0 else b
            st = mover.state
            store.fail = True
            start = len(mover.messages)
            await mover.send({"type": "act", "action": st["view"]["legal"][0], "n": st["n"]})
            err = await mover.wait(lambda m: m["type"] == "error", 5, start)
            assert err["code"] == "server"
            await asyncio.sleep(0.2)  # a while for a wrongly applied action to be told
            assert mover.state["n"] == st["n"]
            store.fail = False
            await mover.send({"type": "act", "action": st["view"]["legal"][0], "n": st["n"]})
            await mover.wait(lambda m: m["type"] == "state" and m["n"] == st["n"] + 1, 5)
            await a.close()
            await b.close()

        asyncio.run(go())


class FinishFailsOnce(SqliteStore):
    """The write that finishes a match fails once (disk full, a crash in between)."""

    failed = False

    async def add_action(self, table_id, round_no, action, finished=None, fence=None):  # type: ignore[no-untyped-def]
        if finished is not None and not self.failed:
            self.failed = True
            raise StoreError("disk full")
        await super().add_action(table_id, round_no, action, finished, fence)

    async def finish(self, table_id, record, ts, fence=None):  # type: ignore[no-untyped-def]
        if not self.failed:
            self.failed = True
            raise StoreError("disk full")
        await super().finish(table_id, record, ts, fence)


def test_a_match_seen_over_is_stored_over(tmp_path) -> None:
    """The last action and the finished match are stored together: when the finishing write
    fails, the action is refused and made again, never half kept (a match left open for ever,
    its record and replay 404)."""
    import random

    import httpx

    from .harness import play_to_end

    store = FinishFailsOnce(tmp_path / "f.sqlite3")
    with running_server(fast_settings(str(tmp_path / "unused.sqlite3")), store) as base:
        created = create_table(base, game="fives-and-threes", players=2, name="Asha", seed=3,
                               target=5, turn_time=0)

        async def go() -> dict:
            c = await SeatClient(base, created["table"], created["token"]).connect()
            last = await play_to_end([c], random.Random(2), timeout=60)
            await c.close()
            return last

        last = asyncio.run(go())
        assert store.failed and last["result"] is not None
        r = httpx.get(f"{base}/api/matches/{created['table']}/record", timeout=5)
        assert r.status_code == 200
        assert r.json()["rounds"][-1]["actions"]


def test_a_match_whose_finish_was_lost_is_finished_at_start(tmp_path) -> None:
    """A database from before: the last action stored, the finish lost in a crash. The match
    is finished when the server starts, and its record and replay are there."""
    import httpx

    from fives.bots.host import play_match
    from fives.bots.ladder import RandomBot
    from fives.core.games import Config
    from fives.core.record import record_of
    from fives.core.state import State
    from fives.core.tiles import Action

    db = tmp_path / "db.sqlite3"
    state = play_match(Config.make("block", 2, target=10), [RandomBot(), RandomBot()], seed=4)
    record = record_of(state)
    store = SqliteStore(db)
    meta = {"game": "block", "players": 2, "teams": False, "target": 10, "rules": {},
            "turn_time": 0.0, "seed": 1, "host": None, "private": False, "invite": None,
            "seats": [{"kind": "bot", "level": "random"}] * 2}
    asyncio.run(store.create_table("lostfinish", meta, 1.0))
    n = 0
    replayed = State(record.config)
    for k, rnd in enumerate(record.rounds):
        n += 1
        asyncio.run(store.add_round("lostfinish", k, rnd.leader,
                                    [[str(t) for t in h] for h in rnd.hands],
                                    [str(t) for t in rnd.stock], 2.0))
        replayed.start_round(rnd.hands, rnd.stock, rnd.leader)
        for text in rnd.actions:
            n += 1
            seat = replayed.turn
            replayed.play(Action.parse(text))
            asyncio.run(store.add_action("lostfinish", k, StoredAction(n, seat, text, "bot", 3.0)))
    store.close_now()
    with running_server(fast_settings(str(db))) as base:
        listed = httpx.get(f"{base}/api/matches", timeout=5).json()["matches"]
        assert [m["id"] for m in listed] == ["lostfinish"]
        r = httpx.get(f"{base}/api/matches/lostfinish/record", timeout=5)
        assert r.status_code == 200 and r.json()["rounds"] == record.to_data()["rounds"]
        assert httpx.get(f"{base}/api/matches/lostfinish/replay", timeout=5).status_code == 200


def test_damaged_rows_are_set_aside_and_the_server_starts(tmp_path) -> None:
    """One damaged row stopped the server from starting. Now each damaged table is logged,
    kept, marked "damaged", and the others play on."""
    import sqlite3

    import httpx

    db = tmp_path / "db.sqlite3"
    with running_server(fast_settings(str(db))) as base:
        good = create_table(base, game="draw", players=2, name="Asha", turn_time=0,
                            private=False, seats=[{"kind": "human"}, {"kind": "human"}])
        ids = [create_table(base, game="draw", players=2, name="Asha", turn_time=0,
                            seed=9)["table"] for _ in range(3)]
        over = create_table(base, game="block", players=2, watch=True, target=10,
                            private=False, seats=[{"kind": "bot", "level": "random"}] * 2)
        deadline = time.monotonic() + 30
        while httpx.get(f"{base}/api/matches/{over['table']}/record", timeout=5).status_code != 200:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE tables SET meta = '{not json' WHERE id = ?", (ids[0],))
        raw.execute("UPDATE rounds SET hands = 'x' WHERE table_id = ?", (ids[1],))
        # JSON, but a deal the rules refuse (the same tile twice)
        raw.execute("""UPDATE rounds SET hands = '[["0-0"], ["0-0"]]' WHERE table_id = ?""",
                    (ids[2],))
        raw.execute("INSERT INTO tables (id, created, status, meta, record, finished) "
                    "VALUES ('brokenover', 1, 'over', '[', NULL, 5)")
    with running_server(fast_settings(str(db))) as base:
        assert httpx.get(f"{base}/healthz", timeout=5).json()["ok"]
        lobby = {t["id"] for t in httpx.get(f"{base}/api/tables", timeout=5).json()["tables"]}
        assert good["table"] in lobby
        matches = httpx.get(f"{base}/api/matches", timeout=5).json()["matches"]
        assert [m["id"] for m in matches] == [over["table"]]
        for table in [*ids, "brokenover"]:
            r = httpx.get(f"{base}/api/matches/{table}/record", timeout=5)
            assert r.status_code == 404 and "Traceback" not in r.text
    store = SqliteStore(db)
    kept = {row: store._query("SELECT status FROM tables WHERE id = ?", (row,))[0][0]
            for row in ids}
    store.close_now()
    assert kept == {table: "damaged" for table in ids}
