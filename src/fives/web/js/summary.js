// A round's summary as the server describes it: the tiles left in each hand and their pips,
// rounding, who is paid, half points, the hand-ending point, a discarded event over 61. Words
// from the catalogue only; every count agrees with its noun.
import { t, plural, points, pips } from "./i18n.js";
import { el, tilesWords } from "./common.js";
import { tileSvg } from "./tiles.js";

// One play as every page tells it: who, the tile, the end, and where the ends score the seeds'
// sentence (2 + 8 = 10, 10 points); where the points are not the total, the step that finds
// them (6 + 6 = 12, 12 ÷ 3 = 4 points), as the server's event gives it; and a discarded score.
// `who`: the player's name; `scored`: whether the game's ends score; `target`: the match's.
export function playSentence(ev, { who, scored, target }) {
  const divided = scored && ev.division && ev.points > 0 && !ev.discarded;
  const key = `web.event.${ev.kind === "lead" ? "lead" : "play"}${scored ? "_scored" : ""}${divided ? "_divided" : ""}`;
  let text = t(key, { name: who, tile: ev.tile, end: ev.end ? t(`common.end.${ev.end}`) : "", sum: ev.sum, total: ev.total, division: ev.division, points: points(ev.points) });
  if (ev.discarded) text += ` · ${plural("web.event.discarded", ev.would, { points: points(ev.would), target })}`;
  return text;
}

export function summaryLines(s, ctx) {
  const { seatLabel, sideLabel } = ctx;
  const out = [];
  const paid = (line) => plural("web.summary.paid", line.points, { side: sideLabel(line.side), points: points(line.points) });
  for (const line of s.lines) {
    switch (line.kind) {
      case "lowest":
        out.push(t(line.by === "tiles" ? "web.summary.lowest_tiles" : "web.summary.lowest",
          { side: sideLabel(line.side), pips: line.pips, tiles: line.tiles }));
        break;
      case "pool":
        out.push(line.pips.length > 1
          ? t("web.summary.pool", { pips: line.pips.join(" + "), sum: line.total })
          : t("web.summary.pool_one", { sum: line.total }));
        out.push(t(line.total === line.rounded ? "web.summary.no_rounding" : "web.summary.rounding", { sum: line.total, rounded: line.rounded }));
        out.push(paid(line));
        break;
      case "each":
        line.seats.forEach((seat, i) => {
          const left = line.pips[i];
          const rounded = line.rounded[i];
          out.push(t(left === rounded ? "web.summary.each_same" : "web.summary.each", { name: seatLabel(seat), pips: pips(left), rounded }));
        });
        out.push(paid(line));
        break;
      case "plain":
        out.push(t(line.pips.length > 1 ? "web.summary.plain" : "web.summary.plain_one",
          { pips: line.pips.join(" + "), side: sideLabel(line.side) }));
        out.push(paid(line));
        break;
      case "split":
        out.push(t("web.summary.split", {
          a: sideLabel(line.sides[0]), b: sideLabel(line.sides[1]), third: sideLabel(line.third),
          pips: pips(line.pips), rounded: line.rounded, half: line.half,
        }));
        break;
      case "bonus":
        out.push(plural("web.summary.bonus", line.points, { side: sideLabel(line.side), points: points(line.points) }));
        break;
      case "discarded":
        out.push(t("web.summary.discarded", { side: sideLabel(line.side), n: line.points, target: line.target }));
        break;
      case "tie":
        out.push(t(line.by === "tiles" ? "web.summary.tie_tiles" : "web.summary.tie"));
        break;
      case "no_score":
        out.push(t("web.summary.no_score"));
        break;
      case "tiles_never_score":
        out.push(t("web.summary.tiles_never_score"));
        break;
      case "target":
        out.push(t(s.reason === "domino" ? "web.summary.target_out" : "web.summary.target_line", { side: sideLabel(line.side) }));
        break;
      default:
        break;
    }
  }
  return out;
}

function tilesLeft(hand) {
  if (!hand.length) return el("span", { class: "muted" }, "—");
  return el("span", { class: "left-tiles", role: "img", "aria-label": tilesWords(hand), title: hand.join(", ") },
    hand.map((tile) => tileSvg(tile, { cls: "mini-face" })));
}

// ctx: seatLabel(seat), sideLabel(side), nameOf(seat), over (no next leader), scores (false:
// leave the scores to the caller, as the match result does).
export function summaryElement(s, ctx) {
  const { seatLabel, sideLabel, nameOf } = ctx;
  const box = el("div", { class: "summary" });
  let reason;
  if (s.reason === "domino") reason = t("web.summary.domino", { name: nameOf(s.went_out) });
  else if (s.reason === "blocked") {
    reason = t("web.summary.blocked");
    // a seat out of tiles and the round still blocked: a partner of theirs held tiles (FT-8)
    const out = s.tiles.findIndex((n) => n === 0);
    if (out >= 0) reason += ` ${t("web.summary.blocked_after_out", { name: nameOf(out) })}`;
  }
  else reason = t("web.summary.target", { side: sideLabel(s.lines.find((l) => l.kind === "target").side) });
  box.append(el("p", { class: "summary-reason" }, reason));
  const hands = s.hands || s.tiles.map(() => null);
  box.append(el("table", { class: "pips-table" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("web.summary.player")),
      el("th", { scope: "col" }, t("web.summary.tiles_left")), el("th", { scope: "col" }, t("web.summary.pips")))),
    el("tbody", {}, s.pips.map((p, i) => el("tr", {}, el("th", { scope: "row" }, seatLabel(i)),
      el("td", {}, hands[i] ? tilesLeft(hands[i]) : String(s.tiles[i])), el("td", { class: "num" }, String(p)))))));
  box.append(el("ul", { class: "summary-lines" }, summaryLines(s, ctx).map((x) => el("li", {}, x))));
  if (ctx.scores !== false) {
    box.append(el("h3", {}, t("web.summary.scores")));
    box.append(scoreList(s.scores, s.points, sideLabel));
  }
  const nl = s.next_leader;
  if (nl && !ctx.over) {
    let text;
    if (nl.seat != null) text = t("web.summary.next_leader", { name: nameOf(nl.seat) });
    else if (nl.rule === "highest-double") text = t("web.summary.next_highest");
    else text = t("web.summary.next_lot");
    box.append(el("p", { class: "muted" }, text));
  }
  return box;
}

// The scores, highest first, each with what this round added.
export function scoreList(scores, gained, sideLabel) {
  return el("ol", { class: "summary-scores" }, scores
    .map((sc, side) => [sc, side]).sort((a, b) => b[0] - a[0])
    .map(([sc, side]) => el("li", {}, el("span", {}, `${sideLabel(side)}: `), el("strong", {}, String(sc)),
      gained && gained[side] ? el("span", { class: "muted" }, ` (+${gained[side]})`) : null)));
}
