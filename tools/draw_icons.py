"""Draw the installed site's icons (issue 29): ``python tools/draw_icons.py``.

The same domino as ``web/favicon.svg`` (a one and a five on a cream tile), on the site's dark
green, drawn at four times the size with Pillow and scaled down (smooth edges), written as PNG
into ``src/fives/web/icons/``:

- ``icon-192.png``, ``icon-512.png``: the tile fills most of a rounded square;
- ``maskable-512.png``: a full square, the tile inside the middle 80 % (the "safe zone" a phone's
  launcher keeps when it cuts the icon to a circle or a squircle).

Pillow is a development tool here (the site serves the files); the PNGs are committed.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "fives" / "web" / "icons"
BRAND = (29, 59, 51, 255)  # --brand, #1d3b33
TILE = (255, 253, 245, 255)  # the favicon's cream
INK = (29, 59, 51, 255)
SCALE = 4


def draw(size: int, maskable: bool) -> Image.Image:
    big = size * SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    if maskable:
        pen.rectangle((0, 0, big, big), fill=BRAND)
        inner = big * 0.8  # the safe zone
    else:
        pen.rounded_rectangle((0, 0, big - 1, big - 1), radius=big * 0.18, fill=BRAND)
        inner = big * 0.92
    # the tile: twice as wide as high, centred
    width = inner * 0.86
    height = width / 2
    left, top = (big - width) / 2, (big - height) / 2
    pen.rounded_rectangle((left, top, left + width, top + height), radius=height * 0.16,
                          fill=TILE, outline=INK, width=max(1, round(height * 0.035)))
    mid = left + width / 2
    pen.line((mid, top + height * 0.14, mid, top + height * 0.86), fill=INK,
             width=max(1, round(height * 0.045)))
    r = height * 0.085
    half = width / 2

    def pip(x: float, y: float) -> None:
        cx, cy = left + x * half, top + y * height
        pen.ellipse((cx - r, cy - r, cx + r, cy + r), fill=INK)

    pip(0.5, 0.5)  # the one
    for x, y in ((1.25, 0.27), (1.75, 0.27), (1.5, 0.5), (1.25, 0.73), (1.75, 0.73)):
        pip(x, y)  # the five
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, maskable in (("icon-192.png", 192, False), ("icon-512.png", 512, False),
                                 ("maskable-512.png", 512, True)):
        draw(size, maskable).save(OUT / name, optimize=True)
        print(f"{OUT / name}: {(OUT / name).stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
