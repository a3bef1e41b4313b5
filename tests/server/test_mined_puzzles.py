"""Puzzles mined from matches people played on the site (issue 28): a finished match at an
open table has its person's seat analysed by the server itself (behind what people ask for),
and the clear best plays found there are served after the shipped puzzles, from the mover's
view, answerable and rated like any other; a private table's match is never mined."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from fives.puzzles import load
from fives.server import puzzle_api
from fives.store import SqliteStore
from fives.store.analyses import MINER

from .harness import SeatClient, create_table, fast_settings, play_to_end, running_server


def played(base: str, private: bool, seed: int) -> str:
    """A match of a person (random legal plays) and a bot, to 60, played to its end."""
    created = create_table(base, game="all-fives", players=2, target=60, turn_time=0,
                           private=private, seed=seed, name="Asha",
                           seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}])

    async def go() -> None:
        c = await SeatClient(base, created["table"], created["token"],
                             invite=created.get("invite")).connect()
        await play_to_end([c], random.Random(seed))
        await c.close()

    asyncio.run(go())
    return str(created["table"])


def test_an_open_match_of_a_person_is_mined_and_a_private_one_never(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(puzzle_api, "MINED_REFRESH", 0.0)  # read the mined ones every time
    db = str(tmp_path / "m.sqlite3")
    shipped = len(load())
    last_shipped = puzzle_api._order()[-1]
    with running_server(fast_settings(db, mine_puzzles=True, analysis_bot="hard")) as base:
        open_table = played(base, False, 11)
        private_table = played(base, True, 12)
        deadline = time.monotonic() + 90
        while True:  # the first mined puzzle comes after the last shipped one
            first = httpx.get(f"{base}/api/puzzles/next?after={last_shipped}", timeout=10).json()
            if first["id"].startswith("m-") or time.monotonic() > deadline:
                break
            time.sleep(0.3)
        assert first["id"].startswith(f"m-{open_table}-"), first["id"]
        assert first["mined"] is True and first["count"] > shipped
        assert "answer" not in first and first["view"]["seat"] == 0  # the person's view
        assert "hands" not in first["view"] and first["view"]["end"] is None
        wrong = httpx.post(f"{base}/api/puzzles/{first['id']}/answer",
                           json={"action": first["view"]["legal"][-1]}, timeout=10).json()
        answer = wrong["answer"][0]
        right = httpx.post(f"{base}/api/puzzles/{first['id']}/answer",
                           json={"action": answer}, timeout=10).json()
        assert right["correct"] is True and right["margin"] >= 5
    stored = asyncio.run(_stored(db, [open_table, private_table]))
    assert stored["analyses"] == {(open_table, 0, MINER, "done")}  # the private one never
    assert stored["mined"] and all(p["id"].startswith(f"m-{open_table}-") for p in stored["mined"])


async def _stored(db: str, tables: list[str]) -> dict[str, Any]:
    store = SqliteStore(db)
    await store.start()
    try:
        analyses = set()
        for table in tables:
            for seat in (0, 1):
                a = await store.analysis(table, seat)
                if a is not None:
                    analyses.add((table, seat, a.requester, a.status))
        return {"analyses": analyses, "mined": await store.mined_puzzles()}
    finally:
        await store.close()
