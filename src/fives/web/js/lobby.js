// The lobby: play now against a bot, create a table, join or watch an open one.
import { initI18n, t } from "./i18n.js";
import { el, api, getName, setName, tokenKey, inviteKey, gameName, seatName, toast, ratingText } from "./common.js";
import { showEvents, wireEvents } from "./eventlist.js";

const $ = (id) => document.getElementById(id);
let meta = null;
let me = null; // this browser's identity (/api/me), if it has one
let botRatings = {}; // game -> level -> rating, shown beside each level
const params = new URLSearchParams(location.search);
const seed = params.has("seed") ? Number(params.get("seed")) : undefined;

// A player who gives no name is "Guest 417" (kept for next time): never the word the score
// tables head their name column with ("Player"), and two guests at one table are told apart.
function nameOrDefault() {
  if (me) return me.name; // the server seats an identity under its own name
  const name = $("name").value.trim() || t("web.lobby.default_name", { n: 100 + Math.floor(Math.random() * 900) });
  setName(name);
  return name;
}

async function enter(res) {
  if (res.token) localStorage.setItem(tokenKey(res.table), res.token);
  if (res.invite) localStorage.setItem(inviteKey(res.table), res.invite);
  location.href = `/t/${encodeURIComponent(res.table)}`;
}

const PLAY_GAME = "fives.play.game";
const PLAY_LEVEL = "fives.play.level";

// The target as a player reads it: "to 250 (200 with 3 or 4 players)", "to exactly 61".
function targetText(g) {
  const two = g.targets["2"], more = g.targets["4"];
  if (g.exact_target) return t("web.game.target_exact", { n: two });
  if (two !== more) return t("web.game.target_more", { two, more });
  return t("web.game.target", { n: two });
}

// Play now: a card per game (name, its target, one line on what it is), the last choice kept.
function fillQuick() {
  const chosen = localStorage.getItem(PLAY_GAME) in meta.games ? localStorage.getItem(PLAY_GAME) : "all-fives";
  const current = (document.querySelector("input[name=quick-game]:checked") || {}).value || chosen;
  $("game-picks").replaceChildren(...Object.entries(meta.games).map(([name, g]) => el("label", { class: "game-card", "data-game": name },
    el("input", { type: "radio", name: "quick-game", value: name, checked: name === current,
      onchange: () => { localStorage.setItem(PLAY_GAME, name); fillLevels(name); describePlay(); } }),
    el("span", { class: "game-card-body" },
      el("span", { class: "game-card-head" }, el("strong", {}, gameName(name)), el("span", { class: "game-target" }, targetText(g))),
      el("span", { class: "game-desc" }, t(`web.game.${name}.desc`))))));
  fillLevels(current);
}

// The levels, each with its rating in the chosen game (once it has rated matches there).
function fillLevels(game) {
  const level = $("quick-level");
  const keep = level.value || localStorage.getItem(PLAY_LEVEL) || "easy";
  const rated = botRatings[game] || {};
  level.replaceChildren(...meta.bots.map((b) => el("option", { value: b }, rated[b]
    ? t("web.lobby.bot_rating", { level: t(`web.bot.${b}`), rating: ratingText(rated[b]) })
    : t(`web.bot.${b}`))));
  level.value = meta.bots.includes(keep) ? keep : "easy";
}

function describePlay() {
  const game = (document.querySelector("input[name=quick-game]:checked") || {}).value || "all-fives";
  const level = $("quick-level").value || "easy";
  $("play-now-desc").textContent = t("web.lobby.play_now_desc", { game: gameName(game), level: t(`web.bot.${level}`) });
  // what the level measurably does (the README's table of tournaments)
  const rating = (botRatings[game] || {})[level];
  $("level-desc").textContent = [t(`common.level.${level}`),
    rating && rating.provisional ? t("web.profile.provisional_note") : null].filter(Boolean).join(" ");
}

function fillGames() {
  fillQuick();
  const sel = $("game");
  const keep = sel.value || "all-fives";
  sel.replaceChildren(...Object.keys(meta.games).map((g) => el("option", { value: g }, gameName(g))));
  sel.value = keep;
  const turn = $("turn-time");
  const keepTurn = turn.value || String(meta.turn_time);
  turn.replaceChildren(...[0, 10, 15, 20, 30, 60].map((s) =>
    el("option", { value: String(s) }, s ? t("web.lobby.seconds", { n: s }) : t("web.lobby.no_clock"))));
  turn.value = keepTurn;
  const box = $("players-choice");
  const keepPlayers = (document.querySelector("input[name=players]:checked") || {}).value || "2";
  box.replaceChildren(...[2, 3, 4].map((n) => el("label", {},
    el("input", { type: "radio", name: "players", value: String(n), checked: String(n) === keepPlayers, onchange: update }),
    t("web.lobby.n_players", { n }))));
  $("rules-links").replaceChildren(...Object.keys(meta.games).map((g) =>
    el("li", {}, el("a", { href: `/rules/${g}`, class: "button secondary" }, gameName(g)))));
  describePlay();
  update();
}

function players() {
  return Number((document.querySelector("input[name=players]:checked") || { value: 2 }).value);
}

function update() {
  const game = meta.games[$("game").value];
  const n = players();
  $("teams-row").hidden = !(n === 4 && game.teams_allowed);
  if (n === 4 && !$("teams").dataset.touched) $("teams").checked = game.teams_for_four;
  $("target").placeholder = String(game.targets[String(n)]);
  $("game-rules").href = `/rules/${$("game").value}`;
  const box = $("seat-config");
  const old = Array.from(box.querySelectorAll("select")).map((s) => s.value);
  box.replaceChildren();
  box.append(el("div", { class: "seat-line" }, el("span", {}, t("web.seat.n", { n: 1 })), t("web.lobby.seat_you")));
  for (let i = 1; i < n; i++) {
    const sel = el("select", { id: `seat-${i}`, "aria-label": t("web.seat.n", { n: i + 1 }) },
      el("option", { value: "human" }, t("web.lobby.seat_friend")),
      ...meta.bots.map((b) => el("option", { value: `bot:${b}` }, t("web.lobby.seat_bot", { level: t(`web.bot.${b}`) }))));
    sel.value = old[i - 1] || "bot:easy";
    box.append(el("div", { class: "seat-line" }, el("label", { for: `seat-${i}` }, t("web.seat.n", { n: i + 1 })), sel));
  }
}

async function create(e) {
  e.preventDefault();
  if (!meta) return; // the form is not filled in yet
  const n = players();
  const seats = [{ kind: "human" }];
  for (let i = 1; i < n; i++) {
    const v = $(`seat-${i}`).value;
    seats.push(v === "human" ? { kind: "human" } : { kind: "bot", level: v.slice(4) });
  }
  const target = $("target").value ? Number($("target").value) : null;
  const body = {
    game: $("game").value, players: n, seats, name: nameOrDefault(),
    turn_time: Number($("turn-time").value), target,
    private: $("privacy-private").checked,
  };
  if (me && $("rated").checked) body.rated = true;
  if (n === 4 && !$("teams-row").hidden) body.teams = $("teams").checked;
  if (seed !== undefined) body.seed = seed;
  try {
    await enter(await api("/api/tables", body));
  } catch (err) {
    toast(err.message, "error");
  }
}

async function playNow(e) {
  e.preventDefault();
  const game = (document.querySelector("input[name=quick-game]:checked") || {}).value || "all-fives";
  const level = $("quick-level").value || "easy";
  localStorage.setItem(PLAY_GAME, game);
  localStorage.setItem(PLAY_LEVEL, level);
  const body = { name: nameOrDefault(), game, level, players: 2 };
  if (me && $("quick-rated").checked) body.rated = true;
  if (seed !== undefined) body.seed = seed;
  if (params.has("turn")) body.turn_time = Number(params.get("turn"));
  try {
    await enter(await api("/api/play-now", body));
  } catch (err) {
    toast(err.message, "error");
  }
}

// -- quick pairing: the game chosen above, 2 to 4 players, rated or casual --------------------

let ticket = null;
let pairTimer = null;

function pairGame() {
  return (document.querySelector("input[name=quick-game]:checked") || {}).value || "all-fives";
}

function showTicket(st) {
  $("pair-status").hidden = !st;
  $("pair-form").hidden = Boolean(st);
  if (!st) return;
  if (st.state === "matched") {
    $("pair-text").textContent = t("web.pair.found");
    $("pair-accept").hidden = $("pair-decline").hidden = true;
    clearInterval(pairTimer);
    ticket = null;
    enter({ table: st.table, token: st.token });
    return;
  }
  const offer = st.offer;
  $("pair-text").textContent = offer
    ? t("web.pair.offer", { level: t(`web.bot.${offer.level}`), rating: offer.rating })
    : t("web.pair.waiting", { window: `±${st.window}` });
  $("pair-accept").hidden = $("pair-decline").hidden = !offer;
}

let pairAsked = 0; // answers are shown in the order they were asked (a late poll is stale)
let pairShown = 0;
let pairFailed = ""; // the refusal the polls keep meeting: said once, not every second

let pairChoosing = false; // "play the bots" or "keep waiting" on its way: the polls wait for it

async function pairCall(path, body) {
  const asked = ++pairAsked;
  try {
    const st = await api(path, body);
    // a late answer, or one for a ticket already left (matched: the page is on its way to the
    // table, and a second navigation would abort the first), or a poll's while a choice is on
    // its way (it may have reached the server first: it would show the offer again)
    if (asked < pairShown || !ticket || (pairChoosing && !body)) return;
    pairShown = asked;
    pairFailed = "";
    showTicket(st);
  } catch (err) {
    if (err.message !== pairFailed) toast(err.message, "error");
    pairFailed = err.message;
    if (err.code === "not_found") { clearInterval(pairTimer); ticket = null; showTicket(null); }
  }
}

function pollTicket() {
  clearInterval(pairTimer);
  pairTimer = setInterval(() => ticket && !pairChoosing && pairCall(`/api/queue/${ticket}`), 1000);
}

async function answerOffer(accept) {
  if (!ticket || pairChoosing) return;
  pairChoosing = true;
  $("pair-accept").disabled = $("pair-decline").disabled = true; // one answer, not two
  try {
    await pairCall(`/api/queue/${ticket}/bots`, { accept });
  } finally {
    pairChoosing = false;
    $("pair-accept").disabled = $("pair-decline").disabled = false;
  }
}

async function findOpponent(e) {
  e.preventDefault();
  try {
    if (!me) me = (await api("/api/me", { name: nameOrDefault() })).player; // the queue pairs people
    const st = await api("/api/queue", { game: pairGame(), players: Number($("pair-players").value), rated: $("pair-rated").checked });
    ticket = st.ticket;
    showTicket(st);
    pollTicket();
  } catch (err) {
    toast(err.message, "error");
  }
}

function fillPairPlayers() {
  // the server's own wait before it offers bots, not a number written into the words
  $("pair-desc").textContent = t("web.pair.desc", { seconds: Math.round(meta.bot_offer) });
  const keep = $("pair-players").value || "2";
  $("pair-players").replaceChildren(...[2, 3, 4].map((n) => el("option", { value: String(n) }, t("web.lobby.n_players", { n }))));
  $("pair-players").value = keep;
}

function wirePairing() {
  fillPairPlayers();
  $("pair-form").addEventListener("submit", findOpponent);
  $("pair-accept").addEventListener("click", () => answerOffer(true));
  $("pair-decline").addEventListener("click", () => answerOffer(false));
  $("pair-cancel").addEventListener("click", async () => {
    clearInterval(pairTimer);
    const leaving = ticket;
    ticket = null;
    try {
      if (leaving) await api(`/api/queue/${leaving}/leave`, {});
    } catch (err) {
      // paired already: the seat is this player's, so the page goes to it and says why
      if (err.code === "already_matched" && err.data && err.data.table) {
        toast(err.message);
        showTicket(err.data);
        return;
      }
      if (err.code === "busy") { // being seated this moment: still queued, the poll tells
        ticket = leaving;
        toast(err.message, "error");
        pollTicket();
        return;
      }
      if (err.code !== "not_found") toast(err.message, "error");
    }
    showTicket(null);
  });
}

// The tables whose seat tokens this browser kept (the newest few): asked together, so the
// server can list private ones too, which the open list never shows.
function keptClaims() {
  const prefix = tokenKey("");
  const claims = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (key && key.startsWith(prefix)) claims.push({ table: key.slice(prefix.length), token: localStorage.getItem(key) });
  }
  return claims.slice(-40);
}

function tableItem(tb, action) {
  // a person's name is theirs as typed: isolated for direction, and not for translating
  const who = tb.seats.flatMap((s, i) => [i ? ", " : null, !s.claimed ? t("web.lobby.free_seat")
    : s.kind !== "bot" && s.name ? el("bdi", { translate: "no" }, s.name) : seatName(s, i)]);
  const status = tb.status === "waiting" ? t("web.lobby.status_waiting") : t("web.lobby.status_playing");
  return el("li", { "data-table": tb.id },
    el("div", {},
      el("strong", {}, `${gameName(tb.game)} · ${t("web.lobby.n_players", { n: tb.players })}`),
      el("div", { class: "who" }, who),
      el("div", { class: "who" }, [status, tb.private ? t("web.lobby.private_tag") : null,
        tb.rated ? t("web.lobby.rated") : null].filter(Boolean).join(" · "))),
    action);
}

// Bots online, each to challenge at the game chosen above (rated if the player has a name).
async function refreshBots() {
  let bots;
  try { bots = (await api("/api/bots/online")).bots; } catch { return; }
  $("bots-panel").hidden = bots.length === 0;
  $("bots-online").replaceChildren(...bots.map((b) => el("li", { "data-bot": b.id },
    el("div", {}, el("strong", {}, t("web.seat.outside", { name: b.label })),
      b.busy ? el("div", { class: "who" }, t("web.bots.busy")) : null),
    el("button", { type: "button", disabled: b.busy, onclick: async () => {
      try {
        if (!me) me = (await api("/api/me", { name: nameOrDefault() })).player;
        await enter(await api("/api/challenge", { bot: b.id, game: pairGame(), rated: $("pair-rated").checked }));
      } catch (err) { toast(err.message, "error"); }
    } }, t("web.bots.challenge")))));
}

async function refresh() {
  refreshBots();
  const claims = keptClaims();
  let data, mine;
  try {
    [data, mine] = await Promise.all([
      api("/api/tables"),
      claims.length ? api("/api/tables/mine", { tables: claims }) : { tables: [] },
    ]);
  } catch { return; }
  const back = (tb) => el("a", { class: "button", href: `/t/${tb.id}` }, t("web.lobby.return"));
  $("my-tables").replaceChildren(...mine.tables.map((tb) => tableItem(tb, back(tb))));
  $("my-panel").hidden = mine.tables.length === 0;
  const held = new Set(mine.tables.map((tb) => tb.id));
  const open = data.tables.filter((tb) => !held.has(tb.id));
  $("table-list").replaceChildren(...open.map((tb) => tableItem(tb, tb.free.length
    ? el("a", { class: "button", href: `/t/${tb.id}` }, t("web.lobby.join"))
    : el("a", { class: "button secondary", href: `/t/${tb.id}` }, t("web.lobby.watch")))));
  $("no-tables").hidden = open.length > 0;
}

// The table's code (its page's modules, tests/server/test_installable.py checks the list),
// fetched ahead so that "Play now" waits only for the table: at once on a fast line; on a slow
// or metered one only when the player starts to use a form (who only looks pays nothing).
const TABLE_CODE = ["table.js", "tiles.js", "layoutview.js", "scores.js", "summary.js", "hand.js",
  "notify.js", "boardtext.js"];
let tableFetched = false;

function fetchTableCode() {
  if (tableFetched) return;
  tableFetched = true;
  for (const name of TABLE_CODE) {
    document.head.append(el("link", { rel: "prefetch", href: new URL(`./${name}`, import.meta.url).pathname }));
  }
}

function fetchTableCodeWhenWise() {
  const line = navigator.connection;
  if (!line || (!line.saveData && line.effectiveType === "4g")) {
    if (document.readyState === "complete") fetchTableCode();
    else window.addEventListener("load", fetchTableCode, { once: true });
    return;
  }
  for (const form of ["quick-form", "create-form"]) {
    for (const kind of ["pointerdown", "focusin"]) $(form).addEventListener(kind, fetchTableCode, { once: true });
  }
}

async function main() {
  // the forms never submit natively, even when used before the page has finished loading
  $("create-form").addEventListener("submit", create);
  $("quick-form").addEventListener("submit", playNow);
  $("pair-form").addEventListener("submit", (e) => e.preventDefault());
  fetchTableCodeWhenWise();
  // asked for while the words load: on a slow line each wait in turn is a round trip
  const loading = Promise.all([api("/api/meta"),
    api("/api/me").then((r) => r.player).catch(() => null),
    api("/api/bot-ratings").then((r) => r.ratings).catch(() => ({}))]);
  await initI18n(() => { if (meta) { fillGames(); fillPairPlayers(); } refresh(); });
  [meta, me, botRatings] = await loading;
  if (me) {
    // this browser is known: its name is its identity's (changed on the profile page)
    $("name").value = me.label;
    $("name").readOnly = true;
    $("quick-rated-row").hidden = $("rated-row").hidden = false;
  } else if (!$("name").value) $("name").value = getName();
  fillGames();
  wirePairing();
  wireEvents(meta, () => me, nameOrDefault);
  showEvents();
  setInterval(showEvents, 15000);
  $("game").addEventListener("change", update);
  $("teams").addEventListener("change", () => { $("teams").dataset.touched = "1"; });
  $("quick-level").addEventListener("change", () => { localStorage.setItem(PLAY_LEVEL, $("quick-level").value); describePlay(); });
  refresh();
  setInterval(refresh, 4000);
}

main();
