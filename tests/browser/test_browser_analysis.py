"""The analysis of a finished match in the browser (issue 28): a match played to its end by
taps and clicks, "Analyse my play" from the result, the replay with the seat's analysis: its
summary, the margin chart, a marked choice that, chosen, moves the replay to that turn and
shows its values. On a phone in Hindi and on a desktop in English; screenshots saved."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from fives.i18n import catalogue

from .test_browser_axe import AXE, RUN, SIZES
from .test_browser_game import errors_of, play_to_result
from .test_browser_phone import context_for

pytestmark = pytest.mark.timeout(240)


@pytest.mark.parametrize(("lang", "size"), [("hi", (390, 844)), ("en", (1366, 768))])
def test_a_played_match_is_analysed_with_its_marks_and_chart(
        browser: Browser, live_server: str, shots: Path, lang: str, size: tuple[int, int]) -> None:
    cat = catalogue(lang)
    context = context_for(browser, size[0] < 700, lang, size)
    page = context.new_page()
    errors = errors_of(page)
    rng = random.Random(5)
    page.goto(f"{live_server}/?seed=5")
    page.fill("#name", "Asha")
    page.select_option("#game", "all-fives")
    page.fill("#target", "60")
    page.select_option("#turn-time", "0")
    page.click("#create-btn")
    page.wait_for_url(re.compile(r"/t/"))
    play_to_result(page, rng.choice, 150)  # a careless player: any legal play
    expect(page.locator("#result-dialog")).to_be_visible()
    expect(page.locator("#analyse-btn")).to_have_text(cat["web.result.analyse"])
    page.click("#analyse-btn")
    page.wait_for_url(re.compile(r"/replay/.*analyse=1"))
    expect(page.locator("#analysis-body")).to_be_visible(timeout=60000)
    assert cat["web.analysis.title"] in page.inner_text("#analysis")
    # the chart: the margin line, and a dot for each marked choice
    expect(page.locator("#analysis-chart polyline")).to_have_count(1)
    rows = page.locator("#analysis-list li")
    assert rows.count() >= 3
    marked = page.locator("#analysis-list li .mark-badge")
    assert marked.count() >= 1, page.inner_text("#analysis-list")
    assert page.locator("#analysis-chart .chart-dot").count() == marked.count()
    page.screenshot(path=str(shots / f"analysis-{lang}-{size[0]}x{size[1]}.png"), full_page=True)
    # axe-core on the analysis, at both sizes (issue 29: every page, both languages)
    if AXE.exists():
        page.evaluate(AXE.read_text("utf-8") + "\n;0")  # (a script tag would meet the CSP)
        for w, h in SIZES:
            page.set_viewport_size({"width": w, "height": h})
            found = page.evaluate(RUN)
            serious = [v for v in found if v["impact"] in ("serious", "critical")]
            assert not serious, [(v["id"], v["help"], v["where"]) for v in serious]
        page.set_viewport_size({"width": size[0], "height": size[1]})
    # a marked choice moves the replay to that turn, which shows the values there
    page.check("#analysis-marked")
    page.locator("#analysis-list li button").first.click()
    here = page.locator("#analysis-here")
    expect(here).to_be_visible()
    expect(here.locator(".mark-badge")).to_have_count(1)
    assert here.locator(".analysis-values li").count() >= 2
    page.screenshot(path=str(shots / f"analysis-turn-{lang}-{size[0]}x{size[1]}.png"))
    # nothing wider than the screen
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    assert not errors
    context.close()
