"""The HTTP side: pages, the catalogue, creating tables, finished matches, records, replays
and translated errors (never a traceback)."""

from __future__ import annotations

import asyncio
import json
import random
import re

import httpx
import pytest

from fives.core.record import Record, replay
from fives.server.settings import Settings

from .harness import SeatClient, create_table, play_to_end


@pytest.mark.parametrize("path", ["/", "/t/abc123", "/replay/abc123", "/history", "/rules",
                                  "/rules/muggins", "/static/css/app.css", "/static/js/table.js"])
def test_pages_are_served(shared_server: str, path: str) -> None:
    r = httpx.get(shared_server + path, timeout=5)
    assert r.status_code == 200
    assert "Traceback" not in r.text


def test_unknown_page_and_api(shared_server: str) -> None:
    r = httpx.get(shared_server + "/nope", timeout=5)
    assert r.status_code == 404 and "<html" in r.text and "Traceback" not in r.text
    r = httpx.get(shared_server + "/api/nope?lang=hi", timeout=5)
    assert r.status_code == 404 and r.json()["error"] == "not_found"


def test_catalogue_endpoint(shared_server: str) -> None:
    for lang in ("en", "hi"):
        data = httpx.get(f"{shared_server}/api/i18n/{lang}", timeout=5).json()
        assert data["lang"] == lang
        assert data["messages"]["common.points.other"]
    assert httpx.get(f"{shared_server}/api/i18n/fr", timeout=5).status_code == 404


def test_text_is_compressed_and_the_client_is_cached_by_version(shared_server: str) -> None:
    """Issue 11: gzip for text; the client's files under a content-hashed URL for a year; pages
    and catalogues revalidated by ETag (a 304 costs a few bytes)."""
    gz = {"Accept-Encoding": "gzip"}
    # a first visit's page carries the browser's new secret: for its browser alone
    first = httpx.get(f"{shared_server}/t/abc123", headers=gz, timeout=5)
    assert first.headers["cache-control"] == "private, no-cache"
    page = httpx.get(f"{shared_server}/t/abc123", headers=gz, timeout=5, cookies=first.cookies)
    assert page.headers["content-encoding"] == "gzip" and page.headers["cache-control"] == "no-cache"
    version = re.search(r'"/static/([0-9a-f]{12})/js/table\.js"', page.text).group(1)
    assert '"/static/js/' not in page.text and '"/static/css/' not in page.text
    assert httpx.get(f"{shared_server}/t/abc123", timeout=5,
                     headers={"If-None-Match": page.headers["etag"]}).status_code == 304
    script = httpx.get(f"{shared_server}/static/{version}/js/table.js", headers=gz, timeout=5)
    assert script.status_code == 200 and script.headers["content-encoding"] == "gzip"
    assert script.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert int(script.headers["content-length"]) < len(script.content) / 2
    # the plain URL still works, revalidated
    assert httpx.get(f"{shared_server}/static/js/table.js", timeout=5).headers["cache-control"] == "no-cache"
    for lang in ("en", "hi"):
        fixed = httpx.get(f"{shared_server}/api/i18n/{lang}?v={version}", headers=gz, timeout=5)
        assert fixed.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert fixed.headers["content-encoding"] == "gzip"
        # the Hindi catalogue: about 74 KB of text, about 13 KB on the wire
        assert int(fixed.headers["content-length"]) < len(fixed.content) / 3
        # only what the browser reads (the terminal's words stay home)
        assert {key.split(".")[0] for key in fixed.json()["messages"]} == {"web", "common", "rules"}
        plain = httpx.get(f"{shared_server}/api/i18n/{lang}", timeout=5)
        assert plain.headers["cache-control"] == "no-cache"
        again = httpx.get(f"{shared_server}/api/i18n/{lang}", timeout=5,
                          headers={"If-None-Match": plain.headers["etag"]})
        assert again.status_code == 304 and not again.content


def test_meta(shared_server: str) -> None:
    meta = httpx.get(f"{shared_server}/api/meta", timeout=5).json()
    assert set(meta["games"]) == {"all-fives", "fives-and-threes", "muggins", "draw", "block"}
    assert meta["games"]["all-fives"]["targets"]["2"] == 250
    assert "easy" in meta["bots"]
    # the lobby words its wait for bots from the server's own setting
    assert meta["bot_offer"] == Settings().bot_offer == 20.0


@pytest.mark.parametrize(
    ("spec", "code"),
    [
        ({"game": "chess", "name": "A"}, "bad_game"),
        ({"players": 5, "name": "A"}, "bad_players"),
        ({"players": 2, "teams": True, "name": "A"}, "bad_teams"),
        ({"target": -3, "name": "A"}, "bad_target"),
        ({"turn_time": 1, "name": "A"}, "bad_turn_time"),
        ({"name": ""}, "bad_name"),
        ({"seats": [{"kind": "bot"}], "name": "A"}, "bad_seats"),
        ({"seats": [{"kind": "human"}, {"kind": "bot", "level": "godlike"}], "name": "A"}, "bad_level"),
        ({"seats": [{"kind": "bot"}, {"kind": "bot"}], "name": "A"}, "bad_seats"),
    ],
)
def test_create_validation_is_translated(shared_server: str, spec: dict, code: str) -> None:
    r = httpx.post(f"{shared_server}/api/tables", json=spec, timeout=5)
    assert r.status_code == 400 and r.json()["error"] == code
    en = r.json()["message"]
    r = httpx.post(f"{shared_server}/api/tables?lang=hi", json=spec, timeout=5)
    hi = r.json()["message"]
    assert en and hi and en != hi
    r = httpx.post(f"{shared_server}/api/tables", json=spec, timeout=5,
                   headers={"Accept-Language": "hi-IN,hi;q=0.9"})
    assert r.json()["message"] == hi


JSON = {"Content-Type": "application/json"}


def test_bad_bodies(shared_server: str) -> None:
    r = httpx.post(f"{shared_server}/api/tables", content=b"{nope", headers=JSON, timeout=5)
    assert r.status_code == 400 and r.json()["error"] == "bad_json"
    r = httpx.post(f"{shared_server}/api/tables", content=b"x" * 9000, headers=JSON, timeout=5)
    assert r.status_code == 413 and r.json()["error"] == "too_big"
    r = httpx.post(f"{shared_server}/api/play-now", json=[1], timeout=5)
    assert r.json()["error"] == "bad_request"


def test_play_now_and_watch_only_tables(shared_server: str) -> None:
    r = httpx.post(f"{shared_server}/api/play-now", json={"name": "Asha"}, timeout=5)
    assert r.status_code == 201
    body = r.json()
    assert body["seat"] == 0 and len(body["token"]) > 20
    bots = create_table(shared_server, game="draw", players=3, watch=True,
                        seats=[{"kind": "bot", "level": "random"}] * 3)
    assert bots["token"] is None


def test_finished_match_record_replay_and_history(shared_server: str) -> None:
    created = create_table(shared_server, game="fives-and-threes", players=2, name="Asha",
                           turn_time=0, target=6, seed=2)
    table = created["table"]
    # not finished yet: no record (it would show the hands)
    r = httpx.get(f"{shared_server}/api/matches/{table}/record", timeout=5)
    assert r.status_code == 404 and r.json()["error"] == "not_finished"

    async def go() -> dict:
        c = await SeatClient(shared_server, table, created["token"]).connect()
        last = await play_to_end([c], random.Random(0), timeout=60)
        await c.close()
        return last

    last = asyncio.run(go())
    r = httpx.get(f"{shared_server}/api/matches/{table}/record", timeout=5)
    assert r.status_code == 200
    assert "attachment" in r.headers["content-disposition"]
    record = r.json()
    assert replay(Record.from_data(record))["scores"] == last["result"]["scores"]
    frames = httpx.get(f"{shared_server}/api/matches/{table}/replay", timeout=5).json()
    assert frames["result"] == last["result"]
    first = frames["rounds"][0]["frames"]
    assert first[0]["event"]["kind"] == "deal"
    assert sum(len(h) for h in first[0]["hands"]) == 14
    assert first[-1]["summary"] is not None
    history = httpx.get(f"{shared_server}/api/matches", timeout=5).json()["matches"]
    assert table in [m["id"] for m in history]
    r = httpx.get(f"{shared_server}/api/matches/nosuch/record?lang=hi", timeout=5)
    assert r.status_code == 404 and r.json()["message"] != "not_found"


def test_fives_replay_reads_a_downloaded_record(shared_server: str, tmp_path) -> None:
    """The records the browser downloads are RECORD.md records: `fives replay` reads one of a
    match this test plays to its end (bots only), and reports the result the table ended with."""
    import json
    import subprocess
    import sys

    created = create_table(shared_server, game="muggins", players=3, target=30, watch=True,
                           seats=[{"kind": "bot", "level": "easy"}] * 3)
    table = created["table"]

    async def watch() -> dict:
        c = await SeatClient(shared_server, table).connect()
        end = await c.wait(lambda m: m["type"] == "state" and m["result"] is not None, 60)
        await c.close()
        return end["result"]

    result = asyncio.run(watch())
    r = httpx.get(f"{shared_server}/api/matches/{table}/record", timeout=5)
    assert r.status_code == 200
    path = tmp_path / "match.json"
    path.write_text(r.text, encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "fives.cli.main", "replay", str(path), "--json"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["over"] is True
    assert (report["scores"], report["winner"]) == (result["scores"], result["winner"])
    assert report == json.loads(json.dumps(replay(Record.from_data(r.json()))))


def test_example_layouts(shared_server: str) -> None:
    r = httpx.get(f"{shared_server}/api/example",
                  params={"game": "all-fives", "actions": "1-4,1-1@W,4-4@E"}, timeout=5)
    data = r.json()
    assert data["layout"]["sentence"] == "2 + 8 = 10" and data["points"] == 10
    r = httpx.get(f"{shared_server}/api/example",
                  params={"game": "fives-and-threes", "actions": "3-6,6-6@E"}, timeout=5)
    assert r.json()["points"] == 8
    r = httpx.get(f"{shared_server}/api/example", params={"actions": "1-4,6-6@E"}, timeout=5)
    assert r.status_code == 400 and r.json()["error"] == "illegal"


def test_table_creation_is_rate_limited_per_address(tmp_path) -> None:
    from .harness import fast_settings, running_server

    settings = fast_settings(str(tmp_path / "db.sqlite3"), create_rate=1.0, create_burst=3)
    with running_server(settings) as base:
        codes = [httpx.post(f"{base}/api/play-now", json={"name": "A"}, timeout=5).status_code
                 for _ in range(5)]
        assert codes[:3] == [201, 201, 201] and codes[3:] == [429, 429]
        r = httpx.post(f"{base}/api/tables?lang=hi", json={"name": "A"}, timeout=5)
        assert r.status_code == 429 and r.json()["error"] == "rate_limited"


BAD_VALUES = [2.0, 3.5, "2", None, True, [], {}, -1, 2**63, 10**30, "x" * 300, float("inf")]


@pytest.mark.parametrize("field", ["players", "target", "turn_time", "teams", "game", "name",
                                   "seats", "private", "level", "watch"])
@pytest.mark.parametrize("path", ["/api/tables", "/api/play-now"])
def test_bad_values_in_every_field_are_refused_cleanly(shared_server: str, field: str,
                                                       path: str) -> None:
    """`players: 2.0` gave a 500: every field, any value, is refused with a clear error (or
    accepted), never a server error."""
    for value in BAD_VALUES:
        body = json.dumps({"name": "Asha", field: value}).replace("Infinity", "1e999")
        r = httpx.post(shared_server + path, content=body, timeout=5,
                       headers={"Content-Type": "application/json"})
        assert r.status_code in (201, 400), (field, value, r.status_code, r.text)
        if r.status_code == 400:
            assert r.json()["error"] and r.json()["message"], (field, value)
    r = httpx.post(shared_server + path, json={"name": "Asha", "players": 2.0}, timeout=5)
    assert r.status_code == 400 and r.json()["error"] == "bad_players"


def test_bad_seat_entries_are_refused_cleanly(shared_server: str) -> None:
    for value in BAD_VALUES:
        for seat in ({"kind": value}, {"kind": "bot", "level": value}, value):
            body = {"name": "Asha", "seats": [{"kind": "human"}, seat]}
            r = httpx.post(f"{shared_server}/api/tables", timeout=5,
                           content=json.dumps(body).replace("Infinity", "1e999"),
                           headers={"Content-Type": "application/json"})
            assert r.status_code == 400, (seat, r.text)
            assert r.json()["error"] in ("bad_seats", "bad_level")


@pytest.mark.parametrize("offset", ["-1", str(2**63), str(10**40), "x", "1e3"])
def test_a_bad_history_offset_is_refused(shared_server: str, offset: str) -> None:
    r = httpx.get(f"{shared_server}/api/matches", params={"offset": offset}, timeout=5)
    assert r.status_code == 400 and r.json()["error"] == "bad_request"
    assert httpx.get(f"{shared_server}/api/matches?offset=0", timeout=5).status_code == 200


def test_another_site_cannot_create_tables_or_frame_the_pages(shared_server: str) -> None:
    """A cross-site text/plain POST created tables: a page elsewhere could use its visitors'
    browsers (and addresses) against the server."""
    body = json.dumps({"name": "Asha"})
    r = httpx.post(f"{shared_server}/api/play-now", content=body, timeout=5,
                   headers={"Content-Type": "text/plain"})
    assert r.status_code == 415 and r.json()["error"] == "bad_content_type"
    for origin in ("https://evil.example", "null", "http://127.0.0.1:1"):
        r = httpx.post(f"{shared_server}/api/play-now", content=body, timeout=5,
                       headers={**JSON, "Origin": origin})
        assert r.status_code == 403 and r.json()["error"] == "bad_origin", origin
    # the server's own pages may
    r = httpx.post(f"{shared_server}/api/play-now", content=body, timeout=5,
                   headers={**JSON, "Origin": shared_server})
    assert r.status_code == 201
    page = httpx.get(f"{shared_server}/", timeout=5)
    csp = page.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert page.headers["x-frame-options"] == "DENY"
    assert page.headers["referrer-policy"] == "same-origin"
    assert page.headers["x-content-type-options"] == "nosniff"


def test_another_sites_page_cannot_open_a_table_socket(shared_server: str) -> None:
    import websockets

    created = httpx.post(f"{shared_server}/api/play-now", json={"name": "Asha"},
                         timeout=5).json()
    url = shared_server.replace("http://", "ws://") + f"/ws/{created['table']}"

    async def go() -> None:
        with pytest.raises(websockets.InvalidStatus) as refused:
            await websockets.connect(url, origin="https://evil.example")
        assert refused.value.response.status_code == 403
        async with websockets.connect(url, origin=shared_server) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            assert json.loads(await ws.recv())["type"] == "welcome"

    asyncio.run(go())
