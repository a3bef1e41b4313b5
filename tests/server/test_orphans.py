"""The server's pool workers leave when the server is killed (they were left idle for ever:
39 leftover processes after the test that kills the server twenty times)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

POOL = textwrap.dedent("""
    import os, time
    from fives.server.analyses import Analyst
    from fives.server.bots import BotRunner

    bots = BotRunner(workers=1, deadline=1.0)._executor()
    analyses = Analyst(None, workers=1, bot="medium", lease=1.0, max_waiting=1)._executor()
    print(bots.submit(os.getpid).result(), analyses.submit(os.getpid).result(), flush=True)
    time.sleep(60)
""")


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for whoever adopted it to reap it has ended)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    except (FileNotFoundError, ProcessLookupError):
        return False
    return "\nState:\tZ" not in status


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_the_bot_and_analysis_pool_workers_exit_once_their_server_is_killed() -> None:
    server = subprocess.Popen([sys.executable, "-c", POOL], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        workers = [int(p) for p in server.stdout.readline().split()]
        assert len(workers) == 2 and all(_alive(p) for p in workers)
        os.kill(server.pid, signal.SIGKILL)
        server.wait(10)
        deadline = time.monotonic() + 10
        while any(_alive(p) for p in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [p for p in workers if _alive(p)]
        for pid in left:  # tidy up before failing
            os.kill(pid, signal.SIGKILL)
        assert not left, f"workers {left} outlived their killed server"
    finally:
        server.kill()



LATE = textwrap.dedent("""
    import os, signal, sys
    os.environ["FIVES_ORPHAN_MARK"] = sys.argv[1]  # the workers inherit it: found by it
    from fives.server.analyses import Analyst
    from fives.server.bots import BotRunner

    BotRunner(workers=1, deadline=1.0)._executor().submit(os.getpid)
    Analyst(None, workers=1, bot="medium", lease=1.0, max_waiting=1)._executor().submit(os.getpid)
    os.kill(os.getpid(), signal.SIGKILL)  # before its workers are up
""")


def _marked_workers(mark: str) -> list[int]:
    """The pool workers (alive) whose environment carries ``mark``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if (f"FIVES_ORPHAN_MARK={mark}".encode() in environ and b"spawn_main" in cmdline
                and _alive(int(entry.name))):
            found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_workers_that_start_after_their_server_was_killed_leave_too() -> None:
    # A worker takes its parent to be whoever its parent is when it starts: one that finished
    # starting after the server's death took its adopter for its parent and stayed for ever
    # (36 of them after a whole run of the suite, from the test that kills a server twenty times)
    mark = f"late-{os.getpid()}-{time.monotonic_ns()}"
    server = subprocess.run([sys.executable, "-c", LATE, mark], timeout=60, check=False)
    assert server.returncode == -signal.SIGKILL
    started = _marked_workers(mark)
    assert started, "no worker was started"
    deadline = time.monotonic() + 10
    while _marked_workers(mark) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = _marked_workers(mark)
    for pid in left:  # tidy up before failing
        os.kill(pid, signal.SIGKILL)
    assert not left, f"workers {left} outlived their killed server"
