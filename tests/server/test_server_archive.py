"""Archiving (issue 13): a finished match's deals and actions are dropped from the store once
it is old (its record keeps them all). The table still opens exactly as it ended, its record
and replay are unchanged, and `fives db archive` reports what it did and refuses bad input."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys

import httpx

from fives.store.open import archive

from .harness import SeatClient, create_table, fast_settings, play_to_end, running_server
from .test_server_fairness import finished_record


def _final_state(base: str, table: str, token: str) -> dict:
    async def go() -> dict:
        c = await SeatClient(base, table, token).connect()
        st = await c.wait(lambda m: m["type"] == "state" and m["result"] is not None, 10)
        await c.close()
        return st

    return asyncio.run(go())


def test_an_archived_match_opens_as_it_ended_with_the_same_record(tmp_path) -> None:
    db = str(tmp_path / "fives.sqlite3")
    with running_server(fast_settings(db)) as base:
        created = create_table(base, game="block", players=2, name="Asha", target=10, seed=4)

        async def play() -> dict:
            c = await SeatClient(base, created["table"], created["token"]).connect()
            last = await play_to_end([c], random.Random(2), timeout=60)
            await c.close()
            return last

        before = asyncio.run(play())
        record = finished_record(base, created["table"])
    assert archive(db, before=0.0) == 0  # nothing finished that long ago
    assert archive(db, before=9e12) == 1
    assert archive(db, before=9e12) == 0
    with running_server(fast_settings(db)) as base:
        after = _final_state(base, created["table"], created["token"])
        for key in ("view", "result", "you"):
            assert after[key] == before[key], key
        assert after["n"] == before["n"]
        assert finished_record(base, created["table"]) == record
        assert httpx.get(f"{base}/api/matches", timeout=5).status_code == 200


def test_the_archive_command_reports_and_refuses_bad_input(tmp_path) -> None:
    db = str(tmp_path / "fives.sqlite3")

    def fives(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "fives.cli.main", "db", *args],
                              capture_output=True, text=True, timeout=60)

    done = fives("archive", "--db", db, "--older-than", "0")
    assert done.returncode == 0 and done.stdout.startswith("0 finished matches archived")
    bad = fives("archive", "--db", db, "--older-than", "-1")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.strip().splitlines()[-1].endswith("--older-than cannot be negative")
    nodb = fives("archive", "--db", "mysql://x/y")
    assert nodb.returncode == 2 and "unknown database mysql://" in nodb.stderr
