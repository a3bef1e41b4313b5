"""Client messages: their shapes, and the errors answered to bad ones.

Every message from a browser is one JSON object with a ``type``; anything else is answered by an
``error`` message (a code and its text in the connection's language) and changes nothing.
"""

from __future__ import annotations

import contextlib
import functools
import json
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from fives.i18n import LANGUAGES, t

__all__ = ["REFUSALS", "ClientError", "SHAPES", "error_message", "parse_message"]

#: the close code of a connection turned away at hello, by the reason's code (else 4400)
REFUSALS = {"private_table": 4403, "too_many_watchers": 4429}


@dataclass
class ClientError(Exception):
    """A bad message or request: ``code`` names the catalogue text ``web.error.<code>``."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)

    def text(self, lang: str) -> str:
        return t(f"web.error.{self.code}", lang, **self.params)


#: type -> {field: (python type, required, max length for strings)}
SHAPES: dict[str, dict[str, tuple[type, bool, int]]] = {
    "hello": {"token": (str, False, 100), "lang": (str, False, 8), "invite": (str, False, 64)},
    "join": {"seat": (int, True, 0), "name": (str, True, 200), "rated": (int, False, 0)},
    "start": {},
    "act": {"action": (str, True, 12), "n": (int, True, 0)},
    "ready": {},
    "back": {},
    "rematch": {},
    "lang": {"lang": (str, True, 8)},
    "ping": {},
    "phrase": {"key": (str, True, 20)},
    "hint": {"n": (int, True, 0)},
    "hints": {"on": (int, True, 0)},
}


def parse_message(text: str | bytes, max_size: int) -> dict[str, Any]:
    """Check one raw client message; return it as a dict or raise :class:`ClientError`."""
    if isinstance(text, bytes):
        raise ClientError("not_text")
    if len(text) > max_size:
        raise ClientError("too_big", {"max": max_size})
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        raise ClientError("bad_json") from None
    if not isinstance(msg, dict):
        raise ClientError("bad_message")
    kind = msg.get("type")
    if not isinstance(kind, str) or kind not in SHAPES:
        raise ClientError("unknown_type")
    shape = SHAPES[kind]
    for key in msg:
        if key != "type" and key not in shape:
            raise ClientError("bad_field", {"field": str(key)[:20]})
    for key, (kind_type, required, max_len) in shape.items():
        if key not in msg:
            if required:
                raise ClientError("missing_field", {"field": key})
            continue
        value = msg[key]
        if kind_type is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise ClientError("bad_field", {"field": key})
        if kind_type is str and not isinstance(value, str):
            raise ClientError("bad_field", {"field": key})
        if kind_type is int and not -(2**31) <= value < 2**31:
            raise ClientError("bad_field", {"field": key})
        if kind_type is str and len(value) > max_len:
            raise ClientError("bad_field", {"field": key})
    if "lang" in msg and msg["lang"] not in LANGUAGES:
        raise ClientError("bad_lang")
    return msg


def error_message(err: ClientError, lang: str, n: int | None = None) -> dict[str, Any]:
    return {"type": "error", "code": err.code, "message": err.text(lang), "n": n}


def clean_name(raw: str) -> str:
    """A display name: printable, trimmed, 1 to 24 characters, and not a bot's."""
    name = "".join(ch for ch in raw if ch.isprintable()).strip()
    name = " ".join(name.split())
    if not name or len(name) > 24:
        raise ClientError("bad_name")
    if looks_like_a_bot(name):
        raise ClientError("bad_name_bot")
    return name


#: characters written for the letters they look like ("3xp3rt", a Cyrillic "е" in "еxpert")
_LOOKALIKES = str.maketrans({
    "0": "o", "1": "i", "l": "i", "|": "i", "ı": "i", "3": "e", "4": "a", "@": "a",
    "5": "s", "$": "s", "7": "t", "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "х": "x",
    "у": "y", "і": "i", "ј": "j", "ԁ": "d", "ѕ": "s", "һ": "h", "ο": "o", "α": "a", "ε": "e",
    "ρ": "p", "κ": "k", "τ": "t", "ν": "v", "м": "m",
})


def _skeleton(text: str) -> str:
    """Letters only, folded, lookalikes mapped: what a name looks like to a reader."""
    text = unicodedata.normalize("NFKC", text).casefold().translate(_LOOKALIKES)
    return "".join(ch for ch in text if unicodedata.category(ch)[0] in "LM")


@functools.cache
def _bot_skeletons() -> tuple[tuple[str, ...], frozenset[str]]:
    """The words that say "bot", and every bot level's name and label, in both languages."""
    from fives.bots import BOT_NAMES

    levels = {*BOT_NAMES, "cheat"}
    words = {"bot", "robot", "cmd"} | {t("web.waiting.bot", lang) for lang in LANGUAGES}
    labels = set(levels) | {t(f"web.bot.{level}", lang) for level in levels for lang in LANGUAGES}
    bot_words = sorted({_skeleton(w) for w in words}, key=len, reverse=True)
    return tuple(bot_words), frozenset(_skeleton(x) for x in labels) | {""}


def looks_like_a_bot(name: str) -> bool:
    """Whether a person's name reads as a bot: a level's name ("Expert", "3xp3rt", "hard bot",
    "Bot 2 (expert)", "विशेषज्ञ") or just "bot". A name that merely contains one ("Hardik")
    is a name."""
    from fives.bots import BotError, BotName

    with contextlib.suppress(BotError):
        if BotName.parse(name.casefold()).outside:  # how outside programs are named
            return True
    words, levels = _bot_skeletons()
    rest = _skeleton(name)
    for word in words:
        rest = rest.replace(word, "")
    return rest in levels
