import { initI18n, t } from "./i18n.js";
import { el, api, gameName } from "./common.js";

let data = null;

// A bot is known by its seat's kind, never by its name (a person may not take a bot's name,
// and an old record's names prove nothing).
function seatLabel(name, kind) {
  return kind === "bot" ? t("web.seat.bot_short", { level: t(`web.bot.${name}`) }) : name;
}

function render() {
  const list = document.getElementById("history");
  list.replaceChildren();
  for (const m of data.matches) {
    // a 24-hour clock: Hindi's CLDR day periods are Latin "am"/"pm" on a Hindi page
    const when = m.finished ? new Date(m.finished * 1000).toLocaleString(document.documentElement.lang,
      { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }) : "";
    list.append(el("li", { "data-match": m.id },
      el("div", {},
        el("strong", {}, `${gameName(m.game)} · ${t("web.lobby.n_players", { n: m.players })}`),
        el("div", { class: "muted small" }, (m.seats || []).map((name, i) => seatLabel(name, (m.kinds || [])[i])).join(", ")),
        el("div", { class: "muted small" }, `${when} · ${t("web.result.rounds", { n: m.rounds })}`)),
      el("div", { class: "inline" },
        el("a", { class: "button", href: `/replay/${m.id}` }, t("web.result.replay")),
        el("a", { class: "button secondary", href: `/api/matches/${m.id}/record`, download: "" }, t("web.result.download")))));
  }
  document.getElementById("history-empty").hidden = data.matches.length > 0;
}

async function main() {
  await initI18n(render);
  data = await api("/api/matches");
  render();
}

main();
