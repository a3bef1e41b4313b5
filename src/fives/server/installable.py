"""The site installed on a phone's home screen (issue 29): its web app manifest, in each
language, and its service worker.

The service worker keeps the client's shell (scripts, styles, pictures, the offline page) and
both catalogues under their versioned URLs, so a revisit on a slow or absent network starts
from the phone, and a page asked for without a network gets the offline page instead of the
browser's error. It never keeps an API answer, a page with a player's state, or a seat's token:
only URLs whose content can never change (``/static/<version>/...``, ``/api/i18n/<lang>?v=``)
and the offline page.

An update is a new version: the worker's text names it, so the browser sees a new worker at the
next load, which takes over at once and keeps the previous version's files one release longer
(a page still open on them loads what it lacks from there). Each page asks only for URLs of its
own version, so no page mixes two versions.
"""

from __future__ import annotations

import json

from starlette.requests import Request
from starlette.responses import Response

from fives.i18n import LANGUAGES, catalogue
from fives.server.assets import REVALIDATE, Assets, conditional

__all__ = ["OFFLINE", "manifest", "precached", "service_worker"]

#: the offline page's URL (a route of its own, kept by the worker)
OFFLINE = "/offline"
BACKGROUND = "#f5f2ea"  # --bg
THEME = "#1d3b33"  # --brand


def manifest(assets: Assets, lang: str) -> bytes:
    """The web app manifest in ``lang`` (names from the catalogue; icons by versioned URL)."""
    cat = catalogue(lang)
    static = f"/static/{assets.version}"
    data = {
        "id": "/",
        "name": cat["web.app.name"],
        "short_name": cat["web.app.short_name"],
        "description": cat["web.app.description"],
        "lang": lang,
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": BACKGROUND,
        "theme_color": THEME,
        "categories": ["games"],
        "icons": [
            {"src": f"{static}/icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": f"{static}/icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
            {"src": f"{static}/icons/maskable-512.png", "sizes": "512x512", "type": "image/png",
             "purpose": "maskable"},
            {"src": f"{static}/favicon.svg", "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    return json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")


def precached(assets: Assets) -> list[str]:
    """What the worker keeps: every client file but the pages, both catalogues, the offline
    page."""
    files = sorted(
        p.relative_to(assets.web).as_posix() for p in assets.web.rglob("*")
        if p.is_file() and not (p.parent == assets.web and p.suffix == ".html")
    )
    return ([f"/static/{assets.version}/{name}" for name in files]
            + [f"/api/i18n/{lang}{part}?v={assets.version}"
               for lang in LANGUAGES for part in ("", "/rules")] + [OFFLINE])


_WORKER = """// fives: the service worker of version {version} (made by fives.server.installable)
const VERSION = {version_json};
const CACHE = "fives-" + VERSION;
const PRECACHE = {precache};
const OFFLINE = {offline};
// URLs whose content never changes: any version's files, a catalogue asked for by version
const KEPT = /^\\/static\\/[0-9a-f]{{8,}}\\//;

self.addEventListener("install", (event) => {{
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
}});

self.addEventListener("activate", (event) => {{
  event.waitUntil((async () => {{
    // this version's files, and the previous version's one release longer (a page still
    // open on them finds what it lacks); older ones go
    const ours = (await caches.keys()).filter((name) => name.startsWith("fives-") && name !== CACHE);
    await Promise.all(ours.slice(0, -1).map((name) => caches.delete(name)));
    await self.clients.claim();
  }})());
}});

function kept(url) {{
  return KEPT.test(url.pathname) || (url.pathname.startsWith("/api/i18n/") && url.searchParams.has("v"));
}}

self.addEventListener("fetch", (event) => {{
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {{
    // pages always from the network (they carry the current version); the offline page when
    // there is none
    event.respondWith(fetch(request).catch(async () => (await caches.match(OFFLINE)) || Response.error()));
    return;
  }}
  if (!kept(url)) return; // API answers, sockets, tokens: never kept
  event.respondWith((async () => {{
    const hit = await caches.match(request);
    if (hit) return hit;
    const answer = await fetch(request);
    if (answer.ok && (url.pathname.startsWith("/static/" + VERSION + "/") || url.searchParams.get("v") === VERSION)) {{
      const cache = await caches.open(CACHE);
      await cache.put(request, answer.clone());
    }}
    return answer;
  }})());
}});
"""


def service_worker(assets: Assets) -> bytes:
    return _WORKER.format(
        version=assets.version, version_json=json.dumps(assets.version),
        precache=json.dumps(precached(assets), indent=1), offline=json.dumps(OFFLINE),
    ).encode("utf-8")


def manifest_response(request: Request, assets: Assets) -> Response:
    lang = request.query_params.get("lang", "en")
    if lang not in LANGUAGES:
        lang = "en"
    body = manifest(assets, lang)
    return conditional(request, body, "application/manifest+json", REVALIDATE,
                       f"{assets.version}-manifest-{lang}")


def worker_response(request: Request, assets: Assets) -> Response:
    """The worker's script: revalidated at every check (a new version is a new text)."""
    body = service_worker(assets)
    return conditional(request, body, "text/javascript; charset=utf-8", REVALIDATE,
                       f"{assets.version}-worker")
