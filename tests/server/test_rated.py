"""Ratings a club can trust (issue 39): the four ways one person farmed the ladder from one
computer, each driven as that person did (HTTP and WebSocket, two cookie jars on one address)
and now refused or played unrated; and the rule's parts on their own (docs/players.md, "What a
rated match is"). The leave raced against pairing is in test_pairing.py and, in Redis,
tests/cluster/test_queue_book.py; the rated queue of a cluster in tests/cluster."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from fives.core.games import Config
from fives.i18n import LANGUAGES, catalogue
from fives.server.messages import ClientError
from fives.server.meta import Seat, TableMeta
from fives.server.pairing import Ticket, apart
from fives.server.rated import (
    RATED_TURN_TIME,
    SAME_PAIR_PER_DAY,
    casual_reason,
    check_rated_spec,
    same_pair_reason,
)
from fives.store.players import PlayerMatch, StoredPlayer

from .harness import SeatClient
from .test_online_bots import bot_account
from .test_pairing import Tables, join, queue_of, run
from .test_players_api import cookies_of, new_player, rated_match, wait_for

REASONS = ("same_address", "same_browser", "same_pair")


# -- 1. two identities of one person at a rated friend table --------------------------------


def test_two_identities_of_one_address_at_a_rated_table_play_it_casual(server: str) -> None:
    """Before: 1500 -> 1658 -> 1779 in four farmed matches. Two browser profiles (two cookie
    jars, two identities) on one address: the match is played, casual, and moves nothing."""
    asha, asha_too = new_player(server, "Asha"), new_player(server, "Asha two")
    last = asyncio.run(rated_match(server, asha, asha_too, 11))
    assert last["result"] is not None
    assert last["info"]["rated"] and last["info"]["casual"] == "same_address"
    for client in (asha, asha_too):
        me = wait_for(lambda c=client: c.get("/api/me").json()["player"]["matches"])
        assert [m["rated"] for m in me] == [False]
        assert client.get("/api/me").json()["player"]["ratings"] == {}
    board = httpx.get(f"{server}/api/leaderboard/block").json()["players"]
    assert board == []


def test_two_people_at_two_addresses_still_play_rated(server: str) -> None:
    asha, ravi = new_player(server, "Asha", "10.0.0.1"), new_player(server, "Ravi", "10.0.0.2")
    last = asyncio.run(rated_match(server, asha, ravi, 12))
    assert last["info"]["rated"] and last["info"]["casual"] is None
    assert wait_for(lambda: asha.get("/api/me").json()["player"]["ratings"].get("block"))


@pytest.mark.parametrize(("spec", "code"), [
    ({"target": 1}, "rated_target"), ({"target": 99}, "rated_target"),
    ({"turn_time": 0}, "rated_clock")])
def test_a_rated_table_is_a_real_match_or_refused(server: str, spec: dict[str, Any],
                                                  code: str) -> None:
    """Before: a rated table of target 1 and no clock, a farmed match in seconds."""
    asha = new_player(server, "Asha")
    r = asha.post("/api/tables?lang=hi", json={
        "game": "block", "players": 2, "rated": True,
        "seats": [{"kind": "human"}, {"kind": "human"}], **spec})
    assert r.status_code == 400 and r.json()["error"] == code, r.text
    assert "\n" not in r.json()["message"] and not r.json()["message"].startswith("web.")
    if code == "rated_target":
        assert "100" in r.json()["message"]  # what to choose instead


def test_a_rated_table_without_a_clock_asked_gets_one(server: str) -> None:
    """The site under test has no clocks; a rated table still times its turns."""
    asha = new_player(server, "Asha")
    r = asha.post("/api/tables", json={"game": "block", "players": 2, "rated": True,
                                       "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert r.status_code == 201, r.text
    created = r.json()

    async def info() -> dict[str, Any]:
        c = await SeatClient(server, created["table"], created["token"],
                             cookies=cookies_of(asha)).connect()
        await c.close()
        assert c.state is not None
        return dict(c.state["info"])

    assert asyncio.run(info())["turn_time"] == RATED_TURN_TIME
    casual = asha.post("/api/tables", json={"game": "block", "players": 2, "target": 1})
    assert casual.status_code == 201  # a short, clockless match is still there, casual


def test_a_private_rated_match_shows_on_the_profile_without_its_record(server: str) -> None:
    """A rating moved by private matches was public while those matches were hidden."""
    asha, ravi = new_player(server, "Asha", "10.0.0.1"), new_player(server, "Ravi", "10.0.0.2")
    asyncio.run(rated_match(server, asha, ravi, 13, private=True))
    me = wait_for(lambda: asha.get("/api/me").json()["player"])
    assert me["ratings"]["block"] and me["matches"][0]["table"]  # the player's own: a replay
    ravi_label = ravi.get("/api/me").json()["player"]["label"]
    assert me["matches"][0]["opponents"] == [ravi_label]
    public = httpx.get(f"{server}/api/players/{me['id']}").json()
    [shown] = public["matches"]
    assert shown["rated"] and shown["private"] and shown["table"] is None
    assert shown["opponents"] == [ravi_label] and shown["won"] == me["matches"][0]["won"]
    assert public["games"] == {}  # the private match's points stay the player's own


# -- 2. the rated queue --------------------------------------------------------------------


def person(name: str) -> StoredPlayer:
    return StoredPlayer(f"p-{name}", name, "0001", "person", 0.0)


def ticket(name: str, addr: str, rated: bool = True, browser: str | None = None) -> Ticket:
    return Ticket(name, person(name), browser or f"b-{name}", addr, "block", 2, rated, 25.0,
                  0.0, 0.0, 20.0)


def test_the_rated_queue_keeps_one_address_apart_and_the_casual_one_does_not() -> None:
    assert apart(ticket("a", "1.2.3.4"), ticket("b", "1.2.3.4"))
    assert not apart(ticket("a", "1.2.3.4"), ticket("b", "5.6.7.8"))
    assert not apart(ticket("a", "1.2.3.4", False), ticket("b", "1.2.3.4", False))
    assert apart(ticket("a", "1", False, "one"), ticket("b", "2", False, "one"))  # browser


@run
async def test_two_identities_of_one_address_are_never_paired_rated() -> None:
    """Before: two identities from one address were each other's nearest match, paired
    within the first second."""
    tables = Tables()
    q = queue_of(tables)
    one = await join(q, "Asha", 25.0, addr="1.2.3.4")
    two = await join(q, "Asha two", 25.0, addr="1.2.3.4")
    assert await q.match_now() == 0 and one.table is None and two.table is None
    ravi = await join(q, "Ravi", 25.0, addr="5.6.7.8")
    assert await q.match_now() == 1 and ravi.table is not None
    assert (one.table is None) != (two.table is None)
    casual_one = await join(q, "Bo", 25.0, addr="9.9.9.9", rated=False)
    casual_two = await join(q, "Bo two", 25.0, addr="9.9.9.9", rated=False)
    assert await q.match_now() == 1 and casual_one.table == casual_two.table is not None


def test_the_queue_over_http_does_not_pair_two_cookie_jars_of_one_address(server: str) -> None:
    one, two = new_player(server, "Asha"), new_player(server, "Asha two")
    tickets = [c.post("/api/queue", json={"game": "draw", "players": 2, "rated": True}).json()
               for c in (one, two)]

    async def settle() -> None:
        await asyncio.sleep(1.0)  # ten passes of the matcher

    asyncio.run(settle())
    for client, t in zip((one, two), tickets, strict=True):
        assert client.get(f"/api/queue/{t['ticket']}").json()["state"] == "waiting"


# -- 3. a rated challenge of one's own bot --------------------------------------------------


def test_a_rated_challenge_of_ones_own_bot_is_refused(server: str) -> None:
    owner = new_player(server, "Owner")
    bot, _ = bot_account(owner)
    for lang in sorted(LANGUAGES):
        r = owner.post(f"/api/challenge?lang={lang}",
                       json={"bot": bot["id"], "game": "block", "rated": True})
        assert r.status_code == 400 and r.json()["error"] == "own_bot_rated", r.text
        assert r.json()["message"] == catalogue(lang)["web.error.own_bot_rated"]
    # casual it may be (here the bot is not online: that is what is said)
    r = owner.post("/api/challenge", json={"bot": bot["id"], "game": "block"})
    assert r.json()["error"] == "bot_offline"


# -- the rule's parts ------------------------------------------------------------------------


def _meta(*seats: Seat) -> TableMeta:
    return TableMeta(Config.make("block", len(seats)), list(seats), seed=1, rated=True)


def test_casual_reasons_read_the_identified_seats() -> None:
    a = Seat("human", name="A", player="pa", addr="1.1.1.1", browser="ba")
    b = Seat("human", name="B", player="pb", addr="1.1.1.1", browser="bb")
    c = Seat("human", name="C", player="pc", addr="2.2.2.2", browser="ba")
    d = Seat("human", name="D", player="pd", addr="3.3.3.3", browser="bd")
    level = Seat("bot", "easy", player="bot-easy", addr="1.1.1.1")
    assert casual_reason(_meta(a, b)) == "same_address"
    assert casual_reason(_meta(a, c)) == "same_browser"
    assert casual_reason(_meta(a, d)) is None
    assert casual_reason(_meta(a, level)) is None  # a bot level is nobody's address


def test_check_rated_spec_wants_the_standard_target_and_a_clock() -> None:
    check_rated_spec(Config.make("all-fives", 2), 15.0)
    check_rated_spec(Config.make("all-fives", 2, target=300), 15.0)  # longer is fine
    with pytest.raises(ClientError) as err:
        check_rated_spec(Config.make("all-fives", 3, target=150), 15.0)
    assert (err.value.code, err.value.params) == ("rated_target", {"n": 200})
    with pytest.raises(ClientError) as err:
        check_rated_spec(Config.make("fives-and-threes", 2), 0.0)
    assert err.value.code == "rated_clock"


class Played:
    """A store that knows each player's match rows."""

    def __init__(self, rows: list[PlayerMatch]) -> None:
        self.rows = rows

    async def matches_of(self, player_id: str, limit: int = 50) -> list[PlayerMatch]:
        return [r for r in self.rows if r.player_id == player_id][:limit]


def _rows(table: str, ts: float, rated: bool = True, who: tuple[str, ...] = ("pa", "pb")
          ) -> list[PlayerMatch]:
    return [PlayerMatch(table, p, i, "block", 2, rated, False, i == 0, 100, 3, ts)
            for i, p in enumerate(who)]


@run
async def test_the_same_two_move_each_others_ratings_at_most_three_times_a_day() -> None:
    now = 1_000_000.0
    a = Seat("human", name="A", player="pa", addr="1.1.1.1")
    b = Seat("human", name="B", player="pb", addr="2.2.2.2")
    meta = _meta(a, b)
    day = [r for i in range(SAME_PAIR_PER_DAY) for r in _rows(f"t{i}", now - 3600 * i)]
    assert await same_pair_reason(Played(day), meta, now) == "same_pair"  # type: ignore[arg-type]
    fewer = day[:-2]  # one match fewer
    assert await same_pair_reason(Played(fewer), meta, now) is None  # type: ignore[arg-type]
    # older than a day, casual, or with a third player only: not counted
    old = fewer + _rows("old", now - 90000)
    casual = fewer + _rows("casual", now - 10, rated=False)
    others = fewer + _rows("o", now - 10, who=("pa", "pc"))
    for rows in (old, casual, others):
        assert await same_pair_reason(Played(rows), meta, now) is None  # type: ignore[arg-type]


def test_every_reason_is_said_in_every_language() -> None:
    for lang in sorted(LANGUAGES):
        for reason in REASONS:
            assert catalogue(lang)[f"web.table.casual.{reason}"].strip()
