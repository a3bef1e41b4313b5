"""An arena in real browsers (issue 30), phone first: one person makes it from the home page (in
English), another opens its link on a phone in Hindi; both join, are taken to their table as
soon as they are paired, play the match by taps, go back to the arena from the result, and
both see the same standings, which equal those the API computes from the stored results.
Screenshots at 390×844 in both languages (build/screenshots/arena-*.png)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import httpx
from playwright.sync_api import Browser, Page, expect

from fives.i18n import catalogue

from .conftest import human_policy, my_choice, state
from .test_browser_game import click_action, errors_of
from .test_browser_phone import context_for


def _table_ready(page: Page) -> None:
    page.wait_for_url(re.compile(r"/t/"), timeout=20000)
    page.wait_for_function("() => window.fivesState && window.fivesState() && window.fivesState().view")


def _play_both_to_the_end(pages: list[Page], seconds: float = 150) -> None:
    """Both seats played by taps, each page acting when it is its turn, "next round" after
    each round's summary, until the match's result shows."""
    deadline = time.monotonic() + seconds
    while True:
        assert time.monotonic() < deadline, "the arena's match did not end"
        states = [state(p) for p in pages]
        if all(st and st["result"] for st in states):
            return
        acted = False
        for page, st in zip(pages, states, strict=True):
            if not st or st["result"]:
                continue
            if st["summary"] and st["you"] in st["info"]["waiting_for"]:
                page.tap("#summary-next")
                acted = True
                continue
            legal = my_choice(st)
            if legal:
                click_action(page, st, human_policy(legal))
                acted = True
        if not acted:
            pages[0].wait_for_timeout(40)


def test_two_people_join_an_arena_play_and_see_the_same_standings(
        browser: Browser, live_server: str, shots: Path) -> None:
    a_ctx = context_for(browser, True, "en", (390, 844))
    b_ctx = context_for(browser, True, "hi", (390, 844))
    a, b = a_ctx.new_page(), b_ctx.new_page()
    errors = errors_of(a) + errors_of(b)
    a.goto(f"{live_server}/")
    a.fill("#name", "Asha")
    a.locator("#event-make summary").tap()
    a.fill("#event-title-input", "Evening arena")
    a.select_option("#event-game", "block")
    a.fill("#event-target", "10")
    a.select_option("#event-starts", "0")
    a.screenshot(path=str(shots / "arena-make-en.png"), full_page=True)
    a.tap("#event-create")
    a.wait_for_url(re.compile(r"/events/"))
    event_id = a.url.rsplit("/", 1)[1]
    expect(a.locator("#event-title")).to_have_text("Evening arena")
    expect(a.locator("#event-clock")).to_contain_text(re.compile(r"Ends in \d+:\d\d"))
    expect(a.locator("#event-join")).to_be_visible()  # the maker is not entered by making it
    a.tap("#event-join-btn")
    expect(a.locator("#event-state")).to_have_text(catalogue("en")["web.arena.waiting"])
    a.screenshot(path=str(shots / "arena-waiting-en.png"), full_page=True)
    # the other person comes by the link, in Hindi, without an identity yet
    b.goto(f"{live_server}/events/{event_id}")
    expect(b.locator("#event-name-row")).to_be_visible()
    b.fill("#event-name", "रवि")
    b.screenshot(path=str(shots / "arena-join-hi.png"), full_page=True)
    b.tap("#event-join-btn")
    # paired: each page takes its player to the table by itself
    for page in (a, b):
        _table_ready(page)
    assert state(a)["info"]["event"] == state(b)["info"]["event"] == event_id
    assert a.url == b.url
    _play_both_to_the_end([a, b])
    for page, lang in ((a, "en"), (b, "hi")):
        dialog = page.locator("#result-dialog")
        expect(dialog).to_be_visible()
        expect(page.locator("#rematch-btn")).to_be_hidden()  # the arena pairs the next one
        expect(page.locator("#event-btn")).to_have_text(catalogue(lang)["web.arena.back"])
        page.screenshot(path=str(shots / f"arena-result-{lang}.png"))
        page.tap("#event-btn")
        page.wait_for_url(re.compile(r"/events/"))
    # both back at the arena: the two of them never meet twice in a row, so they wait
    api = httpx.get(f"{live_server}/api/events/{event_id}", timeout=5).json()
    assert sorted(s["points"] for s in api["standings"]) == [0, 2]
    for page in (a, b):
        rows = page.locator("#event-standings tr")
        expect(rows).to_have_count(2)
        shown = [(rows.nth(i).get_attribute("data-player"),
                  rows.nth(i).locator("td").nth(2).inner_text()) for i in range(2)]
        assert shown == [(s["player"], str(s["points"])) for s in api["standings"]]
    expect(b.locator("#event-state")).to_have_text(catalogue("hi")["web.arena.waiting"])
    expect(b.locator("html")).to_have_attribute("lang", "hi")
    a.screenshot(path=str(shots / "arena-standings-en.png"), full_page=True)
    b.screenshot(path=str(shots / "arena-standings-hi.png"), full_page=True)
    # the home page lists the arena on now, with its two players
    a.goto(f"{live_server}/")
    item = a.locator(f'#events-list li[data-event="{event_id}"]')
    expect(item).to_contain_text("Evening arena")
    expect(item).to_contain_text("2 in")
    # pausing: not paired until back
    a.goto(f"{live_server}/events/{event_id}")
    a.tap("#event-pause")
    expect(a.locator("#event-resume")).to_be_visible()
    expect(a.locator("#event-state")).to_have_text(catalogue("en")["web.arena.paused"])
    a.tap("#event-resume")
    expect(a.locator("#event-pause")).to_be_visible()
    assert not errors, errors
    a_ctx.close()
    b_ctx.close()
