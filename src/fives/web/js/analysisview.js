// The analysis of a finished match in the replay viewer (issue 28): a seat's decisions valued
// by the bot from that seat's view only, the costly ones marked, the score margin through the
// match as a chart; a decision chosen jumps the replay to it, and the replay's current turn
// shows its values.
import { t } from "./i18n.js";
import { el, api } from "./common.js";

const SVG = "http://www.w3.org/2000/svg";
const POLL_MS = 1500;

let ctx = null; // { matchId, access, data, seatLabel, go }
let doc = null; // the document shown
let onlyMarked = false;

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

const $ = (id) => document.getElementById(id);

function signed(v) {
  if (v == null) return "–";
  const r = Math.round(v * 10) / 10;
  return `${r > 0 ? "+" : r < 0 ? "−" : ""}${Math.abs(r).toFixed(1)}`;
}

function markText(mark) {
  return t(`web.analysis.mark.${mark}`);
}

export function setupAnalysis(context) {
  ctx = context;
  const seats = $("analysis-seats");
  seats.replaceChildren(...ctx.data.seats.map((_, i) => el("button", {
    type: "button", class: "secondary", "data-seat": String(i + 1),
    onclick: () => request(i + 1),
  }, t("web.analysis.ask", { name: ctx.seatLabel(i) }))));
  $("analysis-marked").addEventListener("change", (e) => { onlyMarked = e.target.checked; renderList(); });
  const wanted = Number(new URLSearchParams(location.search).get("analyse"));
  if (wanted >= 1 && wanted <= ctx.data.seats.length) request(wanted);
}

async function request(seat) {
  document.querySelectorAll("#analysis-seats button").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.seat === String(seat))));
  const status = $("analysis-status");
  const sep = ctx.access ? "&" : "?";
  const path = `/api/matches/${encodeURIComponent(ctx.matchId)}/analysis${ctx.access}${sep}seat=${seat}`;
  status.textContent = t("web.analysis.asking");
  for (;;) {
    let got;
    try {
      got = await api(path);
    } catch (err) {
      status.textContent = err.message;
      return;
    }
    if (got.status === "done") {
      doc = got;
      status.textContent = t("web.analysis.done", { name: ctx.seatLabel(seat - 1), seconds: (got.seconds || 0).toFixed(1) });
      show();
      return;
    }
    status.textContent = got.status === "queued" && got.ahead > 0
      ? t("web.analysis.queued", { n: got.ahead }) : t("web.analysis.running");
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

function show() {
  $("analysis-body").hidden = false;
  const s = doc.summary[0];
  const marks = s.marks || {};
  $("analysis-summary").textContent = t("web.analysis.summary", {
    n: s.decisions, agrees: s.agrees,
    inaccuracy: marks.inaccuracy || 0, mistake: marks.mistake || 0, blunder: marks.blunder || 0,
    loss: s.mean_loss == null ? "–" : s.mean_loss.toFixed(1),
  });
  $("analysis-thresholds").textContent = t("web.analysis.thresholds", {
    inaccuracy: doc.thresholds.inaccuracy, mistake: doc.thresholds.mistake, blunder: doc.thresholds.blunder,
  });
  drawChart();
  renderList();
  if (ctx.onChange) ctx.onChange();
}

// The seat's side's score margin at each of its decisions, and the marked ones as dots.
function drawChart() {
  const chart = $("analysis-chart");
  chart.replaceChildren();
  const ds = doc.decisions;
  if (!ds.length) return;
  const W = 320, H = 120, pad = 6, gutter = 34; // the labels' column on the left
  const ys = ds.map((d) => d.margin);
  const lo = Math.min(0, ...ys), hi = Math.max(0, ...ys);
  const span = Math.max(1, hi - lo);
  const x = (i) => gutter + (ds.length === 1 ? (W - gutter - pad) / 2 : (i * (W - gutter - pad)) / (ds.length - 1));
  const y = (v) => pad + ((hi - v) * (H - 2 * pad)) / span;
  chart.setAttribute("viewBox", `0 0 ${W} ${H}`);
  chart.setAttribute("aria-label", t("web.analysis.chart_aria", { from: signed(ys[0]), to: signed(ys[ys.length - 1]), low: signed(lo), high: signed(hi) }));
  chart.append(svg("line", { x1: gutter, x2: W - pad, y1: y(0), y2: y(0), class: "chart-zero" }));
  chart.append(svg("polyline", { points: ds.map((d, i) => `${x(i)},${y(d.margin)}`).join(" "), class: "chart-line" }));
  ds.forEach((d, i) => {
    if (!d.mark) return;
    const dot = svg("circle", { cx: x(i), cy: y(d.margin), r: d.mark === "blunder" ? 5 : 4, class: `chart-dot mark-${d.mark}` });
    dot.append(svg("title", {}));
    dot.firstChild.textContent = `${markText(d.mark)}: ${d.played} (${signed(-d.loss)})`;
    dot.addEventListener("click", () => jump(d));
    chart.append(dot);
  });
  for (const v of new Set([hi, 0, lo])) {
    const label = svg("text", { x: gutter - 4, y: y(v), class: "chart-label" });
    label.textContent = signed(v);
    chart.append(label);
  }
}

function jump(d) {
  ctx.go(d.round - 1, d.action_no); // the frame after the decision: what was played
  // the board and the values of that turn come into view (on a phone they are above)
  document.querySelector(".replay-controls").scrollIntoView({ block: "start" });
}

function renderList() {
  if (!doc) return;
  const shown = doc.decisions.filter((d) => !onlyMarked || d.mark);
  $("analysis-list").replaceChildren(...shown.map((d) => {
    const label = d.agrees
      ? t("web.analysis.row_agrees", { round: d.round, n: d.action_no, played: d.played })
      : t("web.analysis.row", { round: d.round, n: d.action_no, played: d.played, best: d.choice, loss: signed(-d.loss) });
    return el("li", { class: d.mark ? `mark-${d.mark}` : "" },
      el("button", { type: "button", class: "analysis-row", onclick: () => jump(d) },
        d.mark ? el("span", { class: `mark-badge mark-${d.mark}` }, markText(d.mark)) : null,
        el("span", {}, label)));
  }));
  if (!shown.length) $("analysis-list").append(el("li", { class: "muted" }, t("web.analysis.none_marked")));
}

// The values of the decision the replay shows now (round from 0, frame step), if analysed.
export function analysisAt(round, step) {
  const box = $("analysis-here");
  const d = doc && doc.decisions.find((x) => x.round === round + 1 && x.action_no === step);
  if (!d) { box.hidden = true; return; }
  box.hidden = false;
  const all = Object.entries(d.values).filter(([, v]) => v != null).sort((a, b) => b[1] - a[1]);
  // the best few, and the one played wherever it ranks
  const ordered = all.map(([a, v], i) => [a, v, i + 1]).filter(([a, , rank]) => rank <= 4 || a === d.played);
  box.replaceChildren(
    el("p", {}, d.mark ? el("span", { class: `mark-badge mark-${d.mark}` }, markText(d.mark)) : null,
      d.agrees ? t("web.analysis.here_agrees", { played: d.played })
        : t("web.analysis.here", { played: d.played, best: d.choice, loss: signed(-d.loss) })),
    el("ol", { class: "analysis-values" }, ordered.map(([a, v, rank]) => el("li", { class: a === d.played ? "played" : "", value: String(rank) },
      `${a}: ${signed(v)}`))));
}
