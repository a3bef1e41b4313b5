"""The browser client's files as a slow phone should get them: under a URL that names a hash of
their content (``/static/<version>/js/table.js``), cached for a year and never asked for again;
the pages and the catalogues with strong ETags, so a revisit costs a 304 at most.

One version covers every file of the client and both catalogues: a release changes it once,
and the browser fetches what changed with the new URLs. ES modules import each other by
relative paths, so a page that loads ``/static/<version>/js/table.js`` loads all its modules
under the same version without any rewriting of the scripts. Compression is the job of
Starlette's GZipMiddleware (see :func:`fives.server.app.create_app`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.staticfiles import StaticFiles

from fives.i18n import LANGUAGES, catalogue

__all__ = ["FOREVER", "Assets", "PlainStatic", "VersionedStatic", "conditional"]

#: the catalogue areas the browser reads (the terminal's and the replay command's stay home)
BROWSER_AREAS = ("web", "common", "rules")
#: the long texts of the rules (``rules.<game>.body`` ...): a catalogue of their own, fetched by
#: the pages that show the rules when they show them (on a slow line, a third of the words)
RULES_PARTS = ("body", "intro", "source")


def _is_rules_text(key: str) -> bool:
    return key.startswith("rules.") and key.rsplit(".", 1)[-1] in RULES_PARTS
#: the Cache-Control of a URL whose content can never change
FOREVER = "public, max-age=31536000, immutable"
#: the Cache-Control of a URL whose content may change: keep it, but ask (ETag) before use
REVALIDATE = "no-cache"


def _hash(*parts: bytes) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


def conditional(request: Request, body: bytes, media_type: str, cache: str,
                etag: str) -> Response:
    """``body`` with a strong ETag, or 304 Not Modified when the browser already holds it."""
    quoted = f'"{etag}"'
    headers = {"ETag": quoted, "Cache-Control": cache}
    wanted = request.headers.get("if-none-match", "")
    if quoted in [tag.strip() for tag in wanted.split(",")]:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=media_type, headers=headers)


class VersionedStatic(StaticFiles):
    """Static files under a versioned URL: each response may be kept for a year."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = FOREVER
        return response


class PlainStatic(StaticFiles):
    """The same files under their plain URL (bookmarks, old pages): revalidated each time."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = REVALIDATE
        return response


@dataclass(frozen=True)
class Assets:
    """The client's version, its pages (pointing at the versioned URLs) and the catalogues."""

    web: Path
    version: str
    pages: dict[str, bytes]
    catalogues: dict[str, bytes]
    rules: dict[str, bytes]

    @classmethod
    def load(cls, web: Path) -> Assets:
        files = sorted(p for p in web.rglob("*") if p.is_file())
        parts: list[bytes] = []
        for path in files:
            parts += [path.relative_to(web).as_posix().encode(), path.read_bytes()]
        def pack(lang: str, rules: bool) -> bytes:
            messages = {key: text for key, text in catalogue(lang).items()
                        if key.split(".", 1)[0] in BROWSER_AREAS and _is_rules_text(key) == rules}
            return json.dumps({"lang": lang, "languages": LANGUAGES, "messages": messages},
                              ensure_ascii=False, separators=(",", ":")).encode("utf-8")

        catalogues = {lang: pack(lang, False) for lang in LANGUAGES}
        rules = {lang: pack(lang, True) for lang in LANGUAGES}
        parts += [catalogues[lang] for lang in sorted(catalogues)]
        parts += [rules[lang] for lang in sorted(rules)]
        version = _hash(*parts)[:12]
        pages = {
            path.name: path.read_bytes().replace(b'"/static/', f'"/static/{version}/'.encode())
            for path in files
            if path.parent == web and path.suffix == ".html"
        }
        return cls(web, version, pages, catalogues, rules)

    def page(self, request: Request, name: str, status: int = 200) -> Response:
        body = self.pages[name]
        if status != 200:
            return Response(body, status_code=status, media_type="text/html",
                            headers={"Cache-Control": REVALIDATE})
        return conditional(request, body, "text/html; charset=utf-8", REVALIDATE,
                           _hash(self.version.encode(), body)[:20])

    def catalogue(self, request: Request, lang: str, rules: bool = False) -> Response:
        """A language's catalogue (or its rules' texts): kept for a year when asked for under
        the current version (``?v=``, as the pages do), else revalidated by its ETag."""
        cache = FOREVER if request.query_params.get("v") == self.version else REVALIDATE
        body = self.rules[lang] if rules else self.catalogues[lang]
        return conditional(request, body, "application/json", cache,
                           f"{self.version}-{lang}" + ("-rules" if rules else ""))
