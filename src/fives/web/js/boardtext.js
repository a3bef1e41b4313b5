// The board in words (issue 29), as lichess's blind mode gives the position: the centre, each
// arm from the centre outwards with the number its end shows, what the ends count, the tiles
// each player holds, and the plays open to the player. Read from the seat's view alone.

import { t, plural } from "./i18n.js";
import { el, tileWords, tilesWords } from "./common.js";

const ENDS = ["W", "E", "N", "S"];

function endWord(end) {
  return t(`web.end_word.${end}`);
}

function pipWord(n) {
  return t(`web.pip.${n}`);
}

// An arm's tiles as they lie, inner half first ("six-three, three-one"): the outer half of the
// last one is the number the end shows.
function armLine(layout, end, open) {
  const tiles = (layout.arms[end] || []).map(([, inner, outer]) => tileWords(`${inner}-${outer}`));
  const showing = open.find((o) => o.end === end);
  const state = showing ? t("web.board_text.open", { value: pipWord(showing.value) }) : t("web.board_text.closed");
  return t("web.board_text.arm", {
    end: endWord(end), tiles: tiles.length ? tiles.join(", ") : t("web.board_text.arm_empty"), state,
  });
}

function playWords(action) {
  const [tile, end] = action.split("@");
  if (!end) return t("web.board_text.play_lead", { tile: tileWords(tile) });
  return t("web.board_text.play_at", { tile: tileWords(tile), end: endWord(end) });
}

// `nameOf(seat)` names a seat as the table shows it; `mine` says whether the legal plays are
// this page's to make (a watcher is told none).
export function boardTextLines(view, { nameOf, mine, drawing }) {
  const lines = [];
  const layout = view.layout;
  if (!layout.tiles.length) lines.push(t("web.layout.empty"));
  else {
    lines.push(t("web.board_text.center", { tile: tileWords(layout.center) }));
    if (layout.spinner) lines.push(t("web.board_text.spinner", { tile: tileWords(layout.spinner) }));
    for (const end of ENDS) {
      if (end in layout.arms || layout.open_ends.some((o) => o.end === end)) {
        lines.push(armLine(layout, end, layout.open_ends));
      }
    }
    lines.push(t("web.board_text.count", { sentence: layout.sentence }));
  }
  if (drawing) lines.push(plural("web.board_text.stock", view.stock));
  lines.push(t("web.board_text.hands", {
    list: view.hand_sizes.map((n, seat) => t("web.board_text.hand_of", { name: nameOf(seat), n })).join(", "),
  }));
  if (view.seat != null && view.hand.length) lines.push(t("web.board_text.yours", { tiles: tilesWords(view.hand) }));
  const plays = mine ? view.legal.filter((a) => a !== "draw" && a !== "pass") : [];
  if (plays.length) lines.push(t("web.board_text.can_play", { list: plays.map(playWords).join("; ") }));
  return lines;
}

// The text view drawn into `box` (a list under its heading); kept as it was when nothing
// changed, so a screen reader reading it is not interrupted.
export function renderBoardText(box, view, opts) {
  const lines = boardTextLines(view, opts);
  const list = box.querySelector("ul");
  const now = Array.from(list.children, (li) => li.textContent);
  if (now.length === lines.length && now.every((text, i) => text === lines[i])) return;
  list.replaceChildren(...lines.map((line) => el("li", {}, line)));
}
