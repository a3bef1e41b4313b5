// The home page's arenas (issue 30): those on now, coming and just finished, each a link to
// its page, and a small form to make one (a name is enough: an identity is made for it).
import { t, plural } from "./i18n.js";
import { el, api, gameName } from "./common.js";

const $ = (id) => document.getElementById(id);

function line(e, now) {
  const when = e.status === "scheduled"
    ? t("web.arena.starts_in", { time: minutes(e.starts - now) })
    : e.status === "running" ? t("web.arena.ends_in", { time: minutes(e.ends - now) })
      : e.winners.length ? t("web.arena.won_by", { name: e.winners.join(", ") }) : t("web.arena.finished");
  return el("li", { class: `event-item event-${e.status}`, "data-event": e.id },
    el("a", { href: `/events/${encodeURIComponent(e.id)}` },
      el("strong", {}, e.title || t("web.arena.arena")), " ",
      el("span", { class: "badge" }, t(`web.arena.status.${e.status}`))),
    el("span", { class: "muted small" }, ` ${gameName(e.game)} · ${plural("web.arena.entrants", e.entrants)} · ${when}`));
}

function minutes(seconds) {
  const m = Math.max(0, Math.ceil(seconds / 60));
  return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, "0")}` : t("web.arena.minutes", { n: m });
}

export async function showEvents() {
  let got;
  try {
    got = await api("/api/events");
  } catch {
    return; // the list waits for the next refresh
  }
  const all = [...got.running, ...got.coming, ...got.finished.slice(0, 3)];
  $("events-list").replaceChildren(...all.map((e) => line(e, got.now)));
  $("events-none").hidden = all.length > 0;
}

export function wireEvents(meta, identity, nameOrDefault) {
  const games = $("event-game");
  games.replaceChildren(...Object.keys(meta.games).map((g) => el("option", { value: g }, gameName(g))));
  $("event-teams-option").textContent = `4 · ${t("web.lobby.teams")}`;
  $("event-rated-row").hidden = !identity();
  // a duplicate Swiss: two a table, a number of rounds, started by its organiser, by link only
  const kind = () => $("event-kind").value;
  const shape = () => {
    const swiss = kind() === "swiss";
    for (const row of ["event-players-row", "event-minutes-row", "event-starts-row", "event-private-row"]) $(row).hidden = swiss;
    $("event-rounds-row").hidden = !swiss;
  };
  $("event-kind").addEventListener("change", shape);
  shape();
  $("event-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const box = $("event-form-error");
    box.hidden = true;
    const players = $("event-players").value;
    const body = kind() === "swiss"
      ? { kind: "swiss", title: $("event-title-input").value.trim(), game: games.value, players: 2,
        rounds: Number($("event-rounds").value), rated: $("event-rated").checked }
      : {
        title: $("event-title-input").value.trim(), game: games.value,
        players: Number(players[0]), teams: players === "4t",
        minutes: Number($("event-minutes").value), starts_in: Number($("event-starts").value),
        private: $("event-private").checked, rated: $("event-rated").checked,
      };
    if ($("event-target").value) body.target = Number($("event-target").value);
    try {
      if (!identity()) await api("/api/me", { name: nameOrDefault() });
      const made = await api("/api/events", body);
      location.href = `/events/${encodeURIComponent(made.id)}`;
    } catch (err) {
      box.textContent = err.message;
      box.hidden = false;
    }
  });
}
