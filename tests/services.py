"""Throwaway PostgreSQL and Redis servers for the tests: each started on a free loopback port
in a temporary folder (Debian's ``postgresql`` and ``redis-server`` packages, which ``make
test`` installs), and removed afterwards. Nothing is left running."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

__all__ = ["free_port", "postgres_server", "redis_server", "new_database"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                   key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    if found:
        return found[-1]
    path = shutil.which(name)
    if path is None:
        raise RuntimeError(f"PostgreSQL's {name} is missing: apt-get install postgresql")
    return path


def _as_postgres(cmd: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: as root, run it as the package's user."""
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


def _wait_port(port: int, proc: subprocess.Popen[bytes], what: str, log: Path) -> None:
    deadline = time.monotonic() + 30
    while True:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        if proc.poll() is not None or time.monotonic() > deadline:
            text = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{what} did not start on port {port}:\n{text}")
        time.sleep(0.05)


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """A PostgreSQL server (trust authentication, user ``fives``, no fsync: a killed test
    process is what the tests survive, not a lost disk); yields the URL of its ``postgres``
    database."""
    folder = Path(tempfile.mkdtemp(prefix="fives-pg-"))
    os.chmod(folder, 0o777)
    data = folder / "data"
    log = folder / "log"
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    subprocess.run(_as_postgres([_pg_bin("initdb"), "-D", str(data), "-U", "fives",
                                 "--auth=trust", "-E", "UTF8", "--no-sync", "--locale=C"]),
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    port = free_port()
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            _as_postgres([_pg_bin("postgres"), "-D", str(data), "-p", str(port),
                          "-k", str(folder), "-c", "listen_addresses=127.0.0.1",
                          "-c", "fsync=off", "-c", "synchronous_commit=off",
                          "-c", "full_page_writes=off", "-c", "max_connections=200"]),
            stdout=out, stderr=subprocess.STDOUT)
    try:
        _wait_port(port, proc, "PostgreSQL", log)
        url = f"postgresql://fives@127.0.0.1:{port}/postgres"
        _wait_ready(url)
        yield url
    finally:
        _stop(proc, folder)


def _stop(proc: subprocess.Popen[bytes], folder: Path) -> None:
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)
    shutil.rmtree(folder, ignore_errors=True)


def _wait_ready(url: str) -> None:
    deadline = time.monotonic() + 30
    while subprocess.run(["psql", url, "-c", "SELECT 1"], capture_output=True).returncode:
        if time.monotonic() > deadline:
            raise RuntimeError("PostgreSQL does not answer")
        time.sleep(0.1)


def new_database(server_url: str) -> str:
    """A new empty database on the server; its URL."""
    name = "t_" + uuid.uuid4().hex[:12]
    subprocess.run(["psql", server_url, "-q", "-c", f"CREATE DATABASE {name}"], check=True,
                   capture_output=True)
    return server_url.rsplit("/", 1)[0] + "/" + name


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """A Redis server without persistence; yields its URL."""
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    folder = Path(tempfile.mkdtemp(prefix="fives-redis-"))
    port = free_port()
    log = folder / "log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(folder)],
            stdout=out, stderr=subprocess.STDOUT)
    try:
        _wait_port(port, proc, "Redis", log)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        _stop(proc, folder)
