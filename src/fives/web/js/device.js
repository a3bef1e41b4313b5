// A device link (/device#<secret>): nothing happens until the person asks, so a link preview
// cannot spend it; the secret stays in the fragment, never sent but in the request that uses it.
import { initI18n, t } from "./i18n.js";
import { api, setName, toast } from "./common.js";

const link = location.hash.slice(1);

async function main() {
  // the button listens at once: a tap while the words still load (a slow line) was lost
  const ready = initI18n();
  const button = document.getElementById("use-here");
  if (!link) {
    button.hidden = true;
    await ready;
    document.getElementById("device-done").textContent = t("web.device.no_link");
    return;
  }
  button.addEventListener("click", async () => {
    await ready;
    try {
      const me = (await api("/api/device", { link })).player;
      setName(me.name);
      history.replaceState(null, "", "/device");
      button.hidden = true;
      document.getElementById("device-done").textContent = t("web.device.done", { name: me.label });
      setTimeout(() => { location.href = "/me"; }, 1200);
    } catch (err) {
      toast(err.message, "error");
    }
  });
}

main();
