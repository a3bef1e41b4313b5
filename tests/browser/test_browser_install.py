"""The site installed on the home screen (issue 29): Chromium's own installability check passes;
the service worker keeps the shell, the scripts, the styles and the catalogues by their
versioned URLs and nothing else (no API answer, no token); a page asked for without a network
gets the offline page, in either language; and the next release takes effect at the next load,
its pages asking for their own version's files only (no stale mix), the previous version's files
kept one release longer.

The server here is the test's own, stopped to take the network away and started again on the
same port as the next release (the version of its files salted), as a phone sees a site go away
and come back changed."""

from __future__ import annotations

import socket
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from playwright.sync_api import BrowserType, expect

import fives.server.assets as assets_module
from server.harness import fast_settings, running_server

from .test_browser_game import errors_of

pytestmark = pytest.mark.timeout(120)

KEPT = """async () => {
  const out = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) out.push([name, request.url]);
  }
  return out;
}"""
VERSION = "() => new URL(document.querySelector('script[type=module]').src).pathname.split('/')[2]"
CONTROLLED = "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def kept(page: Any) -> list[tuple[str, str]]:
    return [(name, url) for name, url in page.evaluate(KEPT)]


def filled(page: Any, version: str, at_least: int, seconds: float = 15) -> None:
    """Wait for a version's cache to be whole (the worker's install fills it in one step;
    asked from here: an async function's promise is truthy to wait_for_function at once)."""
    deadline = time.monotonic() + seconds
    while sum(name == f"fives-{version}" for name, _ in kept(page)) < at_least:
        assert time.monotonic() < deadline, f"version {version} never kept"
        page.wait_for_timeout(100)


def test_installable_offline_page_and_an_update_without_a_stale_mix(
        browser_type: BrowserType, browser_type_launch_args: dict[str, Any], tmp_path: Path,
        shots: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = fast_settings(str(tmp_path / "fives.sqlite"))
    port = free_port()
    # a profile of its own: Chromium installs nothing from an incognito context
    context = browser_type.launch_persistent_context(
        str(tmp_path / "profile"), **browser_type_launch_args,
        viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.pages[0] if context.pages else context.new_page()
    errors = errors_of(page)
    with running_server(settings, port=port) as base:
        page.goto(f"{base}/")
        page.wait_for_function(CONTROLLED)
        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == [], manifest["errors"]
        assert '"short_name": "fives"' in manifest["data"]
        first = page.evaluate(VERSION)
        filled(page, first, 20)
        stored = kept(page)
        paths = [urlparse(url) for _, url in stored]
        assert {name for name, _ in stored} == {f"fives-{first}"}
        assert any(p.path == f"/static/{first}/js/table.js" for p in paths)
        assert any(p.path == "/api/i18n/hi" and p.query == f"v={first}" for p in paths)
        for p in paths:  # only what can never change, and the offline page
            assert (p.path.startswith(f"/static/{first}/") or p.path == "/offline"
                    or (p.path.startswith("/api/i18n/") and p.query == f"v={first}")), p
            assert "token" not in p.geturl() and "invite" not in p.geturl()
        # a table's page and the API used by it are fetched while controlled: still not kept
        page.goto(f"{base}/history")
        page.wait_for_load_state("networkidle")
        assert len(kept(page)) == len(stored)
    # the network is gone: a page asked for is the offline page, in the player's language
    page.goto(f"{base}/t/gone1234")
    expect(page.locator("h1")).to_have_text("You are offline")
    expect(page.locator("#offline-retry")).to_be_visible()
    page.screenshot(path=str(shots / "offline-phone-en.png"))
    page.click("#lang-switch")  # the other catalogue is kept too
    expect(page.locator("h1")).to_have_text("आप ऑफ़लाइन हैं")
    page.screenshot(path=str(shots / "offline-phone-hi.png"))
    page.click("#lang-switch")
    # the next release, where the last one was
    real_hash = assets_module._hash
    monkeypatch.setattr(assets_module, "_hash", lambda *parts: real_hash(b"next release", *parts))
    with running_server(settings, port=port):
        page.goto(f"{base}/")
        second = page.evaluate(VERSION)
        assert second != first
        expect(page.locator("#play-now")).to_be_visible()
        loaded = page.evaluate("() => performance.getEntriesByType('resource').map((e) => e.name)")
        static = [urlparse(u).path for u in loaded if "/static/" in u]
        assert static and all(p.startswith(f"/static/{second}/") for p in static), static
        filled(page, second, len(stored))
        names = {name for name, _ in kept(page)}
        assert names == {f"fives-{first}", f"fives-{second}"}, (first, second)  # the previous kept one release
        worker = page.evaluate("async () => (await fetch('/sw.js')).text()")
        assert second in worker and first not in worker
    assert not errors, errors
    context.close()
