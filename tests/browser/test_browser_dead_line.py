"""A page on a dead line (issue 43): its server went silent without closing the socket (a
process paused, or killed with the network between gone), so no close ever comes. The page's
heartbeat notices within seconds, says it is reconnecting, dials again, and the move tapped on
the dead line is made once, on the new one."""

from __future__ import annotations

import time
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, expect

from fives.i18n import t
from relay import Relay

from .conftest import human_policy, play_now_to_my_turn, state

pytestmark = pytest.mark.timeout(120)


def test_a_silent_line_is_redialled_and_the_move_tapped_on_it_is_made_once(
        browser: Browser, live_server: str, lang: str = "hi") -> None:
    """In Hindi (the mechanism is the same in both languages; each run waits out the
    heartbeat, about 10 s, so one language is run)."""
    where = urlsplit(live_server)
    relay = Relay(where.hostname or "127.0.0.1", where.port or 80)
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  locale="hi-IN" if lang == "hi" else "en-US")
    try:
        page = context.new_page()
        legal = play_now_to_my_turn(page, f"http://127.0.0.1:{relay.port}")
        before = state(page)
        assert before is not None
        relay.freeze()  # the line stays open and says nothing from now on
        frozen_at = time.monotonic()
        action = human_policy(legal)
        tile = action.split("@")[0]
        options = [a for a in legal if a.split("@")[0] == tile]
        page.locator(f'#hand .hand-tile[data-tile="{tile}"]').tap()
        if len(options) > 1:
            page.locator(f'#board .ghost[data-end="{action.split("@")[1]}"]').tap()
        else:
            page.locator(f'#hand .hand-tile[data-tile="{tile}"]').tap()
        status = page.locator("#conn-status")
        expect(status).to_have_text(t("web.conn.reconnecting", lang), timeout=15000)
        noticed = time.monotonic() - frozen_at
        page.wait_for_function("(n) => window.fivesState().n > n", arg=before["n"],
                               timeout=15000)
        expect(status).to_be_hidden()
        after = state(page)
        assert after is not None
        assert tile not in after["view"]["hand"], "the move tapped on the dead line was made"
        # the heartbeat: a ping every 3 s, the line given up after 8 s of silence
        assert noticed < 13, noticed
    finally:
        context.close()
        relay.close()
