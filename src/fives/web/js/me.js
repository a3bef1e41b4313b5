// The player's own page: choose a name (the browser then keeps an identity, in an HttpOnly
// cookie), rename, move to another device (a link and its code, once, for 10 minutes), sign
// out the other devices, forget me; and the profile itself.
import { initI18n, t } from "./i18n.js";
import { api, copyText, el, setName, toast } from "./common.js";
import { renderProfile } from "./profile-view.js";

const $ = (id) => document.getElementById(id);
let me = null;
let myBots = [];

// A token is shown once, where the owner can copy it.
function showToken(token) {
  $("bot-token").value = token;
  $("bot-token-box").hidden = false;
}

function renderBots() {
  $("bot-address").textContent = `${location.origin.replace(/^http/, "ws")}/ws/bot`;
  $("my-bots").replaceChildren(...myBots.map((b) => el("li", { "data-bot": b.id },
    el("a", { href: `/p/${encodeURIComponent(b.id)}` }, t("web.seat.outside", { name: b.label })), " ",
    el("button", { type: "button", class: "secondary small-btn", onclick: () => guarded(async () => {
      showToken((await api(`/api/me/bots/${encodeURIComponent(b.id)}/token`, {})).token);
    }) }, t("web.me.bot_new_token")))));
}

function render() {
  $("new-panel").hidden = Boolean(me);
  $("known").hidden = !me;
  if (!me) return;
  $("my-label").textContent = me.label;
  if (!$("rename").value) $("rename").value = me.name;
  $("public-link").href = `/p/${encodeURIComponent(me.id)}`;
  renderProfile($("profile"), me);
  renderBots();
}

async function load() {
  me = (await api("/api/me")).player;
  myBots = me ? (await api("/api/me/bots")).bots : [];
  render();
}

async function guarded(body) {
  try { await body(); } catch (err) { toast(err.message, "error"); }
}

async function main() {
  $("new-form").addEventListener("submit", (e) => { e.preventDefault(); guarded(async () => {
    me = (await api("/api/me", { name: $("new-name").value })).player;
    setName(me.name);
    render();
  }); });
  $("rename-form").addEventListener("submit", (e) => { e.preventDefault(); guarded(async () => {
    me = (await api("/api/me/name", { name: $("rename").value })).player;
    setName(me.name);
    render();
    toast(t("web.me.renamed"));
  }); });
  $("bot-form").addEventListener("submit", (e) => { e.preventDefault(); guarded(async () => {
    const made = await api("/api/me/bots", { name: $("bot-name").value });
    myBots.push(made.bot);
    renderBots();
    showToken(made.token);
  }); });
  $("make-link").addEventListener("click", () => guarded(async () => {
    const link = await api("/api/me/link", {});
    $("link-url").value = link.url;
    $("link-url").hidden = false;
    $("link-qr").src = link.qr;
    $("link-qr").alt = t("web.me.qr_alt");
    $("link-qr").hidden = false;
    $("copy-link").hidden = false;
  }));
  $("copy-link").addEventListener("click", () => copyText($("link-url").value).then(() => toast(t("web.me.copied"))));
  $("revoke").addEventListener("click", () => guarded(async () => {
    await api("/api/me/revoke", {});
    $("link-url").hidden = $("link-qr").hidden = $("copy-link").hidden = true;
    toast(t("web.me.revoked"));
  }));
  $("forget").addEventListener("click", () => guarded(async () => {
    if (!window.confirm(t("web.me.forget_confirm"))) return;
    await api("/api/me/forget", {});
    me = null;
    render();
    toast(t("web.me.forgotten"));
  }));
  await initI18n(render);
  await load();
}

main();
