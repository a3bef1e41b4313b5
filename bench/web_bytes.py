"""What the browser client costs on the wire (not a test): every page, script, stylesheet and
catalogue as served by the app, raw and gzip-compressed (the app's GZipMiddleware), and the
totals a first visit to the lobby and then to a table download.

    .venv/bin/python bench/web_bytes.py
"""

from __future__ import annotations

import contextlib
import re
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import uvicorn

from fives.server import Settings, create_app

LOBBY = ["/", "css/app.css", "js/lobby.js", "js/i18n.js", "js/common.js"]
TABLE = ["/t/x", "js/table.js", "js/tiles.js", "js/layoutview.js", "js/scores.js", "js/rules.js",
         "js/summary.js", "js/hand.js", "js/notify.js", "favicon.svg"]


@contextlib.contextmanager
def serving(db: str) -> Iterator[str]:
    """The app on a free loopback port, in a thread."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(create_app(Settings(db=db)), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp, serving(str(Path(tmp) / "bytes.sqlite3")) as base, \
            httpx.Client(base_url=base) as client:
        page = client.get("/").text
        version = re.search(r"/static/([0-9a-f]+)/", page)
        assert version, "the lobby names no versioned static URL"
        v = version.group(1)
        rows = []
        totals = {"lobby": [0, 0], "table": [0, 0]}

        def fetch(path: str) -> tuple[int, int]:
            url = path if path.startswith("/") else f"/static/{v}/{path}"
            r = client.get(url, headers={"Accept-Encoding": "gzip"})
            raw = len(r.content)
            wire = int(r.headers.get("content-length", raw))
            return raw, wire

        for group, paths in (("lobby", LOBBY), ("table", TABLE)):
            for path in paths:
                raw, wire = fetch(path)
                rows.append((path, raw, wire))
                totals[group][0] += raw
                totals[group][1] += wire
        for lang in ("en", "hi"):
            raw, wire = fetch(f"/api/i18n/{lang}?v={v}")
            rows.append((f"catalogue {lang}", raw, wire))
        print("| resource | raw bytes | gzip bytes |")
        print("| --- | ---: | ---: |")
        for name, raw, wire in rows:
            print(f"| {name} | {raw:,} | {wire:,} |")
        for group, (raw, wire) in totals.items():
            print(f"| **{group} page and its code** (catalogue apart) | {raw:,} | {wire:,} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
