// The replay viewer of a finished match: every hand face up; step, play, jump to a round.
import { initI18n, t, plural } from "./i18n.js";
import { el, api, gameName, inviteQuery, tilesWords } from "./common.js";
import { tileSvg } from "./tiles.js";
import { renderLayout } from "./layoutview.js";
import { summaryElement, playSentence } from "./summary.js";
import { setupAnalysis, analysisAt } from "./analysisview.js";

const $ = (id) => document.getElementById(id);
const matchId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
// a private table's match opens only with its invite, carried by the link
const access = inviteQuery(new URLSearchParams(location.search).get("invite"));
let data = null;
let round = 0;
let step = 0;
let timer = null;
function seatLabel(i) {
  const name = (data.seats || [])[i];
  if (!name) return t("web.seat.n", { n: i + 1 });
  // a bot by its seat's kind, never by its name
  return (data.kinds || [])[i] === "bot" ? t("web.seat.bot", { level: t(`web.bot.${name}`), n: i + 1 }) : name;
}

function sideLabel(side) {
  if (data.teams) return [side, side + 2].map(seatLabel).join(" & ");
  return seatLabel(side);
}

function frames() {
  return data.rounds[round].frames;
}

function describe(ev) {
  if (!ev) return "";
  if (ev.kind === "deal") return t("web.event.deal", { n: ev.round + 1, name: seatLabel(ev.leader) });
  const who = seatLabel(ev.seat);
  if (ev.kind === "draw") return t("web.event.draw_tile", { name: who, tile: ev.tile });
  if (ev.kind === "pass") return t(data.no_play === "knock" ? "web.event.knock" : "web.event.pass", { name: who });
  return playSentence(ev, { who, scored: data.ends_score, target: data.target });
}

function render() {
  const fs = frames();
  step = Math.max(0, Math.min(step, fs.length - 1));
  const f = fs[step];
  $("round-select").value = String(round);
  $("scrub").max = String(fs.length - 1);
  $("scrub").value = String(step);
  $("step-label").textContent = t("web.replay.step", { n: step, total: fs.length - 1 });
  $("banner").textContent = describe(f.event);
  const wrap = $("board-wrap");
  renderLayout($("board"), f.layout.center ? f.layout : null, { width: Math.max(200, wrap.clientWidth), height: Math.max(160, wrap.clientHeight), unit: 32, fill: true,
    newest: f.event && (f.event.kind === "play" || f.event.kind === "lead") ? f.event.tile : null });
  $("board").setAttribute("aria-label", f.layout.tiles.length ? t("web.layout.aria", { tiles: tilesWords(f.layout.tiles), sentence: f.layout.sentence }) : t("web.layout.empty"));
  $("stock").textContent = data.drawing ? t("web.table.stock", { n: f.stock }) : t("web.table.no_stock");
  $("scores-line").textContent = f.scores.map((s, side) => `${sideLabel(side)}: ${s}`).join(" · ");
  const hands = $("hands");
  hands.replaceChildren();
  f.hands.forEach((hand, i) => {
    hands.append(el("div", { class: `replay-hand${f.turn === i ? " turn" : ""}` },
      el("strong", {}, f.turn === i ? `▶ ${seatLabel(i)}` : seatLabel(i)),
      el("div", { class: "tiles", role: "img", "aria-label": tilesWords(hand) }, hand.map((tile) => tileSvg(tile))),
      el("span", { class: "muted" }, plural("web.seat.tiles", hand.length))));
  });
  const sum = $("summary");
  if (f.summary) {
    sum.hidden = false;
    sum.replaceChildren(el("h2", {}, t("web.summary.title", { n: f.summary.round + 1 })),
      summaryElement(f.summary, { seatLabel, sideLabel, nameOf: seatLabel, over: true }));
    if (data.result && round === data.rounds.length - 1 && step === fs.length - 1) {
      const r = data.result;
      sum.append(el("p", { class: "summary-reason" }, r.drawn ? t("web.result.drawn") : t("web.result.winner", { side: sideLabel(r.winner) })));
    }
  } else sum.hidden = true;
  $("play").textContent = timer ? t("web.replay.pause") : t("web.replay.play");
  analysisAt(round, step);
}

function go(r, s) {
  round = Math.max(0, Math.min(r, data.rounds.length - 1));
  step = s < 0 ? data.rounds[round].frames.length - 1 : s;
  render();
}

function next() {
  if (step < frames().length - 1) go(round, step + 1);
  else if (round < data.rounds.length - 1) go(round + 1, 0);
  else stop();
}

function prev() {
  if (step > 0) go(round, step - 1);
  else if (round > 0) go(round - 1, -1);
}

function stop() {
  clearInterval(timer);
  timer = null;
  render();
}

function toggle() {
  if (timer) { stop(); return; }
  timer = setInterval(next, 900);
  render();
}

function fillRounds() {
  $("round-select").replaceChildren(...data.rounds.map((_, i) => el("option", { value: String(i) }, t("web.replay.round_n", { n: i + 1 }))));
  $("replay-game").textContent = gameName(data.game);
  $("rules-link").href = `/rules/${data.game}`;
}

async function main() {
  await initI18n(() => { if (data) { fillRounds(); render(); } });
  try {
    data = await api(`/api/matches/${encodeURIComponent(matchId)}/replay${access}`);
  } catch (err) {
    $("replay-error").hidden = false;
    $("replay-error").textContent = err.message;
    return;
  }
  $("download").href = `/api/matches/${encodeURIComponent(matchId)}/record${access}`;
  fillRounds();
  $("round-select").addEventListener("change", (e) => go(Number(e.target.value), 0));
  $("first").addEventListener("click", () => go(round, 0));
  $("last").addEventListener("click", () => go(round, -1));
  $("prev").addEventListener("click", prev);
  $("next").addEventListener("click", next);
  $("play").addEventListener("click", toggle);
  $("scrub").addEventListener("input", (e) => go(round, Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowRight") next();
    else if (e.key === "ArrowLeft") prev();
    else if (e.key === " ") { e.preventDefault(); toggle(); }
  });
  window.addEventListener("resize", render);
  render();
  setupAnalysis({ matchId, access, data, seatLabel, go, onChange: render });
}

main();
