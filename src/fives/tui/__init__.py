"""The terminal game, ``fives play``: a whole match against our bots (and friends at the same
keyboard), in English or Hindi, full screen or as a transcript.

- :mod:`fives.phrasing` (shared with ``fives replay``): the words, from the catalogue
  (``locales/*/tui.json``): names, scoring sentences, round summaries, lots, leaders
- :mod:`fives.tui.match`: the match flow, whatever draws it: deals, bots (through the match
  host), people's actions, the record, hot seat, hints, the countdown, undo
- :mod:`fives.tui.app`: the full-screen game (Textual)
- :mod:`fives.tui.session`: the transcript (pipes, screen readers, ``--plain``)
- :mod:`fives.tui.drawing`: the layout drawn to fit, turning corners (no terminal library)
- :mod:`fives.tui.board`: the table in rich text: scores, sheets, hand, moves
- :mod:`fives.tui.sheet`: the All Fives tally and the Fives and Threes 61 track
- :mod:`fives.tui.inputs`: reading lines (readline, a countdown) and understanding moves
- :mod:`fives.tui.widths`: text widths by grapheme clusters, as terminals draw them
"""
