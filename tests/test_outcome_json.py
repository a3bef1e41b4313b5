"""A round's end as JSON (RECORD.md's ``end``, with the detail behind its points that
``fives replay --json`` and the site show): every field by its name, and scores written as
whole numbers or exact halves."""

from __future__ import annotations

from fractions import Fraction

from fives.core.outcome import RoundEnd, score_json
from fives.core.tiles import Tile, mask_of


def test_a_score_is_a_whole_number_or_an_exact_half() -> None:
    assert score_json(3) == 3 and isinstance(score_json(3), int)
    whole = score_json(Fraction(10, 2))
    assert whole == 5 and isinstance(whole, int)
    assert score_json(Fraction(5, 2)) == 2.5 and isinstance(score_json(Fraction(5, 2)), float)


def test_a_blocked_rounds_end_names_its_points_pips_payment_and_hands() -> None:
    left = (mask_of([Tile.parse("5-5")]), mask_of([Tile.parse("4-4")]))
    end = RoundEnd("blocked", 1, (0, 10), (10, 8), "pool", None, 0, left)
    assert end.to_json() == {"reason": "blocked", "winner": 1, "points": [0, 10],
                             "pips": [10, 8], "payment": "pool", "went_out": None,
                             "hands": [["5-5"], ["4-4"]]}


def test_a_split_domino_discard_and_target_are_written_as_they_happened() -> None:
    split = RoundEnd("blocked", None, (Fraction(5, 2), Fraction(5, 2), 0), (3, 3, 9), "split")
    assert split.to_json()["points"] == [2.5, 2.5, 0] and "hands" not in split.to_json()
    out = RoundEnd("domino", 0, (1, 0), (0, 7), "bonus", went_out=2, discarded=4, reached=0)
    assert out.to_json() == {"reason": "domino", "winner": 0, "points": [1, 0], "pips": [0, 7],
                             "payment": "bonus", "went_out": 2, "discarded": 4, "reached": 0}
