// Live tables to watch (/watch), the strongest first, refreshed every few seconds.
import { initI18n, t } from "./i18n.js";
import { el, api, gameName, seatName } from "./common.js";

let tables = null;

function render() {
  if (!tables) return;
  document.getElementById("watch").replaceChildren(...tables.map((tb) => el("li", { "data-table": tb.id },
    el("div", {},
      el("strong", {}, `${gameName(tb.game)} · ${t("web.lobby.n_players", { n: tb.players })}`),
      el("div", { class: "muted small" }, tb.seats.map((s, i) => seatName(s, i)).join(", ")),
      el("div", { class: "muted small" }, [t("web.watch.rating", { rating: tb.rating }),
        tb.rated ? t("web.lobby.rated") : null].filter(Boolean).join(" · "))),
    el("a", { class: "button secondary", href: `/t/${encodeURIComponent(tb.id)}` }, t("web.lobby.watch")))));
  document.getElementById("watch-empty").hidden = tables.length > 0;
}

async function refresh() {
  try { tables = (await api("/api/watch")).tables; } catch { return; }
  render();
}

async function main() {
  await initI18n(render);
  await refresh();
  setInterval(refresh, 5000);
}

main();
