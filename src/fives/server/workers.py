"""``fives serve --workers N``: N server processes on one listening socket (the kernel hands
each new connection to one of them), kept running by the parent: a worker that dies is
replaced, and its tables are taken over by the others meanwhile (the cluster's lease). Ctrl-C
or SIGTERM stops them all.

The workers share one folder of Prometheus samples (``PROMETHEUS_MULTIPROC_DIR``), so that
``/metrics`` from any worker counts them all. It is set before any metric exists.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import socket
import tempfile
import time
from collections.abc import Callable

__all__ = ["prepare_metrics", "supervise"]

log = logging.getLogger("fives.server")


def prepare_metrics() -> str:
    """A fresh folder for the workers' metrics, named in the environment they inherit."""
    folder = tempfile.mkdtemp(prefix="fives-metrics-")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = folder
    return folder


def supervise(count: int, sock: socket.socket, serve: Callable[[socket.socket], None]) -> None:
    """Fork ``count`` workers, each running ``serve(sock)``; replace any that dies until told
    to stop, then stop them all."""
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    workers: dict[int, int] = {}  # pid -> worker number
    stopping = False

    def spawn(number: int) -> None:
        pid = os.fork()
        if pid == 0:  # the worker
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent says when to stop
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            code = 0
            try:
                serve(sock)
            except BaseException:
                log.exception("worker %d failed", number)
                code = 1
            os._exit(code)
        workers[pid] = number

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    old_int = signal.signal(signal.SIGINT, stop)
    old_term = signal.signal(signal.SIGTERM, stop)
    try:
        for number in range(count):
            spawn(number)
        while not stopping:
            with contextlib.suppress(ChildProcessError, InterruptedError):
                pid, status = os.waitpid(-1, os.WNOHANG)
                if pid:
                    number = workers.pop(pid)
                    if folder:
                        from prometheus_client import multiprocess

                        multiprocess.mark_process_dead(pid)
                    if not stopping:
                        log.warning("worker %d (process %d) ended (%s); starting another",
                                    number, pid, _how(status))
                        time.sleep(0.2)
                        spawn(number)
                    continue
            time.sleep(0.2)
    finally:
        signal.signal(signal.SIGINT, old_int)
        signal.signal(signal.SIGTERM, old_term)
        for pid in workers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 10
        while workers and time.monotonic() < deadline:
            with contextlib.suppress(ChildProcessError):
                pid, _ = os.waitpid(-1, os.WNOHANG)
                if pid:
                    workers.pop(pid, None)
                    continue
            time.sleep(0.05)
        for pid in workers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if folder:
            shutil.rmtree(folder, ignore_errors=True)


def _how(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"signal {os.WTERMSIG(status)}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"
