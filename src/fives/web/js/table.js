// The table page: one WebSocket to the authoritative table. The server sends this seat's view
// (its hand, the layout, the legal actions) and what is public; the page draws it and sends
// back the action chosen. No rules here: legality, scoring and summaries come from the server,
// and what a game is like (scoring, spinner, drawing, pass or knock, score sheet) from its info.
import { initI18n, t, points, plural, pickLang } from "./i18n.js";
import { el, getName, setName, tokenKey, inviteKey, inviteQuery, gameName, seatName, seatShort, sideName, toast, copyText, tileWords, tilesWords } from "./common.js";
import { tileSvg, tileBack } from "./tiles.js";
import { renderLayout, arrowOf, ARROW } from "./layoutview.js";
import { tallySheet, track61 } from "./scores.js";
import { summaryElement, scoreList, playSentence } from "./summary.js";
import { sizeHand, draggable, dragging, handledByPointer } from "./hand.js";
import { setupSound, setupVibrate, turnSignal, scoreSignal, clockLowSignal } from "./notify.js";
import { renderBoardText } from "./boardtext.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const $ = (id) => document.getElementById(id);
const KEY_END = { ArrowLeft: "W", ArrowRight: "E", ArrowUp: "N", ArrowDown: "S", w: "W", e: "E", n: "N", s: "S" };

let ws = null;
let ready = false; // the catalogue is loaded: messages are drawn from then on
const early = [];
let mySeat = null;
let token = localStorage.getItem(tokenKey(tableId));
// A private table's invite: from the link that brought us here, or kept from an earlier visit.
let invite = new URLSearchParams(location.search).get("invite") || localStorage.getItem(inviteKey(tableId));
let refused = false;
let last = null; // the last state message
let selected = null; // the selected tile ("a-b")
let hint = null; // the hint of this turn: { n, action, value }, or { n, waiting: true }
let retry = 400;
let clockTimer = null;
let clockEnd = null;
let summaryDismissed = null;
let resultDismissed = false;
let watching = false;
let lastEventN = -1;
let sentN = -1;
let casualTold = null; // the reason this rated match is casual, once told
let byKeys = false; // the player's last choice was made with the keyboard
const TEXT_BOARD_KEY = "fives.textBoard";
let textBoard = localStorage.getItem(TEXT_BOARD_KEY) === "on"; // the board in words, not drawn
let clockSaid = null; // the last seconds already said this turn: { n, secs }

// -- connection -------------------------------------------------------------------------

// A line whose far end is gone (its server process paused or killed without closing it, a
// phone's network lost without a word) says nothing: the page pings the table every few
// seconds and, having heard nothing for a while, drops the line and dials again (issue 43).
const PING_EVERY = 3000;
const SILENT_LIMIT = 8000;
let heard = 0; // when the line last said anything (Date.now())
let fresh = false; // the next state is the first since the line was opened
let pending = null; // the action sent and not yet answered: { action, n }

// The line js/boot.js opened with the page, if it is the one this would dial and not closed.
function earlyLine(url) {
  const boot = window.fivesBoot;
  const opened = boot && boot.socket;
  if (boot) boot.socket = null;
  if (!opened || opened.line.url !== url || opened.line.readyState > WebSocket.OPEN) {
    if (opened) opened.line.close();
    return null;
  }
  return opened;
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const lang = pickLang();
  const url = new URL(`${proto}://${location.host}/ws/${encodeURIComponent(tableId)}?lang=${lang}`).href;
  const adopted = earlyLine(url);
  const line = adopted ? adopted.line : new WebSocket(url);
  ws = line;
  const opened = () => {
    if (ws !== line) return;
    retry = 400;
    sentN = -1;
    heard = Date.now();
    fresh = true;
    $("conn-status").hidden = true;
    const hello = { type: "hello", lang };
    if (token) hello.token = token;
    if (invite) hello.invite = invite;
    line.send(JSON.stringify(hello));
  };
  const onLine = (e) => {
    if (ws !== line) return; // a line given up on
    heard = Date.now();
    let msg;
    try { msg = JSON.parse(e.data); } catch { return; }
    if (ready) onMessage(msg);
    else early.push(msg);
  };
  if (adopted) adopted.takeOver().forEach(onLine);
  line.addEventListener("message", onLine);
  if (line.readyState === WebSocket.OPEN) opened();
  else line.addEventListener("open", opened);
  line.addEventListener("close", (e) => {
    if (ws !== line) return;
    ws = null;
    if (e.code === 4404) {
      showNotFound();
      return;
    }
    if (e.code === 4403 || refused) {
      showRefused(t("web.error.private_table"));
      return;
    }
    dialAgain(e.code === 4429 ? 8000 : retry); // 4429: too many connections or watchers
  });
}

function dialAgain(after) {
  $("conn-status").hidden = false;
  $("conn-status").textContent = t("web.conn.reconnecting");
  setTimeout(connect, after);
  retry = Math.min(Math.max(retry, after) * 2, 8000);
}

setInterval(() => {
  if (!ws || ws.readyState !== WebSocket.OPEN) return;
  if (Date.now() - heard > SILENT_LIMIT) {
    const dead = ws;
    ws = null; // its events are ignored from now on
    try { dead.close(); } catch { /* already closing */ }
    dialAgain(0);
    return;
  }
  send({ type: "ping" });
}, PING_EVERY);

// The first state of a new line: the action sent on the old one and never answered is sent
// again if it is still this seat's to make (the table's counter refuses a second copy), or the
// player is told it was not made.
function resendPending(msg) {
  const was = pending;
  pending = null;
  if (!was || msg.n > was.n) return; // answered before the line dropped
  if (msg.n === was.n && isMyTurn() && msg.view.legal.includes(was.action)) {
    act(was.action);
  } else {
    toast(t("web.conn.not_sent"), "error");
  }
}

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

function showRefused(text) {
  $("conn-status").hidden = false;
  $("conn-status").textContent = text;
  document.body.classList.add("ready");
}

function showNotFound() {
  $("conn-status").hidden = false;
  $("conn-status").textContent = t("web.error.not_found");
  document.body.classList.add("ready");
}

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      mySeat = msg.seat;
      if (msg.invite) {
        invite = msg.invite;
        localStorage.setItem(inviteKey(tableId), invite);
      }
      break;
    case "joined":
      mySeat = msg.seat;
      token = msg.token;
      localStorage.setItem(tokenKey(tableId), token);
      break;
    case "state":
      onState(msg);
      break;
    case "error":
      if (msg.code === "bad_token") {
        localStorage.removeItem(tokenKey(tableId));
        token = null;
      }
      if (msg.code === "not_found") { showNotFound(); return; }
      if (msg.code === "private_table") { refused = true; showRefused(msg.message); return; }
      sentN = -1;
      pending = null;
      if (hint && hint.waiting) { hint = null; render(); }
      if (msg.code !== "stale") toast(msg.message, "error");
      break;
    case "rematch":
      goRematch(msg.table);
      break;
    case "phrase":
      heardPhrase(msg);
      break;
    case "hint":
      heardHint(msg);
      break;
    default:
      break;
  }
}

// -- quick phrases: keys from a fixed set, each page saying them in its own language ----------

const PHRASES = ["gg", "wp", "thanks", "oops", "hello", "good_luck"];
const muteKey = () => `fives.mute.${tableId}`;

function heardPhrase(msg) {
  if (localStorage.getItem(muteKey()) || !PHRASES.includes(msg.key) || !last) return;
  const name = seatName(last.info.seats[msg.seat], msg.seat);
  toast(t("web.phrase.said", { name, phrase: t(`web.phrase.${msg.key}`) }));
}

function renderPhrases() {
  $("phrases").hidden = mySeat == null;
  $("phrase-buttons").replaceChildren(...PHRASES.map((key) => el("button", {
    type: "button", class: "secondary small-btn", dataset: { phrase: key },
    onclick: () => send({ type: "phrase", key }),
  }, t(`web.phrase.${key}`))));
  $("phrase-mute").checked = Boolean(localStorage.getItem(muteKey()));
}

function goRematch(id) {
  if (token) localStorage.setItem(tokenKey(id), token);
  if (invite) localStorage.setItem(inviteKey(id), invite);
  location.href = `/t/${encodeURIComponent(id)}`;
}

// -- state ------------------------------------------------------------------------------

function onState(msg) {
  const prev = last;
  last = msg;
  if (msg.you !== undefined) mySeat = msg.you;
  if (msg.event && msg.event.n > lastEventN && prev) {
    lastEventN = msg.event.n;
    tellEvent(msg.event, msg);
  } else if (msg.event) {
    lastEventN = Math.max(lastEventN, msg.event.n);
  }
  if (!prev) tellLastPlay(msg);
  if (!prev || (prev.view && msg.view && prev.view.round !== msg.view.round)) selected = null;
  if (selected && !optionsFor(selected).length) selected = null;
  render();
  if (pending && msg.n > pending.n) pending = null;
  if (fresh) {
    fresh = false;
    resendPending(msg);
  }
}

function isMyTurn() {
  return Boolean(last && last.view && mySeat != null && last.view.turn === mySeat && last.view.legal.length > 0);
}

// The player has a real choice (a forced draw or pass is made by the server).
function myChoice() {
  if (!isMyTurn()) return false;
  const legal = last.view.legal;
  return !(legal.length === 1 && (legal[0] === "draw" || legal[0] === "pass"));
}

function render() {
  if (!last) return;
  const info = last.info;
  renderHintsToggle();
  $("game-title").textContent = gameName(info.game);
  // a match asked for rated and played casual says so, and why, from its first moment
  $("game-target").textContent = t("web.table.to_target", { n: info.target })
    + (info.casual ? ` · ${t("web.profile.casual")}` : "");
  $("game-target").title = info.casual ? t(`web.table.casual.${info.casual}`) : "";
  if (info.casual && casualTold !== info.casual) {
    casualTold = info.casual;
    toast(t(`web.table.casual.${info.casual}`));
  }
  const seated = mySeat != null;
  const waiting = info.status === "waiting";
  $("join-panel").hidden = !(waiting && !seated && !watching);
  $("waiting-panel").hidden = !(waiting && (seated || watching));
  $("game").hidden = waiting;
  document.body.classList.toggle("in-game", !waiting);
  if ($("phrases").hidden !== (mySeat == null) || !$("phrase-buttons").children.length) renderPhrases();
  turnSignal(myChoice() && !last.summary, `${gameName(info.game)} · fives`);
  if (waiting) {
    if (!seated && !watching) renderJoin(info);
    else renderWaiting(info);
    return;
  }
  renderSeats();
  if (!dragging()) renderHand(); // redrawn when the tile is dropped
  renderScores();
  renderStatus();
  renderClock();
  renderBoard();
  renderDialogs();
}

// -- join / waiting ---------------------------------------------------------------------

function renderJoin(info) {
  $("join-desc").textContent = t("web.join.desc", { game: gameName(info.game), players: info.players })
    + (info.rated ? ` · ${t("web.lobby.rated_desc")}` : "");
  const box = $("join-seats");
  box.replaceChildren();
  info.seats.forEach((s, i) => {
    if (s.claimed) {
      box.append(el("div", { class: "seat-choice taken" }, seatName(s, i)));
    } else {
      box.append(el("button", {
        type: "button", class: "seat-choice", dataset: { seat: i },
        onclick: () => {
          const name = $("join-name").value.trim();
          if (!name) { $("join-name").focus(); toast(t("web.error.bad_name"), "error"); return; }
          setName(name);
          // a rated match is joined only by a person who agrees to it
          if (info.rated && !window.confirm(t("web.table.rated_consent"))) return;
          send(info.rated ? { type: "join", seat: i, name, rated: 1 } : { type: "join", seat: i, name });
        },
      }, t("web.join.take_seat", { n: i + 1 })));
    }
  });
  if (!$("join-name").value) $("join-name").value = getName();
}

// A browser with an identity sits under its own name (the server uses it whatever is typed).
async function useIdentityName() {
  try {
    const me = (await (await fetch("/api/me")).json()).player;
    if (me) { $("join-name").value = me.label; $("join-name").readOnly = true; }
  } catch { /* no identity: the typed name */ }
}

function renderWaiting(info) {
  const here = `${location.origin}/t/${encodeURIComponent(tableId)}`;
  $("share-link").value = info.private ? here + inviteQuery(invite) : here;
  $("share-text").textContent = t(info.private ? "web.waiting.share_private" : "web.waiting.share");
  const list = $("waiting-seats");
  list.replaceChildren();
  info.seats.forEach((s, i) => {
    const state = s.kind === "bot" ? t("web.waiting.bot") : s.claimed ? (s.connected ? t("web.seat.here") : t("web.seat.offline")) : t("web.waiting.free");
    list.append(el("li", { class: s.claimed ? "taken" : "free" },
      el("strong", {}, s.claimed ? seatName(s, i) : t("web.seat.n", { n: i + 1 })), " — ", state,
      i === mySeat ? ` (${t("web.seat.you")})` : ""));
  });
  $("host-start-wrap").hidden = !(mySeat != null && mySeat === info.host);
}

// -- seats: who is here, their tiles, their score and whose turn it is --------------------

function seatOrder(n) {
  const start = mySeat != null ? mySeat : 0;
  return Array.from({ length: n }, (_, k) => (start + k) % n);
}

function renderSeats() {
  const { info, view } = last;
  const box = $("seats");
  box.setAttribute("aria-label", t("web.table.players"));
  box.style.setProperty("--seats", info.players);
  box.dataset.count = info.players;
  box.replaceChildren();
  for (const i of seatOrder(info.players)) {
    const s = info.seats[i];
    const turn = Boolean(view && view.turn === i && !last.summary);
    const count = view ? view.hand_sizes[i] : 0;
    const score = view ? view.scores[s.side] : 0;
    const notes = [];
    if (i === mySeat) notes.push(t("web.seat.you"));
    else if (s.kind === "bot") notes.push(t(`web.bot.${s.level}`));
    // in partnerships, a word says who one's partner is (the badges' colours alone did not)
    if (info.teams && mySeat != null && i !== mySeat && s.side === info.seats[mySeat].side) notes.push(t("web.seat.partner"));
    if (s.kind === "human" && !s.connected && i !== mySeat) notes.push(t("web.seat.offline"));
    if (s.away) notes.push(t("web.seat.away"));
    if (s.timeouts && !s.away) notes.push(t("web.seat.timeouts", { n: s.timeouts }));
    if (view && view.out && view.out[i]) notes.push(t("web.seat.out"));
    const label = [seatName(s, i), info.teams ? t("web.side.team", { n: s.side + 1 }) : null,
      plural("web.seat.tiles", count), t("web.seat.score", { n: score }),
      turn ? t("web.seat.to_play") : null, ...notes].filter(Boolean).join(", ");
    const card = el("div", {
      class: `seat-card side-${s.side}${turn ? " turn" : ""}${i === mySeat ? " me" : ""}${s.away ? " away" : ""}`,
      id: `seat-${i}`, "data-seat": i, role: "listitem", "aria-label": label,
    },
    el("div", { class: "seat-top", "aria-hidden": "true" },
      turn ? el("span", { class: "turn-mark" }, "▶") : null,
      el("span", { class: "seat-name" }, seatShort(s, i)),
      el("span", { class: "seat-score", id: `seat-score-${i}` }, String(score))),
    el("div", { class: "seat-sub", "aria-hidden": "true" },
      el("span", { class: "seat-count" }, tileBack({ cls: "mini" }), String(count)),
      info.teams ? el("span", { class: `badge side-${s.side}`, title: t("web.side.team", { n: s.side + 1 }) }, String(s.side + 1)) : null,
      el("span", { class: "seat-notes" }, notes.join(" · "))),
    turn && info.clock ? el("div", { class: "seat-clock", "data-clock": i }) : null);
    box.append(card);
  }
}

// -- board ------------------------------------------------------------------------------

// What the selected tile can do: "lead", or the ends it fits.
function optionsFor(tile) {
  if (!tile || !isMyTurn()) return [];
  const legal = last.view.legal;
  if (legal.includes(tile)) return ["lead"];
  return legal.filter((a) => a.startsWith(tile + "@")).map((a) => a.split("@")[1]);
}

function newestTile(view) {
  if (!view) return null;
  for (let k = view.history.length - 1; k >= 0; k--) {
    const action = view.history[k][1];
    if (action !== "draw" && action !== "pass") return action.split("@")[0];
  }
  return null;
}

function renderBoard() {
  const view = last.view;
  const wrap = $("board-wrap");
  const board = $("board");
  const options = optionsFor(selected);
  const legal = Object.fromEntries(options.map((o) => [o, true]));
  const small = Math.min(window.innerWidth, window.innerHeight) < 600;
  const drawn = renderLayout(board, view && view.layout.center ? view.layout : null, {
    width: Math.max(120, wrap.clientWidth), height: Math.max(80, wrap.clientHeight),
    fill: true, legal, selected, lead: options.includes("lead"),
    unit: small ? 22 : 30, maxUnit: small ? 30 : 40,
    newest: newestTile(view),
    onEnd: (end) => playOption(selected, end),
  });
  const label = view && view.layout.tiles.length
    ? t("web.layout.aria", { tiles: tilesWords(view.layout.tiles), sentence: view.layout.sentence })
    : t("web.layout.empty");
  board.setAttribute("aria-label", label);
  pointEndButtons(drawn);
  showTextBoard();
  const stock = $("stock");
  stock.replaceChildren();
  if (last.info.drawing && view) {
    stock.append(tileBack({ cls: "mini" }), el("span", {}, t("web.table.stock", { n: view.stock })));
  } else if (view) {
    stock.append(el("span", {}, t("web.table.no_stock")));
  }
  const legend = legendItems();
  $("legend").replaceChildren(...legend);
  $("help-legend").replaceChildren(...legendItems());
}

// The board in words in the drawing's place, for a screen reader or anyone who reads better
// than they look (a setting kept per browser; T or the header's button switches it).
function showTextBoard() {
  const box = $("board-text");
  const button = $("text-board-btn");
  button.setAttribute("aria-pressed", textBoard ? "true" : "false");
  document.querySelector(".board-area").classList.toggle("text-mode", textBoard);
  box.hidden = !textBoard;
  if (!textBoard || !last || !last.view) return;
  renderBoardText(box, last.view, { nameOf, mine: isMyTurn() && sentN !== last.n, drawing: Boolean(last.info.drawing) });
}

function toggleTextBoard() {
  textBoard = !textBoard;
  localStorage.setItem(TEXT_BOARD_KEY, textBoard ? "on" : "off");
  if (last && !$("game").hidden) renderBoard();
  else showTextBoard();
}

// An end's button points the way its end grows on the board as drawn: once a line turns a
// corner, the west end may sit at the top and grow to the right ("← West" pointed elsewhere).
let drawnEnds = {}; // the ends as last drawn: each ghost's direction of growth

function arrowFor(end) {
  return arrowOf(end, drawnEnds[end]);
}

function pointEndButtons(drawn) {
  drawnEnds = (drawn && drawn.ghosts) || {};
  document.querySelectorAll("#you-actions .end-btn").forEach((b) => {
    const end = b.dataset.option;
    if (end !== "lead") b.textContent = `${arrowFor(end)} ${endName(end)}`;
  });
}

function legendItems() {
  const items = [
    el("span", { class: "legend-item" }, el("span", { class: "legend-dot counted", "aria-hidden": "true" }, "5"), t("web.layout.legend_counted")),
    el("span", { class: "legend-item" }, el("span", { class: "legend-dot open", "aria-hidden": "true" }), t("web.layout.legend_open")),
    el("span", { class: "legend-item" }, el("span", { class: "legend-newest", "aria-hidden": "true" }), t("web.layout.legend_newest")),
  ];
  if (last && last.info.spinner) {
    items.push(el("span", { class: "legend-item" }, el("span", { class: "legend-spinner", "aria-hidden": "true" }, "✦"), t("web.layout.legend_spinner")));
  }
  return items;
}

// -- hand -------------------------------------------------------------------------------

function renderHand() {
  const view = last.view;
  const hand = $("hand");
  // a keyboard player keeps their place in the hand across the redraw (it was dropped to the
  // page's body, and the next Tab started from the top)
  const had = hand.contains(document.activeElement) ? document.activeElement.dataset.tile || "" : null;
  hand.replaceChildren();
  if (mySeat == null || !view) {
    hand.append(el("p", { class: "muted watching" }, t("web.table.watching")));
    return;
  }
  const choosing = myChoice();
  sizeHand(hand, view.hand.length);
  view.hand.forEach((tile, k) => {
    const playable = choosing && optionsFor(tile).length > 0;
    const isSel = selected === tile;
    const label = t(playable ? "web.tile.playable" : "web.tile.plain", { tile: tileWords(tile) }) + (isSel ? ` · ${t("web.tile.selected")}` : "");
    const b = el("button", {
      type: "button",
      class: `hand-tile${playable ? " playable" : ""}${isSel ? " selected" : ""}`,
      "data-tile": tile, "aria-label": label, "aria-pressed": isSel ? "true" : "false",
      "aria-disabled": playable ? "false" : "true",
      title: k < 9 ? `${k + 1}: ${tile}` : tile,
      onclick: (e) => { if (!handledByPointer(tile, e)) chooseTile(tile); },
    }, tileSvg(tile));
    if (playable) {
      b.append(el("span", { class: "playable-mark", "aria-hidden": "true" }, "▲"));
      draggable(b, tile, {
        tap: () => chooseTile(tile),
        start: () => {
          selected = tile;
          hand.querySelectorAll(".hand-tile.selected").forEach((x) => x.classList.remove("selected"));
          b.classList.add("selected");
          renderBoard();
          renderStatus();
        },
        over: (target) => {
          document.querySelectorAll("#board .ghost.hover").forEach((g) => g.classList.remove("hover"));
          const g = target && target.closest ? target.closest("#board .ghost") : null;
          if (g) g.classList.add("hover");
        },
        drop: (target) => {
          const g = target && target.closest ? target.closest("#board .ghost") : null;
          const options = optionsFor(tile);
          if (g) playOption(tile, g.dataset.end);
          else if (target && target.closest && target.closest("#board-wrap") && options.length === 1) playOption(tile, options[0]);
          else render(); // not on an end: the tile stays chosen, its ends lit
        },
        cancel: () => render(),
      });
    }
    hand.append(b);
  });
  if (had !== null) {
    const again = hand.querySelector(`.hand-tile[data-tile="${had}"]`)
      || hand.querySelector(".hand-tile.playable") || hand.querySelector(".hand-tile");
    if (again) again.focus({ preventScroll: true });
  }
}

// A tap chooses a tile and lights its ends; a second tap on a tile that fits one place only
// plays it there (so does a double tap); a tap on a lit end plays it there.
function chooseTile(tile) {
  if (!isMyTurn()) { toast(t("web.error.not_your_turn"), "error"); return; }
  const options = optionsFor(tile);
  if (!options.length) { toast(t("web.error.illegal_no_fit", { tile }), "error"); return; }
  if (selected === tile) {
    if (options.length === 1) { playOption(tile, options[0]); return; }
    selected = null;
  } else {
    selected = tile;
  }
  render();
}

function playOption(tile, option) {
  if (!tile || !optionsFor(tile).includes(option)) return;
  act(option === "lead" ? tile : `${tile}@${option}`);
}

function act(action) {
  if (!last || sentN === last.n) return;
  sentN = last.n;
  selected = null;
  pending = { action, n: last.n };
  send({ type: "act", action, n: last.n });
  render();
}

// -- status, choices and clock ------------------------------------------------------------

function endName(end) {
  return t(`common.end.${end}`);
}

function renderStatus() {
  const { info, view } = last;
  const line = $("status-line");
  let text = "";
  if (!view) text = t("web.status.dealing");
  else if (last.result) text = t("web.status.over");
  else if (last.summary) text = t("web.status.round_over");
  else if (isMyTurn() && sentN === last.n) text = t("web.status.sent"); // not "your turn" again
  else if (isMyTurn()) {
    const legal = view.legal;
    // the instruction speaks of the keys to a player who uses them, of taps to the others
    const how = byKeys ? "_keys" : "";
    if (legal.length === 1 && legal[0] === "draw") text = t("web.status.must_draw");
    else if (legal.length === 1 && legal[0] === "pass") text = t(`web.status.must_${last.info.no_play}`);
    else if (selected) {
      const options = optionsFor(selected);
      if (options[0] === "lead") text = t(`web.status.confirm_lead${how}`, { tile: selected });
      else if (options.length === 1) text = t(`web.status.confirm_end${how}`, { tile: selected, end: endName(options[0]) });
      else text = t(`web.status.choose_end${how}`, { tile: selected, ends: options.map(endName).join(", ") });
    } else if (view.layout.tiles.length === 0) text = t("web.status.lead");
    else text = t("web.status.your_turn");
    if (hint && hint.n === last.n) text = hintSentence(hint);
  } else if (view.turn != null) {
    text = t("web.status.waiting_for", { name: seatName(info.seats[view.turn], view.turn) });
  }
  // a live region: the same sentence set again is announced again, so only a change is set
  if (line.textContent !== text) line.textContent = text;
  line.classList.toggle("mine", isMyTurn() && sentN !== last.n);
  renderActions();
}

// The buttons under the status line: where the chosen tile goes; the round summary and the
// next round once a round is over (also after the summary is closed); the match result.
function renderActions() {
  const box = $("you-actions");
  const out = [];
  const options = optionsFor(selected);
  for (const option of options) {
    const text = option === "lead" ? t("web.table.lead", { tile: selected }) : `${arrowFor(option)} ${endName(option)}`;
    const aria = option === "lead" ? t("web.table.lead", { tile: selected }) : t("web.table.play_on", { tile: selected, end: endName(option) });
    out.push(el("button", { type: "button", class: "end-btn", "data-option": option, "aria-label": aria,
      onclick: () => playOption(selected, option) }, text));
  }
  const { info, summary, result } = last;
  if (canAskHint()) {
    out.push(el("button", { type: "button", id: "hint-btn", class: "secondary", "aria-label": t("web.table.hint_aria"),
      title: t("web.table.hint_aria"), disabled: Boolean(hint && hint.n === last.n), onclick: askHint }, t("web.table.hint")));
  }
  if (result && !$("result-dialog").open) {
    out.push(el("button", { type: "button", id: "show-result", onclick: () => { resultDismissed = false; renderDialogs(); } }, t("web.result.show")));
  } else if (summary && !result) {
    const mustSay = mySeat != null && (info.waiting_for || []).includes(mySeat);
    if (!$("summary-dialog").open) {
      out.push(el("button", { type: "button", id: "show-summary", class: "secondary",
        onclick: () => { summaryDismissed = null; renderDialogs(); } }, t("web.summary.show")));
    }
    if (mustSay && !$("summary-dialog").open) {
      out.push(el("button", { type: "button", id: "next-round", class: "attention", onclick: nextRound }, t("web.summary.next")));
    }
  }
  if (mySeat != null && info.seats[mySeat] && info.seats[mySeat].away) {
    out.push(el("button", { type: "button", id: "back-btn", class: "attention", onclick: () => send({ type: "back" }) }, t("web.table.back")));
  }
  box.replaceChildren(...out);
}

// -- hints (issue 28): the bot's best play for this turn, where the table allows them -------

function canAskHint() {
  const { info, view } = last;
  return Boolean(info.hints && view && isMyTurn() && sentN !== last.n && !last.summary && !last.result
    && view.legal.length > 1);
}

function askHint() {
  if (!canAskHint() || (hint && hint.n === last.n)) return;
  hint = { n: last.n, waiting: true };
  send({ type: "hint", n: last.n });
  render();
}

function heardHint(msg) {
  if (!last || msg.n !== last.n) return; // a hint of a turn gone by
  hint = { n: msg.n, action: msg.action, value: msg.value };
  const tile = msg.action.split("@")[0];
  if (last.view && last.view.hand.includes(tile)) selected = tile; // its ends lit, ready to play
  render();
}

function hintSentence(h) {
  if (h.waiting) return t("web.table.hint_wait");
  const [tile, end] = h.action.split("@");
  const value = h.value == null ? "–" : `${h.value > 0 ? "+" : ""}${h.value.toFixed(1)}`;
  if (!end) return t("web.table.hint_lead", { tile, value });
  return t("web.table.hint_said", { tile, end: endName(end), value });
}

// At a table of several people, hints need every one of them to agree.
function renderHintsToggle() {
  const box = $("hints-toggle");
  if (!box || !last) return;
  const people = last.info.seats.filter((s) => s.kind === "human" && s.claimed);
  const show = mySeat != null && !last.info.rated && people.length > 1;
  box.hidden = !show;
  if (!show) return;
  $("hints-allow").checked = Boolean(last.info.seats[mySeat] && last.info.seats[mySeat].hints);
  $("hints-count").textContent = t("web.table.hints_waiting", { n: people.filter((s) => s.hints).length, total: people.length });
}

function nextRound() {
  send({ type: "ready" });
  if ($("summary-dialog").open) $("summary-dialog").close();
}

function renderClock() {
  const clock = last.info.clock;
  clearInterval(clockTimer);
  const youClock = $("you-clock");
  if (!clock) { clockEnd = null; youClock.hidden = true; return; }
  clockEnd = performance.now() + clock.remaining;
  const total = clock.total;
  const tick = () => {
    const left = Math.max(0, clockEnd - performance.now());
    const secs = Math.ceil(left / 1000);
    const frac = total ? left / total : 0;
    document.querySelectorAll("[data-clock]").forEach((c) => {
      c.replaceChildren(el("span", { class: "clock-bar", style: `width:${(frac * 100).toFixed(1)}%` }));
      c.classList.toggle("low", secs <= 5);
      c.setAttribute("title", t("web.clock.seconds", { n: secs }));
    });
    if (clock.seat === mySeat) {
      sayLastSeconds(secs);
      youClock.hidden = false;
      youClock.replaceChildren(el("span", { class: "clock-bar", style: `width:${(frac * 100).toFixed(1)}%` }),
        el("span", { class: "clock-text" }, t("web.clock.yours", { n: secs })));
      youClock.classList.toggle("low", secs <= 5);
    } else youClock.hidden = true;
  };
  tick();
  clockTimer = setInterval(tick, 250);
}

// The clock's last seconds, said once each to a screen reader (a sighted player sees the bar
// turn red): at 10 and at 5 seconds left of one's own turn.
const SAY_AT = [10, 5];

function sayLastSeconds(secs) {
  const at = SAY_AT.find((s) => secs <= s && secs > s - 1);
  if (at == null || (clockSaid && clockSaid.n === last.n && clockSaid.secs <= at)) return;
  if (!isMyTurn() || sentN === last.n) return;
  clockSaid = { n: last.n, secs: at };
  if (at === 5) clockLowSignal();
  // emptied first: the same words on the next turn are a change a screen reader announces
  const say = $("clock-say");
  say.textContent = "";
  setTimeout(() => { say.textContent = plural("web.clock.left", at); }, 50);
}

// -- scores (the side panel on wide screens, a sheet on phones) --------------------------

function renderScores() {
  const { info, view } = last;
  const box = $("scores");
  box.replaceChildren();
  const scores = view ? view.scores : Array(info.teams ? 2 : info.players).fill(0);
  scores.forEach((score, side) => {
    const row = el("div", { class: `score-row side-${side}`, id: `score-side-${side}` },
      el("div", { class: "score-head" },
        el("span", { class: "score-name" }, sideName(info, side)),
        el("span", { class: "score-num", "aria-label": t("web.score.of", { n: score, target: info.target }) }, String(score))));
    if (info.score_sheet === "tally") row.append(tallySheet(score));
    if (info.score_sheet === "track") row.append(track61(score, side, info.target));
    box.append(row);
  });
  box.append(el("p", { class: "muted small" }, t("web.score.target", { points: points(info.target) })));
  keysHelp();
}

function keysHelp() {
  const text = t("web.table.keys", { keys: Object.values(ARROW).join(" ") });
  $("keys-help").textContent = text;
  $("help-keys").textContent = text;
}

function openPanel(open) {
  $("score-panel").classList.toggle("open", open);
  $("panel-backdrop").hidden = !open;
  $("panel-btn").setAttribute("aria-expanded", open ? "true" : "false");
  if (open) $("panel-close").focus();
}

// -- events: the banner, the log and the animations ---------------------------------------

function nameOf(seat) {
  const name = seatName(last.info.seats[seat], seat);
  return seat === mySeat ? `${name} (${t("web.seat.you")})` : name;
}

// The log and the banner are kept as functions of the language, so a switch re-tells them.
const logItems = [];
let bannerItem = null;
let drawRun = null; // draws in a row by one seat: told as one line ("drew 3")

function logLine(fn, replaceNewest = false) {
  if (replaceNewest && logItems.length) {
    logItems[0] = fn;
    $("log").firstChild.textContent = fn();
    return;
  }
  logItems.unshift(fn);
  logItems.length = Math.min(logItems.length, 80);
  $("log").prepend(el("li", {}, fn()));
  while ($("log").children.length > 80) $("log").lastChild.remove();
}

function retell() {
  $("log").replaceChildren(...logItems.map((fn) => el("li", {}, fn())));
  if (bannerItem) $("banner").replaceChildren(el("span", {}, bannerItem()));
}

function playText(ev) {
  return playSentence(ev, { who: nameOf(ev.seat), scored: last.info.ends_score, target: last.info.target });
}

function howText(ev) {
  if (ev.how === "timeout") return ` (${t("web.event.timeout")})`;
  if (ev.how === "away") return ` (${t("web.event.away")})`;
  return "";
}

function drawText(run) {
  if (run.seat === mySeat && run.tiles.length === run.count) {
    return plural("web.event.you_drew", run.count, { tiles: run.tiles.join(", ") });
  }
  return plural("web.event.drew", run.count, { name: nameOf(run.seat) });
}

// `again`: told once more after a (re)load, without its animations.
function tellEvent(ev, msg, again = false) {
  if (ev.kind !== "draw") drawRun = null;
  if (ev.kind === "deal") {
    const text = () => t("web.event.deal", { n: ev.round + 1, name: nameOf(ev.leader) });
    logLine(text);
    banner(text);
    summaryDismissed = null;
    return;
  }
  if (ev.kind === "lead" || ev.kind === "play") {
    const text = () => playText(ev) + howText(ev);
    logLine(text);
    banner(text, ev.points > 0 ? "scored" : "", !again && ev.seat === mySeat && ev.how === "player");
    if (ev.points > 0 && !again) {
      flyPoints(ev.points, ev.seat);
      scoreSignal();
    }
    return;
  }
  if (ev.kind === "draw") {
    const continuing = drawRun && drawRun.seat === ev.seat;
    if (!continuing) drawRun = { seat: ev.seat, count: 0, tiles: [] };
    drawRun.count += 1;
    if (ev.tile) drawRun.tiles.push(ev.tile);
    const run = { ...drawRun, tiles: drawRun.tiles.slice() };
    logLine(() => drawText(run), continuing);
    banner(() => drawText(run), "draw");
    if (!again) flyDraw(ev.seat, run.count);
    return;
  }
  if (ev.kind === "pass") {
    const key = msg.info.no_play === "knock" ? "web.event.knock" : "web.event.pass";
    const text = () => t(key, { name: nameOf(ev.seat) }) + howText(ev);
    logLine(text);
    banner(text, "pass");
  }
}

// After a (re)load: the newest event again, told in the banner as it was when it happened
// (the log starts from it).
function tellLastPlay(msg) {
  if (!msg.view || msg.summary) return;
  if (msg.event) tellEvent(msg.event, msg, true);
}

// One's own play stays in the banner long enough to read what it scored (bots answered in
// 0.6 s, three bots three times in a row): what comes meanwhile waits, the newest only (the
// log keeps every line), and is shown when the hold ends.
const OWN_PLAY_HOLD = 2000;
let bannerHeld = 0; // until when (Date.now()) the banner keeps one's own play
let bannerNext = null; // what waits for it: [fn, kind]
let bannerTimer = null;

function banner(fn, kind = "", own = false) {
  const now = Date.now();
  if (!own && now < bannerHeld) {
    bannerNext = [fn, kind];
    clearTimeout(bannerTimer);
    bannerTimer = setTimeout(() => { const [f, k] = bannerNext; bannerNext = null; showBanner(f, k); }, bannerHeld - now);
    return;
  }
  clearTimeout(bannerTimer);
  bannerNext = null;
  bannerHeld = own ? now + OWN_PLAY_HOLD : 0;
  showBanner(fn, kind);
}

function showBanner(fn, kind) {
  bannerItem = fn;
  const b = $("banner");
  b.replaceChildren(el("span", {}, fn()));
  b.className = `banner ${kind}`;
  if (!reducedMotion()) b.animate([{ opacity: 0.3, transform: "translateY(-4px)" }, { opacity: 1, transform: "none" }], { duration: 250 });
}

function reducedMotion() {
  return matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function centerOf(node) {
  const r = node.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}

// The points of a play fly from the board to the scorer's score and come to rest just under
// it, fading there: never over the score itself, which the player reads as it changes.
function flyPoints(n, seat) {
  const from = $("board-wrap");
  const to = $(`seat-score-${seat}`);
  if (!from || !to || reducedMotion()) return;
  const [x0, y0] = centerOf(from);
  const r = to.getBoundingClientRect();
  const x1 = r.left + r.width / 2, y1 = r.bottom + 2;
  const chip = el("div", { class: "fly-points", "data-fly": "points" }, `+${n}`);
  $("fx").append(chip);
  chip.style.left = `${x0}px`;
  chip.style.top = `${y0}px`;
  chip.animate([
    { transform: "translate(-50%,-50%) scale(1.4)", opacity: 1 },
    { transform: `translate(calc(${x1 - x0}px - 50%), ${y1 - y0}px) scale(0.8)`, opacity: 1, offset: 0.75 },
    { transform: `translate(calc(${x1 - x0}px - 50%), ${y1 - y0}px) scale(0.8)`, opacity: 0 },
  ], { duration: 1200, easing: "cubic-bezier(.3,.7,.4,1)" }).onfinish = () => chip.remove();
}

function flyDraw(seat, count) {
  const from = $("stock");
  const to = seat === mySeat ? $("hand") : $(`seat-${seat}`);
  if (!from || !to || reducedMotion()) return;
  const [x0, y0] = centerOf(from);
  const [x1, y1] = centerOf(to);
  const chip = el("div", { class: "fly-tile", "data-fly": "draw" }, tileBack(), el("span", { class: "fly-count" }, `+${count}`));
  $("fx").append(chip);
  chip.style.left = `${x0}px`;
  chip.style.top = `${y0}px`;
  chip.animate([
    { transform: "translate(-50%,-50%) rotate(0deg)", opacity: 1 },
    { transform: `translate(calc(${x1 - x0}px - 50%), calc(${y1 - y0}px - 50%)) rotate(90deg)`, opacity: 0.6 },
  ], { duration: 600, easing: "ease-in-out" }).onfinish = () => chip.remove();
}

// -- round summary and result -----------------------------------------------------------

function sideLabel(side) {
  return sideName(last.info, side);
}

function summaryContent(s, scores = true) {
  return summaryElement(s, {
    seatLabel: (i) => seatName(last.info.seats[i], i),
    sideLabel,
    nameOf,
    over: Boolean(last.result),
    scores,
  });
}

function openDialog(d) {
  if (!d.open) {
    try { d.showModal(); } catch { d.setAttribute("open", ""); }
  }
}

function renderDialogs() {
  const s = last.summary;
  const result = last.result;
  const sd = $("summary-dialog");
  const rd = $("result-dialog");
  if (result) {
    if (sd.open) sd.close();
    renderResult(result);
    if (!resultDismissed) openDialog(rd);
    renderActions();
    return;
  }
  if (rd.open) rd.close();
  if (!s) {
    if (sd.open) sd.close();
    return;
  }
  $("summary-title").textContent = t("web.summary.title", { n: s.round + 1 });
  $("summary-body").replaceChildren(summaryContent(s));
  const waitingFor = last.info.waiting_for || [];
  const iMustSay = mySeat != null && waitingFor.includes(mySeat);
  $("summary-next").hidden = !iMustSay;
  const others = waitingFor.filter((i) => i !== mySeat).map((i) => seatName(last.info.seats[i], i));
  $("summary-wait").textContent = others.length ? t("web.summary.waiting", { names: others.join(", ") }) : "";
  if (summaryDismissed !== s.round) openDialog(sd);
  renderActions();
}

function renderResult(result) {
  const info = last.info;
  let title;
  if (result.drawn) title = t("web.result.drawn");
  else if (mySeat != null && info.seats[mySeat].side === result.winner) title = t("web.result.you_win");
  else title = t("web.result.winner", { side: sideLabel(result.winner) });
  $("result-title").textContent = title;
  const body = el("div", {});
  if (last.summary) body.append(summaryContent(last.summary, false));
  body.append(el("h3", {}, t("web.result.final")));
  body.append(scoreList(result.scores, last.summary ? last.summary.points : null, sideLabel));
  body.append(el("p", { class: "muted" }, t("web.result.rounds", { n: result.rounds })));
  $("result-body").replaceChildren(body);
  $("download-btn").href = `/api/matches/${encodeURIComponent(tableId)}/record${inviteQuery(invite)}`;
  $("replay-btn").href = `/replay/${encodeURIComponent(tableId)}${inviteQuery(invite)}`;
  const analyse = $("analyse-btn");
  analyse.hidden = mySeat == null;
  if (mySeat != null) {
    const q = inviteQuery(invite);
    analyse.href = `/replay/${encodeURIComponent(tableId)}${q}${q ? "&" : "?"}analyse=${mySeat + 1}#analysis`;
  }
  const rematch = $("rematch-btn");
  // a match of an event: its players go back to the event, which pairs them next
  rematch.hidden = mySeat == null || !!info.event;
  rematch.textContent = info.rematch ? t("web.result.join_rematch") : t("web.result.rematch");
  const back = $("event-btn");
  back.hidden = !info.event;
  if (info.event) back.href = `/events/${encodeURIComponent(info.event)}`;
}

// -- rules and help dialog ----------------------------------------------------------------

async function openRules() {
  const game = last ? last.info.game : "all-fives";
  $("rules-dialog-title").textContent = t(`rules.${game}.title`);
  $("rules-page-link").href = `/rules/${game}`;
  keysHelp();
  openDialog($("rules-dialog"));
  // the rules' code and words come when asked for: not on the way to a first move
  const { renderRulesInto } = await import("./rules.js");
  await renderRulesInto($("rules-body"), game, 3);
}

// -- wiring -----------------------------------------------------------------------------

function wire() {
  $("watch-btn").addEventListener("click", () => { watching = true; render(); });
  $("copy-link").addEventListener("click", async () => {
    await copyText($("share-link").value);
    toast(t("web.waiting.copied"));
  });
  $("host-start").addEventListener("click", () => send({ type: "start" }));
  $("summary-next").addEventListener("click", nextRound);
  const dismissSummary = () => {
    summaryDismissed = last && last.summary ? last.summary.round : null;
  };
  $("summary-close").addEventListener("click", () => { dismissSummary(); $("summary-dialog").close(); });
  $("summary-dialog").addEventListener("cancel", dismissSummary);
  $("summary-dialog").addEventListener("close", () => last && renderActions());
  $("result-close").addEventListener("click", () => { resultDismissed = true; $("result-dialog").close(); });
  $("result-dialog").addEventListener("cancel", () => { resultDismissed = true; });
  $("result-dialog").addEventListener("close", () => last && renderActions());
  $("rematch-btn").addEventListener("click", () => {
    if (last && last.info.rematch) goRematch(last.info.rematch);
    else send({ type: "rematch" });
  });
  $("rules-btn").addEventListener("click", openRules);
  $("rules-close").addEventListener("click", () => $("rules-dialog").close());
  $("panel-btn").addEventListener("click", () => openPanel(true));
  $("panel-close").addEventListener("click", () => { openPanel(false); $("panel-btn").focus(); });
  $("join-form").addEventListener("submit", (e) => e.preventDefault());
  setupSound($("sound-btn"));
  $("text-board-btn").addEventListener("click", toggleTextBoard);
  setupVibrate($("vibrate-on"), $("vibrate-row"));
  document.addEventListener("keydown", onKey);
  document.addEventListener("pointerdown", () => { byKeys = false; }, true);
  $("panel-backdrop").addEventListener("click", () => openPanel(false));
  let pending = false;
  const again = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; if (last && !$("game").hidden) render(); });
  };
  window.addEventListener("resize", again);
  if (window.ResizeObserver) new ResizeObserver(() => last && !$("game").hidden && renderBoard()).observe($("board-wrap"));
}

function onKey(e) {
  if (!last || !last.view || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key !== "Tab" && e.key !== "Shift") byKeys = true;
  if (document.querySelector("dialog[open]")) return;
  const tag = (e.target && e.target.tagName) || "";
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  const key = e.key;
  if (key === "Escape" && $("score-panel").classList.contains("open")) { openPanel(false); return; }
  if (/^[1-9]$/.test(key)) {
    const tile = last.view.hand[Number(key) - 1];
    if (tile) {
      e.preventDefault();
      const b = document.querySelector(`#hand [data-tile="${tile}"]`);
      if (b) b.focus();
      chooseTile(tile);
    }
    return;
  }
  const end = KEY_END[key] || KEY_END[key.toLowerCase()];
  if (selected && end) {
    e.preventDefault();
    if (optionsFor(selected).includes(end)) playOption(selected, end);
    return;
  }
  if (key === "Enter" && selected && tag !== "BUTTON" && !(e.target && e.target.closest && e.target.closest(".ghost"))) {
    const options = optionsFor(selected);
    if (options.length === 1) { e.preventDefault(); playOption(selected, options[0]); }
    return;
  }
  if (key === "Escape" && selected) { selected = null; render(); }
  if ((key === "h" || key === "H") && canAskHint()) { e.preventDefault(); askHint(); }
  if (key === "t" || key === "T") { e.preventDefault(); toggleTextBoard(); }
}

async function main() {
  connect(); // while the catalogue loads
  await initI18n((newLang) => {
    send({ type: "lang", lang: newLang });
    render();
    renderPhrases();
    retell();
    if ($("rules-dialog").open) openRules();
  });
  wire();
  useIdentityName();
  $("hints-allow").addEventListener("change", (e) => send({ type: "hints", on: e.target.checked ? 1 : 0 }));
  $("phrase-mute").addEventListener("change", () => {
    if ($("phrase-mute").checked) localStorage.setItem(muteKey(), "1");
    else localStorage.removeItem(muteKey());
  });
  ready = true;
  early.splice(0).forEach(onMessage);
}

main();

// for tests and the curious: the last state as received
window.fivesState = () => last;
// whether an event waits for the banner (one's own play is held): tests read as a person would
window.fivesBannerWaiting = () => bannerNext !== null;
