// Puzzles (issue 28): a position from a match where one play is clearly best over the round,
// from the mover's view only. Tap a tile, then its end (or the lit end on the board); the
// answer says whether it is the best, with every play's value. A player with a name has a
// puzzle rating and a streak kept by the server (a first try alone is rated); without one, a
// streak is kept on this device.
import { initI18n, t } from "./i18n.js";
import { el, api, gameName, tileWords, tilesWords } from "./common.js";
import { tileSvg } from "./tiles.js";
import { renderLayout, arrowOf } from "./layoutview.js";

const $ = (id) => document.getElementById(id);
const STREAK = "fives.puzzles.streak";
const LAST = "fives.puzzles.last";
let puzzle = null;
let selected = null;
let answered = null; // the server's verdict on the last answer
let tries = 0;

function streak() {
  return Number(localStorage.getItem(STREAK) || 0);
}

function endName(end) {
  return t(`common.end.${end}`);
}

function options(tile) {
  return puzzle.view.legal.filter((a) => a.startsWith(`${tile}@`) || a === tile).map((a) => a.split("@")[1] || "lead");
}

function delta(n) {
  return `${n > 0 ? "+" : n < 0 ? "−" : "±"}${Math.abs(n)}`;
}

// the player's puzzle rating and streak (or the device's streak), the puzzle's own rating
function standing() {
  const mine = puzzle.mine;
  $("puzzle-streak").textContent = mine
    ? t("web.puzzle.rating", { rating: mine.rating, mark: mine.provisional ? "?" : "", streak: mine.streak, best: mine.best_streak })
    : t("web.puzzle.anonymous", { n: streak() });
  const notes = [t("web.puzzle.strength", { rating: puzzle.puzzle_rating, n: puzzle.puzzle_tries })];
  if (puzzle.mined) notes.push(t("web.puzzle.mined"));
  if (puzzle.tried) notes.push(t("web.puzzle.tried"));
  $("puzzle-strength").textContent = notes.join(" ");
}

function render() {
  if (!puzzle) return;
  const v = puzzle.view;
  $("rules-link").href = `/rules/${puzzle.game}`;
  const seat = v.seat;
  const mine = puzzle.teams ? seat % 2 : seat;
  const scores = v.scores.map((s, side) => (side === mine ? t("web.puzzle.you_score", { n: s }) : t("web.puzzle.they_score", { n: s })));
  $("puzzle-head").textContent = t("web.puzzle.head", { game: gameName(puzzle.game), players: puzzle.players, target: v.target });
  $("puzzle-scores").textContent = scores.join(" · ");
  standing();
  $("stock").textContent = v.stock ? t("web.table.stock", { n: v.stock }) : "";
  const wrap = $("board-wrap");
  const legal = {};
  if (selected && !answered) for (const o of options(selected)) legal[o] = true;
  const drawn = renderLayout($("board"), v.layout.center ? v.layout : null, {
    width: Math.max(200, wrap.clientWidth), height: Math.max(160, wrap.clientHeight), unit: 32, fill: true,
    legal, selected, onEnd: (end) => choose(selected, end),
  });
  $("board").setAttribute("aria-label", t("web.layout.aria", { tiles: tilesWords(v.layout.tiles), sentence: v.layout.sentence }));
  const ends = $("puzzle-ends");
  ends.replaceChildren(...(selected && !answered ? options(selected) : []).map((end) => el("button", {
    type: "button", class: "end-btn", "data-option": end, onclick: () => choose(selected, end),
  }, end === "lead" ? t("web.table.lead", { tile: selected }) : `${arrowOf(end, drawn.ghosts[end])} ${endName(end)}`)));
  const playable = new Set(v.legal.map((a) => a.split("@")[0]));
  $("hand").replaceChildren(...v.hand.map((tile) => el("button", {
    type: "button", "data-tile": tile,
    class: `hand-tile${playable.has(tile) ? " playable" : ""}${tile === selected ? " selected" : ""}`,
    "aria-label": t(playable.has(tile) ? "web.tile.playable" : "web.tile.plain", { tile: tileWords(tile) }),
    "aria-disabled": playable.has(tile) ? "false" : "true",
    onclick: () => pick(tile),
  }, tileSvg(tile))));
}

function pick(tile) {
  if (answered && answered.correct) return;
  if (!puzzle.view.legal.some((a) => a.split("@")[0] === tile)) return;
  answered = null;
  $("puzzle-result").hidden = true;
  if (selected === tile && options(tile).length === 1) { choose(tile, options(tile)[0]); return; }
  selected = tile;
  render();
}

async function choose(tile, end) {
  if (!tile || !puzzle) return;
  const action = end === "lead" ? tile : `${tile}@${end}`;
  tries += 1;
  try {
    answered = await api(`/api/puzzles/${encodeURIComponent(puzzle.id)}/answer`, { action });
  } catch (err) {
    $("puzzle-error").hidden = false;
    $("puzzle-error").textContent = err.message;
    return;
  }
  if (answered.mine) {
    puzzle.mine = answered.mine;
    if (answered.rated) puzzle.puzzle_tries += 1;
    puzzle.puzzle_rating = answered.puzzle_rating;
    puzzle.tried = true;
  } else {
    if (answered.correct && tries === 1) localStorage.setItem(STREAK, String(streak() + 1));
    if (!answered.correct) localStorage.setItem(STREAK, "0");
  }
  showResult(false);
}

function value(v) {
  return `${v > 0 ? "+" : v < 0 ? "−" : ""}${Math.abs(v).toFixed(1)}`;
}

function playText(action) {
  const [tile, end] = action.split("@");
  return end ? t("web.puzzle.play_on", { tile, end: endName(end) }) : t("web.table.lead", { tile });
}

function showResult(revealed) {
  const box = $("puzzle-result");
  box.hidden = false;
  const a = answered;
  const best = a.answer[0];
  let head;
  if (a.correct) head = el("p", { class: "puzzle-right" }, t("web.puzzle.right", { play: playText(a.played), margin: a.margin.toFixed(1) }));
  else if (revealed) head = el("p", {}, t("web.puzzle.answer_is", { play: playText(best) }));
  else head = el("p", { class: "puzzle-wrong" }, t("web.puzzle.wrong", { play: playText(a.played) }));
  const items = Object.entries(a.values).sort((x, y) => y[1] - x[1]);
  const list = (a.correct || revealed) ? el("ol", { class: "analysis-values" }, items.map(([act, v]) => el("li", {
    class: a.answer.includes(act) ? "played" : "" }, `${playText(act)}: ${value(v)}`))) : null;
  let rating = null;
  if (a.mine && !revealed) {
    rating = el("p", { class: "muted" }, a.rated
      ? t("web.puzzle.moved", { before: a.before, after: a.mine.rating, delta: delta(a.mine.rating - a.before) })
      : t("web.puzzle.not_rated"));
  }
  box.replaceChildren(...[head, rating, list].filter(Boolean)); // no list until it is right or shown
  $("puzzle-retry").hidden = a.correct || revealed;
  $("puzzle-show").hidden = a.correct || revealed;
  standing();
  selected = a.correct ? null : selected;
  render();
  // the verdict sits under the hand: brought into view, or a phone shows nothing happened
  box.scrollIntoView({ block: "nearest" });
}

async function load(query) {
  $("puzzle-error").hidden = true;
  try {
    puzzle = await api(`/api/puzzles/${query}`);
  } catch (err) {
    $("puzzle-error").hidden = false;
    $("puzzle-error").textContent = err.message;
    return;
  }
  localStorage.setItem(LAST, puzzle.id);
  selected = null;
  answered = null;
  tries = 0;
  $("puzzle-result").hidden = true;
  $("puzzle-retry").hidden = true;
  $("puzzle-show").hidden = true;
  history.replaceState(null, "", `/puzzles?id=${encodeURIComponent(puzzle.id)}`);
  render();
}

async function main() {
  await initI18n(() => { render(); if (answered) showResult(!$("puzzle-show").hidden ? false : true); });
  $("puzzle-next").addEventListener("click", () => load(`next?after=${encodeURIComponent(puzzle ? puzzle.id : "")}`));
  $("puzzle-retry").addEventListener("click", () => { answered = null; $("puzzle-result").hidden = true; $("puzzle-retry").hidden = true; $("puzzle-show").hidden = true; render(); });
  $("puzzle-show").addEventListener("click", () => showResult(true));
  window.addEventListener("resize", render);
  const params = new URLSearchParams(location.search);
  if (params.get("id")) await load(`next?id=${encodeURIComponent(params.get("id"))}`);
  else if (params.has("daily")) await load("daily");
  else {
    const last = localStorage.getItem(LAST);
    await load(last ? `next?after=${encodeURIComponent(last)}` : "next");
  }
}

main();
