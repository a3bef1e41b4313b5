"""The analysis of a finished match on the site (issue 28): asked for over HTTP, 202 while it
is computed, then 200 with its document, computed once and kept; one waiting analysis per
requester; the private match's invite needed as for its replay; bad input one translated line;
a queued analysis survives a restart."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from fives.server.analyses import Analyst, Busy, Full
from fives.store import SqliteStore

from .harness import SeatClient, create_table, fast_settings, running_server


def finished_match(base: str, private: bool = False) -> tuple[str, str | None]:
    """A short match of two random bots, played to its end: its table and invite."""
    created = create_table(base, game="all-fives", players=2, watch=True, target=60,
                           turn_time=0, private=private,
                           seats=[{"kind": "bot", "level": "random"}] * 2)
    table, invite = created["table"], created.get("invite")

    async def go() -> None:
        c = await SeatClient(base, table, invite=invite).connect()
        await c.wait(lambda m: m["type"] == "state" and m["result"] is not None, 60)
        await c.close()

    asyncio.run(go())
    return table, invite


def poll(url: str, timeout: float = 60.0, **kw: Any) -> httpx.Response:
    deadline = time.monotonic() + timeout
    while True:
        r = httpx.get(url, timeout=10, **kw)
        if r.status_code != 202 or time.monotonic() > deadline:
            return r
        time.sleep(0.1)


def test_an_analysis_is_queued_computed_once_and_kept(server: str) -> None:
    table, _ = finished_match(server)
    url = f"{server}/api/matches/{table}/analysis?seat=2"
    first = httpx.get(url, timeout=10)
    assert first.status_code in (200, 202)
    if first.status_code == 202:
        assert first.json()["status"] in ("queued", "running") and first.json()["seat"] == 2
    done = poll(url)
    assert done.status_code == 200, done.text
    doc = done.json()
    assert doc["status"] == "done" and doc["seat"] == 2 and doc["seats"] == [2]
    assert doc["bot"] == "medium" and doc["game"] == "all-fives"
    assert doc["decisions"] and all(d["seat"] == 2 for d in doc["decisions"])
    for d in doc["decisions"]:
        assert d["played"] in d["values"] and d["choice"] in d["values"]
        assert d["mark"] in (None, "inaccuracy", "mistake", "blunder")
    assert set(doc["thresholds"]) == {"inaccuracy", "mistake", "blunder"}
    # asked again: the stored document, the same, at once
    again = httpx.get(url, timeout=10)
    assert again.status_code == 200 and again.json() == doc


def test_one_waiting_analysis_per_requester_and_a_bounded_queue(tmp_path: Path) -> None:
    async def go() -> None:
        store = SqliteStore(str(tmp_path / "a.sqlite3"))
        await store.start()
        analyst = Analyst(store, workers=0, bot="medium", lease=60.0, max_waiting=2)
        first = await analyst.request("t1", 0, "p-asha")  # the loop is not started: it waits
        assert first.status == "queued"
        assert (await analyst.request("t1", 0, "p-asha")).status == "queued"  # the same one
        with pytest.raises(Busy) as busy:
            await analyst.request("t1", 1, "p-asha")
        assert busy.value.waiting.table_id == "t1" and busy.value.waiting.seat == 0
        await analyst.request("t2", 0, "addr:10.0.0.9")
        with pytest.raises(Full):
            await analyst.request("t3", 0, "p-ravi")
        await store.close()

    asyncio.run(go())


def test_a_private_matchs_analysis_needs_its_invite(server: str) -> None:
    table, invite = finished_match(server, private=True)
    base = f"{server}/api/matches/{table}/analysis?seat=1"
    assert httpx.get(base, timeout=10).status_code == 404
    assert httpx.get(base + "&invite=nope", timeout=10).status_code == 404
    assert poll(base + f"&invite={invite}").status_code == 200


@pytest.mark.parametrize(("query", "status", "code"), [
    ("seat=0", 400, "analysis_seat"), ("seat=3", 400, "analysis_seat"),
    ("seat=x", 400, "analysis_seat"), ("", 400, "analysis_seat"),
])
def test_bad_analysis_requests_are_one_translated_line(server: str, query: str, status: int,
                                                        code: str) -> None:
    table, _ = finished_match(server)
    messages = set()
    for lang in ("en", "hi"):
        r = httpx.get(f"{server}/api/matches/{table}/analysis?{query}&lang={lang}", timeout=10)
        assert r.status_code == status and r.json()["error"] == code
        assert "\n" not in r.json()["message"] and not r.json()["message"].startswith("web.")
        messages.add(r.json()["message"])
    assert len(messages) == 2
    assert httpx.get(f"{server}/api/matches/nosuchmatch/analysis?seat=1",
                     timeout=10).status_code == 404


def test_a_queued_analysis_survives_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "fives.sqlite3")
    with running_server(fast_settings(db)) as base:
        table, _ = finished_match(base)
    # asked for while no server runs (as if the one that queued it stopped at once)
    store = SqliteStore(db)
    asyncio.run(store.request_analysis(table, 0, "p-asha", time.time()))
    store.close_now()
    with running_server(fast_settings(db)) as base:
        r = poll(f"{base}/api/matches/{table}/analysis?seat=1")
        assert r.status_code == 200 and r.json()["decisions"]


@pytest.mark.parametrize(("bot", "word"), [("nobody", "nobody"), ("cmd:./x", "cmd:./x")])
def test_a_bad_analysis_bot_is_one_line_and_touches_no_database(tmp_path: Path, bot: str,
                                                                 word: str) -> None:
    import subprocess
    import sys

    db = tmp_path / "never.sqlite3"
    proc = subprocess.run([sys.executable, "-m", "fives.cli.main", "serve", "--port", "0",
                           "--db", str(db), "--analysis-bot", bot],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2 and word in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and not db.exists()


def _gone(pid: int) -> bool:
    """The process has ended (reaped, or a zombie: the pool's own thread may reap it first, so
    ``is_alive`` cannot tell)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_closing_stops_an_analysis_under_way(tmp_path: Path) -> None:
    """A server that stops while its pool computes an analysis exits at once: the worker is
    stopped (its lease hands the analysis to the next claim), not waited for (the load tool's
    server once took minutes to exit behind a mined match's analysis)."""
    async def go() -> None:
        store = SqliteStore(str(tmp_path / "a.sqlite3"))
        await store.start()
        analyst = Analyst(store, workers=1, bot="medium", lease=60.0, max_waiting=2)
        pool = analyst._executor()
        busy = pool.submit(time.sleep, 120)
        await asyncio.sleep(0)
        deadline = time.monotonic() + 30
        while not busy.running() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        pids = [w.pid for w in pool._processes.values()]  # type: ignore[attr-defined]
        assert pids and not any(_gone(pid) for pid in pids)
        await analyst.close()
        deadline = time.monotonic() + 10
        while not all(_gone(pid) for pid in pids) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert all(_gone(pid) for pid in pids)
        await store.close()

    asyncio.run(go())
