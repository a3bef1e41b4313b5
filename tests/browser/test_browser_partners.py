"""Partnerships as a player reads them (issue 40): a word says who one's partner is (the
badges' colours alone did not; the phone hides their legend), and a Fives and Threes round
that ends blocked right after one partner went out says why it has no winner (FT-8)."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Browser, expect

from fives.core.games import Config
from fives.core.state import State
from fives.i18n import catalogue

from .positions import serve
from .test_browser_phone import context_for, summary_message

pytestmark = pytest.mark.timeout(120)


def blocked_after_one_went_out() -> State:
    """A four-player Fives and Threes round that ended blocked with one seat out of tiles."""
    rng = random.Random(23)
    for _ in range(5000):
        state = State(Config.make("fives-and-threes", 4, teams=True))
        state.deal_next(rng)
        while state.round_end is None:
            state.play(rng.choice(state.legal_actions()))
        end = state.round_end
        if end.reason == "blocked" and any(not state.hand(s) for s in range(4)):
            return state
    raise RuntimeError("no such round")


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_a_blocked_round_after_one_partner_went_out_says_why_it_has_no_winner(
        browser: Browser, live_server: str, lang: str) -> None:
    state = blocked_after_one_went_out()
    assert any(not state.hand(s) for s in range(4))
    context = context_for(browser, True, lang, (390, 844))
    serve(context, [summary_message(state, lang)])
    page = context.new_page()
    page.goto(f"{live_server}/t/synthetic")
    dialog = page.locator("#summary-dialog")
    expect(dialog).to_be_visible()
    reason = dialog.locator(".summary-reason").inner_text()
    cat = catalogue(lang)
    assert reason.startswith(cat["web.summary.blocked"]), reason
    tail = cat["web.summary.blocked_after_out"].split("{name}")[1]
    assert tail.strip() in reason, reason
    context.close()
