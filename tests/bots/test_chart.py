"""The tournament chart's labels (issue 16): each value sits at its own bar's end, above the
bar, and never over an interval's whisker (``100%`` used to be written across the whisker,
and the points per round far from their bars, at the panel's edge)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from fives.tournament.chart import standings_svg

NS = "{http://www.w3.org/2000/svg}"


def _results() -> dict[str, object]:
    return {
        "game": "all-fives", "players": 2, "target": 250, "matches_counted": 60,
        "deal_sets_counted": 30,
        "bots": [
            {"label": "hard", "score_rate": 1.0, "score_interval": [0.94, 1.0],
             "diff_per_round": {"mean": 25.8, "low": 24.0, "high": 27.5}},
            {"label": "easy", "score_rate": 0.0, "score_interval": [0.0, 0.06],
             "diff_per_round": {"mean": -25.8, "low": -27.5, "high": -24.0}},
            {"label": "medium", "score_rate": 0.5, "score_interval": [0.4, 0.6],
             "diff_per_round": {"mean": 0.3, "low": -2.0, "high": 2.5}},
        ],
    }


def test_each_value_is_at_its_bar_end_above_the_bar_and_clear_of_whiskers() -> None:
    root = ET.fromstring(standings_svg(_results()))
    bars = [r for r in root.iter(NS + "rect") if r.get("fill-opacity")]
    values = [t for t in root.iter(NS + "text") if re.fullmatch(r"[+-]?\d+(\.\d+)?%?", t.text or "")
              and t.get("font-size") == "10"]
    lines = [ln for ln in root.iter(NS + "line") if ln.get("stroke") == "black"]
    assert len(bars) == 6 and len(values) == 6
    for bar, value in zip(bars, values):
        x, y, w = (float(bar.get(k, 0)) for k in ("x", "y", "width"))
        vx, vy = float(value.get("x", 0)), float(value.get("y", 0))
        ends = {x, x + w}
        assert min(abs(vx - e) for e in ends) < 1.0, (value.text, vx, ends)  # at the bar's end
        assert y - 8 <= vy <= y, (value.text, vy, y)  # just above the bar
        # the text's box (10px font, about 6px a character) against every whisker line
        width = 6 * len(value.text or "")
        left = vx - width if value.get("text-anchor") == "end" else vx
        top, bottom = vy - 10, vy + 2
        for ln in lines:
            x1, x2 = sorted(float(ln.get(k, 0)) for k in ("x1", "x2"))
            y1, y2 = sorted(float(ln.get(k, 0)) for k in ("y1", "y2"))
            overlap = x1 <= left + width and left <= x2 and y1 <= bottom and top <= y2
            assert not overlap, (value.text, ln.attrib)
