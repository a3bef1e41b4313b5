// The layout drawn as the seeds draw it: the centre tile (the spinner crosswise, marked), the
// W/E arms along the line and the N/S side arms, doubles crosswise, and at each open end a
// marker: a filled number where the end is counted (its contribution), an empty dot where a
// tile may join but nothing is counted. Long arms wrap (snake) to fit the screen.
//
// Everything comes from the server's layout description (Layout.explain()); no rules here.
import { svg } from "./common.js";
import { tileShape } from "./tiles.js";
import { t } from "./i18n.js";

const DIR = { W: [-1, 0], E: [1, 0], N: [0, -1], S: [0, 1] };
// Where each arm wraps to: with a spinner, each arm keeps to its own quadrant.
const OUT_SPIN = { W: [0, -1], N: [1, 0], E: [0, 1], S: [-1, 0] };
const OUT_LINE = { W: [0, -1], E: [0, 1] };
const PITCH = 2;

function dot(a, b) { return a[0] * b[0] + a[1] * b[1]; }
function add(a, b, k = 1) { return [a[0] + b[0] * k, a[1] + b[1] * k]; }

function rectOf(p, d, len, wd) {
  if (d[0] !== 0) {
    const x = d[0] > 0 ? p[0] : p[0] - len;
    return { x, y: p[1] - wd / 2, w: len, h: wd };
  }
  const y = d[1] > 0 ? p[1] : p[1] - len;
  return { x: p[0] - wd / 2, y, w: wd, h: len };
}

class Turtle {
  constructor(end, start, limits, spinnerGame) {
    this.main = DIR[end];
    this.out = (spinnerGame ? OUT_SPIN : OUT_LINE)[end];
    this.p = start.slice();
    this.d = this.main.slice();
    this.phase = "main";
    this.outward = true;
    this.travel = 0;
    this.inLeg = 0;
    this.last = null;
    this.limit = this.main[0] !== 0 ? limits.lx : limits.ly;
    // return legs stop before the other arms (with a spinner) or cross the whole width
    this.back = spinnerGame ? 1.4 : -this.limit;
    // leave a return leg room for at least one tile (a double in the turn takes one more)
    if (spinnerGame) this.limit = Math.max(this.limit, this.back + 4);
  }

  fits(len, p = this.p, d = this.d, outward = this.outward) {
    const far = add(p, d, len);
    const s = dot(far, this.main);
    return outward ? s <= this.limit + 1e-9 : s >= this.back - 1e-9;
  }

  turnTo(d) {
    const { center, halfWidth } = this.last;
    this.d = d;
    this.p = add(center, d, halfWidth);
    this.travel = 0;
    this.inLeg = 0;
  }

  // Decide the position of a tile of length `len` (1 for a crosswise double, 2 otherwise).
  prepare(len) {
    if (!this.last) return;
    if (this.phase === "main" && this.inLeg >= 1 && !this.fits(len) && this.out) {
      this.phase = "conn";
      this.mainDir = this.d;
      this.turnTo(this.out);
    } else if (this.phase === "conn" && this.travel >= PITCH) {
      const d = [-this.mainDir[0], -this.mainDir[1]];
      const p = add(this.last.center, d, this.last.halfWidth);
      if (this.fits(len, p, d, !this.outward)) {
        this.phase = "main";
        this.outward = !this.outward;
        this.turnTo(d);
      } // else: no room for the next leg here; the connector goes on outwards
    }
  }

  place(len, wd) {
    const rect = rectOf(this.p, this.d, len, wd);
    this.last = { center: add(this.p, this.d, len - 0.5), halfWidth: wd / 2 };
    this.p = add(this.p, this.d, len);
    this.travel += len;
    this.inLeg += 1;
    return rect;
  }

  clone() {
    const c = Object.create(Turtle.prototype);
    Object.assign(c, this, { p: this.p.slice(), d: this.d.slice() });
    return c;
  }
}

// Positions of every tile, marker and ghost, in units (a half tile is 1 x 1).
export function computeLayout(ex, limits = { lx: 9, ly: 5 }) {
  const out = { rects: [], markers: [], ghosts: {}, bbox: null };
  if (!ex || !ex.center) {
    out.bbox = { x: -3, y: -2, w: 6, h: 4 };
    return out;
  }
  const [cl, ch] = ex.center.split("-").map(Number);
  const spinnerGame = ex.spinner != null;
  const isSpinner = ex.spinner === ex.center;
  let edges;
  if (cl === ch) {
    out.rects.push({ x: -0.5, y: -1, w: 1, h: 2, first: cl, second: ch, tile: ex.center, spinner: isSpinner });
    edges = { W: [-0.5, 0], E: [0.5, 0], N: [0, -1], S: [0, 1] };
  } else {
    out.rects.push({ x: -1, y: -0.5, w: 2, h: 1, first: cl, second: ch, tile: ex.center });
    edges = { W: [-1, 0], E: [1, 0], N: [0, -0.5], S: [0, 0.5] };
  }
  const turtles = {};
  for (const end of ["W", "E", "N", "S"]) {
    const arm = (ex.arms && ex.arms[end]) || [];
    if (!arm.length && !(ex.open_ends || []).some((o) => o.end === end)) continue;
    const tt = new Turtle(end, edges[end], limits, spinnerGame);
    for (const [tile, inner, outer] of arm) {
      const dbl = inner === outer;
      const len = dbl ? 1 : 2;
      tt.prepare(len);
      const r = tt.place(len, dbl ? 2 : 1);
      const d = tt.d;
      let first, second;
      if (d[0] !== 0) [first, second] = d[0] > 0 ? [inner, outer] : [outer, inner];
      else [first, second] = d[1] > 0 ? [inner, outer] : [outer, inner];
      out.rects.push({ ...r, first, second, tile });
    }
    turtles[end] = tt;
  }
  const counted = {};
  for (const c of ex.contributions || []) counted[c.end] = c.counted;
  for (const o of ex.open_ends || []) {
    const tt = turtles[o.end];
    if (!tt) continue;
    const g = tt.clone();
    g.prepare(2);
    const ghost = rectOf(g.p, g.d, 2, 1);
    const label = add(g.p, g.d, 1.5);
    out.ghosts[o.end] = { ...ghost, value: o.value, d: g.d, lx: label[0], ly: label[1] };
    const m = add(g.p, g.d, 0.5);
    out.markers.push({ end: o.end, x: m[0], y: m[1], value: o.value, counted: o.end in counted ? counted[o.end] : null });
  }
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  const grow = (r) => {
    x0 = Math.min(x0, r.x); y0 = Math.min(y0, r.y);
    x1 = Math.max(x1, r.x + r.w); y1 = Math.max(y1, r.y + r.h);
  };
  out.rects.forEach(grow);
  Object.values(out.ghosts).forEach(grow);
  const pad = 0.6;
  out.bbox = { x: x0 - pad, y: y0 - pad, w: x1 - x0 + 2 * pad, h: y1 - y0 + 2 * pad };
  return out;
}

// The arrows of the ends as a straight line grows (west to the left, north up).
export const ARROW = { W: "←", E: "→", N: "↑", S: "↓" };

// The way an end grows as drawn: once a line turns a corner, the west end may sit at the top
// and grow to the right. The lit end's mark on the board and its button below ("→ West") show
// this one arrow, so they read as one without a letter or an initial to decode.
export function arrowOf(end, ghost) {
  if (!ghost || !ghost.d) return ARROW[end];
  const [dx, dy] = ghost.d;
  return Math.abs(dx) >= Math.abs(dy) ? (dx > 0 ? "→" : "←") : (dy > 0 ? "↓" : "↑");
}

function endName(end) {
  return t(`common.end.${end}`);
}

// Touch targets of the attach points: at least `px` CSS pixels each way, centred on their
// ghost tile, but never reaching past half the way to another target.
function hitAreas(ghosts, unitsPerPx, px = 48) {
  const want = (px * unitsPerPx) / 2;
  const out = {};
  const entries = Object.entries(ghosts);
  for (const [end, g] of entries) {
    const cx = g.x + g.w / 2, cy = g.y + g.h / 2;
    let hw = Math.max(g.w / 2, want), hh = Math.max(g.h / 2, want);
    for (const [other, o] of entries) {
      if (other === end) continue;
      const dx = Math.abs(cx - (o.x + o.w / 2)), dy = Math.abs(cy - (o.y + o.h / 2));
      if (dx >= dy) hw = Math.max(g.w / 2, Math.min(hw, dx / 2));
      else hh = Math.max(g.h / 2, Math.min(hh, dy / 2));
    }
    out[end] = { x: cx - hw, y: cy - hh, w: 2 * hw, h: 2 * hh };
  }
  return out;
}

function union(b, r) {
  const x0 = Math.min(b.x, r.x), y0 = Math.min(b.y, r.y);
  const x1 = Math.max(b.x + b.w, r.x + r.w), y1 = Math.max(b.y + b.h, r.y + r.h);
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

// Draw into an <svg>. opts: width/height: the space available (CSS px); unit: the size of half
// a tile (px) the arms are laid out for before they wrap (the drawing then zooms out as it
// grows); maxUnit: the largest it may zoom in; legal: {end: true} for the selected tile's
// attach points, onEnd(end) when one is chosen ("lead" for the first tile); lead: show where
// the first tile goes; newest: the tile just played (marked until the next play); fill: the
// <svg> fills its box (CSS) and only its viewBox is set.
export function renderLayout(svgEl, ex, opts = {}) {
  const width = opts.width || 600;
  const height = opts.height || 360;
  const target = opts.unit || 34;
  const limits = {
    lx: Math.max(5, Math.floor(width / target / 2) - 1),
    ly: Math.max(3, Math.floor(height / target / 2) - 1),
  };
  const lay = computeLayout(ex, limits);
  const legal = opts.legal || {};
  if (opts.lead) lay.ghosts.lead = { x: -1, y: -0.5, w: 2, h: 1, lx: 0, ly: 0 };
  const shown = Object.fromEntries(Object.entries(lay.ghosts).filter(([end]) => legal[end]));
  // The picture never zooms in past maxUnit px per unit: the box is at least that big.
  const maxUnit = opts.maxUnit || 46;
  const frame = (b) => {
    const bw = Math.max(b.w, width / maxUnit, 8), bh = Math.max(b.h, height / maxUnit, 5);
    return { x: b.x - (bw - b.w) / 2, y: b.y - (bh - b.h) / 2, w: bw, h: bh };
  };
  let box = frame(lay.bbox);
  let hits = {};
  // Twice: the hit areas are sized in pixels, and they widen the picture they are part of.
  for (let k = 0; k < 2; k++) {
    const unit = Math.min(width / box.w, height / box.h);
    hits = hitAreas(shown, 1 / unit);
    let b = lay.bbox;
    for (const h of Object.values(hits)) b = union(b, h);
    box = frame(b);
  }
  const unit = Math.min(width / box.w, height / box.h, maxUnit);
  svgEl.setAttribute("viewBox", `${box.x} ${box.y} ${box.w} ${box.h}`);
  if (opts.fill) {
    svgEl.removeAttribute("width");
    svgEl.removeAttribute("height");
  } else {
    svgEl.setAttribute("width", Math.round(box.w * unit));
    svgEl.setAttribute("height", Math.round(box.h * unit));
  }
  svgEl.replaceChildren();
  const tilesG = svg("g", { class: "layout-tiles" });
  for (const r of lay.rects) {
    const newest = opts.newest && r.tile === opts.newest;
    const cls = [r.spinner ? "spinner" : "", newest ? "newest" : ""].filter(Boolean).join(" ");
    const title = [r.tile, r.spinner ? t("common.spinner") : "", newest ? t("web.layout.newest") : ""].filter(Boolean).join(" · ");
    const g = tileShape(r.x, r.y, r.w, r.h, r.first, r.second, { cls, title });
    g.dataset.tile = r.tile;
    if (newest) {
      g.prepend(svg("rect", { x: r.x - 0.16, y: r.y - 0.16, width: r.w + 0.32, height: r.h + 0.32, rx: 0.26, class: "newest-ring" }));
    }
    if (r.spinner) {
      g.append(svg("rect", { x: r.x - 0.12, y: r.y - 0.12, width: r.w + 0.24, height: r.h + 0.24, rx: 0.22, class: "spinner-ring" }));
      g.append(svg("text", { x: r.x + r.w + 0.22, y: r.y + 0.2, class: "spinner-star", text: "✦" }));
    }
    tilesG.append(g);
  }
  svgEl.append(tilesG);
  const marks = svg("g", { class: "layout-marks" });
  for (const [end, gh] of Object.entries(shown)) {
    const label = end === "lead"
      ? t("web.table.lead", { tile: opts.selected || "" })
      : t("web.table.play_on", { tile: opts.selected || "", end: endName(end) });
    const choose = () => opts.onEnd && opts.onEnd(end);
    const g = svg("g", {
      class: "ghost", tabindex: "0", role: "button", "aria-label": label, "data-end": end,
      onclick: choose,
      onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); choose(); } },
    });
    const h = hits[end];
    g.append(svg("rect", { x: h.x, y: h.y, width: h.w, height: h.h, class: "ghost-hit" }));
    g.append(svg("rect", { x: gh.x + 0.05, y: gh.y + 0.05, width: gh.w - 0.1, height: gh.h - 0.1, rx: 0.16, class: "ghost-body" }));
    if (end !== "lead") g.append(svg("text", { x: gh.lx, y: gh.ly + 0.02, class: "ghost-label", text: arrowOf(end, gh) }));
    g.append(svg("title", { text: label }));
    marks.append(g);
  }
  for (const m of lay.markers) {
    const g = svg("g", { class: `marker ${m.counted != null ? "counted" : "open"}${legal[m.end] ? " legal" : ""}`, "data-marker": m.end });
    if (m.counted != null) {
      g.append(svg("circle", { cx: m.x, cy: m.y, r: 0.42, class: "marker-dot" }));
      g.append(svg("text", { x: m.x, y: m.y + 0.015, class: "marker-num", text: String(m.counted) }));
      g.append(svg("title", { text: t("web.layout.counted", { end: endName(m.end), n: m.counted }) }));
    } else {
      g.append(svg("circle", { cx: m.x, cy: m.y, r: 0.22, class: "marker-dot" }));
      g.append(svg("title", { text: t("web.layout.open", { end: endName(m.end), value: m.value }) }));
    }
    marks.append(g);
  }
  svgEl.append(marks);
  return lay;
}
