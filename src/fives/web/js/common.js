// Small helpers shared by the pages.
import { t } from "./i18n.js";

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c == null || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export const SVGNS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k === "text") node.textContent = v;
    else if (k === "class") node.setAttribute("class", v);
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c) node.append(c);
  return node;
}

export async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const lang = document.documentElement.lang || "en";
  const sep = path.includes("?") ? "&" : "?";
  const r = await fetch(`${path}${sep}lang=${lang}`, opts);
  let data = null;
  try { data = await r.json(); } catch { data = null; }
  if (!r.ok) {
    const err = new Error((data && data.message) || t("web.error.server"));
    err.code = data && data.error;
    err.data = data;
    throw err;
  }
  return data;
}

export function getName() {
  return localStorage.getItem("fives.name") || "";
}

export function setName(name) {
  localStorage.setItem("fives.name", name);
}

export function tokenKey(table) {
  return `fives.token.${table}`;
}

// A private table's invite secret, kept by the browsers that were let in.
export function inviteKey(table) {
  return `fives.invite.${table}`;
}

// "?invite=..." for a private table's links (replay, record), or "".
export function inviteQuery(invite) {
  return invite ? `?invite=${encodeURIComponent(invite)}` : "";
}

// A rating as shown: a provisional one (few rated matches yet) marked with "?".
export function ratingText(r) {
  return r.provisional ? `${r.rating}?` : String(r.rating);
}

// The line that says what "?" means, shown under a list where any rating is provisional
// (a phone has no hover for a title).
export function provisionalNote(ratings) {
  return ratings.some((r) => r.provisional)
    ? el("p", { class: "muted small provisional-note" }, t("web.profile.provisional_note")) : null;
}

// A tile's name as a screen reader should say it: "5-3" read aloud is "five minus three" or a
// range; "five-three" is the tile ("पाँच-तीन" in Hindi). Many: joined by commas.
export function tileWords(tile) {
  const m = /^([0-9])-([0-9])$/.exec(tile);
  return m ? `${t(`web.pip.${m[1]}`)}-${t(`web.pip.${m[2]}`)}` : tile;
}

export function tilesWords(tiles) {
  return tiles.map(tileWords).join(", ");
}

export function gameName(game) {
  return t(`common.game.${game}`);
}

// The name shown for a seat: a person's name, or the bot's level.
export function seatName(seat, i) {
  if (!seat) return t("web.seat.n", { n: i + 1 });
  // a bot online: its account's name, always marked as a bot
  if (seat.kind === "bot" && seat.player && seat.name) return t("web.seat.outside", { name: seat.name });
  if (seat.kind === "bot") return t("web.seat.bot", { level: t(`web.bot.${seat.level}`), n: i + 1 });
  return seat.name || t("web.seat.open", { n: i + 1 });
}

// The short name on a seat's chip: a person's name, or "Bot 2" (the level is shown beside it).
export function seatShort(seat, i) {
  if (seat && seat.kind === "bot" && seat.player && seat.name) return seatName(seat, i);
  if (seat && seat.kind === "bot") return t("web.seat.bot_n", { n: i + 1 });
  return seatName(seat, i);
}

export function sideName(info, side) {
  if (info.teams) {
    const seats = info.seats.map((s, i) => [s, i]).filter(([s]) => s.side === side);
    return seats.map(([s, i]) => seatName(s, i)).join(" & ");
  }
  return seatName(info.seats[side], side);
}

let toastTimer = null;
export function toast(text, kind = "info") {
  const box = document.getElementById("toast");
  if (!box) return;
  box.textContent = text;
  box.className = `toast show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.className = "toast"; }, 3200);
}

export function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  const area = el("textarea", {}, text);
  document.body.append(area);
  area.select();
  try { document.execCommand("copy"); } finally { area.remove(); }
  return Promise.resolve();
}
