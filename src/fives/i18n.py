"""One message catalogue for every word a person reads: English and Hindi.

Catalogues are JSON files, ``locales/<lang>/<area>.json``, each a flat object of dotted keys
(``"web.lobby.title"``) to texts with ``{name}`` placeholders. Every area's keys are merged into
one catalogue per language; the browser receives the same catalogue as JSON. Records, the bot
protocol, tile notation and end letters stay language-neutral and never pass through here.

>>> t("common.points", "en", n=10), t("common.points", "hi", n=10)
('10 points', '10 अंक')
"""

from __future__ import annotations

import json
import os
from functools import cache
from importlib import resources

__all__ = ["LANGUAGES", "catalogue", "default_language", "t"]

#: language code -> its own name
LANGUAGES: dict[str, str] = {"en": "English", "hi": "हिन्दी"}


@cache
def catalogue(lang: str) -> dict[str, str]:
    """All keys of one language, merged from its area files."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: one of {', '.join(LANGUAGES)}")
    merged: dict[str, str] = {}
    folder = resources.files("fives") / "locales" / lang
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if entry.name.endswith(".json"):
            data = json.loads(entry.read_text(encoding="utf-8"))
            for key, text in data.items():
                if key in merged:
                    raise ValueError(f"catalogue key {key!r} defined twice in {lang}")
                merged[key] = text
    return merged


def t(key: str, lang: str = "en", /, **params: object) -> str:
    """The text of ``key`` in ``lang`` with its placeholders filled; English if missing."""
    text = catalogue(lang).get(key)
    if text is None:
        text = catalogue("en").get(key, key)
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return text


def default_language(env: dict[str, str] | None = None) -> str:
    """The terminal's language from the locale environment (LC_ALL, LC_MESSAGES, LANG)."""
    env = dict(os.environ) if env is None else env
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(var, "")
        if value:
            code = value.split(":")[0].split("_")[0].split(".")[0].lower()
            return code if code in LANGUAGES else "en"
    return "en"
