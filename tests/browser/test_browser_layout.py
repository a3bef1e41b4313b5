"""The layout drawing, checked in the browser on thousands of real layouts: no two tiles (or a
tile and a highlighted attach point) ever overlap, at phone, tablet and desktop sizes."""

from __future__ import annotations

import random

from playwright.sync_api import Page

from fives.core.games import Config
from fives.core.state import State


def layouts(count: int = 250, seed: int = 5) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        game = rng.choice(["all-fives", "muggins", "draw", "block", "fives-and-threes"])
        st = State(Config.make(game, rng.choice([2, 3, 4])))
        st.deal_next(rng)
        while st.round_end is None:
            st.play(rng.choice(st.legal_actions()))
            out.append(st.layout.explain())
    return out


def test_no_tiles_overlap(page: Page, live_server: str) -> None:
    data = layouts()
    page.goto(f"{live_server}/rules")
    bad = page.evaluate(
        """async (layouts) => {
          const m = await import('/static/js/layoutview.js');
          const bad = [];
          for (const [w, h] of [[300, 260], [600, 360], [1000, 500]]) {
            const lim = {lx: Math.max(5, Math.floor(w / 30 / 2) - 1), ly: Math.max(3, Math.floor(h / 30 / 2) - 1)};
            layouts.forEach((ex, k) => {
              const lay = m.computeLayout(ex, lim);
              if (lay.rects.length !== ex.tiles.length) bad.push({k, why: 'count'});
              const rs = lay.rects.concat(Object.values(lay.ghosts));
              for (let i = 0; i < rs.length; i++) for (let j = i + 1; j < rs.length; j++) {
                const a = rs[i], b = rs[j];
                const ox = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
                const oy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
                if (ox > 1e-6 && oy > 1e-6) bad.push({k, w, i, j});
              }
            });
          }
          return bad.slice(0, 5);
        }""",
        data,
    )
    assert len(data) > 3000
    assert bad == []
