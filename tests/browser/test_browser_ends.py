"""End names and where they are drawn (issue 40): once a line turns a corner at the board's
edge, the west end may sit at the top and grow to the right, while its button read "← West".
Each end's button now points the way its end grows on the board as drawn, and the lit end on
the board is marked with that same arrow (not a letter or a Hindi initial, प, पू, उ, द, that a
newcomer cannot read)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from .positions import position, serve, state_message, with_event
from .test_browser_phone import context_for

pytestmark = pytest.mark.timeout(120)

NOMINAL = {"W": "←", "E": "→", "N": "↑", "S": "↓"}


def test_each_end_button_points_the_way_its_end_grows_on_the_board(browser: Browser,
                                                                   live_server: str) -> None:
    turned = 0
    for seed in range(11, 31):
        pos = position("all-fives", 2, seed, min_layout=12, min_hand=2)
        msg = state_message(pos, "hi" if seed % 2 else "en")
        several = [t for t in msg["view"]["hand"]
                   if sum(a.startswith(t + "@") for a in msg["view"]["legal"]) > 1]
        if not several:
            continue
        context = context_for(browser, True, "hi" if seed % 2 else "en", (390, 844))
        serve(context, with_event(msg, pos))
        page = context.new_page()
        page.goto(f"{live_server}/t/synthetic")
        expect(page.locator("#hand .hand-tile")).to_have_count(len(msg["view"]["hand"]))
        page.locator(f'#hand .hand-tile[data-tile="{several[0]}"]').tap()
        expect(page.locator("#you-actions .end-btn").first).to_be_visible()
        for button in page.locator("#you-actions .end-btn").all():
            end = button.get_attribute("data-option") or ""
            arrow = button.inner_text().split(" ")[0]
            ghost = page.locator(f'#board .ghost[data-end="{end}"] .ghost-body').bounding_box()
            assert ghost is not None, end
            # a ghost tile lies along its end's way of growth: its long side says which
            across = ghost["width"] > ghost["height"]
            assert (arrow in "←→") == across, (end, arrow, ghost)
            mark = page.locator(f'#board .ghost[data-end="{end}"] .ghost-label').text_content()
            assert mark == arrow, (end, mark, arrow)
            turned += arrow != NOMINAL[end]
        context.close()
        if turned:
            break
    assert turned, "no position had an end turned by a corner: choose longer layouts"
