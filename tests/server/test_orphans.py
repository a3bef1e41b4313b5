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
    import multiprocessing, os, sys, time
    from concurrent.futures import ProcessPoolExecutor
    from fives.server.analyses import _lower_priority
    from fives.server.bots import _init_worker

    ctx = multiprocessing.get_context("spawn")
    bots = ProcessPoolExecutor(1, mp_context=ctx, initializer=_init_worker, initargs=(0.1,))
    analyses = ProcessPoolExecutor(1, mp_context=ctx, initializer=_lower_priority)
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
