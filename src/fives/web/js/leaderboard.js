// A leaderboard per game (/leaderboard/<game>), people and bot levels, best first.
import { initI18n, t } from "./i18n.js";
import { api, el, gameName, ratingText, provisionalNote } from "./common.js";

const GAMES = ["all-fives", "fives-and-threes", "muggins", "draw", "block"];
const asked = decodeURIComponent(location.pathname.split("/")[2] || "");
const game = GAMES.includes(asked) ? asked : "all-fives";
let board = null;

function render() {
  document.getElementById("board-games").replaceChildren(...GAMES.map((g) => el("a", {
    href: `/leaderboard/${g}`, class: g === game ? "button" : "button secondary",
    "aria-current": g === game ? "page" : null }, gameName(g))));
  if (!board) return;
  document.getElementById("board-rows").replaceChildren(...board.players.map((p, i) => el("tr", { "data-player": p.id },
    el("td", {}, String(i + 1)),
    el("td", {}, el("a", { href: `/p/${encodeURIComponent(p.id)}` },
      p.kind === "bot" ? t("web.seat.bot_short", { level: t(`web.bot.${p.name}`) })
        : p.kind === "outside" ? t("web.seat.outside", { name: p.label }) : p.label)),
    el("td", { title: p.provisional ? t("web.profile.provisional") : null }, ratingText(p)),
    el("td", {}, String(p.matches)))));
  document.getElementById("board-empty").hidden = board.players.length > 0;
  document.getElementById("board").hidden = board.players.length === 0;
  document.getElementById("board-note").replaceChildren(...[provisionalNote(board.players)].filter(Boolean));
}

async function main() {
  await initI18n(render);
  board = await api(`/api/leaderboard/${game}`);
  render();
}

main();
