"""Issue 19: each rules page says in Hindi exactly what it says in English. Compared part by
part: the same sections in the same order, and in each section the same numbers (tile halves,
targets, table cells), the same bullets, table rows and worked examples (the moves drawn on
the page); the title and the introduction carry the same numbers too."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from fives.i18n import catalogue

GAMES = ["all-fives", "fives-and-threes", "muggins", "draw", "block"]
NUMBER = re.compile(r"\d+(?:\.\d+)?")


def sections(body: str) -> list[dict[str, object]]:
    """The page cut at its ``## `` headings: per section its numbers, bullets, table rows and
    examples (the moves, the part before ``|``; the caption's numbers count with the rest)."""
    out: list[dict[str, object]] = []
    for part in re.split(r"^## ", body, flags=re.M):
        if not part.strip():
            continue
        heading, _, text = part.partition("\n")
        lines = text.splitlines()
        examples = [line.split("|", 1)[0].split()[1] for line in lines if line.startswith("@example ")]
        shown = "\n".join(line.split("|", 1)[1] if line.startswith("@example ") else line for line in lines)
        out.append({
            "heading numbers": Counter(NUMBER.findall(heading)),
            "numbers": Counter(NUMBER.findall(shown)),
            "bullets": sum(line.startswith("- ") for line in lines),
            "table rows": [len(line.strip("|").split("|")) for line in lines if line.startswith("|")],
            "examples": examples,
            "paragraphs": len([b for b in re.split(r"\n\s*\n", text) if b.strip()]),
        })
    return out


@pytest.mark.parametrize("game", GAMES)
def test_the_hindi_rules_page_has_the_english_structure_and_numbers(game: str) -> None:
    en, hi = catalogue("en"), catalogue("hi")
    for part in ("title", "intro", "source"):
        key = f"rules.{game}.{part}"
        assert Counter(NUMBER.findall(hi[key])) == Counter(NUMBER.findall(en[key])), key
    english = sections(en[f"rules.{game}.body"])
    hindi = sections(hi[f"rules.{game}.body"])
    assert len(hindi) == len(english), "not the same sections"
    for i, (e, h) in enumerate(zip(english, hindi)):
        for what in e:
            assert h[what] == e[what], (game, f"section {i + 1}", what, e[what], h[what])


def test_the_check_notices_a_dropped_number() -> None:
    """The comparison fails on a section that drops "(4-4 at an end counts 8)"."""
    en = catalogue("en")["rules.all-fives.body"]
    dropped = en.replace(" (4-4 at an end counts 8)", "")
    assert sections(dropped) != sections(en)


def test_the_muggins_page_tells_it_apart_from_all_fives() -> None:
    """The Muggins page says it is what Dominos.cc *calls* All Fives (our All Fives is another
    page) and that each opponent's pips are rounded separately, in both languages."""
    for lang, calls, each in (("en", "calls this game “All Fives”", "each rounded to five"),
                              ("hi", "इस खेल को “ऑल फाइव्स” कहता है", "हर विपक्षी के बिंदु अलग से")):
        intro = catalogue(lang)["rules.muggins.intro"]
        assert calls in intro and each in intro, (lang, intro)


@pytest.mark.parametrize("lang", ["en", "hi"])
@pytest.mark.parametrize("game", GAMES)
def test_the_terminal_shows_the_rules_page_with_its_examples_drawn(game: str, lang: str) -> None:
    """The terminal's rules panel (``r``) is the browser's page, not a second text: every
    heading, bullet and table cell of the page, and under each worked example its layout and
    the seeds' scoring sentence."""
    from rich.console import Console

    from fives.core.games import Config
    from fives.phrasing import Tr, play_sentence
    from fives.rulespages import Bullets, Example, Heading, Table, blocks, worked_example
    from fives.tui.rulestext import rules_text

    console = Console(width=200, record=True, color_system=None)
    console.print(rules_text(game, lang, 120))
    shown = " ".join(console.export_text().split())  # wrapped lines joined again
    page = blocks(game, lang)
    assert any(isinstance(b, Example) for b in page) or game in ("draw", "block")
    for block in page:
        if isinstance(block, Heading):
            assert block.text in shown
        elif isinstance(block, Bullets):
            assert all(" ".join(item.split()) in shown for item in block.items)
        elif isinstance(block, Table):
            assert all(cell in shown for row in (block.head, *block.rows) for cell in row)
        elif isinstance(block, Example):
            lay, points = worked_example(game, block.actions)
            sentence = play_sentence(Tr(lang, "tui."), Config.make(game, 2), lay, points)
            assert f"{sentence} — {block.caption}" in shown
    assert " ".join(catalogue(lang)["tui.rules.notation"].split()) in shown
