// The message catalogue in the browser: every word shown comes from /api/i18n/<lang>.
let messages = {};
export let lang = "en";
// js/boot.js (run before any module): the language picked, its catalogue asked for
const BOOT = window.fivesBoot || null;
export const LANGS = BOOT ? BOOT.langs : ["en", "hi"];

// The client's version is in the URL this module was loaded from (/static/<version>/js/...);
// asked for under that version, the catalogue is cached for good and never fetched again.
const VERSION = (new URL(import.meta.url).pathname.match(/^\/static\/([0-9a-f]{8,})\//) || [])[1] || "";

// The language: one chosen here before, else the browser's first we have, else English
// (js/boot.js holds the rule: it chose before the modules arrived).
export function pickLang() {
  return BOOT ? BOOT.pick() : "en";
}

export async function loadLang(l) {
  let data = null;
  if (BOOT && BOOT.catalogue && BOOT.lang === l) {
    data = await BOOT.catalogue; // fetched while the modules were on their way
    BOOT.catalogue = null;
  }
  if (!data) {
    const r = await fetch(`/api/i18n/${l}${VERSION ? `?v=${VERSION}` : ""}`);
    data = await r.json();
  }
  messages = data.messages;
  rulesLang = null;
  lang = l;
  document.documentElement.lang = l;
}

// The rules' long texts, a catalogue of their own: fetched by a page when it shows the rules
// (once a language; a switch of language asks again).
let rulesLang = null;

export async function loadRules() {
  if (rulesLang === lang) return;
  const want = lang;
  let data = null;
  if (BOOT && BOOT.rules && BOOT.lang === want) {
    data = await BOOT.rules; // asked for with the page (js/boot.js)
    BOOT.rules = null;
  }
  if (!data) {
    const r = await fetch(`/api/i18n/${want}/rules${VERSION ? `?v=${VERSION}` : ""}`);
    data = await r.json();
  }
  if (want !== lang) return; // switched meanwhile: the new language's rules are asked for
  Object.assign(messages, data.messages);
  rulesLang = want;
}

export function t(key, params = {}) {
  const text = messages[key];
  if (text == null) return key;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

export function has(key) {
  return key in messages;
}

// A count with its noun in the right form: the catalogue has `<key>.one` and `<key>.other`,
// and the language's plural rule (CLDR, through Intl) picks one.
export function pluralForm(n) {
  try { return new Intl.PluralRules(lang).select(Number(n)); } catch { return "other"; }
}

export function plural(key, n, params = {}) {
  const form = pluralForm(n);
  const full = has(`${key}.${form}`) ? `${key}.${form}` : `${key}.other`;
  return t(full, { n: fmt(n), ...params });
}

// (fives.i18n.plural picks the same forms for the terminal and the replay account)
export function points(n) {
  return plural("common.points", n);
}

export function pips(n) {
  return plural("common.pips", n);
}

export function fmt(n) {
  return String(n);
}

export function applyI18n(root = document) {
  root.querySelectorAll("[data-i18n]").forEach((el) => {
    el.textContent = t(el.dataset.i18n);
  });
  for (const attr of ["aria-label", "placeholder", "title"]) {
    root.querySelectorAll(`[data-i18n-${attr}]`).forEach((el) => {
      el.setAttribute(attr, t(el.getAttribute(`data-i18n-${attr}`)));
    });
  }
}

// The visible switch: shows the other language in its own name; the choice persists.
export function setupLangSwitch(onChange) {
  const button = document.getElementById("lang-switch");
  if (!button) return;
  const label = () => {
    const other = lang === "hi" ? "en" : "hi";
    button.textContent = t(`web.lang.${other}`);
    // the visible name first: a voice user says what they see ("हिन्दी"), a reader hears why
    button.setAttribute("aria-label", `${t(`web.lang.${other}`)}: ${t("web.lang.switch")}`);
    button.setAttribute("lang", other);
  };
  label();
  button.addEventListener("click", async () => {
    const next = lang === "hi" ? "en" : "hi";
    localStorage.setItem("fives.lang", next);
    await loadLang(next);
    applyI18n();
    installable();
    label();
    if (onChange) onChange(next);
  });
}

export async function initI18n(onChange) {
  await loadLang(pickLang());
  applyI18n();
  setupLangSwitch(onChange);
  document.body.classList.add("ready");
  installable();
}

// Installable (issue 29): the manifest in the page's language, and the service worker that
// keeps the shell and the offline page (where the browser allows one: https or this machine).
function installable() {
  const link = document.querySelector('link[rel="manifest"]');
  if (link) link.setAttribute("href", `/manifest.webmanifest?lang=${lang}`);
  if (!("serviceWorker" in navigator)) return;
  const register = () => navigator.serviceWorker.register("/sw.js").catch(() => {});
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
