// Score displays: the All Fives paper tally and the Fives and Threes 61 track.
import { svg } from "./common.js";
import { t, plural } from "./i18n.js";

// AF-13: one stroke per 5 points; each 50 a large X with a small x in each of its four
// spaces; half points kept apart.
export function tallySheet(score) {
  const whole = Math.floor(score);
  const half = score - whole >= 0.5;
  const fifties = Math.floor(whole / 50);
  const strokes = Math.floor((whole % 50) / 5);
  const rest = whole % 5;
  const W = 2.2, H = 2.2;
  const width = Math.max(1, fifties) * W + (strokes ? strokes * 0.45 + 0.6 : 0) + (half ? 1.2 : 0) + (rest ? 1.2 : 0);
  const s = svg("svg", { viewBox: `0 0 ${width.toFixed(2)} ${H}`, class: "tally", role: "img",
    "aria-label": plural("web.score.tally_label", score) });
  let x = 0;
  for (let i = 0; i < fifties; i++) {
    const g = svg("g", { class: "tally-fifty" });
    g.append(svg("path", { d: `M${x + 0.3} 0.3 L${x + 1.9} 1.9 M${x + 1.9} 0.3 L${x + 0.3} 1.9`, class: "tally-x" }));
    for (const [cx, cy] of [[1.1, 0.32], [1.1, 1.88], [0.32, 1.1], [1.88, 1.1]]) {
      const r = 0.17;
      g.append(svg("path", { d: `M${x + cx - r} ${cy - r} L${x + cx + r} ${cy + r} M${x + cx + r} ${cy - r} L${x + cx - r} ${cy + r}`, class: "tally-small" }));
    }
    s.append(g);
    x += W;
  }
  if (!fifties) x = 0.2;
  for (let i = 0; i < strokes; i++) {
    s.append(svg("line", { x1: x + 0.2, y1: 0.35, x2: x + 0.2, y2: 1.85, class: "tally-stroke" }));
    x += 0.45;
  }
  if (rest) {
    s.append(svg("text", { x: x + 0.5, y: 1.45, class: "tally-rest", text: `+${rest}` }));
    x += 1.2;
  }
  if (half) {
    s.append(svg("text", { x: x + 0.5, y: 1.45, class: "tally-half", text: "½" }));
  }
  return s;
}

// FT-10/11: a peg track to exactly the target (61), for one side: holes 1..target in three rows,
// grouped by fives; holes up to the score filled, the peg on the score, the last hole ringed.
export function track61(score, side, target = 61) {
  const rows = 3;
  const perRow = Math.ceil(target / rows);
  const gap = 0.45;
  const x0 = 0.5;
  const width = x0 + perRow + Math.floor((perRow - 1) / 5) * gap + 1.6;
  const s = svg("svg", { viewBox: `0 0 ${width.toFixed(2)} ${(rows * 1.1 + 0.2).toFixed(2)}`, class: `track side-${side}`, role: "img",
    "aria-label": t("web.score.track_of", { n: score, target }) });
  const whole = Math.floor(score);
  for (let i = 1; i <= target; i++) {
    const row = Math.floor((i - 1) / perRow);
    const col = (i - 1) % perRow;
    const x = x0 + col + Math.floor(col / 5) * gap + 0.3;
    const y = 0.6 + row * 1.1;
    const peg = i === whole;
    s.append(svg("circle", {
      cx: x, cy: y, r: peg ? 0.42 : 0.2,
      class: peg ? "peg" : i < whole ? "hole filled" : i === target ? "hole finish" : "hole",
    }));
    if (i === target) s.append(svg("text", { x: x + 0.55, y: y + 0.28, class: "track-finish", text: String(target) }));
  }
  return s;
}
