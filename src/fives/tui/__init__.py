"""The terminal game, ``fives play``: a whole match against our bots (and friends at the same
keyboard), drawn with rich, in English or Hindi.

- :mod:`fives.phrasing` (shared with ``fives replay``): the words, from the catalogue
  (``locales/*/tui.json``): names, scoring sentences, round summaries, lots, leaders
- :mod:`fives.tui.board`: the layout drawn as a layout, the hand, the table
- :mod:`fives.tui.sheet`: the All Fives tally and the Fives and Threes 61 track
- :mod:`fives.tui.inputs`: reading lines (with a countdown) and understanding moves
- :mod:`fives.tui.session`: the match flow, the record, resume, hints and hot seat
"""
