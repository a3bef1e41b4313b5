"""Nothing lost: a real server process is killed in the middle of a round and started again on
the same SQLite file; every unfinished table comes back where it was, seats are reclaimable with
their tokens, a waiting table can still be joined, and the turn clock runs again."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys

import httpx
import pytest

from .harness import SeatClient, create_table, play_to_end, serve


async def my_choice(c: SeatClient) -> dict:
    return await c.wait(
        lambda m: m["type"] == "state" and m["view"] is not None and m["view"]["turn"] == c.seat
        and len(m["view"]["legal"]) > 1 and m["summary"] is None, 15)


@pytest.mark.slow
def test_kill_and_restart_in_the_middle_of_a_round(tmp_path) -> None:
    db = str(tmp_path / "fives.sqlite3")
    with serve(db) as (proc, base):
        t1 = create_table(base, game="all-fives", players=2, name="Asha", turn_time=0, seed=12)
        t2 = create_table(base, game="fives-and-threes", players=2, name="Asha", turn_time=0,
                          seats=[{"kind": "human"}, {"kind": "human"}])
        t3 = create_table(base, game="muggins", players=2, name="Cy", turn_time=3, seed=5)

        async def before() -> tuple[dict, dict]:
            a = await SeatClient(base, t1["table"], t1["token"]).connect()
            rng = random.Random(3)
            for _ in range(3):
                st = await a.wait(
                    lambda m: m["type"] == "state" and m["view"] is not None
                    and m["view"]["turn"] == 0 and bool(m["view"]["legal"]), 15,
                    len(a.messages) - 1)
                await a.send({"type": "act", "action": rng.choice(st["view"]["legal"]),
                              "n": st["n"]})
                await a.wait(lambda m, n=st["n"]: m["type"] == "state" and m["n"] > n, 15)

            def settled(m: dict, n: int = st["n"]) -> bool:
                """The bot has answered: the table waits for the person again (a choice of
                their own, not a draw or a pass the server makes for them), or the round is
                over."""
                if m["type"] != "state" or m["n"] <= n:
                    return False
                view = m["view"]
                return view["end"] is not None or (
                    view["turn"] == 0 and view["legal"] not in ([], ["draw"], ["pass"]))

            await a.wait(settled, 15)
            kept = a.state
            kept["newest"] = next(m["event"] for m in reversed(a.messages)
                                  if m["type"] == "state" and m["event"] is not None)
            c = await SeatClient(base, t3["table"], t3["token"]).connect()
            clocked = await my_choice(c)
            await a.close()
            await c.close()
            return kept, clocked

        kept, clocked = asyncio.run(before())
        assert kept["view"]["end"] is None and kept["n"] > 3
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)

    with serve(db) as (_proc, base):
        lobby = {t["id"] for t in httpx.get(f"{base}/api/tables", timeout=5).json()["tables"]}
        assert {t1["table"], t3["table"]} <= lobby
        assert t2["table"] not in lobby  # private: it comes back, reached by its invite

        async def after() -> None:
            # watched from the start: its clock runs again from the restart (3 s a turn)
            w = await SeatClient(base, t3["table"]).connect()
            # the seat comes back with its token, exactly where it was
            a = await SeatClient(base, t1["table"], t1["token"]).connect()
            assert a.seat == 0
            st = a.state
            assert st["n"] == kept["n"]
            for key in ("hand", "hand_sizes", "stock", "scores", "history", "layout", "turn", "legal"):
                assert st["view"][key] == kept["view"][key], key
            # and it is told the newest play again, with what it scored (the reload's banner)
            assert st["event"] == kept["newest"]
            # and the round plays on to its end
            last = await play_to_end([a], random.Random(4), rounds=1, timeout=60)
            assert last["summary"] is not None
            # a waiting table can still be joined, and then starts
            b = await SeatClient(base, t2["table"], invite=t2["invite"]).connect()
            await b.send({"type": "join", "seat": 1, "name": "Bea"})
            await b.wait(lambda m: m["type"] == "joined")
            await b.wait(lambda m: m["type"] == "state" and m["info"]["status"] == "playing")
            # the clock resumed: the absent player's turn is played for them (the first time
            # out seen; on a busy machine the round above outlasts a few of them)
            ev = await w.wait(lambda m: m["type"] == "state" and m["event"] is not None
                              and m["event"].get("how") == "timeout", 10, 0)
            assert ev["event"]["seat"] == 0 and ev["n"] > clocked["n"]
            for c in (a, b, w):
                await c.close()

        asyncio.run(after())


def test_serve_reports_a_busy_port_without_traceback(tmp_path) -> None:
    db = str(tmp_path / "fives.sqlite3")
    with serve(db) as (_proc, base):
        port = base.rsplit(":", 1)[1]
        out = subprocess.run(
            [sys.executable, "-m", "fives.cli.main", "serve", "--port", port, "--db", db],
            capture_output=True, text=True, timeout=30,
        )
        assert out.returncode == 2
        assert out.stderr.startswith("error:") and "Traceback" not in out.stderr
        assert "in use" in out.stderr


def test_a_second_server_on_the_same_database_refuses_to_start(tmp_path) -> None:
    """Two servers on one SQLite file forked silently (two people both got seat 1)."""
    from fives.store import SqliteStore, StoreError

    db = str(tmp_path / "fives.sqlite3")
    with serve(db) as (proc, base):
        out = subprocess.run(
            [sys.executable, "-m", "fives.cli.main", "serve", "--port", "0", "--db", db],
            capture_output=True, text=True, timeout=30,
        )
        assert out.returncode == 2 and "Traceback" not in out.stderr
        assert out.stderr.startswith("error:") and "in use by another fives server" in out.stderr
        assert f"process {proc.pid}" in out.stderr
        with pytest.raises(StoreError, match="in use"):
            SqliteStore(db)
        SqliteStore(db, exclusive=False).close_now()  # reading alongside is fine
        assert httpx.get(f"{base}/healthz", timeout=5).status_code == 200
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
    # a server that died (even killed) leaves the database free
    with serve(db) as (_proc, base):
        assert httpx.get(f"{base}/healthz", timeout=5).status_code == 200
