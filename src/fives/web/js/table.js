// The table page: one WebSocket to the authoritative table. The server sends this seat's view
// (its hand, the layout, the legal actions) and what is public; the page draws it and sends
// back the action chosen. No rules here: legality, scoring and summaries come from the server.
import { initI18n, t, points, lang } from "./i18n.js";
import { el, getName, setName, tokenKey, inviteKey, inviteQuery, gameName, seatName, sideName, toast, copyText } from "./common.js";
import { tileSvg, tileBack } from "./tiles.js";
import { renderLayout } from "./layoutview.js";
import { tallySheet, track61 } from "./scores.js";
import { renderRulesInto } from "./rules.js";
import { summaryElement } from "./summary.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const $ = (id) => document.getElementById(id);

let ws = null;
let mySeat = null;
let token = localStorage.getItem(tokenKey(tableId));
// A private table's invite: from the link that brought us here, or kept from an earlier visit.
let invite = new URLSearchParams(location.search).get("invite") || localStorage.getItem(inviteKey(tableId));
let refused = false;
let last = null; // the last state message
let selected = null; // the selected tile ("a-b")
let retry = 400;
let clockTimer = null;
let clockEnd = null;
let readySent = null;
let summaryDismissed = null;
let resultDismissed = false;
let watching = false;
let lastEventN = -1;
let sentN = -1;

// -- connection -------------------------------------------------------------------------

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(tableId)}?lang=${lang}`);
  ws.addEventListener("open", () => {
    retry = 400;
    sentN = -1;
    $("conn-status").hidden = true;
    const hello = { type: "hello", lang };
    if (token) hello.token = token;
    if (invite) hello.invite = invite;
    ws.send(JSON.stringify(hello));
  });
  ws.addEventListener("message", (e) => {
    let msg;
    try { msg = JSON.parse(e.data); } catch { return; }
    onMessage(msg);
  });
  ws.addEventListener("close", (e) => {
    if (e.code === 4404) {
      showNotFound();
      return;
    }
    if (e.code === 4403 || refused) {
      showRefused(t("web.error.private_table"));
      return;
    }
    $("conn-status").hidden = false;
    $("conn-status").textContent = t("web.conn.reconnecting");
    if (e.code === 4429) retry = 8000; // too many connections or watchers: come back later
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  });
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
      if (msg.code !== "stale") toast(msg.message, "error");
      break;
    case "rematch":
      goRematch(msg.table);
      break;
    default:
      break;
  }
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
    animateEvent(msg.event, msg);
  } else if (msg.event) {
    lastEventN = Math.max(lastEventN, msg.event.n);
  }
  if (!prev || (prev.view && msg.view && prev.view.round !== msg.view.round)) {
    selected = null;
  }
  if (selected && !(msg.view && msg.view.legal.some((a) => a === selected || a.startsWith(selected + "@")))) {
    selected = null;
  }
  render();
}

function isMyTurn() {
  return last && last.view && mySeat != null && last.view.turn === mySeat && last.view.legal.length > 0;
}

function render() {
  if (!last) return;
  const info = last.info;
  $("game-title").textContent = gameName(info.game);
  $("game-target").textContent = t("web.table.to_target", { n: info.target });
  document.title = `${gameName(info.game)} · fives`;
  const seated = mySeat != null;
  const waiting = info.status === "waiting";
  $("join-panel").hidden = !(waiting && !seated && !watching);
  $("waiting-panel").hidden = !(waiting && (seated || watching));
  $("game").hidden = waiting;
  if (waiting) {
    if (!seated && !watching) renderJoin(info);
    else renderWaiting(info);
    return;
  }
  renderSeats();
  renderBoard();
  renderHand();
  renderScores();
  renderStatus();
  renderClock();
  renderDialogs();
}

// -- join / waiting ---------------------------------------------------------------------

function renderJoin(info) {
  $("join-desc").textContent = t("web.join.desc", { game: gameName(info.game), players: info.players });
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
          send({ type: "join", seat: i, name });
        },
      }, t("web.join.take_seat", { n: i + 1 })));
    }
  });
  if (!$("join-name").value) $("join-name").value = getName();
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

// -- seats ------------------------------------------------------------------------------

function seatOrder(n) {
  const start = mySeat != null ? mySeat : 0;
  return Array.from({ length: n }, (_, k) => (start + k) % n);
}

function renderSeats() {
  const { info, view } = last;
  const box = $("seats");
  box.setAttribute("aria-label", t("web.table.players"));
  box.replaceChildren();
  for (const i of seatOrder(info.players)) {
    const s = info.seats[i];
    const turn = view && view.turn === i;
    const card = el("div", {
      class: `seat-card${turn ? " turn" : ""}${i === mySeat ? " me" : ""}${s.away ? " away" : ""}`,
      id: `seat-${i}`, "data-seat": i,
    });
    const title = el("div", { class: "seat-name" },
      turn ? el("span", { class: "turn-mark", "aria-hidden": "true" }, "▶") : null,
      seatName(s, i),
      i === mySeat ? el("span", { class: "badge" }, t("web.seat.you")) : null,
      info.teams ? el("span", { class: `badge side side-${s.side}` }, t("web.side.team", { n: s.side + 1 })) : null);
    card.append(title);
    const count = view ? view.hand_sizes[i] : 0;
    const tiles = el("div", { class: "seat-tiles", "aria-label": t("web.seat.tiles", { n: count }) });
    for (let k = 0; k < Math.min(count, 9); k++) tiles.append(tileBack({ cls: "mini" }));
    tiles.append(el("span", { class: "count" }, t("web.seat.tiles", { n: count })));
    card.append(tiles);
    const notes = [];
    if (turn) notes.push(el("span", { class: "note turn-note" }, t("web.seat.to_play")));
    if (s.kind === "human" && !s.connected && i !== mySeat) notes.push(el("span", { class: "note offline" }, "○ " + t("web.seat.offline")));
    if (s.away) notes.push(el("span", { class: "note away" }, t("web.seat.away")));
    if (s.timeouts && !s.away) notes.push(el("span", { class: "note" }, t("web.seat.timeouts", { n: s.timeouts })));
    if (view && view.out && view.out[i]) notes.push(el("span", { class: "note" }, t("web.seat.out")));
    if (notes.length) card.append(el("div", { class: "seat-notes" }, notes));
    if (turn && info.clock) card.append(el("div", { class: "seat-clock clock", "data-clock": i }));
    box.append(card);
  }
}

// -- board ------------------------------------------------------------------------------

function legalEndsFor(tile) {
  const legal = (last.view && last.view.legal) || [];
  const ends = {};
  for (const a of legal) if (a.startsWith(tile + "@")) ends[a.split("@")[1]] = true;
  return ends;
}

function renderBoard() {
  const view = last.view;
  const wrap = $("board-wrap");
  const board = $("board");
  const rect = wrap.getBoundingClientRect();
  const width = Math.max(260, rect.width - 8);
  const height = Math.max(200, Math.min(window.innerHeight * 0.52, rect.height || 360) - 8);
  const legal = selected && isMyTurn() ? legalEndsFor(selected) : {};
  renderLayout(board, view ? view.layout : null, {
    width, height, legal, selected,
    unit: window.innerWidth < 600 ? 26 : 36,
    onEnd: (end) => playTile(selected, end),
    droppable: true,
  });
  const label = view && view.layout.tiles.length
    ? t("web.layout.aria", { tiles: view.layout.tiles.join(", "), sentence: view.layout.sentence })
    : t("web.layout.empty");
  board.setAttribute("aria-label", label);
  const stock = $("stock");
  stock.replaceChildren();
  if (last.info.drawing && view) {
    stock.append(tileBack({ cls: "mini" }), el("span", {}, t("web.table.stock", { n: view.stock })));
  } else if (view) {
    stock.append(el("span", { class: "muted" }, t("web.table.no_stock")));
  }
  const legend = $("legend");
  const items = [
    el("span", { class: "legend-item" }, el("span", { class: "legend-dot counted", "aria-hidden": "true" }, "5"), t("web.layout.legend_counted")),
    el("span", { class: "legend-item" }, el("span", { class: "legend-dot open", "aria-hidden": "true" }), t("web.layout.legend_open")),
  ];
  if (last.info.spinner) {
    items.push(el("span", { class: "legend-item" }, el("span", { class: "legend-spinner", "aria-hidden": "true" }, "✦"), t("web.layout.legend_spinner")));
  }
  legend.replaceChildren(...items);
}

// -- hand -------------------------------------------------------------------------------

function renderHand() {
  const view = last.view;
  const hand = $("hand");
  hand.replaceChildren();
  if (mySeat == null || !view) {
    hand.append(el("p", { class: "muted" }, t("web.table.watching")));
    $("keys-help").hidden = true;
    return;
  }
  $("keys-help").hidden = false;
  const myTurn = isMyTurn();
  const legal = view.legal;
  view.hand.forEach((tile, k) => {
    const playable = myTurn && legal.some((a) => a === tile || a.startsWith(tile + "@"));
    const isSel = selected === tile;
    const label = t(playable ? "web.tile.playable" : "web.tile.plain", { tile }) + (isSel ? ` · ${t("web.tile.selected")}` : "");
    const b = el("button", {
      type: "button",
      class: `hand-tile${playable ? " playable" : ""}${isSel ? " selected" : ""}`,
      "data-tile": tile, "aria-label": label, "aria-pressed": isSel ? "true" : "false",
      "aria-disabled": playable ? "false" : "true",
      title: `${k + 1}: ${tile}`,
      onclick: () => chooseTile(tile),
    }, tileSvg(tile));
    if (playable) {
      b.append(el("span", { class: "playable-mark", "aria-hidden": "true" }, "▲"));
      // drag and drop (mouse): drag the tile onto a highlighted end, or anywhere on the board
      // when it fits only one end
      b.draggable = true;
      b.addEventListener("dragstart", (e) => {
        e.dataTransfer.setData("text/plain", tile);
        e.dataTransfer.effectAllowed = "move";
        selected = tile;
        renderBoard();
        renderStatus();
      });
    }
    hand.append(b);
  });
  $("draw-btn").hidden = !(myTurn && legal.includes("draw"));
  $("pass-btn").hidden = !(myTurn && legal.includes("pass"));
  $("pass-btn").textContent = t(last.info.game === "fives-and-threes" ? "web.table.knock" : "web.table.pass");
  $("back-btn").hidden = !(last.info.seats[mySeat] && last.info.seats[mySeat].away);
}

function chooseTile(tile) {
  if (!isMyTurn()) { toast(t("web.error.not_your_turn"), "error"); return; }
  const legal = last.view.legal;
  if (legal.includes(tile)) { act(tile); return; } // the lead
  const ends = Object.keys(legalEndsFor(tile));
  if (!ends.length) { toast(t("web.error.illegal_no_fit", { tile }), "error"); return; }
  if (ends.length === 1) { playTile(tile, ends[0]); return; }
  selected = selected === tile ? null : tile;
  render();
  if (selected) {
    const first = document.querySelector("#board .ghost");
    if (first && document.activeElement && document.activeElement.classList.contains("hand-tile")) {
      // keep focus on the tile for keyboard users; the ends answer W/E/N/S keys
    } else if (first) first.focus({ preventScroll: true });
  }
}

function playTile(tile, end) {
  if (!tile) return;
  act(`${tile}@${end}`);
}

function act(action) {
  if (!last || sentN === last.n) return;
  sentN = last.n;
  selected = null;
  send({ type: "act", action, n: last.n });
}

// -- status and clock -------------------------------------------------------------------

function renderStatus() {
  const { info, view } = last;
  const line = $("status-line");
  let text = "";
  if (!view) text = t("web.status.dealing");
  else if (last.result) text = t("web.status.over");
  else if (last.summary) text = t("web.status.round_over");
  else if (isMyTurn()) {
    const legal = view.legal;
    if (legal.length === 1 && legal[0] === "draw") text = t("web.status.must_draw");
    else if (legal.length === 1 && legal[0] === "pass") text = t(info.game === "fives-and-threes" ? "web.status.must_knock" : "web.status.must_pass");
    else if (selected) text = t("web.status.choose_end", { tile: selected, ends: Object.keys(legalEndsFor(selected)).join(", ") });
    else if (view.layout.tiles.length === 0) text = t("web.status.lead");
    else text = t("web.status.your_turn");
  } else if (view.turn != null) {
    text = t("web.status.waiting_for", { name: seatName(info.seats[view.turn], view.turn) });
  }
  line.textContent = text;
  line.classList.toggle("mine", isMyTurn());
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
      c.replaceChildren(el("span", { class: "clock-bar", style: `width:${(frac * 100).toFixed(1)}%` }),
        el("span", { class: "clock-text" }, t("web.clock.seconds", { n: secs })));
      c.classList.toggle("low", secs <= 5);
    });
    if (clock.seat === mySeat) {
      youClock.hidden = false;
      youClock.replaceChildren(el("span", { class: "clock-bar", style: `width:${(frac * 100).toFixed(1)}%` }),
        el("span", { class: "clock-text" }, t("web.clock.yours", { n: secs })));
      youClock.classList.toggle("low", secs <= 5);
    } else youClock.hidden = true;
  };
  tick();
  clockTimer = setInterval(tick, 250);
}

// -- scores -----------------------------------------------------------------------------

function renderScores() {
  const { info, view } = last;
  const box = $("scores");
  box.replaceChildren();
  const scores = view ? view.scores : Array(info.teams ? 2 : info.players).fill(0);
  const names = scores.map((_, side) => sideName(info, side));
  scores.forEach((score, side) => {
    const row = el("div", { class: `score-row side-${side}`, id: `score-side-${side}` },
      el("div", { class: "score-head" },
        el("span", { class: "score-name" }, names[side]),
        el("span", { class: "score-num", "aria-label": t("web.score.of", { n: score, target: info.target }) }, String(score))));
    if (info.game === "all-fives") row.append(tallySheet(score));
    if (info.game === "fives-and-threes") row.append(track61(score, side, info.target));
    box.append(row);
  });
  box.append(el("p", { class: "muted small" }, t("web.score.target", { n: info.target })));
}

// -- events (animations, sentence, log) -------------------------------------------------

function nameOf(seat) {
  const name = seatName(last.info.seats[seat], seat);
  return seat === mySeat ? `${name} (${t("web.seat.you")})` : name;
}

// The log and the banner are kept as functions of the language, so a switch re-tells them.
const logItems = [];
let bannerItem = null;

function logLine(fn) {
  logItems.unshift(fn);
  logItems.length = Math.min(logItems.length, 80);
  $("log").prepend(el("li", {}, fn()));
  while ($("log").children.length > 80) $("log").lastChild.remove();
}

function retell() {
  $("log").replaceChildren(...logItems.map((fn) => el("li", {}, fn())));
  if (bannerItem) $("banner").textContent = bannerItem();
}

function sentenceOf(ev) {
  const s = t("common.scoring_sentence", { sum: ev.sum, total: ev.total, points: points(ev.points) });
  if (ev.discarded) return `${s} · ${t("web.event.discarded", { n: ev.would, target: last.info.target })}`;
  return s;
}

function animateEvent(ev, msg) {
  const info = msg.info;
  const who = () => (ev.seat != null ? nameOf(ev.seat) : "");
  const how = () => (ev.how === "timeout" ? ` (${t("web.event.timeout")})` : ev.how === "away" ? ` (${t("web.event.away")})` : "");
  if (ev.kind === "deal") {
    const text = () => t("web.event.deal", { n: ev.round + 1, name: nameOf(ev.leader) });
    logLine(text);
    banner(text);
    summaryDismissed = null;
    readySent = null;
    return;
  }
  if (ev.kind === "lead" || ev.kind === "play") {
    const text = () => (ev.kind === "lead"
      ? t("web.event.lead", { name: who(), tile: ev.tile })
      : t("web.event.play", { name: who(), tile: ev.tile, end: t(`common.end.${ev.end}`) }));
    if (info.scoring !== "none") {
      const s = () => sentenceOf(ev);
      logLine(() => `${text()}${how()} — ${s()}`);
      banner(s, ev.points > 0 ? "scored" : "");
      if (ev.points > 0) flyPoints(ev.points, info.seats[ev.seat].side);
    } else {
      logLine(() => text() + how());
      banner(text);
    }
    return;
  }
  if (ev.kind === "draw") {
    logLine(() => (ev.tile ? t("web.event.you_draw", { tile: ev.tile }) : t("web.event.draw", { name: who() })) + how());
    flyDraw(ev.seat);
    return;
  }
  if (ev.kind === "pass") {
    const key = info.game === "fives-and-threes" ? "web.event.knock" : "web.event.pass";
    const text = () => t(key, { name: who() });
    logLine(() => text() + how());
    banner(text, "pass");
    toast(text());
  }
}

function banner(fn, kind = "") {
  bannerItem = fn;
  const b = $("banner");
  b.textContent = fn();
  b.className = `banner ${kind}`;
  b.animate([{ opacity: 0.3, transform: "translateY(-4px)" }, { opacity: 1, transform: "none" }], { duration: 250 });
}

function centerOf(node) {
  const r = node.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}

function flyPoints(n, side) {
  const from = $("board-wrap");
  const to = $(`score-side-${side}`);
  if (!from || !to || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const [x0, y0] = centerOf(from);
  const [x1, y1] = centerOf(to);
  const chip = el("div", { class: "fly-points" }, `+${n}`);
  $("fx").append(chip);
  chip.style.left = `${x0}px`;
  chip.style.top = `${y0}px`;
  chip.animate([
    { transform: "translate(-50%,-50%) scale(1.4)", opacity: 1 },
    { transform: `translate(calc(${x1 - x0}px - 50%), calc(${y1 - y0}px - 50%)) scale(0.8)`, opacity: 0.9 },
  ], { duration: 900, easing: "cubic-bezier(.3,.7,.4,1)" }).onfinish = () => chip.remove();
}

function flyDraw(seat) {
  const from = $("stock");
  const to = seat === mySeat ? $("hand") : $(`seat-${seat}`);
  if (!from || !to || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const [x0, y0] = centerOf(from);
  const [x1, y1] = centerOf(to);
  const chip = el("div", { class: "fly-tile", "data-fly": "draw" }, tileBack());
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

function summaryContent(s) {
  return summaryElement(s, {
    seatLabel: (i) => seatName(last.info.seats[i], i),
    sideLabel,
    nameOf,
    over: Boolean(last.result),
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
}

function renderResult(result) {
  const info = last.info;
  let title;
  if (result.drawn) title = t("web.result.drawn");
  else if (mySeat != null && info.seats[mySeat].side === result.winner) title = t("web.result.you_win");
  else title = t("web.result.winner", { side: sideLabel(result.winner) });
  $("result-title").textContent = title;
  const body = el("div", {});
  if (last.summary) body.append(summaryContent(last.summary));
  body.append(el("h3", {}, t("web.result.final")));
  body.append(el("ol", { class: "result-scores" }, result.scores
    .map((sc, side) => [sc, side]).sort((a, b) => b[0] - a[0])
    .map(([sc, side]) => el("li", {}, `${sideLabel(side)}: `, el("strong", {}, String(sc))))));
  body.append(el("p", { class: "muted" }, t("web.result.rounds", { n: result.rounds })));
  $("result-body").replaceChildren(body);
  $("download-btn").href = `/api/matches/${encodeURIComponent(tableId)}/record${inviteQuery(invite)}`;
  $("replay-btn").href = `/replay/${encodeURIComponent(tableId)}${inviteQuery(invite)}`;
  const rematch = $("rematch-btn");
  rematch.hidden = mySeat == null;
  rematch.textContent = info.rematch ? t("web.result.join_rematch") : t("web.result.rematch");
}

// -- rules dialog -----------------------------------------------------------------------

async function openRules() {
  const game = last ? last.info.game : "all-fives";
  $("rules-dialog-title").textContent = t(`rules.${game}.title`);
  $("rules-page-link").href = `/rules/${game}`;
  await renderRulesInto($("rules-body"), game);
  openDialog($("rules-dialog"));
}

// -- wiring -----------------------------------------------------------------------------

function wire() {
  $("draw-btn").addEventListener("click", () => act("draw"));
  $("pass-btn").addEventListener("click", () => act("pass"));
  $("back-btn").addEventListener("click", () => send({ type: "back" }));
  $("watch-btn").addEventListener("click", () => { watching = true; render(); });
  $("copy-link").addEventListener("click", async () => {
    await copyText($("share-link").value);
    toast(t("web.waiting.copied"));
  });
  $("host-start").addEventListener("click", () => send({ type: "start" }));
  $("summary-next").addEventListener("click", () => {
    send({ type: "ready" });
    readySent = last && last.summary ? last.summary.round : null;
  });
  $("summary-close").addEventListener("click", () => {
    summaryDismissed = last && last.summary ? last.summary.round : null;
    $("summary-dialog").close();
  });
  $("summary-dialog").addEventListener("cancel", () => {
    summaryDismissed = last && last.summary ? last.summary.round : null;
  });
  $("result-close").addEventListener("click", () => { resultDismissed = true; $("result-dialog").close(); });
  $("result-dialog").addEventListener("cancel", () => { resultDismissed = true; });
  $("rematch-btn").addEventListener("click", () => {
    if (last && last.info.rematch) goRematch(last.info.rematch);
    else send({ type: "rematch" });
  });
  $("rules-btn").addEventListener("click", openRules);
  $("rules-close").addEventListener("click", () => $("rules-dialog").close());
  $("join-form").addEventListener("submit", (e) => e.preventDefault());
  const wrap = $("board-wrap");
  wrap.addEventListener("dragover", (e) => { if (selected) e.preventDefault(); });
  wrap.addEventListener("drop", (e) => {
    e.preventDefault();
    const tile = e.dataTransfer.getData("text/plain") || selected;
    if (!tile || !isMyTurn()) return;
    if (last.view.legal.includes(tile)) { act(tile); return; }
    const ends = Object.keys(legalEndsFor(tile));
    if (ends.length === 1) playTile(tile, ends[0]);
  });
  document.addEventListener("keydown", onKey);
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => last && !$("game").hidden && renderBoard(), 120);
  });
}

function onKey(e) {
  if (!last || !last.view || e.ctrlKey || e.metaKey || e.altKey) return;
  if (document.querySelector("dialog[open]")) return;
  const tag = (e.target && e.target.tagName) || "";
  if (tag === "INPUT" || tag === "TEXTAREA") return;
  const key = e.key;
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
  const upper = key.toUpperCase();
  if (selected && ["W", "E", "N", "S"].includes(upper)) {
    if (legalEndsFor(selected)[upper]) { e.preventDefault(); playTile(selected, upper); }
    return;
  }
  if (key === "Escape" && selected) { selected = null; render(); return; }
  if (upper === "D" && isMyTurn() && last.view.legal.includes("draw")) act("draw");
  if ((upper === "P" || upper === "K") && isMyTurn() && last.view.legal.includes("pass")) act("pass");
}

async function main() {
  await initI18n((newLang) => {
    send({ type: "lang", lang: newLang });
    render();
    retell();
    if ($("rules-dialog").open) openRules();
  });
  wire();
  connect();
}

main();

// for tests and the curious: the last state as received
window.fivesState = () => last;
