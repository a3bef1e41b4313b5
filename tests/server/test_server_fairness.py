"""Fair and private tables (issue 10, items 1 to 3): the deals and the bots' randomness are the
server's secret, friend tables are private and cannot be squatted, and a person cannot pass for
a bot."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import pytest

from fives.bots.host import Seeds, deal_round
from fives.core.games import Config
from fives.core.state import State
from fives.store import SqliteStore

from .harness import SeatClient, create_table, fast_settings, running_server, seat_both


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def finished_record(base: str, table: str, timeout: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        r = httpx.get(f"{base}/api/matches/{table}/record", timeout=5)
        if r.status_code == 200:
            return r.json()
        assert time.monotonic() < deadline, "the match did not finish"
        time.sleep(0.05)


# -- 1. the deals are the server's secret --------------------------------------------------


def test_a_client_seed_is_refused_unless_the_server_runs_for_tests(tmp_path) -> None:
    settings = fast_settings(str(tmp_path / "db.sqlite3"), dev_seeds=False)
    with running_server(settings) as base:
        for path, body in [("/api/tables", {"name": "Asha", "seed": 7}),
                           ("/api/play-now", {"name": "Asha", "seed": 7})]:
            r = httpx.post(base + path, json=body, timeout=5)
            assert r.status_code == 400 and r.json()["error"] == "seed_not_allowed"
            hi = httpx.post(base + path + "?lang=hi", json=body, timeout=5).json()["message"]
            assert hi != r.json()["message"] and "बँटाई" in hi
        # without a seed the table is made as usual
        assert httpx.post(base + "/api/play-now", json={"name": "Asha"}, timeout=5).status_code == 201


def test_deals_are_server_random_and_the_secret_never_leaves_the_server(tmp_path) -> None:
    """Two tables made alike are dealt differently; no message, page of the API or record
    names a table's seed; the finished record says its deals were the server's."""
    db = tmp_path / "db.sqlite3"
    settings = fast_settings(str(db), dev_seeds=False)
    seen: list[str] = []
    with running_server(settings) as base:
        spec: dict[str, Any] = dict(game="block", players=2, watch=True, target=10, turn_time=0,
                                    seats=[{"kind": "bot", "level": "random"}] * 2)
        tables = [create_table(base, **spec)["table"] for _ in range(2)]

        async def watch(table: str) -> None:
            c = await SeatClient(base, table).connect()
            await c.wait(lambda m: m["type"] == "state" and m["result"] is not None, 60)
            seen.extend(c.raw)
            await c.close()

        async def both() -> None:
            await asyncio.gather(*(watch(t) for t in tables))

        run(both())
        records = [finished_record(base, t) for t in tables]
        seen.append(httpx.get(f"{base}/api/tables", timeout=5).text)
        seen.append(httpx.get(f"{base}/api/matches", timeout=5).text)
        seen.extend(json.dumps(r) for r in records)
        seen.extend(httpx.get(f"{base}/api/matches/{t}/replay", timeout=5).text for t in tables)
    assert records[0]["rounds"][0]["hands"] != records[1]["rounds"][0]["hands"]
    assert all(r["deals"] == "server-random" for r in records)
    store = SqliteStore(db)
    seeds = [str(asyncio.run(store.load(t)).meta["seed"]) for t in tables]  # type: ignore[union-attr]
    store.close_now()
    for seed in seeds:
        assert len(seed) >= 6
        assert not any(seed in text for text in seen), "a table's seed reached a client"


def test_a_test_server_deals_what_its_seed_predicts(server: str) -> None:
    """In the development mode a table's seed predicts its deals (what the tests rely on),
    and its record says so."""
    created = create_table(server, game="block", players=2, watch=True, target=10, seed=42,
                           turn_time=0, seats=[{"kind": "bot", "level": "random"}] * 2)
    record = finished_record(server, created["table"])
    state = State(Config.make("block", 2, target=10))
    deal_round(state, Seeds(42))
    info = state.current_round_info()
    assert record["rounds"][0]["hands"] == [[str(t) for t in h] for h in info.hands]
    assert record["deals"] == "fixed-seed"


@pytest.mark.parametrize("seed", [True, "7", 2**63, -1, 1.5])
def test_a_bad_seed_is_refused_even_for_tests(server: str, seed: Any) -> None:
    r = httpx.post(f"{server}/api/tables", json={"name": "Asha", "seed": seed}, timeout=5)
    assert r.status_code == 400 and r.json()["error"] == "bad_request"


# -- 2. private tables, seat caps, silent seat holders --------------------------------------


def friends_table(base: str, **kw: Any) -> dict[str, Any]:
    spec: dict[str, Any] = dict(game="all-fives", players=3, name="Asha", turn_time=0,
                                seats=[{"kind": "human"}] * 3)
    spec.update(kw)
    return create_table(base, **spec)


def lobby_ids(base: str) -> set[str]:
    return {t["id"] for t in httpx.get(f"{base}/api/tables", timeout=5).json()["tables"]}


def test_friend_tables_are_private_unlisted_and_closed_to_strangers(server: str) -> None:
    created = friends_table(server)
    assert created["private"] is True and len(created["invite"]) >= 16
    assert created["invite"] not in created["table"]
    opened = friends_table(server, private=False)
    assert opened["private"] is False and opened["invite"] is None
    bots = httpx.post(f"{server}/api/play-now", json={"name": "Asha"}, timeout=5).json()
    assert bots["private"] is False
    listed = lobby_ids(server)
    assert created["table"] not in listed
    assert {opened["table"], bots["table"]} <= listed

    async def go() -> None:
        # a stranger who knows the table id but not the invite is turned away
        # one letter off (the last made "x", or "y" where it was "x": a real invite ends in
        # "x" one time in 64, and then the "wrong" one was right)
        real = created["invite"]
        wrong = real[:-1] + ("y" if real.endswith("x") else "x")
        for invite in (None, "guess", wrong):
            stranger = SeatClient(server, created["table"], invite=invite)
            await stranger.connect(hello=False)
            hello: dict[str, Any] = {"type": "hello"}
            if invite:
                hello["invite"] = invite
            await stranger.send(hello)
            err = await stranger.wait(lambda m: m["type"] == "error")
            assert err["code"] == "private_table"
            await asyncio.wait_for(stranger._task, 5)  # the server closed the connection
            assert stranger.ws.close_code == 4403
            assert not any(m["type"] == "state" for m in stranger.messages)
        # the invite lets a friend in, to watch or to take a seat; the seat's token alone
        # brings the creator back; both are told the invite (to share it)
        friend = await SeatClient(server, created["table"], invite=created["invite"]).connect()
        assert friend.seat is None and friend.messages[0]["invite"] == created["invite"]
        await friend.send({"type": "join", "seat": 1, "name": "Bea"})
        await friend.wait(lambda m: m["type"] == "joined")
        host = await SeatClient(server, created["table"], created["token"]).connect()
        assert host.seat == 0 and host.messages[0]["invite"] == created["invite"]
        assert host.state["info"]["private"] is True
        for c in (friend, host):
            await c.close()

    run(go())


def test_a_private_match_is_shown_only_to_those_with_its_invite(server: str) -> None:
    created = create_table(server, game="block", players=2, watch=True, target=10, turn_time=0,
                           private=True, seats=[{"kind": "bot", "level": "random"}] * 2)
    table, invite = created["table"], created["invite"]

    async def go() -> None:
        c = await SeatClient(server, table, invite=invite).connect()
        await c.wait(lambda m: m["type"] == "state" and m["result"] is not None, 60)
        await c.close()

    run(go())
    for path in (f"/api/matches/{table}/record", f"/api/matches/{table}/replay"):
        assert httpx.get(server + path, timeout=5).status_code == 404
        assert httpx.get(server + path + "?invite=nope", timeout=5).status_code == 404
        assert httpx.get(server + path + f"?invite={invite}", timeout=5).status_code == 200
    listed = httpx.get(f"{server}/api/matches", timeout=5).json()["matches"]
    assert table not in {m["id"] for m in listed}


def test_one_seat_per_address_at_an_open_table_and_a_cap_in_all(tmp_path) -> None:
    """The squatter of the attack took all the free seats of five tables from one address."""
    settings = fast_settings(str(tmp_path / "db.sqlite3"), open_seats_per_address=1,
                             seats_per_address=3)
    with running_server(settings) as base:
        opened = friends_table(base, private=False)
        private = friends_table(base)

        async def go() -> None:
            squatter = await SeatClient(base, opened["table"]).connect()
            await squatter.send({"type": "join", "seat": 1, "name": "Sam"})
            err = await squatter.wait(lambda m: m["type"] == "error")
            assert err["code"] == "one_seat_each"  # the creator's address already sits here
            # friends sharing one address (a family's wifi) may sit together at a private one
            friend = await SeatClient(base, private["table"], invite=private["invite"]).connect()
            await friend.send({"type": "join", "seat": 1, "name": "Bea"})
            await friend.wait(lambda m: m["type"] == "joined")
            # three seats are now held from this address: no fourth, anywhere
            other = await SeatClient(base, private["table"], invite=private["invite"]).connect()
            await other.send({"type": "join", "seat": 2, "name": "Cy"})
            err = await other.wait(lambda m: m["type"] == "error")
            assert err["code"] == "too_many_seats" and "3" in err["message"]
            for c in (squatter, friend, other):
                await c.close()

        run(go())
        r = httpx.post(f"{base}/api/play-now", json={"name": "Asha"}, timeout=5)
        assert r.status_code == 429 and r.json()["error"] == "too_many_seats"


def test_a_seat_left_at_a_waiting_table_is_freed_for_others(tmp_path) -> None:
    settings = fast_settings(str(tmp_path / "db.sqlite3"), seat_release=0.3)
    with running_server(settings) as base:
        created = friends_table(base)

        async def go() -> None:
            host = await SeatClient(base, created["table"], created["token"]).connect()
            guest = await SeatClient(base, created["table"], invite=created["invite"]).connect()
            await guest.send({"type": "join", "seat": 1, "name": "Bea"})
            joined = await guest.wait(lambda m: m["type"] == "joined")
            await host.wait(lambda m: m["type"] == "state" and m["info"]["seats"][1]["claimed"])
            start = len(host.messages)
            await guest.close()
            st = await host.wait(lambda m: m["type"] == "state"
                                 and not m["info"]["seats"][1]["claimed"], 5, start)
            assert st["info"]["seats"][1]["name"] is None
            assert st["info"]["seats"][0]["claimed"]  # the host (who is here) keeps theirs
            # the old token no longer opens the seat
            back = await SeatClient(base, created["table"], joined["token"],
                                    invite=created["invite"]).connect()
            assert back.seat is None
            for c in (host, back):
                await c.close()

        run(go())


@pytest.mark.parametrize("leaves", [False, True])
def test_a_silent_player_without_a_clock_hands_the_seat_to_a_bot(tmp_path, leaves: bool) -> None:
    """No clock: a player who stays silent on their turn (or sooner, one who left) does not
    hold the table for ever; a bot plays for them until they come back."""
    idle, absent = (60.0, 0.3) if leaves else (0.5, 60.0)
    settings = fast_settings(str(tmp_path / "db.sqlite3"), idle_turn=idle, absent_turn=absent)
    with running_server(settings) as base:
        created = create_table(base, game="draw", players=2, name="Asha", turn_time=0,
                               seats=[{"kind": "human"}, {"kind": "human"}])

        async def go() -> None:
            a, b = await seat_both(base, created)
            mover = a.state["view"]["turn"]
            watcher = b if mover == 0 else a
            if leaves:
                await (a if mover == 0 else b).close()
            ev = await watcher.wait(lambda m: m["type"] == "state" and m["event"] is not None
                                    and m["event"].get("how") == "away", 10)
            assert ev["event"]["seat"] == mover and ev["info"]["seats"][mover]["away"]
            for c in (a, b):
                await c.close()

        run(go())


# -- 3. a person cannot pass for a bot ------------------------------------------------------


@pytest.mark.parametrize("name", ["expert", "Expert", "EXPERT!", "3xp3rt", "\u0435xpert",
                                  "e x p e r t", "Hard bot", "Bot 2 (expert)", "bot", "Random",
                                  "cmd:python mybot.py", "विशेषज्ञ", "बॉट (कठिन)"])
def test_a_person_cannot_take_a_bots_name(shared_server: str, name: str) -> None:
    r = httpx.post(f"{shared_server}/api/play-now", json={"name": name}, timeout=5)
    assert r.status_code == 400 and r.json()["error"] == "bad_name_bot", name
    created = friends_table(shared_server)

    async def go() -> None:
        c = await SeatClient(shared_server, created["table"], invite=created["invite"]).connect()
        await c.send({"type": "join", "seat": 1, "name": name})
        err = await c.wait(lambda m: m["type"] == "error")
        assert err["code"] == "bad_name_bot"
        await c.close()

    run(go())


@pytest.mark.parametrize("name", ["Hardik", "Asha", "Easy Rider", "Randy", "हार्दिक"])
def test_names_that_merely_contain_a_level_are_names(shared_server: str, name: str) -> None:
    r = httpx.post(f"{shared_server}/api/play-now", json={"name": name}, timeout=5)
    assert r.status_code == 201, r.text


def test_history_replay_and_record_know_bots_by_kind(tmp_path) -> None:
    """A match stored before names were checked, where a person called themselves "expert":
    history and replay still show that seat as a person, and the bot as a bot."""
    from fives.bots.host import play_match
    from fives.bots.ladder import RandomBot
    from fives.core.record import record_of

    db = tmp_path / "db.sqlite3"
    cfg = Config.make("block", 2, target=10)
    state = play_match(cfg, [RandomBot(), RandomBot()], seed=3)
    data = record_of(state, seats=["expert", "easy"]).to_data()
    store = SqliteStore(db)
    meta = {"game": "block", "players": 2, "teams": False, "target": 10, "rules": {},
            "turn_time": 0.0, "seed": 1, "host": 0, "private": False, "invite": None,
            "seats": [{"kind": "human", "name": "expert", "level": None, "token": "x"},
                      {"kind": "bot", "level": "easy", "name": None, "token": None}]}
    asyncio.run(store.create_table("oldmatch1", meta, 1.0))
    asyncio.run(store.finish("oldmatch1", data, 2.0))
    store.close_now()
    with running_server(fast_settings(str(db))) as base:
        [listed] = httpx.get(f"{base}/api/matches", timeout=5).json()["matches"]
        assert listed["seats"] == ["expert", "easy"] and listed["kinds"] == ["human", "bot"]
        replay = httpx.get(f"{base}/api/matches/oldmatch1/replay", timeout=5).json()
        assert replay["kinds"] == ["human", "bot"]
        # a match finished now writes the kinds into its record too
        created = create_table(base, game="block", players=2, name="Asha", target=5, seed=2,
                               turn_time=0, seats=[{"kind": "human"}, {"kind": "bot"}])

        async def go() -> None:
            from .harness import play_to_end

            c = await SeatClient(base, created["table"], created["token"]).connect()
            await play_to_end([c], __import__("random").Random(1), timeout=60)
            await c.close()

        run(go())
        record = finished_record(base, created["table"])
        assert record["seats"] == ["Asha", "easy"] and record["seat_kinds"] == ["human", "bot"]


def test_a_browser_finds_its_own_tables_private_ones_too_and_nobody_elses(server: str) -> None:
    """The lobby's "Your tables": a seat's token proves the seat, so a private table is listed
    to its holder; a wrong token or an unknown table says nothing; bad bodies are refused."""
    private = friends_table(server)
    opened = friends_table(server, private=False)

    def mine(claims: Any) -> httpx.Response:
        return httpx.post(f"{server}/api/tables/mine?lang=hi", json={"tables": claims}, timeout=5)

    found = mine([{"table": private["table"], "token": private["token"]},
                  {"table": opened["table"], "token": opened["token"]}]).json()["tables"]
    assert [(t["id"], t["seat"], t["private"]) for t in found] == [
        (private["table"], 0, True), (opened["table"], 0, False)]
    assert private["invite"] not in json.dumps(found)  # the invite is told on the table only
    assert mine([{"table": private["table"], "token": opened["token"]},
                 {"table": "nosuchtable", "token": private["token"]}]).json() == {"tables": []}
    for bad in ("x", [1], [{"table": private["table"]}], [{"table": "", "token": "t"}],
                [{"table": "a", "token": "t" * 101}], [{"table": "a", "token": "t"}] * 41):
        r = mine(bad)
        assert r.status_code == 400 and r.json()["error"] == "bad_request"
        assert "Traceback" not in r.text and r.json()["message"]
