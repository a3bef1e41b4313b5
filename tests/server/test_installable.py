"""The installable site's files (issue 29): the manifest in each language, the icons the
project draws, and the service worker's list of what it keeps, every entry of which the server
serves, none of which is an API answer or a page with a player's state."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path
from urllib.parse import urlparse

import httpx
import pytest

from fives.i18n import catalogue


def _png_size(body: bytes) -> tuple[int, int]:
    assert body[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", body[16:24])
    return width, height


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_the_manifest_names_the_site_in_each_language_and_its_icons_are_served(
        shared_server: str, lang: str) -> None:
    answer = httpx.get(f"{shared_server}/manifest.webmanifest?lang={lang}")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/manifest+json")
    data = answer.json()
    cat = catalogue(lang)
    assert (data["name"], data["short_name"], data["lang"]) == (
        cat["web.app.name"], cat["web.app.short_name"], lang)
    assert (data["start_url"], data["scope"], data["display"]) == ("/", "/", "standalone")
    sizes = set()
    for icon in data["icons"]:
        body = httpx.get(shared_server + icon["src"]).content
        if icon["type"] == "image/png":
            width, height = _png_size(body)
            assert icon["sizes"] == f"{width}x{height}"
            sizes.add((width, icon.get("purpose", "any")))
        else:
            assert body.startswith(b"<svg")
    assert {(192, "any"), (512, "any"), (512, "maskable")} <= sizes


def test_an_unknown_language_gets_the_english_manifest(shared_server: str) -> None:
    data = httpx.get(f"{shared_server}/manifest.webmanifest?lang=xx").json()
    assert data["lang"] == "en"


def test_the_worker_keeps_only_what_never_changes_and_all_of_it_is_served(
        shared_server: str) -> None:
    page = httpx.get(f"{shared_server}/").text
    version = page.split('src="/static/', 1)[1].split("/", 1)[0]
    answer = httpx.get(f"{shared_server}/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["cache-control"] == "no-cache"  # checked at every load
    text = answer.text
    assert f'const VERSION = "{version}";' in text
    kept = json.loads(text.split("const PRECACHE = ", 1)[1].split(";\n", 1)[0])
    assert "/offline" in kept and f"/static/{version}/js/table.js" in kept
    assert f"/api/i18n/hi?v={version}" in kept
    with httpx.Client(base_url=shared_server) as client:
        for url in kept:
            parts = urlparse(url)
            assert (parts.path.startswith(f"/static/{version}/") or parts.path == "/offline"
                    or (parts.path.startswith("/api/i18n/") and parts.query == f"v={version}")), url
            assert client.get(url).status_code == 200, url
    assert not any(url.endswith(".html") for url in kept)  # pages come from the network


def test_the_offline_page_is_a_page_of_its_own(shared_server: str) -> None:
    answer = httpx.get(f"{shared_server}/offline")
    assert answer.status_code == 200
    assert 'data-i18n="web.offline.title"' in answer.text
    assert 'rel="manifest"' in answer.text


def test_the_lobby_fetches_ahead_exactly_the_tables_modules() -> None:
    """The lobby's list of the table's code (fetched ahead of "Play now") is the table page's
    own list of modules: a module added to the table is fetched ahead too."""
    web = Path(__file__).resolve().parents[2] / "src" / "fives" / "web"
    lobby = (web / "js" / "lobby.js").read_text("utf-8")
    listed = lobby.split("const TABLE_CODE = [", 1)[1].split("];", 1)[0]
    ahead = set(re.findall(r'"([\w-]+\.js)"', listed))
    page = (web / "table.html").read_text("utf-8")
    modules = set(re.findall(r'<link rel="modulepreload" href="/static/js/([\w-]+\.js)">', page))
    modules |= set(re.findall(r'<script type="module" src="/static/js/([\w-]+\.js)">', page))
    shared = {"i18n.js", "common.js"}  # the lobby's own modules already
    assert ahead == modules - shared
    imported = set(re.findall(r'from "\./([\w-]+\.js)"', (web / "js" / "table.js").read_text("utf-8")))
    assert imported <= modules  # every module the table imports is preloaded by its page


def test_every_page_runs_boot_before_its_modules() -> None:
    """js/boot.js picks the language the modules read: deferred and placed before the module
    script, it runs first on every page (an async one once ran after them under load, and a
    Hindi page came up in English)."""
    web = Path(__file__).resolve().parents[2] / "src" / "fives" / "web"
    for page in sorted(web.glob("*.html")):
        text = page.read_text("utf-8")
        boot = text.index('<script src="/static/js/boot.js" defer></script>')
        assert boot < text.index('<script type="module"'), page.name
