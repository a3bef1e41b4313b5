"""Every word a person reads exists in English and Hindi (issue 7): every key of every
catalogue file in both languages, non-empty, with the same placeholders; and every key the
browser pages, the rules pages and the server's errors use is in the catalogue."""

from __future__ import annotations

import json
import re
import string
from importlib import resources
from pathlib import Path

import pytest

from fives.i18n import LANGUAGES, catalogue

LOCALES = Path(str(resources.files("fives") / "locales"))
WEB = Path(str(resources.files("fives") / "web"))
SERVER = Path(str(resources.files("fives") / "server"))
AREAS = sorted({p.name for lang in LANGUAGES for p in (LOCALES / lang).glob("*.json")})


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("area", AREAS)
def test_every_key_in_both_languages(area: str) -> None:
    files = {lang: LOCALES / lang / area for lang in LANGUAGES}
    for lang, path in files.items():
        assert path.exists(), f"{area} has no {lang} file"
    data = {lang: json.loads(path.read_text(encoding="utf-8")) for lang, path in files.items()}
    keys = {lang: set(d) for lang, d in data.items()}
    en = keys["en"]
    for lang, ks in keys.items():
        assert ks == en, f"{area}: {lang} differs: missing {sorted(en - ks)}, extra {sorted(ks - en)}"
        for key, text in data[lang].items():
            assert isinstance(text, str) and text.strip(), f"{area}: {lang} {key} is empty"
    for key in en:
        assert placeholders(data["hi"][key]) == placeholders(data["en"][key]), key


def test_hindi_uses_the_seeds_vocabulary() -> None:
    hi = catalogue("hi")
    text = " ".join(hi.values())
    for word in ("गोटी", "भंडार", "स्पिनर", "खटखटा", "अंक", "दौर", "मैच", "साझेदारी"):
        assert word in text, word
    assert hi["common.scoring_sentence"].format(sum="2 + 8", total=10, points=hi["common.points.other"].format(n=10)) == "2 + 8 = 10: 10 अंक"


def _used_keys() -> set[str]:
    used: set[str] = set()
    for path in [*WEB.glob("*.html"), *WEB.glob("js/*.js")]:
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"""["'`]((?:web|common|rules)\.[a-z0-9_.\-]+[a-z0-9_])["'`]""", text))
        used |= set(re.findall(r'data-i18n(?:-[a-z-]+)?="([^"]+)"', text))
    for path in SERVER.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        used |= {f"web.error.{c}" for c in re.findall(r'ClientError\(\s*"([a-z_]+)"', text)}
        used |= {f"web.error.{c}" for c in re.findall(r'return "(illegal[a-z_]*)"', text)}
    return used


def test_every_used_key_exists() -> None:
    """A key the pages use exists, or (for a count) its plural forms do."""
    en = catalogue("en")
    missing = sorted(k for k in _used_keys()
                     if k not in en and not (f"{k}.one" in en and f"{k}.other" in en))
    assert not missing, missing


@pytest.mark.parametrize("game", ["all-fives", "fives-and-threes", "muggins", "draw", "block"])
@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_rules_pages_exist(game: str, lang: str) -> None:
    cat = catalogue(lang)
    for part in ("title", "intro", "body", "source"):
        assert cat[f"rules.{game}.{part}"].strip()
    assert cat[f"common.game.{game}"]
    # dynamic keys the pages build
    for level in ("random", "easy", "medium", "hard", "expert"):
        assert cat[f"web.bot.{level}"]
    for end in "WENS":
        assert cat[f"common.end.{end}"]


def test_english_rules_carry_the_numbers_of_rules_md() -> None:
    en = catalogue("en")
    assert "250" in en["rules.all-fives.body"] and "| 2 | 9 |" in en["rules.all-fives.body"]
    assert "exactly 61" in en["rules.fives-and-threes.body"]
    assert "150" in en["rules.muggins.body"] and "100" in en["rules.draw.body"]


def test_one_name_per_game_everywhere() -> None:
    """Each game has one name in each language, used by every page, the terminal and the
    replay account alike (issue 11): no second key for it, and no other spelling of it."""
    for lang in LANGUAGES:
        cat = catalogue(lang)
        names = [cat[f"common.game.{g}"] for g in ("all-fives", "fives-and-threes", "muggins", "draw", "block")]
        games = "all-fives|fives-and-threes|muggins|draw|block"
        assert not [k for k in cat if re.fullmatch(rf"[a-z]+\.game\.({games})", k) and not k.startswith("common.")]
        for key, text in cat.items():
            rest = text
            for name in sorted(names, key=len, reverse=True):
                rest = rest.replace(name, "")
            if lang == "hi":
                # what is left of a transliterated name is another spelling of it
                assert not re.search(r"फ़?ाइव्स|थ्रीज़|मगि[नं]", rest), (key, text[:120])
            else:
                assert not re.search(r"Fives (&|and) threes|All-Fives|Fives & Threes", rest), (key, text[:120])


def test_no_developer_text_on_player_pages() -> None:
    """Pages a player reads never send them to RULES.md, RECORD.md or a command line."""
    for lang in LANGUAGES:
        for key, text in catalogue(lang).items():
            if key.split(".")[0] not in ("web", "rules", "common"):
                continue
            assert not re.search(r"RULES\.md|RECORD\.md|fives replay|`|\b(AF|FT|MG|DB|SP)-\d+\b", text), (lang, key)
