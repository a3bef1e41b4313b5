"""Arenas over HTTP on a live server (issue 30): made by a person, joined by four, paired as
soon as they are free, their matches played at ordinary tables with the seat tokens the event
page hands each player alone; the standings equal those computed from the stored results; an
event's table offers no rematch; bad requests are one translated line."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from fives.contests.arena import ArenaResult, arena_standings, outcomes_of_places

from .harness import SeatClient, fast_settings, play_to_end, running_server, wait_until
from .test_players_api import new_player

ARENA = {"title": "Evening arena", "game": "block", "players": 2, "target": 10, "minutes": 30}


def _page(client: httpx.Client, event_id: str) -> dict[str, Any]:
    r = client.get(f"/api/events/{event_id}")
    assert r.status_code == 200, r.text
    page: dict[str, Any] = r.json()
    return page


def _stored_standings(db: Path, event_id: str) -> list[tuple[str, int]]:
    """The standings as this test computes them from the rows the store kept."""
    con = sqlite3.connect(db)
    players = [r[0] for r in con.execute(
        "SELECT player FROM event_entrants WHERE event_id = ? ORDER BY joined", (event_id,))]
    results = [ArenaResult(tuple(json.loads(p)), tuple(outcomes_of_places(json.loads(r)["places"])), f)
               for p, r, f in con.execute("SELECT players, result, finished FROM event_games WHERE "
                                          "event_id = ? AND result IS NOT NULL", (event_id,))]
    return [(s.player, s.points) for s in arena_standings(players, results)]


def test_four_players_are_paired_play_and_stand_as_their_stored_results_say(
        tmp_path: Path) -> None:
    db = tmp_path / "fives.sqlite3"
    with running_server(fast_settings(str(db), event_every=0.1)) as base:
        people = [new_player(base, name) for name in ("Asha", "Ravi", "Meera", "Kabir")]
        made = people[0].post("/api/events", json=ARENA)
        assert made.status_code == 201, made.text
        event_id = made.json()["id"]
        listed = httpx.get(f"{base}/api/events").json()
        assert [e["id"] for e in listed["running"] + listed["coming"]] == [event_id]
        for person in people:
            assert person.post(f"/api/events/{event_id}/join", json={}).status_code == 200
        ids = {person: person.get("/api/me").json()["player"]["id"] for person in people}

        def seats() -> list[dict[str, Any]] | None:
            parts = [_page(p, event_id)["me"] for p in people]
            return parts if all(part.get("token") for part in parts) else None

        parts = wait_until(seats, what="every player's seat")
        tables = {part["table"] for part in parts}
        assert len(tables) == 2
        # a watcher sees the matches in play and no token
        watcher = _page(httpx.Client(base_url=base), event_id)
        assert {m["table"] for m in watcher["live"]} == tables and "me" not in watcher
        assert "tok" not in str(watcher.get("standings"))
        first_opponents = {}
        for part in parts:
            others = [p for p in people if _page(p, event_id)["me"].get("table") == part["table"]]
            first_opponents[part["table"]] = {ids[o] for o in others}

        async def play_all(parts: list[dict[str, Any]]) -> None:
            clients = [await SeatClient(base, part["table"], part["token"]).connect()
                       for part in parts]
            by_table: dict[str, list[SeatClient]] = {}
            for c in clients:
                by_table.setdefault(c.table, []).append(c)
            rng = random.Random(30)
            await asyncio.gather(*(play_to_end(group, rng) for group in by_table.values()))
            for c in clients:
                await c.close()

        asyncio.run(play_all(parts))
        wait_until(lambda: _page(people[0], event_id)["played"] == 2, what="two results")
        # a second pairing at once, never with the last opponent
        parts = wait_until(seats, what="the second pairing")
        for part in parts:
            met = {ids[p] for p in people if _page(p, event_id)["me"].get("table") == part["table"]}
            assert met not in first_opponents.values()
        page = _page(people[0], event_id)
        assert [(s["player"], s["points"]) for s in page["standings"]] == _stored_standings(db, event_id)
        assert sorted(s["points"] for s in page["standings"]) == [0, 0, 2, 2]


def test_an_event_table_offers_no_rematch(tmp_path: Path) -> None:
    with running_server(fast_settings(str(tmp_path / "f.sqlite3"), event_every=0.1)) as base:
        people = [new_player(base, name) for name in ("Asha", "Ravi")]
        event_id = people[0].post("/api/events", json=ARENA).json()["id"]
        for person in people:
            person.post(f"/api/events/{event_id}/join", json={})
        parts = wait_until(lambda: [_page(p, event_id)["me"] for p in people]
                           if all(_page(p, event_id)["me"].get("token") for p in people)
                           else None, what="the seats")

        async def play() -> list[dict[str, Any]]:
            clients = [await SeatClient(base, part["table"], part["token"]).connect()
                       for part in parts]
            last = await play_to_end(clients, random.Random(2))
            assert last["info"]["event"] == event_id
            # the answer to the rematch, not an earlier error of the play (a move gone stale)
            start = len(clients[0].messages)
            await clients[0].send({"type": "rematch"})
            refusal = await clients[0].wait(lambda m: m["type"] == "error", start=start)
            for c in clients:
                await c.close()
            return [refusal]

        [refusal] = asyncio.run(play())
        assert refusal["code"] == "event_match"


def test_one_browser_enters_one_identity(tmp_path: Path) -> None:
    with running_server(fast_settings(str(tmp_path / "f.sqlite3"))) as base:
        first = httpx.Client(base_url=base, timeout=10)
        first.get("/")  # the browser's own id, kept as a cookie
        assert first.post("/api/me", json={"name": "Asha"}).status_code == 201
        event_id = first.post("/api/events", json=ARENA).json()["id"]
        assert first.post(f"/api/events/{event_id}/join", json={}).status_code == 200
        assert first.post(f"/api/events/{event_id}/join", json={}).status_code == 200  # again
        second = httpx.Client(base_url=base, timeout=10,
                              cookies={"fives_browser": first.cookies["fives_browser"]})
        assert second.post("/api/me", json={"name": "Ravi"}).status_code == 201
        r = second.post(f"/api/events/{event_id}/join", json={})
        assert r.status_code == 400 and r.json()["error"] == "event_same_browser"
        assert len(_page(first, event_id)["standings"]) == 1


@pytest.mark.parametrize(("spec", "code"), [
    ({**ARENA, "minutes": 5}, "bad_minutes"),
    ({**ARENA, "minutes": "30"}, "bad_minutes"),
    ({**ARENA, "starts_in": -1}, "bad_start"),
    ({**ARENA, "game": "chess"}, "bad_game"),
    ({**ARENA, "rated": True}, "rated_target"),
    ({**ARENA, "title": 7}, "bad_title"),
    ({**ARENA, "players": 3, "teams": True}, "bad_teams"),
    ([1, 2], "bad_request"),
])
def test_a_bad_arena_is_refused_in_one_translated_line(server: str, spec: Any, code: str) -> None:
    person = new_player(server, "Asha")
    for lang in ("en", "hi"):
        r = person.post(f"/api/events?lang={lang}", json=spec)
        assert r.status_code == 400 and r.json()["error"] == code, r.text
        message = r.json()["message"]
        assert message and "\n" not in message and "Traceback" not in message
        if lang == "hi":
            assert any("\u0900" <= ch <= "\u097f" for ch in message), message
    assert httpx.get(f"{server}/api/events").json()["coming"] == []


def test_a_title_is_printable_text_cut_to_sixty_characters_or_none(server: str) -> None:
    person = new_player(server, "Asha")
    long = person.post("/api/events", json={**ARENA, "title": " शाम  का\u0007 एरीना " + "x" * 80})
    assert long.status_code == 201 and long.json()["title"] == ("शाम का एरीना " + "x" * 80)[:60]
    none = person.post("/api/events", json={**ARENA, "title": ""})
    assert none.status_code == 201 and none.json()["title"] == ""
    assert "title" not in {k for k, v in _page(person, none.json()["id"]).items() if v}


def test_what_cannot_be_done_is_refused_in_one_line(server: str) -> None:
    assert httpx.post(f"{server}/api/events", json=ARENA).status_code == 401  # no identity
    assert httpx.get(f"{server}/api/events/nope").status_code == 404
    person = new_player(server, "Asha")
    event_id = person.post("/api/events", json=ARENA).json()["id"]
    r = person.post(f"/api/events/{event_id}/pause", json={"paused": True})
    assert r.status_code == 400 and r.json()["error"] == "not_entered"
    r = person.post(f"/api/events/{event_id}/pause", json={"paused": "yes"})
    assert r.status_code == 400 and r.json()["error"] == "bad_request"
    for _ in range(4):
        assert person.post("/api/events", json=ARENA).status_code == 201
    r = person.post("/api/events", json=ARENA)
    assert r.status_code == 400 and r.json()["error"] == "too_many_events"


def test_the_organisers_bots_play_people_and_never_each_other(tmp_path: Path) -> None:
    with running_server(fast_settings(str(tmp_path / "f.sqlite3"), event_every=0.1)) as base:
        asha, ravi = new_player(base, "Asha"), new_player(base, "Ravi")
        event_id = asha.post("/api/events", json=ARENA).json()["id"]
        r = ravi.post(f"/api/events/{event_id}/bots", json={"level": "medium"})
        assert r.status_code == 400 and r.json()["error"] == "not_organiser"
        r = asha.post(f"/api/events/{event_id}/bots", json={"level": "grandmaster"})
        assert r.status_code == 400 and r.json()["error"] == "bad_level"
        for level in ("medium", "hard"):
            page = asha.post(f"/api/events/{event_id}/bots", json={"level": level}).json()
        assert "easy" in page["me"]["bots"] and not {"medium", "hard"} & set(page["me"]["bots"])
        assert {s["player"] for s in page["standings"] if s["bot"]} == {"bot-medium", "bot-hard"}
        assert "bots" not in _page(ravi, event_id)["me"]  # only the organiser is offered them
        wait_until(lambda: _page(asha, event_id)["status"] == "running", what="the start")
        time.sleep(0.5)  # a few beats: two bots alone are never paired
        assert _page(asha, event_id)["live"] == []
        asha.post(f"/api/events/{event_id}/join", json={})
        part = wait_until(lambda: _page(asha, event_id)["me"].get("token") and
                          _page(asha, event_id)["me"], what="Asha's seat")
        first = {s["player"] for s in _page(asha, event_id)["standings"] if s["table"]}
        assert len(first) == 2 and first & {"bot-medium", "bot-hard"}

        async def play(part: dict[str, Any]) -> None:
            client = await SeatClient(base, part["table"], part["token"]).connect()
            await play_to_end([client], random.Random(4))
            await client.close()

        asyncio.run(play(part))
        wait_until(lambda: _page(asha, event_id)["played"] == 1, what="the result")
        again = wait_until(lambda: _page(asha, event_id)["me"].get("token") and
                           _page(asha, event_id)["me"], what="Asha's second seat")
        assert again["table"] != part["table"]
        second = {s["player"] for s in _page(asha, event_id)["standings"] if s["table"]}
        me = asha.get("/api/me").json()["player"]["id"]
        assert second - {me} != first - {me}  # the other bot: never the last opponent again


def test_a_duplicate_swiss_deals_each_round_alike_and_stands_as_stored(tmp_path: Path) -> None:
    """Three people and a bot the organiser adds, two rounds: the organiser starts it; every
    table of a round is dealt the same hands; nobody meets anyone twice; the standings (match
    points, Buchholz, duplicate margin) equal those computed from the stored rows; nobody
    joins once it has started."""
    from fractions import Fraction

    from fives.contests.swiss import Board, SwissMatch, swiss_standings
    from fives.store.sqlite import SqliteStore

    db = tmp_path / "f.sqlite3"
    with running_server(fast_settings(str(db), event_every=0.1)) as base:
        people = [new_player(base, name) for name in ("Asha", "Ravi", "Meera", "Kabir")]
        asha = people[0]
        made = asha.post("/api/events", json={"kind": "swiss", "game": "block", "players": 2,
                                              "target": 10, "rounds": 2, "title": "Club night"})
        assert made.status_code == 201, made.text
        event_id = made.json()["id"]
        assert not made.json()["listed"]  # a club's: its link is the way in
        assert httpx.get(f"{base}/api/events").json()["coming"] == []
        for person in people[:3]:
            assert person.post(f"/api/events/{event_id}/join", json={}).status_code == 200
        asha.post(f"/api/events/{event_id}/bots", json={"level": "easy"})
        r = people[3].post(f"/api/events/{event_id}/start", json={})
        assert r.status_code == 400 and r.json()["error"] == "not_organiser"
        assert asha.post(f"/api/events/{event_id}/start", json={}).status_code == 200
        r = people[3].post(f"/api/events/{event_id}/join", json={})
        assert r.status_code == 400 and r.json()["error"] == "event_started"
        seated = people[:3]
        met: set[frozenset[str]] = set()

        async def play(parts: list[dict[str, Any]]) -> None:
            clients = [await SeatClient(base, p["table"], p["token"]).connect() for p in parts]
            groups: dict[str, list[SeatClient]] = {}
            for c in clients:
                groups.setdefault(c.table, []).append(c)
            await asyncio.gather(*(play_to_end(g, random.Random(9)) for g in groups.values()))
            for c in clients:
                await c.close()

        for number in (1, 2):
            def parts(number: int = number) -> list[dict[str, Any]] | None:
                page = _page(asha, event_id)
                if page["round"] != number:
                    return None
                got = [_page(p, event_id)["me"] for p in seated]
                return got if all(g.get("token") for g in got) else None

            round_parts = wait_until(parts, what=f"round {number}'s seats")
            asyncio.run(play(round_parts))
            wait_until(lambda n=number: all(t["result"] for t in _page(asha, event_id)
                                            ["rounds_played"][n - 1]["tables"]),
                       what=f"round {number}'s results")
        page = wait_until(lambda: _page(asha, event_id)["status"] == "finished"
                          and _page(asha, event_id), what="the end")
        assert [len(r["tables"]) for r in page["rounds_played"]] == [2, 2]

    async def stored() -> None:
        store = SqliteStore(db, exclusive=False)
        games = await store.event_games(event_id)
        entrants = [e.player for e in await store.entrants(event_id)]
        for number in (1, 2):
            loaded = [await store.load(g.table_id) for g in games if g.round == number]
            tables = [t for t in loaded if t is not None]
            assert len(tables) == 2
            # duplicate: every deal both tables reached was the same, hands and stock, board
            # by board (a match may last more deals at one table than at the other)
            both = min(len(t.rounds) for t in tables)
            assert both >= 1
            for board in range(both):
                deals = [(t.rounds[board].hands, t.rounds[board].stock) for t in tables]
                assert deals[0] == deals[1], (number, board)
            for g in games:
                if g.round == number:
                    assert frozenset(g.players) not in met
                    met.add(frozenset(g.players))
        matches = [SwissMatch(g.round, g.players[0], g.players[1],
                              tuple(Board(i, m) for i, m in enumerate(g.result["boards"])),
                              Fraction(1) if g.result["places"][0] < g.result["places"][1]
                              else Fraction(1, 2) if g.result["places"][0] == g.result["places"][1]
                              else Fraction(0)) for g in games if g.result]
        want = swiss_standings(entrants, matches)
        assert [(s["player"], s["points"]) for s in page["standings"]] == [
            (s.entrant, float(s.points)) for s in want]
        assert [s["margin"] for s in page["standings"]] == [round(float(s.margin), 1) for s in want]
        await store.close()

    asyncio.run(stored())


def test_a_rated_arenas_matches_move_ratings_once_each_player_agreed(tmp_path: Path) -> None:
    """A rated arena plays the game's full target (as rated tables do); joining it asks for
    the player's agreement; its matches count for both players' ratings."""
    with running_server(fast_settings(str(tmp_path / "f.sqlite3"), event_every=0.1,
                                      trusted_proxies="127.0.0.1")) as base:
        asha = new_player(base, "Asha", "10.0.0.1")
        ravi = new_player(base, "Ravi", "10.0.0.2")
        r = asha.post("/api/events", json={**ARENA, "rated": True})
        assert r.status_code == 400 and r.json()["error"] == "rated_target"  # 10 is too short
        made = asha.post("/api/events", json={**ARENA, "target": None, "rated": True})
        assert made.status_code == 201 and made.json()["rated"], made.text
        event_id = made.json()["id"]
        r = ravi.post(f"/api/events/{event_id}/join", json={})
        assert r.status_code == 400 and r.json()["error"] == "rated_consent"
        for person in (asha, ravi):
            assert person.post(f"/api/events/{event_id}/join",
                               json={"agree": True}).status_code == 200
        parts = wait_until(lambda: [_page(p, event_id)["me"] for p in (asha, ravi)]
                           if all(_page(p, event_id)["me"].get("token") for p in (asha, ravi))
                           else None, what="the seats")

        async def play() -> dict[str, Any]:
            clients = [await SeatClient(base, p["table"], p["token"]).connect() for p in parts]
            last = await play_to_end(clients, random.Random(6), timeout=240)
            for c in clients:
                await c.close()
            return last

        last = asyncio.run(play())
        assert last["info"]["rated"] and last["info"]["casual"] is None
        for person in (asha, ravi):
            assert wait_until(lambda p=person: p.get("/api/me").json()["player"]["ratings"]
                              .get("block"), what="a Block rating")
