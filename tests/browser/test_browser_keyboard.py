"""A keyboard player at the table (issue 40): choosing a tile with Enter redraws the hand, and
the focus stays on that tile instead of dropping to the page's body (the next Tab then started
from the top of the page); a played tile hands the focus to the hand's next tile; the status
line speaks of keys, not taps, to a player who uses them; a tile is named in words."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from .conftest import play_now_to_my_turn, state
from .test_browser_phone import tile_words

pytestmark = pytest.mark.timeout(120)

FOCUSED = "() => document.activeElement && document.activeElement.dataset.tile || null"


def test_choosing_a_tile_by_keyboard_keeps_the_focus_in_the_hand(page: Page,
                                                                 live_server: str) -> None:
    page.set_viewport_size({"width": 1366, "height": 768})
    legal = play_now_to_my_turn(page, live_server)
    tile = legal[0].split("@")[0]
    page.locator(f'#hand .hand-tile[data-tile="{tile}"]').focus()
    page.keyboard.press("Enter")  # chosen: its ends light up, the hand is drawn again
    page.wait_for_function("(t) => document.querySelector(`#hand .hand-tile.selected`)"
                           " && document.querySelector(`#hand .hand-tile.selected`).dataset.tile"
                           " === t", arg=tile)
    assert page.evaluate(FOCUSED) == tile
    # and a screen reader says the tile as words, not as a subtraction ("five-three")
    label = page.locator(f'#hand .hand-tile[data-tile="{tile}"]').get_attribute("aria-label")
    assert label is not None and label.startswith(tile_words([tile], "en")), label
    # the instruction speaks of keys to a keyboard player, not of taps
    status = page.locator("#status-line").inner_text()
    assert ("Enter" in status or "arrow" in status) and "tap" not in status.lower(), status
    before = state(page)
    assert before is not None
    options = [a for a in legal if a.split("@")[0] == tile]
    if len(options) == 1:
        page.keyboard.press("Enter")  # a second Enter plays a tile that fits one place
        page.wait_for_function("(n) => window.fivesState().n > n", arg=before["n"])
        page.wait_for_timeout(100)  # the hand drawn after the play
        focused = page.evaluate(FOCUSED)
        assert focused is not None and focused != tile  # still in the hand, on another tile
