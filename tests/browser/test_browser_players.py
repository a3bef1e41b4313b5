"""Players who come back (issue 17), in a real browser at phone size: a player who chose a
name comes back after a server restart and sees their name, rating and last matches; "forget
me" removes the identity; a profile and a leaderboard in Hindi."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Route, expect

from server.harness import SeatClient, fast_settings, play_to_end, running_server, wait_until

PHONE = {"width": 390, "height": 844}


def phone(browser: Browser, lang: str = "en", addr: str | None = None,
          service_workers: str = "allow") -> Any:
    """A phone's browser (``addr``: at that address, as the site's trusted proxy says;
    ``service_workers`` "block" for a test that holds a page's loads: the site's worker
    would fetch them out of the test's sight)."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  locale="hi-IN" if lang == "hi" else "en-US",
                                  extra_http_headers={"X-Forwarded-For": addr} if addr else None,
                                  service_workers=service_workers)
    context.add_init_script(f"localStorage.setItem('fives.lang', '{lang}')")
    return context


def play_rated_match(base: str, cookies: dict[str, str], seed: int) -> None:
    """A rated match against the random bot, played for the browser's identity (its cookies)
    over a WebSocket, in a thread of its own (Playwright holds this thread's event loop)."""
    created = httpx.post(f"{base}/api/play-now", cookies=cookies, timeout=10, json={
        "game": "block", "players": 2, "level": "random", "rated": True, "seed": seed}).json()

    async def go() -> None:
        c = await SeatClient(base, created["table"], created["token"], cookies=cookies).connect()
        await play_to_end([c], random.Random(seed))
        await c.close()

    thread = threading.Thread(target=lambda: asyncio.run(go()))
    thread.start()
    thread.join(120)


def test_a_player_comes_back_after_a_restart_and_sees_their_name_rating_and_matches(
        browser: Browser, tmp_path: Path, shots: Path) -> None:
    db = str(tmp_path / "fives.sqlite3")
    context = phone(browser)
    page = context.new_page()
    with running_server(fast_settings(db)) as base:
        page.goto(f"{base}/me")
        # no secret before there is an identity: it is minted with the name
        assert "fives_id" not in {c["name"] for c in context.cookies()}
        page.fill("#new-name", "Asha")
        page.click("#new-btn")
        expect(page.locator("#my-label")).to_contain_text("Asha#")
        label = page.locator("#my-label").text_content()
        secret = {c["name"]: c for c in context.cookies()}["fives_id"]
        # out of the page's scripts' reach
        assert secret["httpOnly"] and secret["sameSite"] == "Lax" and len(secret["value"]) >= 40
        cookies = {c["name"]: c["value"] for c in context.cookies()}
        assert "fives_id" not in page.evaluate("document.cookie")
        play_rated_match(base, cookies, 21)
    with running_server(fast_settings(db)) as base:  # the same database, a new process
        page.goto(f"{base}/me")
        expect(page.locator("#my-label")).to_have_text(label or "")
        expect(page.locator("#ratings li[data-game=block] .rating")).to_contain_text("?")
        # a phone has no hover: what the "?" means is written under the ratings
        expect(page.locator(".provisional-note")).to_have_text(
            "A rating marked ? is provisional: few rated matches yet.")
        expect(page.locator("#matches li")).to_have_count(1)
        expect(page.locator(".rating-chart circle")).to_have_count(1)
        page.screenshot(path=str(shots / "players-me-phone-en.png"), full_page=True)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the page scrolls sideways ({width}px)"
        page.goto(f"{base}/")  # the lobby knows the name too
        expect(page.locator("#name")).to_have_value(label or "")
        # the random bot's rating in Block is provisional too, and the lobby says what "?" means
        page.locator("label.game-card[data-game=block]").click()
        page.select_option("#quick-level", "random")
        expect(page.locator("#quick-level option[value=random]")).to_contain_text("?")
        expect(page.locator("#level-desc")).to_contain_text("A rating marked ? is provisional")
        page.goto(f"{base}/leaderboard/block")
        expect(page.locator("#board-rows tr")).to_have_count(2)  # Asha and the random bot
        expect(page.locator("#board-note .provisional-note")).to_be_visible()
        page.screenshot(path=str(shots / "players-leaderboard-phone-en.png"), full_page=True)
        page.goto(f"{base}/me")
        page.locator("#matches li a").first.click()
        page.wait_for_url("**/replay/**")
    context.close()


def test_forget_me_removes_the_identity(browser: Browser, live_server: str, shots: Path) -> None:
    context = phone(browser, "hi")
    page = context.new_page()
    page.goto(f"{live_server}/me")
    page.fill("#new-name", "आशा")
    page.click("#new-btn")
    expect(page.locator("#my-label")).to_contain_text("आशा#")
    public = page.locator("#public-link").get_attribute("href") or ""
    page.click("#make-link")
    expect(page.locator("#link-qr")).to_be_visible()
    page.screenshot(path=str(shots / "players-me-phone-hi.png"), full_page=True)
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#forget")
    expect(page.locator("#new-panel")).to_be_visible()
    assert page.evaluate("fetch('/api/me').then((r) => r.json())") == {"player": None}
    page.reload()
    expect(page.locator("#new-panel")).to_be_visible()
    page.goto(f"{live_server}{public}")
    expect(page.locator("#player-label")).to_have_text("ऐसा कोई खिलाड़ी नहीं है।")
    context.close()


def test_a_device_link_opens_the_identity_in_another_browser(browser: Browser,
                                                            live_server: str) -> None:
    laptop = phone(browser)
    page = laptop.new_page()
    page.goto(f"{live_server}/me")
    page.fill("#new-name", "Ravi")
    page.click("#new-btn")
    expect(page.locator("#my-label")).to_contain_text("Ravi#")
    label = page.locator("#my-label").text_content()
    page.click("#make-link")
    expect(page.locator("#link-url")).to_be_visible()
    url = page.locator("#link-url").input_value()
    other = phone(browser)
    second = other.new_page()
    # the words held back until after the tap: a tap before they came was lost (seen under
    # load), the button now listens from the start
    held: list[Route] = []
    second.route("**/api/i18n/**", lambda route: held.append(route))
    second.goto(url)
    second.click("#use-here")
    assert held, "the page asked for its words"
    for route in held:
        route.continue_()
    second.unroute("**/api/i18n/**")
    expect(second.locator("#device-done")).to_contain_text(label or "?")
    second.wait_for_url("**/me")
    expect(second.locator("#my-label")).to_have_text(label or "")
    laptop.close()
    other.close()


def test_two_browsers_are_paired_by_the_queue(browser: Browser, live_server: str,
                                              shots: Path) -> None:
    # two people at two addresses (two profiles of one address are never paired rated)
    contexts = [phone(browser, addr="10.0.0.1"), phone(browser, addr="10.0.0.2")]
    pages = []
    for i, context in enumerate(contexts):
        page = context.new_page()
        page.goto(f"{live_server}/")
        page.fill("#name", f"Pair{i}")
        page.locator("label.game-card[data-game=muggins]").click()
        page.select_option("#pair-players", "2")
        page.click("#pair-find")
        expect(page.locator("#pair-text")).not_to_be_empty()
        if i == 0:  # waiting alone (once the second joins, the page is on its way to the table)
            page.screenshot(path=str(shots / "players-queue-phone-en.png"))
        pages.append(page)
    for page in pages:
        page.wait_for_url("**/t/**", timeout=10000)
    assert pages[0].url == pages[1].url
    for page in pages:
        page.wait_for_function("() => window.fivesState && window.fivesState() && window.fivesState().view")
    seats = {page.evaluate("window.fivesState().you") for page in pages}
    assert seats == {0, 1}
    info = pages[0].evaluate("window.fivesState().info")
    assert info["rated"] and info["game"] == "muggins"
    for context in contexts:
        context.close()


def test_a_rating_history_of_two_games_draws_a_line_each_with_a_key(
        browser: Browser, live_server: str, shots: Path) -> None:
    """The chart writes where the ratings started, their highest and lowest; with two games,
    one line each and a key that names them (in the page's language)."""
    matches = [{"table": f"t{i}", "game": game, "players": 2, "won": i % 2 == 0, "rated": True,
                "rating": rating, "points": 40, "rounds": 4,
                "finished": 1764000000 - i * 3600}
               for i, (game, rating) in enumerate([("block", 1588), ("muggins", 1460),
                                                   ("block", 1541), ("muggins", 1492)])]
    profile = {"id": "p-two", "name": "Asha", "tag": "0001", "label": "Asha#0001",
               "kind": "person", "own": False,
               "ratings": {"block": {"rating": 1588, "provisional": True},
                           "muggins": {"rating": 1460, "provisional": True}},
               "games": {}, "matches": matches}
    for lang, names in (("en", ["Muggins", "Block"]), ("hi", None)):
        context = phone(browser, lang)
        page = context.new_page()
        page.route("**/api/players/p-two?*", lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps(profile)))
        page.goto(f"{live_server}/p/p-two")
        expect(page.locator(".rating-chart polyline")).to_have_count(2)
        expect(page.locator(".rating-chart .chart-label")).to_have_text(["1500", "1588", "1460"])
        expect(page.locator(".chart-key li")).to_have_count(2)
        if names:
            expect(page.locator(".chart-key li")).to_have_text(names)
        else:
            assert "Block" not in page.locator(".chart-key").inner_text()
        page.screenshot(path=str(shots / f"players-chart-two-games-{lang}.png"), full_page=True)
        context.close()


def test_a_queue_whose_polls_keep_failing_says_so_once(browser: Browser, live_server: str) -> None:
    """Redis away in a cluster: every poll of the ticket is refused alike; the page says it
    once, not every second, and goes on waiting."""
    context = phone(browser)
    page = context.new_page()
    page.goto(f"{live_server}/")
    page.fill("#name", "Waits")
    page.locator("label.game-card[data-game=draw]").click()
    page.select_option("#pair-players", "4")  # nobody else queues for four
    refused: list[str] = []

    def refuse(route: Any) -> None:
        refused.append(route.request.url)
        route.fulfill(status=503, content_type="application/json",
                      body='{"error": "server", "message": "Something went wrong on the server."}')

    page.route("**/api/queue/*", refuse)
    page.evaluate("""() => {
      window.toasts = 0;
      new MutationObserver(() => {
        if (document.getElementById('toast').classList.contains('show')) window.toasts++;
      }).observe(document.getElementById('toast'), {attributes: true, attributeFilter: ['class']});
    }""")
    page.click("#pair-find")
    expect(page.locator("#pair-text")).not_to_be_empty()
    # four polls, all refused (asking the page dispatches the refusals between the polls)
    wait_until(lambda: page.evaluate("() => window.toasts") >= 1 and len(refused) >= 4, 30,
               "four refused polls of the ticket", interval=0.2)
    assert page.evaluate("() => window.toasts") == 1
    page.unroute("**/api/queue/*")
    context.close()


# "Play the bots" on a slow network: the acceptance reaches the server 1.5 s after the click.
# The page must not poll meanwhile (a poll would reach the server first, be answered with the
# offer and show it again, clickable), and once matched it must go to the table once: a later
# "matched" arriving while the table's page loads would navigate again and abort the first load.
# The offer's buttons are watched every 50 ms from the click until 0.3 s after the acceptance's
# answer; the page is on its way to the table then, so what was seen is told on the console.
_SLOW_ACCEPTANCE = r"""(() => {
  const real = window.fetch.bind(window);
  const wait = (ms) => new Promise((done) => setTimeout(done, ms));
  const accept = document.getElementById("pair-accept");
  window.offeredAgain = false;
  window.fetch = async (url, options) => {
    if (String(url).split("?")[0].endsWith("/bots")) {
      const watch = setInterval(() => {
        if (!accept.hidden && !accept.disabled) window.offeredAgain = true;
      }, 50);
      await wait(1500);
      const answer = await real(url, options);
      setTimeout(() => { clearInterval(watch); console.log(`answered; offered again: ${window.offeredAgain}`); }, 300);
      return answer;
    }
    return real(url, options);
  };
})();"""


def test_the_queue_offers_bots_after_a_wait(browser: Browser, tmp_path: Path,
                                            shots: Path) -> None:
    settings = fast_settings(str(tmp_path / "fives.sqlite3"), bot_offer=3.0)
    with running_server(settings) as base:
        context = phone(browser, service_workers="block")
        page = context.new_page()
        page.goto(f"{base}/")
        page.fill("#name", "Lonely")
        page.locator("label.game-card[data-game=draw]").click()
        # the wait the page tells is the server's (3 s here), not the default's 20
        expect(page.locator("#pair-desc")).to_contain_text("after 3 seconds")
        page.click("#pair-find")
        expect(page.locator("#pair-decline")).to_be_visible(timeout=10000)
        page.click("#pair-decline")  # declined: still waiting, offered again later
        expect(page.locator("#pair-decline")).to_be_hidden()
        expect(page.locator("#pair-accept")).to_be_visible(timeout=20000)
        page.screenshot(path=str(shots / "players-bot-offer-phone-en.png"))
        page.evaluate(_SLOW_ACCEPTANCE)
        held: list[Route] = []
        page.route("**/t/**", lambda route: held.append(route))
        with page.expect_console_message(lambda m: m.text.startswith("answered"), timeout=15000) as said:
            page.click("#pair-accept")
        assert said.value.text == "answered; offered again: false"
        assert len(held) == 1, [r.request.url for r in held]
        held[0].continue_()
        page.unroute("**/t/**")
        page.wait_for_url("**/t/**", timeout=10000)
        page.wait_for_function("() => window.fivesState && window.fivesState() && window.fivesState().view")
        seats = page.evaluate("window.fivesState().info.seats")
        assert seats[0]["kind"] == "human" and seats[1]["kind"] == "bot"
        context.close()


EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "online_bot_example.py"


def test_an_outside_bot_connects_with_its_token_and_finishes_a_match(
        browser: Browser, live_server: str, shots: Path) -> None:
    import subprocess
    import sys

    owner = phone(browser)
    page = owner.new_page()
    page.goto(f"{live_server}/me")
    page.fill("#new-name", "Owner")
    page.click("#new-btn")
    expect(page.locator("#bots-panel")).to_be_visible()
    page.fill("#bot-name", "Domino Dan")
    page.click("#bot-form button[type=submit]")
    expect(page.locator("#bot-token-box")).to_be_visible()
    token = page.locator("#bot-token").input_value()
    page.screenshot(path=str(shots / "players-my-bots-phone-en.png"), full_page=True)
    proc = subprocess.Popen([sys.executable, str(EXAMPLE), live_server, "--token", token],
                            stderr=subprocess.PIPE, text=True)
    try:
        player = phone(browser)
        lobby = player.new_page()
        lobby.goto(f"{live_server}/")
        lobby.fill("#name", "Challenger")
        lobby.locator("label.game-card[data-game=block]").click()
        expect(lobby.locator("#bots-online li")).to_have_count(1, timeout=60000)
        expect(lobby.locator("#bots-online li")).to_contain_text("Domino Dan#")
        lobby.locator("#bots-online li button").click()
        lobby.wait_for_url("**/t/**")
        lobby.wait_for_function("() => window.fivesState && window.fivesState() && window.fivesState().view")
        table = lobby.evaluate("window.fivesState().info.id")
        seat_token = lobby.evaluate(f"localStorage.getItem('fives.token.{table}')")
        names = lobby.locator("#seats").inner_text()
        assert "Domino Dan#" in names and "(bot)" in names
        cookies = {c["name"]: c["value"] for c in player.cookies()}

        async def play() -> None:  # the person's moves, while the page watches the match
            c = await SeatClient(live_server, table, seat_token, cookies=cookies).connect()
            await play_to_end([c], random.Random(1))
            await c.close()

        thread = threading.Thread(target=lambda: asyncio.run(play()))
        thread.start()
        thread.join(120)
        lobby.wait_for_function("() => window.fivesState().result !== null", timeout=30000)
        seat = lobby.evaluate("window.fivesState().info.seats[1]")
        assert seat["kind"] == "bot" and seat["player"] and seat["name"].startswith("Domino Dan#")
        lobby.screenshot(path=str(shots / "players-outside-bot-result-phone-en.png"))
        player.close()
    finally:
        proc.terminate()
        _, said = proc.communicate(timeout=10)
        print("the example client said:", said[-3000:])  # shown if the test failed
    owner.close()
