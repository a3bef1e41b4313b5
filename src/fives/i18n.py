"""One message catalogue for every word a person reads: English and Hindi.

Catalogues are JSON files, ``locales/<lang>/<area>.json``, each a flat object of dotted keys
(``"web.lobby.title"``) to texts with ``{name}`` placeholders. Every area's keys are merged into
one catalogue per language; the browser receives the same catalogue as JSON. Records, the bot
protocol, tile notation and end letters stay language-neutral and never pass through here.

>>> t("common.points.other", "en", n=10), t("common.points.other", "hi", n=10)
('10 points', '10 अंक')

A message that carries a count has one key per plural form, ``<key>.one`` and ``<key>.other``,
and :func:`plural` picks the form by the language's rule, the same rule the browser applies
(CLDR's, through ``Intl.PluralRules`` in ``web/js/i18n.js``). Hindi needs the forms for its
nouns and for its verbs, which agree with the count:

>>> plural("web.summary.paid", 1, "hi", side="आप", points="1 अंक")
'आप को 1 अंक मिला।'
>>> plural("web.summary.paid", 10, "hi", side="आप", points="10 अंक")
'आप को 10 अंक मिले।'
>>> reason_text("stock_empty", None, "hi")
'भंडार खाली है'
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from functools import cache
from importlib import resources
from numbers import Real

__all__ = [
    "LANGUAGES",
    "PLURAL_FORMS",
    "catalogue",
    "default_language",
    "plural",
    "plural_form",
    "reason_text",
    "t",
]

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


#: the plural forms a catalogue writes, as ``<key>.<form>``
PLURAL_FORMS = ("one", "other")


def plural_form(n: object, lang: str) -> str:
    """``one`` or ``other``: CLDR's cardinal rule for ``lang``, as ``Intl.PluralRules`` gives it
    in the browser. English: ``one`` for exactly 1 (not 1.5, not 0). Hindi: ``one`` for 0 and 1
    and for any number whose whole part is 0 (0.5: आधा अंक *मिला*); 1.5 and 2 are ``other``."""
    value = abs(float(n) if isinstance(n, Real) else float(str(n)))
    if lang == "hi":
        return "one" if value < 1 or value == 1 else "other"
    return "one" if value == 1 else "other"


def plural(key: str, n: object, lang: str = "en", /, **params: object) -> str:
    """The form of ``key`` for the count ``n`` (``<key>.one`` or ``<key>.other``), its
    placeholders filled; ``{n}`` is the count as written unless ``params`` gives it."""
    form = plural_form(n, lang)
    cat = catalogue(lang)
    full = f"{key}.{form}" if f"{key}.{form}" in cat else f"{key}.other"
    return t(full, lang, **{"n": n, **params})


def default_language(env: dict[str, str] | None = None) -> str:
    """The terminal's language from the locale environment (LC_ALL, LC_MESSAGES, LANG)."""
    env = dict(os.environ) if env is None else env
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(var, "")
        if value:
            code = value.split(":")[0].split("_")[0].split(".")[0].lower()
            return code if code in LANGUAGES else "en"
    return "en"


def reason_text(
    reason: object, params: Mapping[str, object] | None = None, lang: str = "en"
) -> str:
    """Why the engine refuses an action (or a record), in ``lang``.

    ``reason`` is an :class:`~fives.core.state.IllegalAction`, a
    :class:`~fives.core.record.RecordError`, a :class:`~fives.core.state.Reason` (anything with
    ``key`` and ``params``: a refusal, or bad input of :mod:`fives.core.errors`), or a key of
    :data:`fives.core.state.REASON_TEXT` with its
    ``params``. The text is the catalogue's ``engine.reason.<key>``; a ``game`` parameter (the
    game's name) reads as the game's title. Without a key (a record's format fault, a deal the
    game does not allow) the English reason is returned as it is.
    """
    if isinstance(reason, str):
        key: object = reason
        given: object = params
    else:
        key = getattr(reason, "key", None)
        given = params if params is not None else getattr(reason, "params", None)
    full = f"engine.reason.{key}"
    if not isinstance(key, str) or full not in catalogue("en"):
        fallback = reason if isinstance(reason, str) else getattr(reason, "reason", reason)
        return str(fallback)
    values = dict(given) if isinstance(given, Mapping) else {}
    game = values.get("game")
    if isinstance(game, str) and f"common.game.{game}" in catalogue(lang):
        values["game"] = t(f"common.game.{game}", lang)
    rule = values.get("rule")
    if isinstance(rule, str) and f"engine.reason.lead.{rule}" in catalogue(lang):
        values["why"] = t(f"engine.reason.lead.{rule}", lang)  # why a seat must lead
    return t(full, lang, **values)
