"""Issue 19 in the browser: the Hindi a player sees, on a 390x844 phone.

- The browser and Python choose the same plural form for every count (the browser through
  ``Intl.PluralRules``, Python through :func:`fives.i18n.plural_form`).
- Screenshots for a person to read, in build/screenshots/hindi/: the lobby, a table part way
  into a round, a round's summary, and each game's rules page; none of them shows a Latin
  letter (bar tile notation, the brand and the language switch).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from fives.core.games import Config
from fives.core.state import State
from fives.i18n import catalogue, plural_form

from .positions import position, serve, state_message, with_event
from .test_browser_phone import (
    LATIN,
    context_for,
    settle,
    summary_message,
)

pytestmark = pytest.mark.timeout(240)

GAMES = ["all-fives", "fives-and-threes", "muggins", "draw", "block"]
SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots" / "hindi"
COUNTS = [0, 0.5, 1, 1.5, 2, 2.5, 3, 5, 10, 11, 21, 61, 100, 101, 250]


def test_the_browser_and_python_choose_the_same_plural_forms(browser: Browser, live_server: str) -> None:
    context = context_for(browser, False, "en", (800, 600))
    page = context.new_page()
    page.goto(f"{live_server}/rules/all-fives")
    for lang in ("en", "hi"):
        browser_forms = page.evaluate(
            "([lang, ns]) => ns.map((n) => new Intl.PluralRules(lang).select(n))", [lang, COUNTS])
        assert browser_forms == [plural_form(n, lang) for n in COUNTS], lang
    context.close()


def round_paid_with_rounding() -> State:
    """A finished two-player All Fives round won by seat 1, whose pool needs rounding."""
    rng = random.Random(5)
    for _ in range(20000):
        state = State(Config.make("all-fives", 2))
        state.deal_next(rng)
        while state.round_end is None:
            state.play(rng.choice(state.legal_actions()))
        end = state.round_end
        if end.winner == 1 and end.payment == "pool" and end.pips[0] % 5 and not state.over:
            return state
    raise RuntimeError("no such round")


def hindi_page(browser: Browser) -> tuple[Page, list[str]]:
    context = context_for(browser, True, "hi", (390, 844))
    context.add_init_script("localStorage.setItem('fives.lang', 'hi')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page, errors


def look(page: Page, name: str, full: bool = False) -> list[str]:
    """Save the screenshot for review; return the Latin the page shows."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    settle(page)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)
    return [f"{name}: {s}" for s in page.evaluate(LATIN)]


def test_hindi_lobby_table_and_summary_for_review(browser: Browser, live_server: str) -> None:
    latin: list[str] = []
    page, errors = hindi_page(browser)
    page.goto(f"{live_server}/")
    expect(page.locator("html")).to_have_attribute("lang", "hi")
    expect(page.get_by_text(catalogue("hi")["web.lobby.play_now"]).first).to_be_visible()
    # the open tables of the shared test server name their players as other tests typed them
    # (in Latin letters): names are marked not for translating, and not counted
    latin += look(page, "lobby", full=True)
    page.context.close()

    # a table part way into a round of All Fives, with the last play told in the banner
    page, errors2 = hindi_page(browser)
    pos = position("all-fives", 2, 11, min_layout=5, min_hand=5)
    serve(page.context, with_event(state_message(pos, "hi"), pos))
    page.goto(f"{live_server}/t/synthetic")
    expect(page.locator("#banner")).to_contain_text(pos.event["tile"])
    latin += look(page, "table-mid-round")
    page.context.close()

    # a round's summary: All Fives, the opponent's pips rounded to five and paid
    page, errors3 = hindi_page(browser)
    serve(page.context, [summary_message(round_paid_with_rounding(), "hi")])
    page.goto(f"{live_server}/t/synthetic")
    dialog = page.locator("#summary-dialog")
    expect(dialog).to_be_visible()
    text = dialog.inner_text()
    assert "विपक्षी के बचे बिंदु" in text and "गोल किया" in text, text
    latin += look(page, "round-summary")
    page.context.close()
    assert not latin, latin
    assert not errors + errors2 + errors3


@pytest.mark.parametrize("game", GAMES)
def test_each_hindi_rules_page_for_review(browser: Browser, live_server: str, game: str) -> None:
    page, errors = hindi_page(browser)
    page.goto(f"{live_server}/rules/{game}")
    hi = catalogue("hi")
    expect(page.locator("#rules-title")).to_have_text(hi[f"rules.{game}.title"])
    headings = [line[3:] for line in hi[f"rules.{game}.body"].splitlines() if line.startswith("## ")]
    expect(page.locator("#rules-body .rules-heading")).to_have_text(headings)
    # the worked examples are drawn, each with its scoring sentence in Hindi
    examples = hi[f"rules.{game}.body"].count("@example ")
    expect(page.locator("#rules-body figure.rules-example")).to_have_count(examples)
    latin = look(page, f"rules-{game}", full=True)
    assert not latin, latin
    assert not errors, errors
    page.context.close()
