"""deploy/local-cluster.sh starts the whole scaled setup on one machine (PostgreSQL, Redis,
several server processes behind one port) and stops all of it when stopped."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
import pytest

from clikit import ctrl_c_heard

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.timeout(120)


@pytest.mark.slow
def test_the_script_starts_a_cluster_and_stops_it() -> None:
    folder = tempfile.mkdtemp(prefix="fives-cluster-")
    os.chmod(folder, 0o755)  # PostgreSQL's own user must reach it
    env = {**os.environ, "PORT": "0", "WORKERS": "2", "FIVES_CLUSTER_DIR": folder,
           "FIVES": str(Path(os.environ.get("VIRTUAL_ENV", ROOT / ".venv")) / "bin" / "fives")}
    if not Path(env["FIVES"]).exists():
        env["FIVES"] = str(Path(shutil.which("fives") or "fives"))
    proc = subprocess.Popen(["bash", str(ROOT / "deploy" / "local-cluster.sh"), "--bot-delay",
                             "0"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True,
                            preexec_fn=ctrl_c_heard)  # its trap hears the Ctrl-C below
    output = []
    try:
        base = None
        deadline = time.monotonic() + 60
        while base is None:
            assert time.monotonic() < deadline, "".join(output)
            line = proc.stdout.readline() if proc.stdout else ""
            assert line or proc.poll() is None, "".join(output)
            output.append(line)
            match = re.search(r"serving on (http://127\.0\.0\.1:\d+)", line)
            base = match.group(1) if match else None
        ports = [int(p) for p in re.findall(r"on port (\d+)", "".join(output))]
        assert len(ports) == 2, output  # PostgreSQL's and Redis'
        health = {}
        while len(health) < 2:
            assert time.monotonic() < deadline, health
            try:
                with httpx.Client() as fresh:
                    answer = fresh.get(f"{base}/healthz", timeout=2).json()
                health[answer["process"]] = answer
            except httpx.HTTPError:
                time.sleep(0.1)
        assert all(h["ok"] and h["bus"] == "ok" and h["store"] == "ok" for h in health.values())
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(30)
        shutil.rmtree(folder, ignore_errors=True)
    for port in ports:  # nothing left running
        with socket.socket() as s:
            assert s.connect_ex(("127.0.0.1", port)) != 0, f"port {port} still answers"
