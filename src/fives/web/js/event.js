// An event's page (issue 30): an arena's clock, the player's own part (join, pause, come back,
// and their table as soon as they are paired: the page takes them there), the standings and
// the matches in play, updated every two seconds for players and watchers alike.
import { initI18n, t, plural } from "./i18n.js";
import { el, api, getName, setName, tokenKey, gameName, copyText } from "./common.js";

const $ = (id) => document.getElementById(id);
const eventId = decodeURIComponent(location.pathname.split("/")[2] || "");
const POLL = 2000;
let data = null; // the last /api/events/<id>
let offset = 0; // the server's clock minus this device's (ms)
let busy = false;

function serverNow() {
  return (Date.now() + offset) / 1000;
}

function duration(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(r)}` : `${m}:${two(r)}`;
}

function showError(text) {
  const box = $("event-error");
  box.textContent = text || "";
  box.hidden = !text;
}

function swiss() {
  return data && data.kind === "swiss";
}

function clock() {
  if (!data) return;
  const now = serverNow();
  let text;
  if (swiss()) {
    if (data.status === "scheduled") text = t("web.arena.waiting_start", { n: data.entrants });
    else if (data.status === "running") text = t("web.arena.round_of", { r: data.round, n: data.rounds });
    else text = t("web.arena.finished");
    $("event-clock").textContent = text;
    return;
  }
  if (data.status === "scheduled") text = t("web.arena.starts_in", { time: duration(data.starts - now) });
  else if (data.status === "running" && now < data.ends) text = t("web.arena.ends_in", { time: duration(data.ends - now) });
  else if (data.live.length) text = t("web.arena.finishing");
  else text = t("web.arena.finished");
  $("event-clock").textContent = text;
}

function head() {
  const kind = swiss() ? t("web.arena.swiss") : t("web.arena.arena");
  const parts = [gameName(data.game), plural("web.arena.players", data.players),
    t("web.arena.target", { n: data.target }),
    swiss() ? plural("web.arena.rounds", data.rounds) : t("web.arena.minutes", { n: data.minutes }),
    t(data.rated ? "web.arena.rated" : "web.arena.casual")];
  $("event-head").textContent = parts.join(" · ");
  $("event-title").textContent = data.title || kind;
  document.title = `${data.title || kind} · fives`;
  $("event-how").textContent = t(swiss() ? "web.arena.swiss_how" : "web.arena.how");
  $("event-rules").textContent = t(swiss() ? "web.arena.swiss_rules" : "web.arena.rules");
  $("event-fair").textContent = t(swiss() ? "web.arena.swiss_fair" : "web.arena.fair");
  $("rules-link").href = `/rules/${data.game}`;
}

// The player's own part: what they can do now, and their table once paired.
function mine() {
  const me = data.me || null;
  const over = data.status === "finished" || data.status === "cancelled";
  const joined = !!(me && me.joined);
  const closed = over || (swiss() && data.status !== "scheduled"); // a Swiss's entrants are set at its start
  $("event-join").hidden = joined || closed;
  const organiser = !!(me && me.organiser);
  $("event-start").hidden = !(swiss() && organiser && data.status === "scheduled");
  $("event-invite-row").hidden = !(organiser && !over);
  $("event-invite").value = location.origin + location.pathname;
  $("event-name-row").hidden = !!me;
  if (!me && !$("event-name").value) $("event-name").value = getName();
  $("event-agree-row").hidden = !data.rated;
  const go = $("event-go");
  go.hidden = !(me && me.table);
  $("event-pause").hidden = swiss() || !joined || over || me.paused || !!me.table;
  $("event-resume").hidden = swiss() || !joined || over || !me.paused;
  let state = "";
  if (over) state = t(joined ? "web.arena.over_in" : "web.arena.over");
  else if (!joined) state = t(closed ? "web.error.event_started" : swiss() ? "web.arena.swiss_join_desc" : "web.arena.join_desc");
  else if (me.table) state = t("web.arena.ready");
  else if (me.paused) state = t("web.arena.paused");
  else if (data.status === "scheduled") state = t(swiss() ? "web.arena.swiss_before_start" : "web.arena.before_start");
  else state = t(swiss() ? "web.arena.swiss_next" : "web.arena.waiting");
  $("event-state").textContent = state;
  const bots = (me && me.bots) || [];
  $("event-bots").hidden = closed || !bots.length;
  const select = $("event-bot-level");
  if (select.dataset.levels !== bots.join()) {
    select.dataset.levels = bots.join();
    select.replaceChildren(...bots.map((b) => el("option", { value: b }, t(`web.bot.${b}`))));
  }
  if (me && me.table && me.token) {
    localStorage.setItem(tokenKey(me.table), me.token);
    go.href = `/t/${encodeURIComponent(me.table)}`;
    // taken there at once, the first time this page sees the pairing (coming back to the
    // event from the table leaves the player here, with the button)
    const seen = `fives.event.went.${me.table}`;
    if (!sessionStorage.getItem(seen)) {
      sessionStorage.setItem(seen, "1");
      location.href = go.href;
    }
  }
}

function gamesText(games) {
  return games.length ? games.join(" ") : "–";
}

// An entrant's name as shown: a bot's is its level, in the page's language.
function who(p) {
  return p.bot ? t("web.arena.bot_name", { level: t(`web.bot.${p.name}`) }) : p.name;
}

function nameCell(s) {
  return [el("a", { href: `/p/${encodeURIComponent(s.player)}` }, who(s)),
    s.streak ? el("span", { class: "streak", title: t("web.arena.streak") }, " 🔥", el("span", { class: "sr-only" }, t("web.arena.streak"))) : "",
    s.paused ? el("span", { class: "muted small" }, ` (${t("web.arena.paused_short")})`) : "",
    s.table ? el("a", { class: "small playing", href: `/t/${encodeURIComponent(s.table)}` }, ` ${t("web.arena.playing")}`) : ""];
}

// A Swiss's standings: match points, then its tie-breaks as the rules page states them.
function swissStandings() {
  $("event-standings-head").replaceChildren(...["#", t("web.arena.player"), t("web.arena.points"),
    t("web.arena.buchholz"), t("web.arena.margin")].map((h) => el("th", { scope: "col" }, h)));
  return data.standings.map((s) => el("tr", { "data-player": s.player, class: data.me && s.player === data.me.player ? "me" : "" },
    el("td", {}, String(s.rank)), el("td", {}, ...nameCell(s)), el("td", { class: "num" }, s.score),
    el("td", { class: "small num" }, s.buchholz), el("td", { class: "small num" }, `${s.margin > 0 ? "+" : ""}${s.margin}`)));
}

function rounds() {
  const panel = $("event-rounds-panel");
  panel.hidden = !swiss() || !(data.rounds_played && data.rounds_played.length); // none before the start
  if (panel.hidden) return;
  $("event-rounds").replaceChildren(...[...data.rounds_played].reverse().map((r) => el("div", { class: "event-round", "data-round": String(r.round) },
    el("h3", {}, t("web.arena.round_title", { r: r.round })),
    el("ul", { class: "plain-list" }, ...r.tables.map((tb) => el("li", { "data-table": tb.table },
      el("span", {}, `${tb.players.map(who).join(" – ")}${tb.result ? `: ${tb.result}` : ""}`),
      tb.result ? "" : el("a", { class: "button secondary small", href: `/t/${encodeURIComponent(tb.table)}` }, t("web.arena.watch")))),
      ...(r.bye ? [el("li", { class: "muted" }, t("web.arena.bye", { name: who(r.bye) }))] : [])))));
}

function standings() {
  rounds();
  if (swiss()) {
    $("event-standings").replaceChildren(...swissStandings());
    finishStandings();
    return;
  }
  const rows = data.standings.map((s) => el("tr", { "data-player": s.player, class: data.me && s.player === data.me.player ? "me" : "" },
    el("td", {}, String(s.rank)),
    el("td", {}, ...nameCell(s)),
    el("td", {}, String(s.points)),
    el("td", { class: "small" }, gamesText(s.games))));
  $("event-standings").replaceChildren(...rows);
  finishStandings();
}

function finishStandings() {
  $("event-nobody").hidden = data.standings.length > 0;
  const finished = data.status === "finished" && !data.live.length && data.standings.length;
  $("event-podium-panel").hidden = !finished;
  if (finished) {
    $("event-podium").replaceChildren(...data.standings.filter((s) => s.rank <= 3).map((s) =>
      el("li", { class: `place-${s.rank}` }, el("strong", {}, `${s.rank}. ${who(s)}`),
      ` — ${swiss() ? t("web.arena.match_points", { score: s.score }) : plural("common.points", s.points)}`)));
  }
  $("event-live").replaceChildren(...data.live.map((m) => el("li", {},
    el("span", {}, m.players.map(who).join(" – ")), " ",
    el("a", { class: "button secondary small", href: `/t/${encodeURIComponent(m.table)}` }, t("web.arena.watch")))));
  $("event-none-live").hidden = data.live.length > 0;
}

function render() {
  if (!data) return;
  head();
  clock();
  mine();
  standings();
}

async function refresh() {
  try {
    const got = await api(`/api/events/${encodeURIComponent(eventId)}`);
    offset = got.now * 1000 - Date.now();
    data = got;
    showError("");
    render();
  } catch (err) {
    showError(err.message);
  }
}

async function act(body) {
  if (busy) return;
  busy = true;
  try {
    data = await api(`/api/events/${encodeURIComponent(eventId)}/${body.path}`, body.json);
    showError("");
    render();
  } catch (err) {
    showError(err.message);
  } finally {
    busy = false;
  }
}

async function join(e) {
  e.preventDefault();
  if (data && data.rated && !$("event-agree").checked) {
    showError(t("web.error.rated_consent"));
    return;
  }
  if (data && !data.me) {
    const name = $("event-name").value.trim();
    if (!name) {
      showError(t("web.arena.name_needed"));
      $("event-name").focus();
      return;
    }
    try {
      await api("/api/me", { name });
      setName(name);
    } catch (err) {
      showError(err.message);
      return;
    }
  }
  await act({ path: "join", json: { agree: $("event-agree").checked } });
}

async function main() {
  await initI18n(render);
  $("event-join").addEventListener("submit", join);
  $("event-pause").addEventListener("click", () => act({ path: "pause", json: { paused: true } }));
  $("event-resume").addEventListener("click", () => act({ path: "pause", json: { paused: false } }));
  $("event-bots").addEventListener("submit", (e) => { e.preventDefault(); act({ path: "bots", json: { level: $("event-bot-level").value } }); });
  $("event-start").addEventListener("click", () => act({ path: "start", json: {} }));
  $("event-copy").addEventListener("click", () => copyText($("event-invite").value));
  await refresh();
  setInterval(clock, 1000);
  setInterval(() => { if (!document.hidden) refresh(); }, POLL);
}

main();
