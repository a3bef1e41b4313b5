"""Players who come back (issue 17): an identity without sign-up kept as an HttpOnly cookie
(only its hash stored), names checked, device links spent once and revocable, "forget me",
rated matches between identified players, and public profiles that show nothing private."""

from __future__ import annotations

import asyncio
import hashlib
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from .harness import SeatClient, fast_settings, play_to_end, running_server


def new_player(base: str, name: str, addr: str | None = None) -> httpx.Client:
    """A browser with an identity called ``name`` (``addr``: at that address, forwarded by
    the trusted proxy the ``server`` fixture has)."""
    client = httpx.Client(base_url=base, timeout=10,
                          headers={"X-Forwarded-For": addr} if addr else None)
    r = client.post("/api/me", json={"name": name})
    assert r.status_code == 201, r.text
    return client


def wait_for(fetch: Any, timeout: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = fetch()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.05)


def test_an_identity_is_a_cookie_whose_hash_alone_is_stored(tmp_path: Path) -> None:
    db = tmp_path / "fives.sqlite3"
    with running_server(fast_settings(str(db))) as base:
        browser = new_player(base, "Asha")
        me = browser.get("/api/me").json()["player"]
        assert me["name"] == "Asha" and len(me["tag"]) == 4 and me["label"] == f"Asha#{me['tag']}"
        cookie = browser.cookies["fives_id"]
        assert len(cookie) >= 40
        assert httpx.get(f"{base}/api/me").json() == {"player": None}  # another browser
    stored = sqlite3.connect(db).execute("SELECT secret_hash FROM player_secrets").fetchall()
    dump = "\n".join(sqlite3.connect(db).iterdump())
    assert cookie not in dump and len(stored) == 1 and len(stored[0][0]) == 64


def test_the_secret_cookie_is_http_only_and_same_site(server: str) -> None:
    r = httpx.post(f"{server}/api/me", json={"name": "Asha"})
    header = ";".join(r.headers.get_list("set-cookie")).lower()
    assert "fives_id=" in header and "httponly" in header and "samesite=lax" in header
    assert "secret" not in r.text and r.cookies["fives_id"] not in r.text


def test_the_first_page_view_gives_a_browser_id_and_no_secret_until_a_name(
        tmp_path: Path) -> None:
    db = tmp_path / "fives.sqlite3"
    with running_server(fast_settings(str(db))) as base:
        browser = httpx.Client(base_url=base, timeout=10)
        page = browser.get("/")
        header = ";".join(page.headers.get_list("set-cookie")).lower()
        assert "fives_browser=" in header and "httponly" in header and "samesite=lax" in header
        assert "fives_id=" not in header  # no secret before there is an identity to open
        assert page.headers["cache-control"] == "private, no-cache"  # never a shared cache's
        assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM player_secrets").fetchone() == (0,)
        again = browser.get("/rules")  # a browser that has its id is given no other
        assert "set-cookie" not in again.headers
        assert again.headers["cache-control"] == "no-cache"
        assert browser.get("/api/me").json() == {"player": None}
        r = browser.post("/api/me", json={"name": "Asha"})
        header = ";".join(r.headers.get_list("set-cookie")).lower()
        assert "fives_id=" in header and "httponly" in header and "samesite=lax" in header
        secret = browser.cookies["fives_id"]
        assert len(secret) >= 40 and secret not in r.text
        assert browser.get("/api/me").json()["player"]["name"] == "Asha"
    stored = sqlite3.connect(db).execute("SELECT secret_hash FROM player_secrets").fetchall()
    assert stored == [(hashlib.sha256(secret.encode()).hexdigest(),)]


def test_a_secret_the_browser_chose_never_becomes_an_identitys(server: str) -> None:
    """Cookie fixation: whoever planted a first-visit cookie knew the identity made with it."""
    planted = "planted-by-someone-else-" + "x" * 20
    r = httpx.post(f"{server}/api/me", json={"name": "Asha"}, cookies={"fives_id": planted})
    assert r.status_code == 201 and r.cookies["fives_id"] != planted
    assert httpx.get(f"{server}/api/me", cookies={"fives_id": planted}).json() == {"player": None}
    me = httpx.get(f"{server}/api/me", cookies={"fives_id": r.cookies["fives_id"]}).json()
    assert me["player"]["name"] == "Asha"


def test_a_revoked_or_forgotten_secret_never_opens_a_new_identity(server: str) -> None:
    laptop = new_player(server, "Asha")
    shared = httpx.Client(base_url=server, timeout=10)  # a café's computer, its cookie copied
    link = laptop.post("/api/me/link", json={}).json()["url"].split("#")[1]
    shared.post("/api/device", json={"link": link})
    copied = shared.cookies["fives_id"]
    laptop.post("/api/me/revoke", json={})
    # the next person at that computer makes an identity: not with the copied secret
    r = shared.post("/api/me", json={"name": "Ravi"})
    assert r.status_code == 201 and shared.cookies["fives_id"] != copied
    assert httpx.get(f"{server}/api/me", cookies={"fives_id": copied}).json() == {"player": None}
    # forgotten: the same
    secret = laptop.cookies["fives_id"]
    laptop.post("/api/me/forget", json={})
    r = httpx.post(f"{server}/api/me", json={"name": "Mina"}, cookies={"fives_id": secret})
    assert r.status_code == 201 and r.cookies["fives_id"] != secret


@pytest.mark.parametrize(("name", "code"), [
    ("A", "bad_player_name"), ("x" * 19, "bad_player_name"), ("", "bad_player_name"),
    ("Asha\u202eahsA", "bad_name_chars"), ("Asha\u2066x", "bad_name_chars"),
    ("As\u200bha", "bad_name_chars"), ("Asha\x07", "bad_name_chars"),
    ("Asha#1234", "bad_name_chars"), ("Expert", "bad_name_bot"), (42, "bad_player_name"),
])
def test_a_bad_name_is_refused_with_one_translated_line(server: str, name: Any,
                                                         code: str) -> None:
    for lang in ("en", "hi"):
        r = httpx.post(f"{server}/api/me?lang={lang}", json={"name": name})
        assert r.status_code == 400 and r.json()["error"] == code
        assert "\n" not in r.json()["message"] and not r.json()["message"].startswith("web.")
    assert httpx.get(f"{server}/api/me").json() == {"player": None}


def test_names_in_other_scripts_and_markup_are_kept_as_text(server: str) -> None:
    browser = new_player(server, "आशा कुमारी")
    assert browser.get("/api/me").json()["player"]["name"] == "आशा कुमारी"
    other = new_player(server, "<b>x</b>")
    assert other.get("/api/me").json()["player"]["name"] == "<b>x</b>"  # pages use textContent


def test_two_players_of_one_name_are_told_apart_by_their_tags(server: str) -> None:
    tags = {new_player(server, "Ravi").get("/api/me").json()["player"]["tag"] for _ in range(5)}
    assert len(tags) == 5


def test_a_look_alike_of_another_players_name_is_refused_with_one_translated_line(
        server: str) -> None:
    """Issue 39: a second browser on the same address takes an all-Cyrillic "Аѕһа" (every
    letter of one script, so no mixed-script check sees it) after "Asha" exists: refused as a
    new name and as a rename; "Asha" itself, told apart by its tag, is not."""
    new_player(server, "Asha", "10.0.0.7")
    cyrillic = "\u0410\u0455\u04bb\u0430"
    messages = set()
    for lang in ("en", "hi"):
        r = httpx.post(f"{server}/api/me?lang={lang}", json={"name": cyrillic},
                       headers={"X-Forwarded-For": "10.0.0.7"})
        assert r.status_code == 400 and r.json()["error"] == "name_looks_taken"
        assert "\n" not in r.json()["message"] and not r.json()["message"].startswith("web.")
        messages.add(r.json()["message"])
    assert len(messages) == 2  # one per language
    ravi = new_player(server, "Ravi", "10.0.0.7")
    r = ravi.post("/api/me/name", json={"name": cyrillic})
    assert r.status_code == 400 and r.json()["error"] == "name_looks_taken"
    assert ravi.get("/api/me").json()["player"]["name"] == "Ravi"
    second = new_player(server, "Asha", "10.0.0.7")
    assert second.get("/api/me").json()["player"]["tag"] != ""


def test_a_browser_with_an_identity_cannot_make_another(server: str) -> None:
    browser = new_player(server, "Asha")
    r = browser.post("/api/me", json={"name": "Other"})
    assert r.status_code == 409 and r.json()["error"] == "already_identified"


def test_identities_are_rate_limited_per_address(tmp_path: Path) -> None:
    settings = fast_settings(str(tmp_path / "f.sqlite3"), identity_rate=1.0, identity_burst=3)
    with running_server(settings) as base:
        codes = [httpx.post(f"{base}/api/me", json={"name": f"P{i}x"}).status_code
                 for i in range(5)]
    assert codes[:3] == [201] * 3 and codes[3:] == [429, 429]


def test_renaming_keeps_the_player_and_their_tag(server: str) -> None:
    browser = new_player(server, "Asha")
    before = browser.get("/api/me").json()["player"]
    after = browser.post("/api/me/name", json={"name": "Asha K"}).json()["player"]
    assert (after["id"], after["tag"], after["name"]) == (before["id"], before["tag"], "Asha K")
    assert httpx.post(f"{server}/api/me/name", json={"name": "X y"}).json()["error"] == "no_identity"


def test_a_device_link_moves_the_identity_once(server: str) -> None:
    laptop = new_player(server, "Asha")
    made = laptop.post("/api/me/link", json={}).json()
    assert made["url"].startswith(f"{server}/device#") and made["qr"].startswith("data:image/svg")
    link = made["url"].split("#", 1)[1]
    phone = httpx.Client(base_url=server, timeout=10)
    r = phone.post("/api/device", json={"link": link})
    assert r.status_code == 200 and r.json()["player"]["name"] == "Asha"
    assert phone.get("/api/me").json()["player"]["id"] == laptop.get("/api/me").json()["player"]["id"]
    thief = httpx.Client(base_url=server, timeout=10)
    r = thief.post("/api/device", json={"link": link})
    assert r.status_code == 400 and r.json()["error"] == "bad_link"
    assert thief.get("/api/me").json() == {"player": None}


def test_revoking_signs_out_a_stolen_device_and_unused_links(server: str) -> None:
    laptop = new_player(server, "Asha")
    stolen = httpx.Client(base_url=server, timeout=10)
    stolen.post("/api/device", json={"link": laptop.post("/api/me/link", json={}).json()["url"].split("#")[1]})
    unused = laptop.post("/api/me/link", json={}).json()["url"].split("#")[1]
    assert laptop.post("/api/me/revoke", json={}).json() == {"revoked": 2}
    assert stolen.get("/api/me").json() == {"player": None}
    assert httpx.post(f"{server}/api/device", json={"link": unused}).json()["error"] == "bad_link"
    assert laptop.get("/api/me").json()["player"]["name"] == "Asha"


def test_forget_me_deletes_the_identity_and_clears_the_cookie(server: str) -> None:
    browser = new_player(server, "Asha")
    player_id = browser.get("/api/me").json()["player"]["id"]
    secret = browser.cookies["fives_id"]
    r = browser.post("/api/me/forget", json={})
    assert r.status_code == 200 and r.json() == {"forgotten": True}
    assert browser.get("/api/me").json() == {"player": None}
    again = httpx.get(f"{server}/api/me", cookies={"fives_id": secret})
    assert again.json() == {"player": None}
    assert httpx.get(f"{server}/api/players/{player_id}").status_code == 404


def cookies_of(client: httpx.Client) -> dict[str, str]:
    return {k: v for k, v in client.cookies.items()}


def addr_of(client: httpx.Client) -> str | None:
    return client.headers.get("X-Forwarded-For")


async def rated_match(base: str, a: httpx.Client, b: httpx.Client, seed: int,
                      private: bool = False) -> dict[str, Any]:
    """A two-person match of Block asked for rated, between the players of browsers ``a`` and
    ``b`` (each at its own address, or both at 127.0.0.1: then it is played casual)."""
    r = a.post("/api/tables", json={"game": "block", "players": 2, "rated": True,
                                    "private": private, "seed": seed,
                                    "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert r.status_code == 201, r.text
    created = r.json()
    first = await SeatClient(base, created["table"], created["token"],
                             cookies=cookies_of(a), addr=addr_of(a)).connect()
    second = await SeatClient(base, created["table"], cookies=cookies_of(b),
                              addr=addr_of(b), invite=created.get("invite")).connect()
    await second.send({"type": "join", "seat": 1, "name": "ignored", "rated": 1})
    await second.wait(lambda m: m["type"] == "joined")
    second.seat = 1
    last = await play_to_end([first, second], random.Random(seed))
    for c in (first, second):
        await c.close()
    return last


def test_a_rated_match_rates_both_players_and_lists_it(server: str) -> None:
    asha, ravi = new_player(server, "Asha", "10.0.0.1"), new_player(server, "Ravi", "10.0.0.2")
    last = asyncio.run(rated_match(server, asha, ravi, 11))
    names = [s["name"] for s in last["info"]["seats"]]
    assert names[0].startswith("Asha#") and names[1].startswith("Ravi#")
    assert last["info"]["rated"] and all(s["player"] for s in last["info"]["seats"])
    me = wait_for(lambda: asha.get("/api/me").json()["player"]["ratings"].get("block"))
    them = ravi.get("/api/me").json()["player"]["ratings"]["block"]
    winner = last["result"]["winner"]
    assert (me["rating"] > them["rating"]) == (winner == 0) and me["provisional"]
    [match] = asha.get("/api/me").json()["player"]["matches"]
    assert match["rated"] and match["won"] == (winner == 0) and match["rating"] == me["rating"]
    board = httpx.get(f"{server}/api/leaderboard/block").json()["players"]
    assert {p["name"] for p in board} == {"Asha", "Ravi"}


def test_joining_a_rated_table_needs_an_identity_and_consent(server: str) -> None:
    asha, ravi = new_player(server, "Asha"), new_player(server, "Ravi")
    created = asha.post("/api/tables", json={
        "game": "block", "players": 2, "rated": True, "private": False,
        "seats": [{"kind": "human"}, {"kind": "human"}]}).json()

    async def go() -> list[str]:
        codes = []
        for cookies, msg in [(None, {"rated": 1}), (cookies_of(ravi), {}),
                             ({"fives_id": asha.cookies["fives_id"]}, {"rated": 1})]:
            c = await SeatClient(server, created["table"], cookies=cookies).connect()
            await c.send({"type": "join", "seat": 1, "name": "x", **msg})
            codes.append((await c.wait(lambda m: m["type"] == "error"))["code"])
            await c.close()
        return codes

    assert asyncio.run(go()) == ["rated_needs_identity", "rated_consent", "same_player"]
    r = httpx.post(f"{server}/api/tables", json={"game": "block", "rated": True, "name": "Bo"})
    assert r.status_code == 400 and r.json()["error"] == "rated_needs_identity"


def test_two_identities_of_one_browser_cannot_sit_at_one_rated_table(server: str) -> None:
    browser = new_player(server, "Asha")
    created = browser.post("/api/tables", json={
        "game": "block", "players": 2, "rated": True, "private": False,
        "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    # the same browser forgets its identity's cookie and makes a second one
    browser.cookies.delete("fives_id")
    assert browser.post("/api/me", json={"name": "Asha two"}).status_code == 201

    async def go() -> str:
        c = await SeatClient(server, created["table"], cookies=cookies_of(browser)).connect()
        await c.send({"type": "join", "seat": 1, "name": "x", "rated": 1})
        code = (await c.wait(lambda m: m["type"] == "error"))["code"]
        await c.close()
        return str(code)

    assert asyncio.run(go()) == "same_browser"


def test_a_bot_level_is_rated_from_its_rated_matches_against_people(server: str) -> None:
    asha = new_player(server, "Asha")
    r = asha.post("/api/play-now", json={"game": "draw", "players": 2, "level": "random",
                                         "rated": True, "seed": 5})
    created = r.json()

    async def go() -> dict[str, Any]:
        c = await SeatClient(server, created["table"], created["token"],
                             cookies=cookies_of(asha)).connect()
        last = await play_to_end([c], random.Random(5))
        await c.close()
        return last

    asyncio.run(go())
    ratings = wait_for(lambda: httpx.get(f"{server}/api/bot-ratings").json()["ratings"])
    assert set(ratings) == {"draw"} and set(ratings["draw"]) == {"random"}
    bots = httpx.get(f"{server}/api/leaderboard/draw?kind=bot").json()["players"]
    assert [(p["kind"], p["name"]) for p in bots] == [("bot", "random")]


def test_a_casual_match_is_listed_but_not_rated(server: str) -> None:
    asha = new_player(server, "Asha")
    created = asha.post("/api/play-now", json={"game": "block", "players": 2, "seed": 3}).json()

    async def go() -> None:
        c = await SeatClient(server, created["table"], created["token"],
                             cookies=cookies_of(asha)).connect()
        await play_to_end([c], random.Random(3))
        await c.close()

    asyncio.run(go())
    me = wait_for(lambda: asha.get("/api/me").json()["player"]["matches"])
    assert [m["rated"] for m in me] == [False]
    assert asha.get("/api/me").json()["player"]["ratings"] == {}


def test_a_profile_shows_others_no_private_match(server: str) -> None:
    asha = new_player(server, "Asha")
    created = asha.post("/api/tables", json={
        "game": "block", "players": 2, "private": True, "seed": 4,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]}).json()

    async def go() -> None:
        c = await SeatClient(server, created["table"], created["token"],
                             cookies=cookies_of(asha)).connect()
        await c.send({"type": "start"})
        await play_to_end([c], random.Random(4))
        await c.close()

    asyncio.run(go())
    mine = wait_for(lambda: asha.get("/api/me").json()["player"]["matches"])
    assert len(mine) == 1
    player_id = asha.get("/api/me").json()["player"]["id"]
    public = httpx.get(f"{server}/api/players/{player_id}").json()
    assert public["matches"] == [] and not public["own"]
    assert "fives_id" not in str(public) and "secret" not in str(public)
    assert asha.get(f"/api/players/{player_id}").json()["own"]


def test_quick_phrases_are_keys_from_a_fixed_set_said_by_seated_players(server: str) -> None:
    asha = new_player(server, "Asha")
    created = asha.post("/api/tables", json={
        "game": "block", "players": 2, "private": False,
        "seats": [{"kind": "human"}, {"kind": "human"}]}).json()

    async def go() -> tuple[list[dict[str, Any]], list[str]]:
        me = await SeatClient(server, created["table"], created["token"]).connect()
        watcher = await SeatClient(server, created["table"]).connect()
        await me.send({"type": "phrase", "key": "gg"})
        heard = [await c.wait(lambda m: m["type"] == "phrase") for c in (me, watcher)]
        codes = []
        for client, msg in [(me, {"type": "phrase", "key": "gg"}),  # too soon after the last
                            (me, {"type": "phrase", "key": "you idiot"}),
                            (me, {"type": "phrase", "key": "gg", "text": "hidden"}),
                            (watcher, {"type": "phrase", "key": "wp"})]:
            start = len(client.messages)
            await client.send(msg)
            codes.append((await client.wait(lambda m: m["type"] == "error", start=start))["code"])
        for c in (me, watcher):
            await c.close()
        return heard, codes

    heard, codes = asyncio.run(go())
    assert heard == [{"type": "phrase", "seat": 0, "key": "gg"}] * 2
    assert codes == ["phrase_wait", "bad_phrase", "bad_field", "not_seated"]


def test_the_watch_list_shows_live_open_tables_strongest_first(server: str) -> None:
    asha = new_player(server, "Asha")
    strong = asha.post("/api/tables", json={
        "game": "block", "players": 2, "private": False, "watch": True,
        "seats": [{"kind": "bot", "level": "expert"}, {"kind": "bot", "level": "hard"}]})
    hidden = asha.post("/api/tables", json={
        "game": "block", "players": 2, "private": True,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}]})
    assert strong.status_code == hidden.status_code == 201
    # a bots' table plays at once; the private one is never listed
    tables = wait_for(lambda: httpx.get(f"{server}/api/watch").json()["tables"])
    assert [t["id"] for t in tables] == [strong.json()["table"]]
    assert tables[0]["rating"] == 1500 and "token" not in str(tables[0])


@pytest.mark.parametrize(("method", "path", "body", "status", "code"), [
    ("post", "/api/me", b"{not json", 400, "bad_json"),
    ("post", "/api/me", [], 400, "bad_player_name"),
    ("post", "/api/device", {}, 400, "bad_link"),
    ("post", "/api/device", {"link": "x" * 500}, 400, "bad_link"),
    ("post", "/api/device", {"link": 12}, 400, "bad_link"),
    ("post", "/api/me/name", {"name": "\u202e"}, 400, "bad_name_chars"),
    # a look-alike: Cyrillic "А" (U+0410) for Latin "A" (issue 39)
    ("post", "/api/me/name", {"name": "\u0410sha"}, 400, "bad_name_look_alike"),
    ("post", "/api/me/bots", {"name": "P\u0430ul bot"}, 400, "bad_name_look_alike"),
    ("post", "/api/me/bots", {"name": "\x00bad"}, 400, "bad_name_chars"),
    ("post", "/api/me/bots/onothere/token", {}, 404, "not_found"),
    ("post", "/api/challenge", [], 400, "bad_request"),
    ("post", "/api/challenge", {"bot": 5}, 400, "bot_offline"),
    ("post", "/api/queue/nope/bots", {"accept": True}, 404, "not_found"),
    ("get", "/api/queue/nope", None, 404, "not_found"),
    ("get", "/api/players/" + "x" * 60, None, 404, "not_found"),
    ("get", "/api/leaderboard/chess", None, 404, "not_found"),
    ("get", "/api/leaderboard/block?kind=robot", None, 400, "bad_request"),
    ("post", "/api/tables", {"game": "block", "rated": "yes"}, 400, "bad_request"),
])
def test_bad_player_requests_get_one_translated_line(server: str, method: str, path: str,
                                                     body: Any, status: int,
                                                     code: str) -> None:
    # making an identity is asked by a browser without one; everything else by one with it
    browser = (httpx.Client(base_url=server, timeout=10) if path == "/api/me"
               else new_player(server, "Asha"))
    before = browser.get("/api/me").json()
    for lang in ("en", "hi"):
        sep = "&" if "?" in path else "?"
        kwargs: dict[str, Any] = {}
        if isinstance(body, bytes):
            kwargs = {"content": body, "headers": {"content-type": "application/json"}}
        elif body is not None:
            kwargs = {"json": body}
        r = getattr(browser, method)(f"{path}{sep}lang={lang}", **kwargs)
        assert (r.status_code, r.json()["error"]) == (status, code), r.text
        message = r.json()["message"]
        assert message and "\n" not in message and not message.startswith("web.")
        assert "Traceback" not in r.text
    assert browser.get("/api/me").json() == before  # nothing changed


def test_players_come_back_on_the_postgresql_store_too(postgres_url: str,
                                                       tmp_path: Path) -> None:
    from fives.store.postgres import PostgresStore

    settings = fast_settings(str(tmp_path / "unused.sqlite3"), trusted_proxies="127.0.0.1")
    with running_server(settings, PostgresStore(postgres_url)) as base:
        asha, ravi = new_player(base, "Asha", "10.0.0.1"), new_player(base, "Ravi", "10.0.0.2")
        asyncio.run(rated_match(base, asha, ravi, 12))
        rating = wait_for(lambda: asha.get("/api/me").json()["player"]["ratings"].get("block"))
        cookie = asha.cookies["fives_id"]
    with running_server(settings, PostgresStore(postgres_url)) as base:  # a new process
        me = httpx.get(f"{base}/api/me", cookies={"fives_id": cookie}).json()["player"]
        assert me["name"] == "Asha" and me["ratings"]["block"] == rating
        assert len(me["matches"]) == 1
        board = httpx.get(f"{base}/api/leaderboard/block").json()["players"]
        assert {p["name"] for p in board} == {"Asha", "Ravi"}
