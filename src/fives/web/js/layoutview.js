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

function endLabel(end) {
  return t(`common.end.${end}`);
}

// Draw into an <svg>. opts: legal: {end: true} for the selected tile's attach points,
// onEnd(end) when one is chosen, maxUnit (px), width/height of the space available.
export function renderLayout(svgEl, ex, opts = {}) {
  const width = opts.width || 600;
  const height = opts.height || 360;
  const target = opts.unit || 34;
  const limits = {
    lx: Math.max(5, Math.floor(width / target / 2) - 1),
    ly: Math.max(3, Math.floor(height / target / 2) - 1),
  };
  const lay = computeLayout(ex, limits);
  const b = lay.bbox;
  const minW = 8, minH = 5;
  const bw = Math.max(b.w, minW), bh = Math.max(b.h, minH);
  const bx = b.x - (bw - b.w) / 2, by = b.y - (bh - b.h) / 2;
  const unit = Math.min(width / bw, height / bh, opts.maxUnit || 46);
  svgEl.setAttribute("viewBox", `${bx} ${by} ${bw} ${bh}`);
  svgEl.setAttribute("width", Math.round(bw * unit));
  svgEl.setAttribute("height", Math.round(bh * unit));
  svgEl.replaceChildren();
  const tilesG = svg("g", { class: "layout-tiles" });
  for (const r of lay.rects) {
    const g = tileShape(r.x, r.y, r.w, r.h, r.first, r.second, {
      cls: r.spinner ? "spinner" : "", title: r.spinner ? `${r.tile} · ${t("common.spinner")}` : r.tile,
    });
    g.dataset.tile = r.tile;
    if (r.spinner) {
      g.append(svg("rect", { x: r.x - 0.12, y: r.y - 0.12, width: r.w + 0.24, height: r.h + 0.24, rx: 0.22, class: "spinner-ring" }));
      g.append(svg("text", { x: r.x + r.w + 0.22, y: r.y + 0.2, class: "spinner-star", text: "✦" }));
    }
    tilesG.append(g);
  }
  svgEl.append(tilesG);
  const marks = svg("g", { class: "layout-marks" });
  const legal = opts.legal || {};
  for (const [end, gh] of Object.entries(lay.ghosts)) {
    if (!legal[end]) continue;
    const label = t("web.table.play_on", { tile: opts.selected || "", end: endLabel(end) });
    const g = svg("g", {
      class: "ghost", tabindex: "0", role: "button", "aria-label": label, "data-end": end,
      onclick: () => opts.onEnd && opts.onEnd(end),
      onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); opts.onEnd && opts.onEnd(end); } },
    });
    if (opts.droppable) {
      g.addEventListener("dragover", (e) => { e.preventDefault(); e.stopPropagation(); });
      g.addEventListener("drop", (e) => { e.preventDefault(); e.stopPropagation(); opts.onEnd && opts.onEnd(end); });
    }
    g.append(svg("rect", { x: gh.x + 0.05, y: gh.y + 0.05, width: gh.w - 0.1, height: gh.h - 0.1, rx: 0.16, class: "ghost-body" }));
    g.append(svg("text", { x: gh.lx, y: gh.ly + 0.02, class: "ghost-label", text: end }));
    g.append(svg("title", { text: label }));
    marks.append(g);
  }
  for (const m of lay.markers) {
    const g = svg("g", { class: `marker ${m.counted != null ? "counted" : "open"}${legal[m.end] ? " legal" : ""}`, "data-marker": m.end });
    if (m.counted != null) {
      g.append(svg("circle", { cx: m.x, cy: m.y, r: 0.42, class: "marker-dot" }));
      g.append(svg("text", { x: m.x, y: m.y + 0.015, class: "marker-num", text: String(m.counted) }));
      g.append(svg("title", { text: t("web.layout.counted", { end: endLabel(m.end), n: m.counted }) }));
    } else {
      g.append(svg("circle", { cx: m.x, cy: m.y, r: 0.22, class: "marker-dot" }));
      g.append(svg("title", { text: t("web.layout.open", { end: endLabel(m.end), value: m.value }) }));
    }
    marks.append(g);
  }
  svgEl.append(marks);
  return lay;
}
