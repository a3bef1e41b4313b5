"""What a failed browser test leaves behind: a screenshot of every page it had open."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser

from .conftest import save_open_pages

PNG = b"\x89PNG\r\n\x1a\n"


def test_a_failed_test_leaves_a_screenshot_of_every_page_it_had_open(
    browser: Browser, live_server: str, tmp_path: Path
) -> None:
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="hi-IN")
    desk = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        phone.new_page().goto(live_server)
        desk.new_page().goto(f"{live_server}/rules/all-fives")
        saved = save_open_pages(browser, "test_x::test_y[chromium]", tmp_path)
    finally:
        phone.close()
        desk.close()
    assert [path.name for path in saved] == ["test_x-test_y-chromium-1.png", "test_x-test_y-chromium-2.png"]
    for path in saved:
        assert path.read_bytes().startswith(PNG) and path.stat().st_size > 2000
