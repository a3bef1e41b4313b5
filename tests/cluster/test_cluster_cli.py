"""The scaled setup from the command line: ``fives db upgrade``, the options that need each
other, and ``fives serve --workers N`` (N processes behind one port, a dead one replaced)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time

import httpx
import pytest

from clikit import ctrl_c_heard
from server.harness import SeatClient, create_table

pytestmark = pytest.mark.timeout(180)


def fives(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fives.cli.main", *args], capture_output=True,
                          text=True, timeout=60)


def test_db_upgrade_applies_the_migrations_once(postgres_url: str) -> None:
    first = fives("db", "upgrade", "--db", postgres_url)
    assert first.returncode == 0, first.stderr
    assert "applied 0001_tables" in first.stdout and "applied 0002_fencing" in first.stdout
    again = fives("db", "upgrade", "--db", postgres_url)
    assert again.returncode == 0 and "(0 migrations applied now)" in again.stdout


def test_a_database_that_cannot_be_reached_is_one_clear_line() -> None:
    out = fives("db", "upgrade", "--db", "postgresql://fives:secret@127.0.0.1:1/none")
    assert out.returncode == 2 and out.stderr.startswith("error: cannot open the database")
    assert "secret" not in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize(("args", "says"), [
    (["--redis", "redis://127.0.0.1:1/0"], "needs --db postgresql://"),
    (["--workers", "2"], "--workers above 1 needs"),
    (["--db", "postgresql://x@127.0.0.1:1/y", "--redis", "http://x"], "--redis must be"),
    (["--lease", "0.1"], "--lease must be"),
])
def test_cluster_options_that_do_not_fit_are_refused(tmp_path, args: list[str],
                                                     says: str) -> None:
    out = fives("serve", "--port", "0", "--db", str(tmp_path / "x.sqlite3"), *args)
    assert out.returncode == 2 and says in out.stderr and "Traceback" not in out.stderr


def test_workers_share_one_port_and_a_dead_worker_is_replaced(
        cluster_db: str, cluster_redis: str) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "fives.cli.main", "serve", "--port", "0", "--db", cluster_db,
         "--redis", cluster_redis, "--workers", "2", "--bot-delay", "0.05",
         "--bot-workers", "0", "--dev-seeds", "--create-rate", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, preexec_fn=ctrl_c_heard)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        assert "2 workers" in line, line
        match = re.search(r"http://127\.0\.0\.1:\d+", line)
        assert match
        base = match.group(0)
        seen: set[str] = set()
        deadline = time.monotonic() + 30
        while len(seen) < 2:  # the kernel hands new connections to both workers
            assert time.monotonic() < deadline, seen
            try:
                with httpx.Client() as fresh:
                    seen.add(fresh.get(f"{base}/healthz", timeout=2).json()["process"])
            except httpx.HTTPError:
                time.sleep(0.1)
        table = create_table(base, game="block", players=2, watch=True, target=10,
                             seats=[{"kind": "bot", "level": "random"}] * 2)["table"]
        pid = int(next(iter(seen)).split("-")[-2])
        os.kill(pid, signal.SIGKILL)  # a worker dies; the parent starts another

        async def watch() -> dict:
            deadline = time.monotonic() + 90
            while True:
                assert time.monotonic() < deadline, "the watched match did not end"
                try:
                    c = await SeatClient(base, table).connect()
                    last = await c.wait(lambda m: m["type"] == "state" and m["result"], 60)
                    await c.close()
                    return last
                except (ConnectionError, OSError):
                    await asyncio.sleep(0.3)  # its worker died: the page reconnects

        assert asyncio.run(watch())["result"] is not None
        deadline = time.monotonic() + 30
        replaced = False
        while not replaced:
            assert time.monotonic() < deadline, "the dead worker was not replaced"
            with httpx.Client() as fresh:
                health = fresh.get(f"{base}/healthz", timeout=2)
            replaced = health.json()["process"] not in seen
        metrics = httpx.get(f"{base}/metrics", timeout=5).text
        assert "fives_actions_total" in metrics
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        if proc.stdout:
            proc.stdout.close()
    assert proc.returncode == 0
