"""The standings as an SVG chart, written by hand (no plotting library).

Two panels: the match score (wins, draws as halves) in percent with its 95% Wilson interval,
and the points per round gained over the opponents with its 95% interval. Each value is
written just above the end of its own bar, clear of the interval's whisker drawn across it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape

__all__ = ["standings_svg"]

_COLOURS = ("#2b6cb0", "#c05621", "#2f855a", "#6b46c1", "#b83280", "#2c7a7b")


def _fmt(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".") if abs(x) < 1e6 else f"{x:.0f}"


def _label(name: str, limit: int = 28) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def standings_svg(results: Mapping[str, Any]) -> str:
    """The chart of a tournament's ``results.json`` data."""
    bots: Sequence[Mapping[str, Any]] = results["bots"]
    n = max(1, len(bots))
    row = 40
    top = 58
    label_w = 190
    panel_w = 300
    gap = 40
    width = label_w + 2 * panel_w + gap + 30
    height = top + n * row + 46
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    title = (
        f"{results['game']}, {results['players']} players"
        f"{' (teams)' if results.get('teams') else ''}, target {results['target']}: "
        f"{results['matches_counted']} matches on {results['deal_sets_counted']} duplicate deal "
        f"set{'s' if results['deal_sets_counted'] != 1 else ''}"
    )
    out.append(f'<text x="10" y="20" font-size="14" font-weight="bold">{escape(title)}</text>')

    # Panel 1: match score, 0..100 %
    x0 = label_w
    out.append(
        f'<text x="{x0}" y="{top - 14}">match score % (wins + draws/2), 95% Wilson interval</text>'
    )

    def px1(pct: float) -> float:
        return x0 + panel_w * max(0.0, min(100.0, pct)) / 100

    for tick in (0, 25, 50, 75, 100):
        x = px1(tick)
        dash = ' stroke-dasharray="4 3"' if tick == 50 else ""
        colour = "#888" if tick == 50 else "#ddd"
        out.append(
            f'<line x1="{x:.1f}" y1="{top - 6}" x2="{x:.1f}" y2="{top + n * row}" '
            f'stroke="{colour}"{dash}/>'
        )
        out.append(
            f'<text x="{x:.1f}" y="{top + n * row + 16}" text-anchor="middle">{tick}</text>'
        )

    # Panel 2: points per round over the opponents
    x1 = label_w + panel_w + gap
    diffs = [b.get("diff_per_round") or {} for b in bots]
    span = 1.0
    for d in diffs:
        for key in ("mean", "low", "high"):
            v = d.get(key)
            if isinstance(v, int | float):
                span = max(span, abs(float(v)))
    span *= 1.1
    out.append(f'<text x="{x1}" y="{top - 14}">points per round over the opponents, 95% interval</text>')

    def px2(v: float) -> float:
        return x1 + panel_w / 2 + (panel_w / 2) * max(-1.0, min(1.0, v / span))

    for frac in (-1, -0.5, 0, 0.5, 1):
        v = frac * span
        x = px2(v)
        colour = "#888" if frac == 0 else "#ddd"
        out.append(
            f'<line x1="{x:.1f}" y1="{top - 6}" x2="{x:.1f}" y2="{top + n * row}" stroke="{colour}"/>'
        )
        out.append(
            f'<text x="{x:.1f}" y="{top + n * row + 16}" text-anchor="middle">{_fmt(v)}</text>'
        )

    for i, bot in enumerate(bots):
        y = top + i * row
        bar_top, bar_h = y + _BAR_TOP, row - _BAR_TOP - 6
        mid_bar = bar_top + bar_h / 2
        colour = _COLOURS[i % len(_COLOURS)]
        name = _label(str(bot["label"]))
        out.append(
            f'<text x="{label_w - 10}" y="{mid_bar + 4:.1f}" text-anchor="end">{escape(name)}</text>'
        )
        score = float(bot["score_rate"]) * 100
        lo, hi = (float(v) * 100 for v in bot["score_interval"])
        out.append(
            f'<rect x="{x0}" y="{bar_top}" width="{px1(score) - x0:.1f}" height="{bar_h}" '
            f'fill="{colour}" fill-opacity="0.75"/>'
        )
        out.extend(_whisker(px1(lo), px1(hi), mid_bar))
        out.append(_value(px1(score), y, f"{_fmt(score)}%", ahead=px1(score) - x0 < 40))
        d = diffs[i]
        mean = d.get("mean")
        if isinstance(mean, int | float):
            xa, xb = sorted((px2(0.0), px2(float(mean))))
            out.append(
                f'<rect x="{xa:.1f}" y="{bar_top}" width="{xb - xa:.1f}" height="{bar_h}" '
                f'fill="{colour}" fill-opacity="0.75"/>'
            )
            low, high = d.get("low"), d.get("high")
            if isinstance(low, int | float) and isinstance(high, int | float):
                out.extend(_whisker(px2(float(low)), px2(float(high)), mid_bar))
            # over its own bar, reading from the bar's end back towards zero
            out.append(_value(px2(float(mean)), y, f"{float(mean):+.2f}", ahead=float(mean) < 0))
    out.append("</svg>")
    return "\n".join(out) + "\n"


#: a bar starts this far below its row's top; its value is written in the space above it
_BAR_TOP = 16


def _value(x: float, y: float, text: str, ahead: bool) -> str:
    """A bar's value just above the bar's end (``x``): starting there when ``ahead``, else
    ending there."""
    anchor = "start" if ahead else "end"
    return (
        f'<text x="{x:.1f}" y="{y + _BAR_TOP - 3}" font-size="10" text-anchor="{anchor}" '
        f'fill="#333">{escape(text)}</text>'
    )


def _whisker(xa: float, xb: float, mid: float) -> list[str]:
    return [
        f'<line x1="{xa:.1f}" y1="{mid:.1f}" x2="{xb:.1f}" y2="{mid:.1f}" stroke="black" '
        'stroke-width="1.5"/>',
        f'<line x1="{xa:.1f}" y1="{mid - 6:.1f}" x2="{xa:.1f}" y2="{mid + 6:.1f}" stroke="black" '
        'stroke-width="1.5"/>',
        f'<line x1="{xb:.1f}" y1="{mid - 6:.1f}" x2="{xb:.1f}" y2="{mid + 6:.1f}" stroke="black" '
        'stroke-width="1.5"/>',
    ]
