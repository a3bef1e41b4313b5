// A player's profile, drawn from /api/me or /api/players/<id>: ratings per game (provisional
// ones marked), the rating history as an inline SVG chart, win rate and points per round per
// game, and the matches with links to their replays. Names are always set as text.
import { t } from "./i18n.js";
import { el, svg, gameName, ratingText, provisionalNote } from "./common.js";

// The rated matches' ratings, oldest first, as a line (one per game), the start (1500), the
// highest and the lowest written at the left; with more than one game, a key of the lines.
function chart(matches) {
  const rated = matches.filter((m) => m.rating != null).slice().reverse();
  if (rated.length < 1) return null;
  const n = rated.length + 1; // the first point: 1500, where every rating starts
  const W = 320, H = 120, P = 8, L = 34;
  const values = rated.map((m) => m.rating);
  const lo = Math.min(...values, 1500) - 20, hi = Math.max(...values, 1500) + 20;
  const x = (i) => L + (i * (W - L - P)) / (n - 1);
  const y = (v) => H - P - ((v - lo) * (H - 2 * P)) / (hi - lo);
  const byGame = {};
  rated.forEach((m, i) => {
    if (!byGame[m.game]) byGame[m.game] = [[x(i), y(1500)]];
    byGame[m.game].push([x(i + 1), y(m.rating)]);
  });
  const games = Object.keys(byGame);
  const lines = games.map((game, k) => svg("polyline", {
    class: `chart-line chart-${k % 4}`, fill: "none", "data-game": game,
    points: byGame[game].map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(" "),
  }));
  const dots = rated.map((m, i) => svg("circle", { cx: x(i + 1).toFixed(1), cy: y(m.rating).toFixed(1), r: 3, class: "chart-dot" },
    svg("title", { text: `${gameName(m.game)}: ${m.rating}` })));
  // the values written at the left, none within a line's height of another
  const marks = [];
  for (const v of [1500, Math.max(...values), Math.min(...values)]) {
    if (marks.every((w) => Math.abs(y(w) - y(v)) >= 11)) marks.push(v);
  }
  const labels = marks.map((v) => svg("text", { x: L - 4, y: (y(v) + 3.5).toFixed(1), class: "chart-label",
    "text-anchor": "end", text: String(v) }));
  const graph = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img",
    "aria-label": t("web.profile.history") },
    svg("line", { x1: L, x2: W - P, y1: y(1500).toFixed(1), y2: y(1500).toFixed(1), class: "chart-base" }),
    ...labels, ...lines, ...dots);
  if (games.length < 2) return graph;
  const key = el("ul", { class: "chart-key" }, games.map((game, k) => el("li", {},
    el("span", { class: `chart-swatch chart-${k % 4}` }), gameName(game))));
  return el("div", {}, graph, key);
}

export function renderProfile(box, p) {
  const ratings = Object.entries(p.ratings || {});
  const rows = ratings.map(([game, r]) => el("li", { "data-game": game },
    el("strong", {}, gameName(game)), " ",
    el("span", { class: "rating", title: r.provisional ? t("web.profile.provisional") : null }, ratingText(r))));
  const games = Object.entries(p.games || {}).map(([game, g]) => el("li", { "data-game": game },
    el("strong", {}, gameName(game)), " · ",
    t("web.profile.win_rate", { pct: Math.round(g.win_rate * 100) }), " · ",
    t("web.profile.points_per_round", { x: g.points_per_round })));
  // every match says whom it was against; a private one shown to others has no replay
  const matches = (p.matches || []).map((m) => el("li", { "data-match": m.table || "" },
    el("div", {},
      el("strong", {}, `${gameName(m.game)} · ${t("web.lobby.n_players", { n: m.players })}`),
      (m.opponents || []).length ? el("div", { class: "small" }, t("web.profile.against", { names: m.opponents.join(", ") })) : null,
      el("div", { class: "muted small" }, [
        m.won ? t("web.profile.won") : t("web.profile.lost"),
        m.rated ? t("web.profile.rated") : t("web.profile.casual"),
        m.rating != null ? String(m.rating) : null,
        m.private && !m.table ? t("web.profile.private_match") : null,
        new Date(m.finished * 1000).toLocaleDateString(document.documentElement.lang),
      ].filter(Boolean).join(" · "))),
    m.table ? el("a", { class: "button secondary", href: `/replay/${encodeURIComponent(m.table)}` }, t("web.profile.replay")) : null));
  const graph = chart(p.matches || []);
  box.replaceChildren(...[
    el("h2", {}, t("web.profile.ratings")),
    rows.length ? el("ul", { class: "rating-list", id: "ratings" }, rows) : el("p", { class: "muted", id: "ratings" }, t("web.profile.no_ratings")),
    provisionalNote(ratings.map(([, r]) => r)),
    graph ? el("h2", {}, t("web.profile.history")) : null,
    graph,
    games.length ? el("h2", {}, t("web.profile.games")) : null,
    games.length ? el("ul", { class: "rating-list" }, games) : null,
    el("h2", {}, t("web.profile.matches")),
    matches.length ? el("ul", { class: "history-list", id: "matches" }, matches) : el("p", { class: "muted", id: "matches" }, t("web.profile.no_matches")),
  ].filter(Boolean));
}
