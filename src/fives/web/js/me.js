// The player's own page: choose a name (the browser then keeps an identity, in an HttpOnly
// cookie), rename, move to another device (a link and its code, once, for 10 minutes), sign
// out the other devices, forget me; and the profile itself.
import { initI18n, t } from "./i18n.js";
import { api, copyText, setName, toast } from "./common.js";
import { renderProfile } from "./profile-view.js";

const $ = (id) => document.getElementById(id);
let me = null;

function render() {
  $("new-panel").hidden = Boolean(me);
  $("known").hidden = !me;
  if (!me) return;
  $("my-label").textContent = me.label;
  if (!$("rename").value) $("rename").value = me.name;
  $("public-link").href = `/p/${encodeURIComponent(me.id)}`;
  renderProfile($("profile"), me);
}

async function load() {
  me = (await api("/api/me")).player;
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
