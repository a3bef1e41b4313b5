"""Pool workers that leave with the process that started them.

The server's bot and analysis pools are ``spawn`` processes. When the server is stopped in
order, the pool shuts them down; when it is killed (SIGKILL, the out-of-memory killer, a
crashed host process) nothing does, and each worker sat idle on its queue for ever, with its
memory (seen as 39 leftover processes after a test that kills the server twenty times). A
worker started with :func:`leave_with_parent` watches its parent and exits once it is gone.
"""

from __future__ import annotations

import os
import threading
import time

__all__ = ["leave_with_parent"]

#: how often a worker looks at its parent (seconds): a dead server's workers are gone within it
POLL_SECONDS = 1.0


def leave_with_parent(poll: float = POLL_SECONDS) -> None:
    """In a worker process: a daemon thread ends the process once its parent has gone (the
    parent's id changes when the worker is handed to another process, as orphans are)."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(poll)
            if os.getppid() != parent:
                os._exit(0)  # nothing to tidy: the worker's work died with its server

    threading.Thread(target=watch, name="leave-with-parent", daemon=True).start()
