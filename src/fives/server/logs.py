"""Structured logs (``fives serve --log-format json``): one JSON object a line, with the time,
level, logger, the process (its cluster id when it has one) and the table a line is about.

A line is about a table when its message begins ``table %s`` (every table's log line does);
the table's id is that first argument.
"""

from __future__ import annotations

import json
import logging
import os
import time

__all__ = ["JsonFormatter", "set_process_name"]

_process = str(os.getpid())


def set_process_name(name: str) -> None:
    """The name this process goes by in the logs (its cluster id)."""
    global _process
    _process = name


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "process": _process,
            "pid": record.process,
        }
        table = getattr(record, "table", None)
        if table is None and isinstance(record.msg, str) and record.msg.startswith("table %s"):
            args = record.args if isinstance(record.args, tuple) else ()
            table = args[0] if args else None
        if table is not None:
            entry["table"] = str(table)
        entry["message"] = record.getMessage()
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)
