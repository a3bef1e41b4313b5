"""Hints at the table (issue 28): a person playing bots in a casual match asks for the best play
of their turn and gets it alone, once a turn; friends get hints only when every person at the
table turns them on; a rated match never gives one."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from fives.core.games import Config
from fives.server.meta import Seat, TableMeta

from .harness import SeatClient, create_table, seat_both
from .test_server_protocol import my_turn, two_humans


def run(coro: Any) -> None:
    asyncio.run(coro)


async def a_choice(c: SeatClient) -> dict[str, Any]:
    """The state of this client's next turn with more than one legal action (it plays the
    first legal action on turns without a choice)."""
    while True:
        st = await my_turn(c)
        if len(st["view"]["legal"]) > 1:
            return st
        start = len(c.messages)
        await c.send({"type": "act", "action": st["view"]["legal"][0], "n": st["n"]})
        await c.wait(lambda m, n=st["n"]: m["type"] == "state" and m["n"] > n, 10, start)


def test_a_hint_against_bots_is_the_best_play_once_a_turn_to_the_asker_alone(
        server: str) -> None:
    created = create_table(server, game="all-fives", players=2, name="Asha", turn_time=0,
                           seed=3)

    async def go() -> None:
        a = await SeatClient(server, created["table"], created["token"]).connect()
        watcher = await SeatClient(server, created["table"]).connect()
        st = await a_choice(a)
        assert st["info"]["hints"] is True
        start = len(a.messages)
        await a.send({"type": "hint", "n": st["n"]})
        hint = await a.wait(lambda m: m["type"] in ("hint", "error"), 30, start)
        assert hint["type"] == "hint", hint
        assert hint["n"] == st["n"] and hint["action"] in st["view"]["legal"]
        assert hint["values"] and max(hint["values"].values()) == hint["value"]
        assert set(hint["values"]) <= set(st["view"]["legal"])
        # once a turn
        start = len(a.messages)
        await a.send({"type": "hint", "n": st["n"]})
        again = await a.wait(lambda m: m["type"] == "error", 10, start)
        assert again["code"] == "hint_given"
        # never to anyone else
        await asyncio.sleep(0.2)
        assert not any(m["type"] == "hint" for m in watcher.messages)
        # the hint's play is legal and played as usual
        start = len(a.messages)
        await a.send({"type": "act", "action": hint["action"], "n": st["n"]})
        await a.wait(lambda m: m["type"] == "state" and m["n"] > st["n"], 10, start)
        # a stale turn number is refused, as for an action
        await a.send({"type": "hint", "n": st["n"]})
        stale = await a.wait(lambda m: m["type"] == "error", 10, start)
        assert stale["code"] in ("stale", "not_your_turn", "hint_given")
        await a.close()
        await watcher.close()

    run(go())


def test_friends_get_hints_only_when_every_person_turns_them_on(server: str) -> None:
    created = two_humans(server, seed=8)

    async def go() -> None:
        a, b = await seat_both(server, created)
        assert a.state is not None and a.state["info"]["hints"] is False
        mover = a if a.state["view"]["turn"] == 0 else b
        other = b if mover is a else a
        st = mover.state
        assert st is not None
        start = len(mover.messages)
        await mover.send({"type": "hint", "n": st["n"]})
        refused = await mover.wait(lambda m: m["type"] == "error", 10, start)
        assert refused["code"] == "hints_off"
        await mover.send({"type": "hints", "on": 1})
        seen = await other.wait(lambda m: m["type"] == "state"
                                and m["info"]["seats"][mover.seat]["hints"], 10)
        assert seen["info"]["hints"] is False  # one of two agrees: still off
        await other.send({"type": "hints", "on": 1})
        await mover.wait(lambda m: m["type"] == "state" and m["info"]["hints"], 10)
        await asyncio.sleep(0.3)  # forced draws played meanwhile
        latest = a.state
        assert latest is not None
        turn = b if latest["view"]["turn"] == 1 else a
        st = await turn.wait(lambda m: m["type"] == "state" and m["info"]["hints"]
                             and m["view"] is not None and m["view"]["turn"] == turn.seat and m["summary"] is None
                             and len(m["view"]["legal"]) > 1, 10)
        start = len(turn.messages)
        await turn.send({"type": "hint", "n": st["n"]})
        hint = await turn.wait(lambda m: m["type"] in ("hint", "error"), 30, start)
        assert hint["type"] == "hint" and hint["action"] in st["view"]["legal"], hint
        await a.close()
        await b.close()

    run(go())


@pytest.mark.parametrize(("rated", "people", "agree", "open_"), [
    (True, 1, 0, False), (True, 2, 2, False), (False, 1, 0, True), (False, 2, 0, False),
    (False, 2, 1, False), (False, 2, 2, True), (False, 0, 0, True),
])
def test_when_hints_are_open(rated: bool, people: int, agree: int, open_: bool) -> None:
    seats = [Seat("human", token_hash=f"t{i}", hints=i < agree) for i in range(people)]
    seats += [Seat("bot", "hard") for _ in range(4 - people)]
    meta = TableMeta(Config.make("all-fives", 4), seats, seed=1, rated=rated)
    assert meta.hints_open is open_
