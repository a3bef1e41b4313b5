"""The rules pages of the five games: one text per game and language in the catalogue
(``rules.<game>.title``, ``.intro``, ``.body``, ``.source``), shown by the browser's rules page
and the terminal's rules panel alike, so there is one wording of the rules to keep exact.

A body is a small markup, read here for the terminal and by ``web/js/rules.js`` for the page:
``## `` a heading, ``- `` a bullet, ``| a | b |`` a table's rows (its ``|---|`` line aside),
``@example ACTIONS | caption`` a worked example (the layout after those plays), and blank
lines between paragraphs.

>>> [type(b).__name__ for b in blocks("block", "en")][:3]
['Paragraph', 'Heading', 'Paragraph']
>>> lay, points = worked_example("all-fives", ["3-6", "6-6@E"])
>>> lay.sentence(), points
('3 + 12 = 15', 15)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from fives.core.games import Config
from fives.core.layout import Layout
from fives.i18n import t

__all__ = [
    "Block", "Bullets", "Example", "Heading", "Paragraph", "Table", "blocks", "worked_example",
]


@dataclass(frozen=True)
class Heading:
    text: str


@dataclass(frozen=True)
class Paragraph:
    text: str


@dataclass(frozen=True)
class Bullets:
    items: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    head: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Example:
    actions: tuple[str, ...]  # RECORD.md notation, in the order played
    caption: str


Block = Heading | Paragraph | Bullets | Table | Example

_RULE_LINE = re.compile(r"^\|[-\s|]+\|$")


def _cells(line: str) -> tuple[str, ...]:
    return tuple(cell.strip() for cell in line.strip()[1:-1].split("|"))


def _example(line: str) -> Example:
    body = line[len("@example "):]
    actions, _, caption = body.partition(" | ")
    return Example(tuple(a.strip() for a in actions.split(",") if a.strip()), caption.strip())


def parse(text: str) -> list[Block]:
    """The blocks of one page's body, in order."""
    out: list[Block] = []
    for chunk in re.split(r"\n\s*\n", text):
        lines = [line.rstrip() for line in chunk.split("\n") if line.strip()]
        if lines and lines[0].startswith("## "):
            out.append(Heading(lines.pop(0)[3:].strip()))
        if not lines:
            continue
        if all(line.startswith("- ") for line in lines):
            out.append(Bullets(tuple(line[2:].strip() for line in lines)))
        elif all(line.startswith("|") for line in lines):
            rows = [_cells(line) for line in lines if not _RULE_LINE.match(line)]
            out.append(Table(rows[0], tuple(rows[1:])))
        elif lines[0].startswith("@example "):
            out.extend(_example(line) for line in lines if line.startswith("@example "))
        else:
            out.append(Paragraph(" ".join(line.strip() for line in lines)))
    return out


def blocks(game: str, lang: str) -> list[Block]:
    """The page of ``game`` in ``lang``: its introduction, then the blocks of its body."""
    intro = t(f"rules.{game}.intro", lang)
    return [Paragraph(intro), *parse(t(f"rules.{game}.body", lang))]


def worked_example(game: str, actions: Sequence[str]) -> tuple[Layout, int]:
    """The layout after ``actions`` in ``game`` and what the last of them scored (the rules
    pages' examples); ``ValueError`` if one does not fit where it is written."""
    cfg = Config.make(game, 2)
    lay = Layout(cfg.game.spinner)
    points = 0
    for text in actions:
        points = cfg.game.play_points[lay.place_text(text.strip())]
    return lay, points
