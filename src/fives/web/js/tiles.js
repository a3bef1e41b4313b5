// Drawing dominoes in SVG: a tile is two unit squares; pips in the classic places.
import { svg } from "./common.js";

const PIPS = {
  0: [],
  1: [[0.5, 0.5]],
  2: [[0.27, 0.27], [0.73, 0.73]],
  3: [[0.27, 0.27], [0.5, 0.5], [0.73, 0.73]],
  4: [[0.27, 0.27], [0.73, 0.27], [0.27, 0.73], [0.73, 0.73]],
  5: [[0.27, 0.27], [0.73, 0.27], [0.5, 0.5], [0.27, 0.73], [0.73, 0.73]],
  6: [[0.27, 0.24], [0.73, 0.24], [0.27, 0.5], [0.73, 0.5], [0.27, 0.76], [0.73, 0.76]],
};

function half(x, y, size, value, rotate) {
  const g = [];
  for (const [px, py] of PIPS[value] || []) {
    const [u, v] = rotate ? [py, px] : [px, py];
    g.push(svg("circle", { cx: x + u * size, cy: y + v * size, r: size * 0.095, class: "pip" }));
  }
  return g;
}

// A tile in a rectangle (x, y, w, h) in the caller's units. `first` is the value of the left
// (horizontal) or top (vertical) half.
export function tileShape(x, y, w, h, first, second, opts = {}) {
  const horizontal = w >= h;
  const size = horizontal ? h : w;
  const g = svg("g", { class: `tile${opts.cls ? " " + opts.cls : ""}` });
  const inset = size * 0.04;
  g.append(svg("rect", {
    x: x + inset, y: y + inset, width: w - 2 * inset, height: h - 2 * inset,
    rx: size * 0.14, class: "tile-body",
  }));
  if (horizontal) {
    g.append(svg("line", { x1: x + w / 2, y1: y + size * 0.16, x2: x + w / 2, y2: y + h - size * 0.16, class: "tile-line" }));
    g.append(...half(x, y, size, first, false), ...half(x + size, y, size, second, false));
  } else {
    g.append(svg("line", { x1: x + size * 0.16, y1: y + h / 2, x2: x + w - size * 0.16, y2: y + h / 2, class: "tile-line" }));
    g.append(...half(x, y, size, first, true), ...half(x, y + size, size, second, true));
  }
  if (opts.title) g.append(svg("title", { text: opts.title }));
  return g;
}

// A stand-alone vertical tile (hand, replay) as its own <svg>.
export function tileSvg(text, opts = {}) {
  const [a, b] = text.split("-").map(Number);
  const s = svg("svg", { viewBox: "0 0 1 2", class: `tile-svg${opts.cls ? " " + opts.cls : ""}`, "aria-hidden": "true", focusable: "false" });
  s.append(tileShape(0, 0, 1, 2, a, b));
  return s;
}

export function tileBack(opts = {}) {
  const s = svg("svg", { viewBox: "0 0 1 2", class: `tile-svg back${opts.cls ? " " + opts.cls : ""}`, "aria-hidden": "true", focusable: "false" });
  s.append(svg("rect", { x: 0.04, y: 0.04, width: 0.92, height: 1.92, rx: 0.14, class: "tile-back" }));
  s.append(svg("circle", { cx: 0.5, cy: 1, r: 0.18, class: "tile-back-mark" }));
  return s;
}
