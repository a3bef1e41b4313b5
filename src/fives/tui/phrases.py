"""What the terminal says, in the player's language: names of seats and sides, the scoring
sentence of each play, draws, passes and knocks, leaders and lots, round-end summaries with
their arithmetic, and the match result.

The phrasing itself lives in :mod:`fives.phrasing`, shared with ``fives replay``'s text account,
so that both tell a match in the same catalogue-driven words; this module names it for the
terminal.
"""

from __future__ import annotations

from fives.phrasing import (
    HUMAN,
    Names,
    action_text,
    draw_line,
    ends_text,
    fmt_scores,
    leader_reason,
    pass_line,
    payment_text,
    play_line,
    play_sentence,
    result_line,
    round_end_lines,
    short_command,
    sits_out_line,
)

__all__ = [
    "HUMAN",
    "Names",
    "action_text",
    "draw_line",
    "ends_text",
    "fmt_scores",
    "leader_reason",
    "pass_line",
    "payment_text",
    "play_line",
    "play_sentence",
    "result_line",
    "round_end_lines",
    "short_command",
    "sits_out_line",
]
