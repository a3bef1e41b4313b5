"""The load benchmark measures what it claims (issue 10, item 15): with instant bots it
measured 0 actions/s, its player passing the message rate limit and its dropped move never
answered. It paces itself to the server's announced limits now."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_load_tool_keeps_playing_with_instant_bots() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "load.py"), "--tables", "4", "--seconds", "3",
         "--warmup", "1", "--bot-delay", "0", "--forced-delay", "0", "--json"],
        capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["actions_per_s"] > 20
    assert result["client_errors"] == 0
