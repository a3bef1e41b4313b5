"""The flying "+N" of a scoring play (issue 40): it used to land on the score it adds to and
cover it as the number changed. It comes to rest just under the score now, and fades there."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from .positions import position, serve, state_message, with_event
from .test_browser_phone import context_for

pytestmark = pytest.mark.timeout(120)

AT_REST = """([seat, ms]) => {
  const chip = document.querySelector('.fly-points');
  const anim = chip.getAnimations()[0];
  anim.pause();
  anim.currentTime = ms;
  const box = (e) => { const b = e.getBoundingClientRect();
    return {l: b.left, t: b.top, r: b.right, b: b.bottom}; };
  return {chip: box(chip), score: box(document.getElementById(`seat-score-${seat}`)),
          text: chip.textContent, opacity: getComputedStyle(chip).opacity};
}"""


@pytest.mark.parametrize(("lang", "size"), [("hi", (390, 844)), ("en", (1366, 768))])
def test_the_flying_points_come_to_rest_beside_the_score_not_over_it(
        browser: Browser, live_server: str, lang: str, size: tuple[int, int]) -> None:
    pos = position("all-fives", 2, 5, scored=True)
    assert pos.event is not None and pos.event["points"] > 0
    context = context_for(browser, size[0] < 700, lang, size)
    serve(context, with_event(state_message(pos, lang), pos))
    page = context.new_page()
    page.goto(f"{live_server}/t/synthetic")
    # held still in the page as soon as it flies: it removes itself after 1.2 s, which a
    # loaded machine's round trips from here could outlast
    page.wait_for_function("""() => { const c = document.querySelector('.fly-points');
      const a = c && c.getAnimations()[0]; if (!a) return false; a.pause(); return true; }""")
    for ms in (900, 1100):  # arrived, and fading
        m = page.evaluate(AT_REST, [pos.event["seat"], ms])
        chip, score = m["chip"], m["score"]
        assert m["text"] == f"+{pos.event['points']}"
        overlap = (min(chip["r"], score["r"]) - max(chip["l"], score["l"]) > 0
                   and min(chip["b"], score["b"]) - max(chip["t"], score["t"]) > 0)
        assert not overlap, (ms, chip, score)
        assert chip["t"] >= score["b"] - 0.5 and chip["t"] - score["b"] < 12, (ms, chip, score)
    context.close()
