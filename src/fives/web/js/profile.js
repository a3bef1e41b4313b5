// A player's public profile (/p/<id>): what /api/players/<id> shows of them.
import { initI18n, t } from "./i18n.js";
import { api } from "./common.js";
import { renderProfile } from "./profile-view.js";

const id = decodeURIComponent(location.pathname.split("/").pop());
let player = null;
let missing = false;

function render() {
  const label = document.getElementById("player-label");
  if (missing) {
    label.textContent = t("web.profile.not_found");
    return;
  }
  if (!player) return;
  const bot = player.kind === "bot";
  label.textContent = bot ? t("web.seat.bot_short", { level: t(`web.bot.${player.name}`) })
    : player.kind === "outside" ? t("web.seat.outside", { name: player.label }) : player.label;
  document.getElementById("player-kind").hidden = !bot;
  document.getElementById("player-kind").textContent = t("web.profile.bot");
  renderProfile(document.getElementById("profile"), player);
}

async function main() {
  await initI18n(render);
  try { player = await api(`/api/players/${encodeURIComponent(id)}`); } catch { missing = true; }
  render();
}

main();
