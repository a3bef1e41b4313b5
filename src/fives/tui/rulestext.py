"""The rules panel's text: the game's rules page (:mod:`fives.rulespages`, the browser's
wording) laid out for a terminal, each worked example drawn as the table draws a layout, with
the seeds' scoring sentence under it."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text

from fives.core.games import Config
from fives.i18n import t
from fives.phrasing import Tr, play_sentence
from fives.rulespages import Bullets, Example, Heading, Paragraph, Table, blocks, worked_example
from fives.tui import board


def _table(block: Table) -> list[Text]:
    rows = [block.head, *block.rows]
    widths = [max(cell_len(r[i]) for r in rows if i < len(r)) for i in range(len(block.head))]
    out = []
    for k, row in enumerate(rows):
        line = Text("  ")
        for i, cell in enumerate(row):
            line.append(cell + " " * (widths[i] - cell_len(cell) + 3), "bold" if k == 0 else "")
        out.append(line)
    return out


def _example(game: str, block: Example, tr: Tr, width: int) -> list[Text]:
    try:
        lay, points = worked_example(game, block.actions)
    except ValueError:  # a catalogue's mistake: its caption still says what it meant
        return [Text(block.caption, "dim")]
    cfg = Config.make(game, 2)
    rows = board.layout_text(lay, len(block.actions) - 1, width, cfg.game.ends_score)
    sentence = Text(play_sentence(tr, cfg, lay, points), "bold")
    if block.caption:
        sentence.append(f" — {block.caption}", "")
    return [*rows, sentence]


def rules_text(game: str, lang: str, width: int = 76) -> Text:
    """The rules of ``game`` in ``lang`` within ``width`` columns, then how moves are typed."""
    tr = Tr(lang, "tui.")
    lines: list[Text] = []
    for block in blocks(game, lang):
        if isinstance(block, Heading):
            lines += [Text(""), Text(block.text, "bold underline")]
        elif isinstance(block, Paragraph):
            lines += [Text(block.text), Text("")]
        elif isinstance(block, Bullets):
            lines += [Text(f"  • {item}") for item in block.items] + [Text("")]
        elif isinstance(block, Table):
            lines += [*_table(block), Text("")]
        else:
            lines += [*_example(game, block, tr, width), Text("")]
    lines += [Text(t(f"rules.{game}.source", lang), "italic dim"), Text(""),
              Text(tr("rules.notation"), "dim")]
    return Text("\n").join(lines)
