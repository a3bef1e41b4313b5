"""Every player reaches the table (issue 29): a whole match played with the keyboard alone, from
the lobby's form to the result, with the board read as text (as lichess's blind mode gives the
position); the text view says what the seat's view says and nothing more; the clock's last
seconds are said to a screen reader in the page's language."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from fives.i18n import catalogue

from .conftest import human_policy, my_choice, state
from .positions import position, serve, state_message
from .test_browser_game import errors_of

pytestmark = pytest.mark.timeout(180)

FOCUSED = "() => document.activeElement && (document.activeElement.id || document.activeElement.tagName)"


def tab_to(page: Page, element_id: str, most: int = 80) -> None:
    """Press Tab until the element with ``element_id`` has the focus, as a keyboard user does."""
    for _ in range(most):
        if page.evaluate(FOCUSED) == element_id:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"#{element_id} is not reached by Tab")


def arrow_to(page: Page, element_id: str, value: str) -> None:
    """Choose ``value`` in a focused select with the arrow keys."""
    for key in ("ArrowDown", "ArrowUp"):
        for _ in range(12):
            if page.eval_on_selector(f"#{element_id}", "e => e.value") == value:
                return
            page.keyboard.press(key)
    raise AssertionError(f"#{element_id} never showed {value!r}")


def words(text: str, lang: str = "en") -> str:
    cat = catalogue(lang)
    a, b = text.split("-")
    return f"{cat[f'web.pip.{a}']}-{cat[f'web.pip.{b}']}"


def expected_plays(view: dict[str, Any], lang: str = "en") -> list[str]:
    cat = catalogue(lang)
    out = []
    for action in view["legal"]:
        tile, _, end = action.partition("@")
        if end:
            out.append(cat["web.board_text.play_at"].format(tile=words(tile, lang),
                                                            end=cat[f"web.end_word.{end}"]))
        else:
            out.append(cat["web.board_text.play_lead"].format(tile=words(tile, lang)))
    return out


def text_view(page: Page) -> list[str]:
    return page.locator("#board-text li").all_inner_texts()


def check_text_view(page: Page, st: dict[str, Any]) -> None:
    """The board in words holds each open end, the ends' count, the hand and the legal plays
    of this turn, as the seat's view has them."""
    view = st["view"]
    lines = text_view(page)
    layout = view["layout"]
    text = "\n".join(lines)
    for open_end in layout["open_ends"]:
        name = catalogue("en")[f"web.end_word.{open_end['end']}"]
        showing = catalogue("en")[f"web.pip.{open_end['value']}"]
        assert any(line.startswith(f"{name}:") and line.endswith(f"open, showing {showing}")
                   for line in lines), (open_end, lines)
    if layout["tiles"]:
        assert f"The ends count {layout['sentence']}" in lines
    assert "Your tiles: " + ", ".join(words(x) for x in view["hand"]) in lines
    assert "You can play: " + "; ".join(expected_plays(view)) in lines, text


def test_a_whole_match_by_keyboard_alone_with_the_board_as_text(page: Page, live_server: str,
                                                                shots: Path) -> None:
    """No click and no tap: Tab, arrows, typing and Enter make the table, the number keys and
    the end keys play, Enter says "next round" in the round's summary; T shows the board in
    words, which lists the ends, the count and the plays at each turn."""
    errors = errors_of(page)
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{live_server}/?seed=3")
    tab_to(page, "name")
    page.keyboard.type("Asha")
    tab_to(page, "game")
    arrow_to(page, "game", "block")
    tab_to(page, "target")
    page.keyboard.press("Control+A")
    page.keyboard.type("60")  # a few rounds: the summary's "next round" is said by Enter
    tab_to(page, "turn-time")
    arrow_to(page, "turn-time", "0")
    tab_to(page, "create-btn")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/t/"))
    page.wait_for_function("() => window.fivesState && window.fivesState() && window.fivesState().view")
    turns = rounds = 0
    phone_shot = False
    deadline = time.monotonic() + 150
    while True:
        assert time.monotonic() < deadline, "the match did not end"
        st = state(page)
        if st and st["result"]:
            break
        if st and st["summary"] and st["you"] in st["info"]["waiting_for"]:
            expect(page.locator("#summary-dialog")).to_be_visible()
            tab_to(page, "summary-next")
            page.keyboard.press("Enter")
            page.wait_for_function("(r) => !window.fivesState().summary || "
                                   "window.fivesState().summary.round !== r",
                                   arg=st["summary"]["round"])
            rounds += 1
            continue
        legal = my_choice(st)
        if not legal:
            page.wait_for_timeout(40)
            continue
        assert st is not None
        if not turns:
            page.keyboard.press("t")  # the board in words, in the drawing's place
            expect(page.locator("#board-text")).to_be_visible()
            expect(page.locator("#board")).to_be_hidden()
            assert page.get_attribute("#text-board-btn", "aria-pressed") == "true"
        expect(page.locator("#board-text li").last).to_contain_text("You can play")
        check_text_view(page, st)
        if turns == 2:
            page.screenshot(path=str(shots / "keyboard-text-board-desktop-en.png"))
        if turns == 3 and not phone_shot:  # the same on a phone, then back
            page.set_viewport_size({"width": 390, "height": 844})
            page.wait_for_timeout(150)
            page.screenshot(path=str(shots / "keyboard-text-board-phone-en.png"))
            page.set_viewport_size({"width": 1366, "height": 768})
            phone_shot = True
        action = human_policy(legal)
        tile, _, end = action.partition("@")
        number = str(st["view"]["hand"].index(tile) + 1)
        page.keyboard.press(number)
        if sum(a.startswith(tile + "@") for a in legal) > 1:
            page.keyboard.press(end.lower())
        else:
            page.keyboard.press(number)  # the same number again: its one place
        page.wait_for_function("(n) => window.fivesState().n > n", arg=st["n"], timeout=10000)
        turns += 1
    dialog = page.locator("#result-dialog")
    expect(dialog).to_be_visible()
    assert "Final scores" in dialog.inner_text()
    # the dialog holds the focus: the keyboard is where the player's next step is
    assert page.evaluate("() => document.querySelector('#result-dialog').contains(document.activeElement)")
    page.screenshot(path=str(shots / "keyboard-result-en.png"))
    assert turns >= 4 and rounds >= 1
    assert page.evaluate("() => localStorage.getItem('fives.textBoard')") == "on"
    assert not errors


@pytest.mark.parametrize(("lang", "remaining", "said"), [
    ("en", 10_600, "10 seconds left"),
    ("hi", 5_600, "5 सेकंड बचे हैं"),
])
def test_the_clocks_last_seconds_are_said_once_in_the_pages_language(
        browser: Browser, live_server: str, shots: Path, lang: str, remaining: int,
        said: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  locale="hi-IN" if lang == "hi" else "en-US")
    page = context.new_page()
    page.goto(f"{live_server}/rules?lang={lang}")
    pos = position("all-fives", 2, seed=11, min_layout=3)
    msg = state_message(pos, lang)
    msg["info"]["clock"] = {"seat": 0, "remaining": remaining, "total": 15_000}
    serve(context, [msg])
    page.evaluate("() => localStorage.setItem('fives.textBoard', 'on')")
    page.goto(f"{live_server}/t/synthetic")
    page.wait_for_selector("#hand .hand-tile", state="visible")
    assert page.get_attribute("#clock-say", "aria-live") == "assertive"
    expect(page.locator("#clock-say")).to_have_text(said, timeout=3000)
    # the text view in the page's language, from the view alone
    lines = text_view(page)
    cat = catalogue(lang)
    assert any(line.startswith(cat["web.board_text.center"].split("{")[0]) for line in lines)
    assert lines[-1].startswith(cat["web.board_text.can_play"].split("{")[0])
    if lang == "hi":
        assert not re.search(r"[A-Za-z]", " ".join(lines)), lines  # no Latin letter
    page.screenshot(path=str(shots / f"text-board-phone-{lang}.png"))
    context.close()


SIGNALS = """
window.signals = { tones: 0, buzzes: [] };
Object.defineProperty(Navigator.prototype, "vibrate", {
  configurable: true,
  value(pattern) { window.signals.buzzes.push(pattern); return true; },
});
const realOscillator = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
  const osc = realOscillator.call(this);
  const start = osc.start.bind(osc);
  osc.start = (...args) => { window.signals.tones += 1; return start(...args); };
  return osc;
};
"""


def test_sound_and_vibration_are_off_until_turned_on_and_then_kept(
        browser: Browser, live_server: str, shots: Path) -> None:
    """Off by default: a scoring play and one's clock at its last 5 seconds make no sound and no
    vibration. Turned on (the header's sound button, the panel's vibration box), kept across a
    reload: the score chimes, the low clock vibrates once."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    context.add_init_script(SIGNALS)
    page = context.new_page()
    pos = position("all-fives", 2, seed=4, min_layout=3, scored=True)
    msg = state_message(pos, "en")
    msg["info"]["clock"] = {"seat": 0, "remaining": 5_600, "total": 15_000}
    told = dict(msg, event=pos.event)
    serve(context, [dict(msg, event=None), told])
    page.goto(f"{live_server}/t/synthetic")
    page.wait_for_selector("#hand .hand-tile", state="visible")
    expect(page.locator("#clock-say")).to_have_text("5 seconds left", timeout=3000)
    page.wait_for_timeout(300)
    assert page.evaluate("() => window.signals") == {"tones": 0, "buzzes": []}
    # turned on
    page.click("#sound-btn")
    page.click("#panel-btn")
    expect(page.locator("#vibrate-row")).to_be_visible()
    page.screenshot(path=str(shots / "settings-phone-en.png"))
    page.check("#vibrate-on")
    assert page.evaluate("() => [localStorage.getItem('fives.sound'),"
                         " localStorage.getItem('fives.vibrate')]") == ["on", "on"]
    page.reload()
    page.wait_for_selector("#hand .hand-tile", state="visible")
    expect(page.locator("#clock-say")).to_have_text("5 seconds left", timeout=3000)
    page.wait_for_timeout(300)
    signals = page.evaluate("() => window.signals")
    assert signals["buzzes"] == [[80, 60, 80]], signals  # once, at the last 5 seconds
    assert signals["tones"] >= 2, signals  # the scoring play's chime (and the turn's)
    assert page.is_checked("#vibrate-on")
    context.close()
