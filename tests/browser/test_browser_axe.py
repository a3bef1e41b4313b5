"""Accessibility checked by a machine (issue 29): axe-core (the npm package, installed by
``make test``; nothing is downloaded at run time) on every page of the site — home and lobby,
the table in play for 2, 3 and 4 players, at a round's end and at the match's end, the replay,
history, me, a profile, an arena, the leaderboard, watch, the rules, device, puzzles and the error page —
at 390×844 and at 1366×768 (a touch screen) in English, and at 390×844 in Hindi (the pages'
markup, colours and sizes are the language's own only in their words: a second size in Hindi
cost the suite 30 s of a core and has never found what the English run did not). No violation of impact
serious or critical; every violation found is written to ``build/axe/<lang>-<size>.json`` and
``docs/accessibility.md`` lists what is left."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from fives.core.games import Config
from fives.core.state import State

from .positions import position, serve, state_message
from .test_browser_phone import round_with_one_pip_left, summary_message

pytestmark = pytest.mark.timeout(240)

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "build" / "npm" / "node_modules" / "axe-core" / "axe.min.js"
REPORTS = ROOT / "build" / "axe"
#: a phone held upright, then a laptop
SIZES = ((390, 844), (1366, 768))
#: what axe is asked: the violations only, with a few of the places each was found
RUN = """async () => {
  const r = await axe.run(document, {resultTypes: ['violations']});
  return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.length, where: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
}"""


def _match_over(lang: str) -> dict[str, Any]:
    rng = random.Random(5)
    state = State(Config.make("block", 2, target=10))
    while not state.over:
        state.deal_next(rng)
        while state.round_end is None:
            state.play(rng.choice(state.legal_actions()))
    return summary_message(state, lang)


def _table(page: Page, base: str, messages: list[dict[str, Any]], ready: str) -> None:
    serve(page.context, messages)
    page.goto(f"{base}/t/synthetic")
    page.wait_for_selector(ready, state="visible")


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_no_serious_or_critical_violation_on_any_page(browser: Browser, live_server: str,
                                                      finished: str, lang: str) -> None:
    """Each page is loaded once and checked at both sizes (the viewport resized between the
    two runs: the page lays itself out again, as on a turned or wider screen)."""
    if not AXE.exists():
        pytest.skip("axe-core is not installed (make test installs it)")
    base = live_server
    context = browser.new_context(
        viewport={"width": SIZES[0][0], "height": SIZES[0][1]}, has_touch=True,
        locale="hi-IN" if lang == "hi" else "en-US", bypass_csp=True)
    page = context.new_page()
    page.goto(f"{base}/?lang={lang}")
    made = page.evaluate("""async (name) => (await fetch('/api/me', {method: 'POST',
        headers: {'content-type': 'application/json'}, body: JSON.stringify({name})})).json()""",
                         "Asha" if lang == "en" else "आशा")
    me = made["player"]["id"]
    arena = page.evaluate("""async () => (await fetch('/api/events', {method: 'POST',
        headers: {'content-type': 'application/json'}, body: JSON.stringify({game: 'block',
        players: 2, minutes: 30})})).json()""")
    assert "id" in arena, arena
    joined = page.evaluate("async (id) => (await fetch(`/api/events/${id}/join`, {method: "
                           "'POST', headers: {'content-type': 'application/json'}, body: '{}'}))"
                           ".json()", arena["id"])
    assert joined["me"]["joined"], joined
    visits: list[tuple[str, Any]] = [
        ("home", "/"), ("history", "/history"), ("me", "/me"), ("profile", f"/p/{me}"),
        ("leaderboard", "/leaderboard"), ("watch", "/watch"), ("rules", "/rules"),
        ("rules-all-fives", "/rules/all-fives"), ("device", "/device"), ("puzzles", "/puzzles"),
        ("replay", f"/replay/{finished}"), ("error", "/t/no-such-table"), ("offline", "/offline"),
        ("arena", f"/events/{arena['id']}"),
    ]
    for players in (2, 3, 4):
        pos = position("all-fives", players, players)
        visits.append((f"table-{players}p", ([state_message(pos, lang)], "#hand .hand-tile")))
    visits.append(("round-end", ([summary_message(round_with_one_pip_left("block"), lang)],
                                 "#summary-dialog")))
    visits.append(("match-end", ([_match_over(lang)], "#result-dialog")))
    # last: the board as text (the setting stays in the context's storage)
    pos = position("all-fives", 2, 2)
    visits.append(("table-as-text", ([state_message(pos, lang)], "#board-text li", True)))
    sizes = SIZES if lang == "en" else SIZES[:1]
    found: dict[str, dict[str, list[dict[str, Any]]]] = {f"{w}x{h}": {} for w, h in sizes}
    for name, where in visits:
        if isinstance(where, str):
            page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
            page.goto(f"{base}{where}?lang={lang}")
            page.wait_for_load_state("networkidle")
        else:
            page.close()
            page = context.new_page()
            page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
            if len(where) > 2 and where[2]:
                page.add_init_script("localStorage.setItem('fives.textBoard', 'on')")
            _table(page, base, where[0], where[1])
        page.add_script_tag(path=str(AXE))
        for w, h in sizes:
            page.set_viewport_size({"width": w, "height": h})
            page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
            found[f"{w}x{h}"][name] = page.evaluate(RUN)
    REPORTS.mkdir(parents=True, exist_ok=True)
    for size, pages in found.items():
        (REPORTS / f"{lang}-{size}.json").write_text(
            json.dumps(pages, ensure_ascii=False, indent=1), encoding="utf-8")
    serious = {f"{size} {name}": [f"{v['impact']} {v['id']}: {v['help']} {v['where']}"
                                  for v in vs if v["impact"] in ("serious", "critical")]
               for size, pages in found.items() for name, vs in pages.items()}
    assert not {k: v for k, v in serious.items() if v}, json.dumps(serious, ensure_ascii=False,
                                                                   indent=1)
    context.close()
