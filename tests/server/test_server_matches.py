"""Whole matches of every game and player count, played to the end over WebSockets by
simulated seats (the rest bots), with every message checked for hidden tiles."""

from __future__ import annotations

import asyncio
import random

import httpx
import pytest

from fives.core.record import Record, replay

from .harness import SeatClient, check_no_leak, create_table, play_to_end, truth_by_n

GAMES = ["all-fives", "fives-and-threes", "muggins", "draw", "block"]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("game", GAMES)
def test_whole_match_no_leaks(shared_server: str, game: str, players: int) -> None:
    """Two people (one with 2 players) and bots play a match to its end; a spectator watches.
    Nobody is ever sent another seat's tiles or the stock order (C-2)."""
    base = shared_server
    humans = 1 if players == 2 else 2
    seats = [{"kind": "human"}] * humans + [{"kind": "bot", "level": "easy"}] * (players - humans)
    created = create_table(base, game=game, players=players, seats=seats, name="Asha",
                           turn_time=0, seed=1000 + players)
    table = created["table"]
    rng = random.Random(players)

    async def run() -> tuple[list[SeatClient], SeatClient, dict]:
        first = await SeatClient(base, table, created["token"]).connect()
        clients = [first]
        if humans == 2:
            second = await SeatClient(base, table, invite=created["invite"]).connect()
            await second.send({"type": "join", "seat": 1, "name": "Bea"})
            joined = await second.wait(lambda m: m["type"] == "joined")
            assert joined["seat"] == 1
            second.seat = 1
            clients.append(second)
        spectator = await SeatClient(base, table, invite=created["invite"]).connect()
        last = await play_to_end(clients, rng, timeout=240)
        await spectator.wait(lambda m: m["type"] == "state" and m["result"] is not None)
        for c in [*clients, spectator]:
            await c.close()
        return clients, spectator, last

    clients, spectator, last = asyncio.run(run())
    assert last["result"] is not None
    assert last["info"]["status"] == "over"
    access = f"?invite={created['invite']}" if created["invite"] else ""
    record = httpx.get(f"{base}/api/matches/{table}/record{access}", timeout=10).json()
    # the stored record replays to the same result
    report = replay(Record.from_data(record))
    assert report["over"] is True
    assert report["scores"] == last["result"]["scores"]
    assert report["winner"] == last["result"]["winner"]
    assert record["seats"][0] == "Asha"
    truth = truth_by_n(record)
    checked = sum(check_no_leak(c, truth) for c in clients)
    checked += check_no_leak(spectator, truth)
    assert checked > 20
    # spectators never get a hand or legal actions
    for msg in spectator.messages:
        if msg["type"] == "state" and msg["view"] is not None:
            assert msg["view"]["hand"] == []
            assert msg["view"]["legal"] == []


def test_leak_checker_catches_a_leak() -> None:
    """The checker itself: a message naming another seat's tile fails it."""
    import json

    truth = {1: ([{"0-1", "2-3"}, {"4-5", "6-6"}], {"1-1"})}
    client = SeatClient("http://x", "t")
    client.seat = 0
    ok = {"type": "state", "n": 1, "you": 0, "view": {"hand": ["0-1", "2-3"], "layout": "1-1"}}
    bad = {"type": "state", "n": 1, "you": 0, "view": {"hand": ["0-1", "2-3"], "x": "6-6"}}
    client.raw, client.messages = [json.dumps(ok)], [ok]
    assert check_no_leak(client, truth) == 1
    client.raw, client.messages = [json.dumps(bad)], [bad]
    with pytest.raises(AssertionError, match="6-6"):
        check_no_leak(client, truth)
