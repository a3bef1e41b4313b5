"""Identities without sign-up: a random secret minted with the identity (when the player first
chooses a name) and kept by the browser in an HttpOnly cookie (the store keeps only its
SHA-256), a display name checked here and told apart by a four-digit tag
(``Asha#4821``), device links (spent once, short-lived, revocable) and "forget me".

A name is text, never markup: the pages set it with ``textContent``. What is refused here is
what text cannot make harmless: controls, invisible formatting (bidi overrides and isolates,
zero-width characters but the joiners Indic scripts need), a bot's name, the tag's ``#``.
"""

from __future__ import annotations

import hashlib
import secrets
import time
import unicodedata

from confusable_homoglyphs.confusables import is_dangerous, is_mixed_script
from starlette.requests import HTTPConnection
from starlette.responses import Response

from fives.server.messages import ClientError, looks_like_a_bot
from fives.store.base import Store
from fives.store.players import NameLooksTaken, NameTaken, StoredPlayer

__all__ = ["BROWSER_COOKIE", "COOKIE", "LINK_TTL", "NAME_MAX", "Identities", "browser_of",
           "clean_player_name", "first_visit", "hash_secret"]

#: the cookie that holds the browser's secret (HttpOnly: no script of the page can read it)
COOKIE = "fives_id"
#: how long the cookie is kept: two years, renewed at every visit that changes it
COOKIE_AGE = 2 * 365 * 86400
#: a browser's own random id (not a secret of anyone's): two identities of one browser
BROWSER_COOKIE = "fives_browser"
#: a device link is good for ten minutes, once
LINK_TTL = 600.0
NAME_MIN, NAME_MAX = 2, 18
#: the joiners Devanagari needs (ZWJ, ZWNJ); every other format character is refused
_JOINERS = {"\u200c", "\u200d"}


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def clean_player_name(raw: object, bot_account: bool = False) -> str:
    """A display name: NFC, spaces folded, 2 to 18 characters, letters, marks, digits,
    punctuation and symbols only; ClientError with the reason otherwise. A person's may not
    read as a bot's; a bot account's may (it is always shown as a bot anyway)."""
    if not isinstance(raw, str) or len(raw) > 200:
        raise ClientError("bad_player_name", {"min": NAME_MIN, "max": NAME_MAX})
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    for ch in name:
        category = unicodedata.category(ch)
        if ch == "#" or (category[0] == "C" and ch not in _JOINERS) or category in ("Zl", "Zp"):
            raise ClientError("bad_name_chars")
        if category == "Zs" and ch != " ":
            raise ClientError("bad_name_chars")
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise ClientError("bad_player_name", {"min": NAME_MIN, "max": NAME_MAX})
    if not bot_account and looks_like_a_bot(name):
        raise ClientError("bad_name_bot")
    if any(look_alike(word) for word in name.split(" ")):
        raise ClientError("bad_name_look_alike")
    return name


def look_alike(word: str) -> bool:
    """A word whose letters come from two scripts and one of them could pass for the other's
    (Cyrillic "А" in a Latin "Аsha"): Unicode's mixed-script confusable check (UTS #39, with
    the data of ``confusable_homoglyphs``). A name of two words, each in its own script
    ("राज Raj"), is not one."""
    return bool(is_mixed_script(word)) and bool(is_dangerous(word))


def browser_of(conn: HTTPConnection) -> str | None:
    raw = conn.cookies.get(BROWSER_COOKIE)
    return hash_secret(raw) if raw and 16 <= len(raw) <= 100 else None


def _tag() -> str:
    return f"{secrets.randbelow(10000):04d}"


class Identities:
    """The identity calls of the HTTP API, on the store every process shares."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @staticmethod
    def secret_of(conn: HTTPConnection) -> str | None:
        secret = conn.cookies.get(COOKIE)
        return secret if secret and 20 <= len(secret) <= 100 else None

    async def required(self, conn: HTTPConnection) -> StoredPlayer:
        """The identity of this browser; ``no_identity`` refused where it has none."""
        player = await self.current(conn)
        if player is None:
            raise ClientError("no_identity")
        return player

    async def current(self, conn: HTTPConnection) -> StoredPlayer | None:
        """The person this browser (or WebSocket) is, if any."""
        secret = self.secret_of(conn)
        if secret is None:
            return None
        player = await self.store.player_by_secret(hash_secret(secret))
        return player if player is not None and player.kind == "person" else None

    async def create(self, name: str) -> tuple[StoredPlayer, str]:
        """A new person and the secret their browser keeps, minted here: never the cookie the
        browser came with (a first visit's cookie may have been planted by someone who knows
        it: cookie fixation), so the identity's secret is known to this response alone."""
        secret = secrets.token_urlsafe(32)
        for _ in range(20):  # a taken tag: another one (10,000 of them per name)
            player = StoredPlayer("p" + secrets.token_urlsafe(9).replace("-", "x")
                                  .replace("_", "y"), name, _tag(), "person", time.time())
            try:
                await self.store.create_player(player, hash_secret(secret))
            except NameTaken:
                continue
            except NameLooksTaken:
                raise ClientError("name_looks_taken") from None
            return player, secret
        raise ClientError("name_taken")

    async def rename(self, player: StoredPlayer, name: str) -> StoredPlayer:
        """The same person under a new name (their tag kept if it is free with the new name)."""
        tags = [player.tag] + [_tag() for _ in range(20)]
        for tag in tags:
            try:
                await self.store.rename_player(player.id, name, tag)
            except NameTaken:
                continue
            except NameLooksTaken:
                raise ClientError("name_looks_taken") from None
            return StoredPlayer(player.id, name, tag, player.kind, player.created)
        raise ClientError("name_taken")

    async def new_link(self, player: StoredPlayer) -> tuple[str, float]:
        """A device link's secret (shown once, kept only hashed) and when it expires."""
        link = secrets.token_urlsafe(24)
        now = time.time()
        await self.store.add_device_link(player.id, hash_secret(link), now, now + LINK_TTL)
        return link, now + LINK_TTL

    async def redeem(self, link: object) -> tuple[StoredPlayer, str]:
        """This device becomes the link's player: its new secret."""
        if not isinstance(link, str) or not 20 <= len(link) <= 64:
            raise ClientError("bad_link")
        secret = secrets.token_urlsafe(32)
        player_id = await self.store.redeem_device_link(hash_secret(link), hash_secret(secret),
                                                         time.time())
        player = await self.store.player(player_id) if player_id else None
        if player is None:
            raise ClientError("bad_link")
        return player, secret


def keep_secret(response: Response, secret: str, secure: bool) -> None:
    """Give the browser its secret: HttpOnly, same-site, for two years."""
    response.set_cookie(COOKIE, secret, max_age=COOKIE_AGE, httponly=True, samesite="lax",
                        secure=secure, path="/")


def first_visit(conn: HTTPConnection, response: Response, secure: bool) -> Response:
    """A page's response to a browser seen for the first time: it gets its own browser id
    (not anyone's secret; nothing is written for a page view, so crawlers and one-off
    visitors cost nothing). An identity's secret is minted only with the identity, never
    before (a cookie given before could be one planted by someone else); ``private`` keeps a
    shared cache from giving one browser's cookie to another."""
    if browser_of(conn) is None:
        keep_browser(response, secure)
        response.headers["Cache-Control"] = "private, no-cache"
    return response


def keep_browser(response: Response, secure: bool) -> None:
    response.set_cookie(BROWSER_COOKIE, secrets.token_urlsafe(18), max_age=COOKIE_AGE,
                        httponly=True, samesite="lax", secure=secure, path="/")


def drop_secret(response: Response, secure: bool) -> None:
    response.delete_cookie(COOKIE, httponly=True, samesite="lax", secure=secure, path="/")
