"""Issue 19: the Hindi is written for the player. One term per concept (the glossary beside the
catalogues, ``locales/hi/GLOSSARY.md``) and no catalogue uses a rejected variant; counts agree
with their nouns and verbs through one plural mechanism shared with the browser; seats are
numbered as the screens show them; no Latin on a player's page."""

from __future__ import annotations

import json
import re
import unicodedata
from importlib import resources
from pathlib import Path

import pytest

from fives.core.games import Config
from fives.i18n import LANGUAGES, PLURAL_FORMS, catalogue, plural, plural_form
from fives.phrasing import Names, Tr

LOCALES = Path(str(resources.files("fives") / "locales"))
GLOSSARY = LOCALES / "hi" / "GLOSSARY.md"
AREAS = sorted(p.name for p in (LOCALES / "hi").glob("*.json"))


def texts(lang: str) -> dict[str, str]:
    """Every text of ``lang``, every area's."""
    return catalogue(lang)

DEVANAGARI = "\u0900-\u097f"
NUKTA = "\u093c"


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def glossary() -> list[dict[str, str]]:
    """The glossary's rows: concept, English, हिन्दी, rejected, why."""
    rows = []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or cells[0] in ("concept", "---"):
            continue
        rows.append(dict(zip(("concept", "english", "hindi", "rejected", "why"), cells)))
    return rows


def chosen_terms() -> list[str]:
    """Every chosen Hindi term: the Devanagari phrases of the हिन्दी column."""
    terms = set()
    for row in glossary():
        for part in re.split(r"[,;()]", row["hindi"]):
            words = [w for w in part.split() if re.search(f"[{DEVANAGARI}]", w)]
            if words:
                terms.add(" ".join(words))
    return sorted(terms, key=len, reverse=True)


def rejected_variants() -> dict[str, str]:
    """rejected variant -> the concept it is rejected for."""
    out = {}
    for row in glossary():
        for variant in re.findall(r"`([^`]+)`", row["rejected"]):
            out[variant] = row["concept"]
    return out


def test_the_glossary_names_one_term_per_concept_with_its_reason() -> None:
    rows = glossary()
    assert len(rows) >= 40, len(rows)
    concepts = [r["concept"] for r in rows]
    assert len(concepts) == len(set(concepts)), "a concept is listed twice"
    for row in rows:
        assert re.search(f"[{DEVANAGARI}]", row["hindi"]), row
        assert row["why"], row
    chosen = set(chosen_terms())
    for variant in rejected_variants():
        assert variant not in chosen, f"{variant} is both chosen and rejected"
    # the examples, each decided once
    table = {r["concept"]: r for r in rows}
    assert table["spinner"]["hindi"] == "स्पिनर"
    assert "प्रतिद्वंद्वी" in table["opponent"]["rejected"]
    assert "ब्लॉक" in table["blocked round"]["rejected"]
    assert "मूल रूप से" in table["default"]["rejected"]
    assert "लॉट" in table["lot"]["rejected"]


def uses_of_rejected(text: str) -> list[str]:
    """The rejected variants that start a word of ``text``, once the chosen terms that contain
    a rejected variant (ब्लॉक डोमिनो holds ब्लॉक) are taken out."""
    variants = rejected_variants()
    rest = nfd(text)
    for term in chosen_terms():
        if any(nfd(v) in nfd(term) for v in variants):
            rest = rest.replace(nfd(term), " ")
    found = []
    for variant in variants:
        pattern = f"(?<![{DEVANAGARI}]){re.escape(nfd(variant))}(?!{NUKTA})"
        if re.search(pattern, rest):
            found.append(variant)
    return found


def test_the_check_finds_a_rejected_variant_and_spares_a_chosen_term() -> None:
    assert uses_of_rejected("दौर ब्लॉक हो गया") == ["ब्लॉक"]
    assert uses_of_rejected("ब्लॉक डोमिनो में भंडार नहीं होता") == []
    assert uses_of_rejected("ड्रॉ खेलें") == ["ड्रॉ"]
    assert uses_of_rejected("मेज़ पर") == [] and uses_of_rejected("मेज पर") == ["मेज"]
    assert uses_of_rejected("ऑनलाइन हर बारी") == []  # लाइन inside a word is not the line
    assert uses_of_rejected("शाखा बनाने वाली डबल गोटी") == ["शाखा बनाने वाली"]


@pytest.mark.parametrize("area", AREAS)
def test_no_hindi_catalogue_uses_a_rejected_variant(area: str) -> None:
    data = json.loads((LOCALES / "hi" / area).read_text(encoding="utf-8"))
    bad = {key: uses_of_rejected(text) for key, text in data.items()}
    bad = {key: found for key, found in bad.items() if found}
    variants = rejected_variants()
    assert not bad, {key: [(v, variants[v]) for v in found] for key, found in bad.items()}


# -- counts -----------------------------------------------------------------------------------


def test_plural_forms_follow_cldr_as_the_browser_does() -> None:
    """The rule ``Intl.PluralRules`` applies in the browser (checked against it in
    tests/browser): English ``one`` only for 1; Hindi ``one`` for 0, 1 and fractions below 1."""
    assert [plural_form(n, "en") for n in (0, 1, 1.5, 2, 10)] == ["other", "one", "other", "other", "other"]
    assert [plural_form(n, "hi") for n in (0, 0.5, 1, 1.5, 2, 10)] == ["one", "one", "one", "other", "other", "other"]


def test_every_plural_key_has_every_form_in_both_languages() -> None:
    for lang in LANGUAGES:
        cat = catalogue(lang)
        stems = {k.rsplit(".", 1)[0] for k in cat if k.endswith(".one")}
        for stem in stems:
            for form in PLURAL_FORMS:
                assert f"{stem}.{form}" in cat, (lang, stem, form)
            assert stem not in cat, f"{stem} is both a message and a plural stem"


#: a count followed, in the same clause, by a verb or noun in the plural
PLURAL_AFTER_COUNT = re.compile(
    r"\{(n|points|count|tiles)\}[^।:;,.()]*?(मिले|गए|उठाईं|बचीं|गोटियाँ|दिए|हैं)"
)


def test_a_count_that_a_hindi_verb_agrees_with_has_plural_forms() -> None:
    """A message whose count is followed by a plural verb or noun reads wrong for 1 ("1 अंक
    मिले"): it must be the ``.other`` form of a plural key, with a ``.one`` beside it."""
    wrong = []
    for key, text in texts("hi").items():
        if PLURAL_AFTER_COUNT.search(text) and not key.endswith(".other"):
            wrong.append((key, text))
    assert not wrong, wrong


@pytest.mark.parametrize(
    ("key", "params", "one", "other"),
    [
        ("web.summary.paid", {"side": "आशा"}, "आशा को 1 अंक मिला।", "आशा को 10 अंक मिले।"),
        ("web.summary.bonus", {"side": "आशा"}, "हाथ खाली करने का 1 अंक", "हाथ खाली करने के 2 अंक"),
        ("web.event.discarded", {"target": 61}, "1 अंक छोड़ दिया गया", "2 अंक छोड़ दिए गए"),
        ("web.event.drew", {"name": "आशा"}, "आशा ने भंडार से 1 गोटी उठाई", "आशा ने भंडार से 2 गोटियाँ उठाईं"),
        ("common.tiles", {}, "1 गोटी", "2 गोटियाँ"),
        ("tui.pay.bonus", {"side": "आशा"}, "हाथ खाली करने का 1 अंक आशा को मिला", "हाथ खाली करने के 2 अंक आशा को मिले"),
        ("tui.log.bonus", {}, "हाथ खाली करने का 1 अंक", "हाथ खाली करने के 2 अंक"),
    ],
)
def test_hindi_counts_agree_in_noun_and_verb(key: str, params: dict[str, object], one: str, other: str) -> None:
    many = int(re.search(r"\d+", other).group()) if re.search(r"\d+", other) else 2
    for n, want in ((1, one), (many, other)):
        fill = dict(params)
        fill["points"] = plural("common.points", n, "hi")
        assert want in plural(key, n, "hi", **fill), (key, n)


def test_a_discarded_play_in_the_terminal_agrees_with_its_points() -> None:
    """FT-11: a play whose points would pass 61 is discarded; 1 point is छोड़ दिया गया."""
    one = plural("tui.log.discarded", 1, "hi", sum="5 + 0 = 5", play="1 अंक", target=61)
    many = plural("tui.log.discarded", 4, "hi", sum="6 + 6 = 12", play="4 अंक", target=61)
    assert "1 अंक, छोड़ दिया गया" in one and "4 अंक, छोड़ दिए गए" in many


def test_an_end_is_named_before_its_postposition() -> None:
    """"पूर्व सिरे पर", never "सिरे पूर्व पर": the end's name comes first in every Hindi text."""
    wrong = {k: v for k, v in texts("hi").items() if re.search(r"सिर(े|ा) \{end\}", v)}
    assert not wrong, wrong


def test_english_counts_agree_too() -> None:
    tr = Tr("en")
    assert (tr.points(1), tr.points(2), tr.points(2.5)) == ("1 point", "2 points", "2.5 points")
    assert (tr.tiles(1), tr.pips(1), tr.pips(0)) == ("1 tile", "1 pip", "0 pips")
    assert plural("web.score.tally_label", 1, "en") == "Paper tally: 1 point"


# -- seats --------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_seats_are_numbered_from_one_everywhere_a_person_reads(lang: str) -> None:
    """The browser shows seats 1..4; the terminal and the replay account name them the same way,
    and every text about partnerships says seats 1+3 against 2+4."""
    cfg = Config.make("all-fives", 4, teams=True)
    names = Names(Tr(lang), cfg, ["human", "hard", "easy", "medium"], me=None)
    seat = catalogue(lang)["common.seat"]
    assert names.seat(0).startswith(seat.format(n=1).split()[0]) and "1" in names.seat(0)
    assert "4" in names.seat(3) and "0" not in names.seat(0)
    assert "1+3" in names.side(0) and "2+4" in names.side(1)
    for key, text in texts(lang).items():
        assert not re.search(r"\b0\s*\+\s*2\b|\b1\s*\+\s*3\b.{0,20}\b0\b", text), (key, text)
        if re.search(r"\d\s*\+\s*\d.{0,12}(against|बनाम)", text):
            assert re.search(r"1\s*\+\s*3.{0,12}(against|बनाम).{0,12}2\s*\+\s*4", text), (key, text)


# -- no Latin on a player's page ---------------------------------------------------------------


def test_hindi_player_pages_have_no_latin_letter() -> None:
    """What the browser shows (web, rules, common) has no Latin letter in Hindi, bar the
    project's name and the language switch's "English"."""
    allowed = {"fives", "English"}
    for key, text in catalogue("hi").items():
        if key.split(".")[0] not in ("web", "rules", "common"):
            continue
        shown = re.sub(r"^@example \S+", "", text, flags=re.M)  # an example's moves are not shown
        words = set(re.findall(r"[A-Za-z]+", re.sub(r"\{\w+\}", "", shown))) - allowed
        assert not words, (key, words)
