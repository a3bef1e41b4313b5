import { initI18n, t, loadRules } from "./i18n.js";
import { el } from "./common.js";
import { GAMES, renderRulesInto } from "./rules.js";

const parts = location.pathname.split("/").filter(Boolean);
const game = GAMES.includes(parts[1]) ? parts[1] : "all-fives";

async function render() {
  await loadRules();
  document.title = `${t(`rules.${game}.title`)} · fives`;
  document.getElementById("rules-nav").replaceChildren(...GAMES.map((g) => el("li", {},
    el("a", { href: `/rules/${g}`, "aria-current": g === game ? "page" : null }, t(`common.game.${g}`)))));
  document.getElementById("rules-title").textContent = t(`rules.${game}.title`);
  document.getElementById("rules-source").textContent = t(`rules.${game}.source`);
  await renderRulesInto(document.getElementById("rules-body"), game);
}

initI18n(render).then(render);
