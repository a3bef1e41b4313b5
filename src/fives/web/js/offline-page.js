// The offline page (served by the service worker when a page is asked for without a network):
// the same address is loaded again as soon as the network is back, or when the player asks.
import { initI18n } from "./i18n.js";

initI18n();
const again = () => location.reload();
document.getElementById("offline-retry").addEventListener("click", again);
window.addEventListener("online", again);
