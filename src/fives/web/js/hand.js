// The player's hand: tiles sized so the whole hand fits the screen (each tile at least 44 CSS
// px wide to touch), and dragging a tile to an end with a finger, a pen or a mouse (Pointer
// Events; the table decides what a drop means).
import { tileSvg } from "./tiles.js";

// A hand tile is a button: the tile's width plus 2 px padding and 2 px border each side.
const CHROME = 8;
const GAP = 4;
export const MIN_TILE = 36; // 36 + 8 = 44 px: the smallest comfortable touch target

// The tile width (px) that shows `count` tiles in rows across `width` px, as large as fits in
// `budget` px of height and `maxTile` px of width, in as few rows as possible.
export function fitTiles(count, width, budget, maxTile) {
  for (let rows = 1; rows <= 28; rows++) {
    const perRow = Math.ceil(Math.max(1, count) / rows);
    const w = Math.min(maxTile, Math.floor((width + GAP) / perRow) - GAP - CHROME);
    if (w < MIN_TILE) continue; // too narrow: one more row
    // the fewest rows that fit across; as tall as the budget allows (never under the minimum:
    // then the layout above gives way)
    const tall = Math.floor(((budget - (rows - 1) * GAP) / rows - CHROME) / 2);
    return Math.max(MIN_TILE, Math.min(w, tall));
  }
  return MIN_TILE;
}

// The height the hand may take: a third of a phone's screen, less on wide ones.
export function handBudget() {
  const h = window.innerHeight;
  const wide = window.innerWidth >= 980 && h >= 600;
  return Math.round(h * (wide ? 0.26 : 0.3));
}

export function maxTileWidth() {
  return Math.max(MIN_TILE, Math.min(60, Math.round(window.innerHeight * 0.065)));
}

export function sizeHand(hand, count) {
  const style = getComputedStyle(hand);
  const width = hand.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const w = fitTiles(count, width, handBudget(), maxTileWidth());
  hand.style.setProperty("--tile-w", `${w}px`);
  return w;
}

// The last tile a pointer tapped or dropped, and the press it came from: the click a
// browser sends after that release is the same tap (counted again, it played a tile the
// person had only chosen: a loaded phone sent the click more than 600 ms after the release).
let presses = 0;
let handled = { tile: null, press: -1 };
// A tile is being dragged: the hand is not redrawn under the finger meanwhile.
let active = false;
// The press in progress ({tile, id}): a message that redraws the hand between a press and
// its release puts the release on the new button, which must still take it as a tap (else
// the second tap of a quick double tap was lost, its click taken for the first tap's).
let pressed = null;

export function dragging() {
  return active;
}

// Tap or drag with any pointer. handlers: tap() for a press and release without moving;
// start() when a drag begins (select the tile; do not re-render the hand, the pointer is
// captured by this button), over(el) with the element under the pointer, drop(el) with the
// element under the pointer at release, cancel().
export function draggable(button, tile, handlers) {
  let start = null;
  let moving = false;
  let floater = null;
  const under = (e) => document.elementFromPoint(e.clientX, e.clientY);
  const clear = () => {
    if (floater) floater.remove();
    floater = null;
    moving = false;
    active = false;
    start = null;
    button.classList.remove("dragging");
  };
  button.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || !e.isPrimary) return;
    start = { x: e.clientX, y: e.clientY, id: e.pointerId };
    pressed = { tile, id: e.pointerId };
    presses += 1;
    // keep hearing this pointer when it leaves the tile (a finger is captured anyway)
    try { button.setPointerCapture(e.pointerId); } catch { /* not a live pointer */ }
  });
  button.addEventListener("pointermove", (e) => {
    if (!start || e.pointerId !== start.id) return;
    if (!moving) {
      if (Math.hypot(e.clientX - start.x, e.clientY - start.y) < 10) return;
      moving = true;
      active = true;
      button.classList.add("dragging");
      floater = document.createElement("div");
      floater.className = "drag-tile";
      floater.append(tileSvg(tile));
      document.body.append(floater);
      handlers.start();
    }
    e.preventDefault();
    floater.style.transform = `translate(${e.clientX}px, ${e.clientY}px) translate(-50%, -60%)`;
    handlers.over(under(e));
  });
  button.addEventListener("pointerup", (e) => {
    if (!start) {
      // pressed on this tile's button before the hand was drawn again: a tap on it
      if (!pressed || pressed.tile !== tile || pressed.id !== e.pointerId) return;
      pressed = null;
      handled = { tile, press: presses };
      handlers.tap();
      return;
    }
    if (e.pointerId !== start.id) return;
    pressed = null;
    const wasDragging = moving;
    const target = wasDragging ? under(e) : null;
    clear();
    // the click that may follow this release is answered here already
    handled = { tile, press: presses };
    if (wasDragging) handlers.drop(target);
    else handlers.tap(); // a tap, whether or not the browser follows it with a click
  });
  const cancel = () => {
    const wasDragging = moving;
    pressed = null;
    clear();
    if (wasDragging) handlers.cancel();
  };
  button.addEventListener("pointercancel", cancel);
  // the browser took the pointer away (the tile left the page, a gesture began)
  button.addEventListener("lostpointercapture", () => { if (moving) cancel(); });
}

// Was this click on `tile` already answered as a pointer's tap or drop? Browsers may swallow
// the click of a tap that comes just after a fast drag, so taps are taken from the pointer
// itself; the click that follows (on the re-drawn tile) is then ignored. A click from the
// keyboard (detail 0) always counts.
export function handledByPointer(tile, event) {
  return event.detail !== 0 && handled.tile === tile && handled.press === presses;
}
