"""An arena in real browsers (issue 30), phone first: four people (two phones at 390×844, two
laptops at 1366×768, in English and Hindi) and two bots. One makes it from the home page and
adds the bots; the others open its link; all join, are taken to their tables as soon as they
are paired (the bots never with each other), play their matches by taps, go back to the arena
from the result, and all see the same standings, which equal those the API computes from the
stored results. Screenshots of each size and language (build/screenshots/arena-*.png)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, BrowserContext, Page, expect

from fives.i18n import catalogue

from .conftest import human_policy, my_choice, state
from .test_browser_game import click_action, errors_of


def _table_ready(page: Page) -> None:
    page.wait_for_url(re.compile(r"/t/"), timeout=20000)
    page.wait_for_function("() => window.fivesState && window.fivesState() && window.fivesState().view")


def _play_all_to_the_end(pages: list[Page], seconds: float = 180) -> None:
    """Every page's seat played by taps, each page acting when it is its turn, "next round"
    after each round's summary, until every match's result shows."""
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
                if page.locator("#summary-next").is_visible():  # (not at the match's end)
                    page.tap("#summary-next")
                    acted = True
                continue
            legal = my_choice(st)
            if legal:
                click_action(page, st, human_policy(legal))
                acted = True
        if not acted:
            pages[0].wait_for_timeout(40)


#: the four people: each one's language and screen (two phones held upright, two laptops)
PEOPLE = (("Asha", "en", (390, 844)), ("रवि", "hi", (390, 844)),
          ("Meera", "en", (1366, 768)), ("कबीर", "hi", (1366, 768)))


def _four_people(browser: Browser) -> tuple[list[BrowserContext], list[Page], list[list[str]]]:
    """The four people's browsers (phones and touch laptops: every control is tapped), their
    pages, and each page's script errors."""
    contexts = [browser.new_context(viewport={"width": size[0], "height": size[1]},
                                    is_mobile=size[0] < 500, has_touch=True,
                                    locale="hi-IN" if lang == "hi" else "en-US")
                for _, lang, size in PEOPLE]
    pages = [c.new_page() for c in contexts]
    return contexts, pages, [errors_of(p) for p in pages]


def _make_on_the_home_page(page: Page, base: str, title: str, shot: Path,
                           **choices: str) -> str:
    """An event made from the home page's form, as Asha (Block to 10; ``shot``: the filled
    form's screenshot): its id."""
    page.goto(f"{base}/")
    page.fill("#name", "Asha")
    page.locator("#event-make summary").tap()
    if "kind" in choices:
        page.select_option("#event-kind", choices.pop("kind"))
    page.fill("#event-title-input", title)
    page.select_option("#event-game", "block")
    page.fill("#event-target", "10")
    for name, value in choices.items():
        page.select_option(f"#event-{name}", value)
    page.screenshot(path=str(shot), full_page=True)
    page.tap("#event-create")
    page.wait_for_url(re.compile(r"/events/"))
    return page.url.rsplit("/", 1)[1]


def test_four_people_and_two_bots_play_an_arena_and_see_the_same_standings(
        browser: Browser, live_server: str, shots: Path) -> None:
    contexts, pages, errors = _four_people(browser)
    a = pages[0]
    event_id = _make_on_the_home_page(a, live_server, "Evening arena",
                                      shots / "arena-make-en-390x844.png", starts="0")
    expect(a.locator("#event-title")).to_have_text("Evening arena")
    expect(a.locator("#event-clock")).to_contain_text(re.compile(r"Ends in \d+:\d\d"))
    # the organiser adds two bots: they play people, never each other
    for level in ("easy", "medium"):
        a.select_option("#event-bot-level", level)
        a.locator("#event-bots button").tap()
        expect(a.locator(f'#event-standings tr[data-player="bot-{level}"]')).to_have_count(1)
    expect(a.locator("#event-join")).to_be_visible()  # making it did not enter the maker
    a.screenshot(path=str(shots / "arena-bots-en-390x844.png"), full_page=True)
    # the others come by the link, without an identity yet
    for page, (name, lang, size) in zip(pages[1:], PEOPLE[1:], strict=True):
        page.goto(f"{live_server}/events/{event_id}")
        expect(page.locator("#event-name-row")).to_be_visible()
        page.fill("#event-name", name)
        if lang == "hi" and size[0] < 500:
            page.screenshot(path=str(shots / "arena-join-hi-390x844.png"), full_page=True)
    # everyone joins; each is taken to their table as soon as they are paired
    for page in pages:
        page.locator("#event-join-btn").tap()
    for page in pages:
        _table_ready(page)
        assert state(page)["info"]["event"] == event_id
    tables = {page.url for page in pages}
    assert len(tables) == 3  # two people together, two with a bot each
    # each asks for a pause during the match (no next one after it), so that the standings
    # are read when everyone is done, before a new pairing takes them to another table
    for page in pages:
        paused = page.evaluate("async (id) => (await fetch(`/api/events/${id}/pause`, "
                               "{method: 'POST', headers: {'content-type': 'application/json'}, "
                               "body: JSON.stringify({paused: true})})).json()",
                               event_id)
        assert paused["me"]["paused"], paused
    _play_all_to_the_end(pages)
    api = httpx.get(f"{live_server}/api/events/{event_id}", timeout=5).json()
    assert api["played"] == 3 and not api["live"]
    for page, (_, lang, size) in zip(pages, PEOPLE, strict=True):
        expect(page.locator("#result-dialog")).to_be_visible()
        expect(page.locator("#rematch-btn")).to_be_hidden()  # the arena pairs the next one
        expect(page.locator("#event-btn")).to_have_text(catalogue(lang)["web.arena.back"])
        page.screenshot(path=str(shots / f"arena-result-{lang}-{size[0]}x{size[1]}.png"))
        page.tap("#event-btn")
        page.wait_for_url(re.compile(r"/events/"))
    api = httpx.get(f"{live_server}/api/events/{event_id}", timeout=5).json()
    assert len(api["standings"]) == 6 and sum(s["points"] for s in api["standings"]) == 6
    want = [(s["player"], str(s["points"])) for s in api["standings"]]
    for page, (_, lang, size) in zip(pages, PEOPLE, strict=True):
        rows = page.locator("#event-standings tr")
        expect(rows).to_have_count(6)
        shown = [(rows.nth(i).get_attribute("data-player"),
                  rows.nth(i).locator("td").nth(2).inner_text()) for i in range(6)]
        assert shown == want
        expect(page.locator("#event-state")).to_have_text(catalogue(lang)["web.arena.paused"])
        expect(page.locator("html")).to_have_attribute("lang", lang)
        page.screenshot(path=str(shots / f"arena-standings-{lang}-{size[0]}x{size[1]}.png"),
                        full_page=True)
    # the home page lists the arena on now, with its six players
    a.goto(f"{live_server}/")
    item = a.locator(f'#events-list li[data-event="{event_id}"]')
    expect(item).to_contain_text("Evening arena")
    expect(item).to_contain_text("6 in")
    # back from the pause: paired again at once (with the bot free) and taken to the table
    a.goto(f"{live_server}/events/{event_id}")
    a.tap("#event-resume")
    _table_ready(a)
    assert a.url not in tables
    assert not any(errors), errors
    for c in contexts:
        c.close()


def test_a_three_round_duplicate_swiss_of_four_people_and_four_bots(
        browser: Browser, live_server: str, shots: Path) -> None:
    """A club's Swiss: made on a phone from the home page, four bots added by its organiser,
    joined by three others through its link (phones and laptops, English and Hindi), started
    by the organiser; three rounds of four tables, each person taken to their table and back;
    at the end the podium, and the same standings (match points, Buchholz, margin) on every
    page as the API's."""
    contexts, pages, errors = _four_people(browser)
    a = pages[0]
    event_id = _make_on_the_home_page(a, live_server, "Club night",
                                      shots / "swiss-make-en-390x844.png", kind="swiss",
                                      rounds="3")
    expect(a.locator("#event-clock")).to_contain_text("Waiting for the organiser")
    expect(a.locator("#event-invite")).to_have_value(re.compile(r"/events/" + event_id + "$"))
    for level in ("random", "easy", "medium", "hard"):
        a.select_option("#event-bot-level", level)
        a.locator("#event-bots button").tap()
        expect(a.locator(f'#event-standings tr[data-player="bot-{level}"]')).to_have_count(1)
    a.tap("#event-join-btn")
    for page, (name, _, _) in zip(pages[1:], PEOPLE[1:], strict=True):
        page.goto(f"{live_server}/events/{event_id}")
        page.fill("#event-name", name)
        page.locator("#event-join-btn").tap()
        expect(page.locator("#event-start")).to_be_hidden()  # the organiser's alone
    expect(a.locator("#event-standings tr")).to_have_count(8)
    a.screenshot(path=str(shots / "swiss-before-en-390x844.png"), full_page=True)
    a.tap("#event-start")
    seen: set[str] = set()
    for _round in (1, 2, 3):
        for page in pages:  # each taken to this round's table by the event's page
            page.wait_for_url(lambda url, before=frozenset(seen): "/t/" in url
                              and url not in before, timeout=30000)
            page.wait_for_function("() => window.fivesState && window.fivesState() && "
                                   "window.fivesState().view")
        seen |= {page.url for page in pages}
        _play_all_to_the_end(pages)
        for page in pages:
            expect(page.locator("#event-btn")).to_be_visible()
            page.tap("#event-btn")
            page.wait_for_url(re.compile(r"/events/"))
    api = wait_for_api(live_server, event_id)
    assert [len(r["tables"]) for r in api["rounds_played"]] == [4, 4, 4]
    met = [frozenset(p["player"] for p in t["players"]) for r in api["rounds_played"]
           for t in r["tables"]]
    assert len(met) == len(set(met)) == 12  # nobody met anyone twice
    want = [(s["player"], s["score"], s["buchholz"]) for s in api["standings"]]
    for page, (_, lang, size) in zip(pages, PEOPLE, strict=True):
        expect(page.locator("#event-rounds .event-round")).to_have_count(3)
        expect(page.locator("#event-podium-panel")).to_be_visible()
        rows = page.locator("#event-standings tr")
        expect(rows).to_have_count(8)
        shown = [(rows.nth(i).get_attribute("data-player"),
                  rows.nth(i).locator("td").nth(2).inner_text(),
                  rows.nth(i).locator("td").nth(3).inner_text()) for i in range(8)]
        assert shown == want
        expect(page.locator("#event-clock")).to_have_text(catalogue(lang)["web.arena.finished"])
        page.screenshot(path=str(shots / f"swiss-final-{lang}-{size[0]}x{size[1]}.png"),
                        full_page=True)
    assert not any(errors), errors
    for c in contexts:
        c.close()


def wait_for_api(base: str, event_id: str) -> dict[str, Any]:
    """The event's page data once it is finished with no match in play."""
    deadline = time.monotonic() + 30
    while True:
        got = httpx.get(f"{base}/api/events/{event_id}", timeout=5).json()
        if got["status"] == "finished" and not got["live"]:
            return got
        assert time.monotonic() < deadline, got["status"]
        time.sleep(0.2)
