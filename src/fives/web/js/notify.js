// "Your turn", even in another tab: the tab's title and icon change while it is your turn; a
// short sound if the player turned it on (off by default, remembered); a short vibration on
// phones where the browser allows it.
import { t } from "./i18n.js";
import { svg } from "./common.js";

const SOUND_KEY = "fives.sound";
let plainIcon = null;
let turnIcon = null;
let audio = null;
let wasMyTurn = false;

export function soundOn() {
  return localStorage.getItem(SOUND_KEY) === "on";
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
    if (soundOn()) beep(); // the click is the user gesture that lets audio start
  });
}

// A soft two-note chime made on the spot (no file to download).
function beep() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === "suspended") audio.resume();
    const now = audio.currentTime;
    for (const [k, freq] of [[0, 660], [1, 880]]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      const start = now + k * 0.12;
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
// usual title. Sound and vibration only when the turn begins.
export function turnSignal(mine, title) {
  document.title = mine ? `${t("web.title.your_turn")} · ${title}` : title;
  setIcon(mine);
  if (mine && !wasMyTurn) {
    if (soundOn()) beep();
    const active = !navigator.userActivation || navigator.userActivation.hasBeenActive;
    if (active && typeof navigator.vibrate === "function") {
      try { navigator.vibrate(60); } catch { /* not allowed here */ }
    }
  }
  wasMyTurn = mine;
}
