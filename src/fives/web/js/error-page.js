// The error page: its words in the reader's language (no inline script: the CSP forbids it).
import { initI18n } from "./i18n.js";

initI18n();
