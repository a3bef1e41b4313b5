"""The hint at the table (issue 28): against a bot, at a turn with a choice, "Hint" (or H)
asks the bot for the best play; the status line says it with its value and its tile is
chosen, its ends lit, ready to play. On a phone in Hindi, on a desktop in English."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from fives.i18n import catalogue

from .conftest import my_choice, state
from .test_browser_game import click_action, errors_of
from .test_browser_phone import context_for

pytestmark = pytest.mark.timeout(120)


@pytest.mark.parametrize(("lang", "size", "by_key"),
                         [("hi", (390, 844), False), ("en", (1366, 768), True)])
def test_a_hint_names_the_best_play_and_chooses_its_tile(
        browser: Browser, live_server: str, shots: Path, lang: str, size: tuple[int, int],
        by_key: bool) -> None:
    cat = catalogue(lang)
    context = context_for(browser, size[0] < 700, lang, size)
    page = context.new_page()
    errors = errors_of(page)
    page.goto(f"{live_server}/?seed=11")
    page.click("#play-now")
    page.wait_for_url(re.compile(r"/t/"))
    deadline = time.monotonic() + 60
    while True:  # to a turn with a real choice (forced ones played as they come)
        assert time.monotonic() < deadline, "no turn with a choice"
        st = state(page)
        legal = my_choice(st)
        if legal and len(legal) > 1:
            break
        if legal:
            click_action(page, st, legal[0])
        page.wait_for_timeout(40)
    hint_btn = page.locator("#hint-btn")
    expect(hint_btn).to_be_visible()
    if by_key:
        page.keyboard.press("h")
    else:
        hint_btn.tap()
    # the hint's own opening ("संकेत:"), which the line shown while it is thought of lacks
    word = cat["web.table.hint_said"].split("{")[0].strip()
    assert word not in cat["web.table.hint_wait"]
    expect(page.locator("#status-line")).to_contain_text(word, timeout=20000)
    expect(hint_btn).to_be_disabled()
    status = page.inner_text("#status-line")
    played = state(page)
    assert played is not None
    selected = page.evaluate("document.querySelector('#hand .hand-tile.selected')?.dataset.tile")
    assert selected and selected in status, (selected, status)
    page.screenshot(path=str(shots / f"hint-{lang}-{size[0]}x{size[1]}.png"))
    assert not errors
    context.close()
