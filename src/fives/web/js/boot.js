// Run before the pages' modules (a classic script with defer, placed before them: deferred
// scripts and modules run in the page's order, so this one always first): the choice of
// language, and the catalogue's fetch started at once. A page's modules run only once their
// whole graph has arrived; on a slow line that was a second and more before the words were
// even asked for.
(function () {
  "use strict";
  var LANGS = ["en", "hi"];
  function pick() {
    var saved = null;
    try { saved = localStorage.getItem("fives.lang"); } catch (e) { /* storage refused */ }
    if (LANGS.indexOf(saved) >= 0) return saved;
    var wanted = navigator.languages || [navigator.language || "en"];
    for (var i = 0; i < wanted.length; i++) {
      var code = String(wanted[i]).toLowerCase().split("-")[0];
      if (LANGS.indexOf(code) >= 0) return code;
    }
    return "en";
  }
  // the client's version is in this script's own URL (/static/<version>/js/boot.js)
  var own = document.currentScript ? document.currentScript.src : "";
  var version = (/\/static\/([0-9a-f]{8,})\//.exec(own) || [])[1] || "";
  var lang = pick();
  document.documentElement.lang = lang; // what the page is in, from its first words
  function get(path) {
    return fetch(path + (version ? "?v=" + version : ""))
      .then(function (r) { return r.ok ? r.json() : null; })
      .catch(function () { return null; });
  }
  window.fivesBoot = {
    langs: LANGS,
    pick: pick,
    version: version,
    lang: lang,
    catalogue: get("/api/i18n/" + lang),
    // the rules' texts too, on the pages made of them
    rules: location.pathname.indexOf("/rules") === 0 ? get("/api/i18n/" + lang + "/rules") : null,
    socket: null,
  };
  // a table's line opened now (its handshake is round trips a slow line would wait for after
  // the modules); the table's code takes it over, with what it heard meanwhile
  var table = /^\/t\/([^/]+)$/.exec(location.pathname);
  if (table && window.WebSocket) {
    try {
      var proto = location.protocol === "https:" ? "wss" : "ws";
      var line = new WebSocket(proto + "://" + location.host + "/ws/" + table[1] + "?lang=" + lang);
      var heard = [];
      var keep = function (e) { heard.push(e); };
      line.addEventListener("message", keep);
      window.fivesBoot.socket = {
        line: line,
        // what was heard before the table's code took the line over, and no more keeping
        takeOver: function () { line.removeEventListener("message", keep); return heard.splice(0); },
      };
    } catch (e) { /* the table's code dials itself */ }
  }
})();
