"""Pool workers that leave with the process that started them.

The server's bot and analysis pools are ``spawn`` processes. When the server is stopped in
order, the pool shuts them down; when it is killed (SIGKILL, the out-of-memory killer, a
crashed host process) nothing does, and each worker sat idle on its queue for ever, with its
memory (seen as 39 leftover processes after a test that kills the server twenty times). A
worker started with :func:`leave_with_parent` watches its parent and exits once it is gone.
The pools are made by :func:`worker_pool`, which tells each worker its server's id: a worker
that finished starting after its server died would otherwise take the process that adopted it
for its parent and never leave (36 such after a run of the suite).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

__all__ = ["leave_with_parent", "worker_pool"]

#: how often a worker looks at its parent (seconds): a dead server's workers are gone within it
POLL_SECONDS = 1.0


def leave_with_parent(parent: int, poll: float = POLL_SECONDS) -> None:
    """In a worker process: a daemon thread ends the process once its parent, the process
    ``parent``, has gone (the parent's id changes when the worker is handed to another
    process, as orphans are); a worker whose parent is already another leaves at once."""
    if os.getppid() != parent:
        os._exit(0)

    def watch() -> None:
        while True:
            time.sleep(poll)
            if os.getppid() != parent:
                os._exit(0)  # nothing to tidy: the worker's work died with its server

    threading.Thread(target=watch, name="leave-with-parent", daemon=True).start()


def _start(parent: int, initializer: Callable[..., None] | None, initargs: tuple[Any, ...]
           ) -> None:
    leave_with_parent(parent)
    if initializer is not None:
        initializer(*initargs)


def worker_pool(workers: int, initializer: Callable[..., None] | None = None,
                initargs: tuple[Any, ...] = ()) -> ProcessPoolExecutor:
    """A pool of ``workers`` spawned processes, each of which leaves once this process has
    gone (:func:`leave_with_parent`, told this process's id), then runs ``initializer``."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_start, initargs=(os.getpid(), initializer, initargs))
