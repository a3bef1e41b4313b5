// "Your turn", even in another tab: the tab's title and icon change while it is your turn.
// Sound and touch, each off until the player turns it on (remembered per browser): a short
// chime when the turn begins and a brighter one when points are scored; a vibration on a phone
// when one's own clock runs low.
import { t } from "./i18n.js";
import { svg } from "./common.js";

const SOUND_KEY = "fives.sound";
const VIBRATE_KEY = "fives.vibrate";
let plainIcon = null;
let turnIcon = null;
let audio = null;
let wasMyTurn = false;

export function soundOn() {
  return localStorage.getItem(SOUND_KEY) === "on";
}

export function vibrateOn() {
  return localStorage.getItem(VIBRATE_KEY) === "on";
}

export function canVibrate() {
  return typeof navigator.vibrate === "function";
}

// The vibration setting's checkbox (shown only where the browser can vibrate).
export function setupVibrate(box, row) {
  if (!box) return;
  row.hidden = !canVibrate();
  box.checked = vibrateOn();
  box.addEventListener("change", () => {
    localStorage.setItem(VIBRATE_KEY, box.checked ? "on" : "off");
    if (box.checked) buzz([40]); // felt once: this is what it will be
  });
}

function buzz(pattern) {
  try { navigator.vibrate(pattern); } catch { /* not allowed here */ }
}

// One's own clock is low (called once a turn, at the last seconds).
export function clockLowSignal() {
  if (vibrateOn() && canVibrate()) buzz([80, 60, 80]);
}

// Points were scored at the table.
export function scoreSignal() {
  if (soundOn()) chime([[0, 784], [1, 1047]], 0.09);
}

function speakerIcon(on) {
  const s = svg("svg", { viewBox: "0 0 24 24", width: 22, height: 22, "aria-hidden": "true", focusable: "false" });
  s.append(svg("path", { d: "M4 9h4l5-4v14l-5-4H4z", fill: "currentColor" }));
  if (on) {
    s.append(svg("path", { d: "M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12", fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round" }));
  } else {
    s.append(svg("path", { d: "M16 9l6 6M22 9l-6 6", fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round" }));
  }
  return s;
}

function showSound(button) {
  const on = soundOn();
  button.setAttribute("aria-pressed", on ? "true" : "false");
  button.replaceChildren(speakerIcon(on));
}

export function setupSound(button) {
  if (!button) return;
  showSound(button);
  button.addEventListener("click", () => {
    localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on");
    showSound(button);
    if (soundOn()) chime(); // the click is the user gesture that lets audio start
  });
}

// A soft two-note chime made on the spot (no file to download).
function chime(notes = [[0, 660], [1, 880]], step = 0.12) {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === "suspended") audio.resume();
    const now = audio.currentTime;
    for (const [k, freq] of notes) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      const start = now + k * step;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.18, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.16);
      osc.connect(gain).connect(audio.destination);
      osc.start(start);
      osc.stop(start + 0.18);
    }
  } catch { /* no audio here: the title and icon still say it */ }
}

function setIcon(mine) {
  const link = document.getElementById("favicon");
  if (!link) return;
  if (!plainIcon) {
    plainIcon = link.getAttribute("href");
    turnIcon = plainIcon.replace(/favicon\.svg$/, "favicon-turn.svg");
  }
  link.setAttribute("href", mine ? turnIcon : plainIcon);
}

// Called on every state: `mine` is whether the player must choose now; `title` the page's
// usual title. The sound (if on) only when the turn begins.
export function turnSignal(mine, title) {
  document.title = mine ? `${t("web.title.your_turn")} · ${title}` : title;
  setIcon(mine);
  if (mine && !wasMyTurn && soundOn()) chime();
  wasMyTurn = mine;
}
