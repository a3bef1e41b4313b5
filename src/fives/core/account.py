"""A round's end explained as data: who won it and how that was decided, which hands were
left, who was paid what for which hands, and how it was rounded.

Every interface renders this one account (the terminal's summary, the browser's round
dialog, ``fives replay``'s text): none of them works the arithmetic out again. All of it is
public: once a round is over its remaining hands are shown, as at a real table.

>>> from fives.core.games import Config
>>> from fives.core.outcome import RoundEnd
>>> from fives.core.tiles import mask_of, Tile
>>> left = (0, mask_of([Tile.parse("6-6"), Tile.parse("0-1")]))
>>> end = RoundEnd("domino", 0, (15, 0), (0, 13), "pool", 0, left=left)
>>> acc = account_of(Config.make("all-fives", 2), end)
>>> [line.kind for line in acc.lines]
['pool']
>>> acc.lines[0]
Pool(side=0, seats=(1,), pips=(13,), total=13, rounded=15, points=15, kind='pool')
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from fives.core.games import Config
from fives.core.outcome import EndReason, Payment, RoundEnd, Score, score_json
from fives.core.tiles import Tile, round_to_five

__all__ = [
    "Bonus",
    "Discarded",
    "Each",
    "Line",
    "Lowest",
    "NoScore",
    "Plain",
    "Pool",
    "RoundAccount",
    "Split",
    "TargetReached",
    "Tie",
    "TilesNeverScore",
    "account_of",
]


@dataclass(frozen=True)
class Lowest:
    """A blocked round's winner: the side with the fewest pips (``by="pips"``), or, pips being
    equal, with the fewest tiles (``by="tiles"``, MG-7)."""

    side: int
    by: Literal["pips", "tiles"]
    pips: int
    tiles: int
    kind: Literal["lowest"] = "lowest"


@dataclass(frozen=True)
class Pool:
    """AF-10: the opponents' pips added into one pool, rounded to five once."""

    side: int
    seats: tuple[int, ...]
    pips: tuple[int, ...]
    total: int
    rounded: int
    points: Score
    kind: Literal["pool"] = "pool"


@dataclass(frozen=True)
class Each:
    """MG-8: each opponent's pips rounded to five separately, then added."""

    side: int
    seats: tuple[int, ...]
    pips: tuple[int, ...]
    rounded: tuple[int, ...]
    points: Score
    kind: Literal["each"] = "each"


@dataclass(frozen=True)
class Plain:
    """DB-4: the opponents' pips, added, not rounded."""

    side: int
    seats: tuple[int, ...]
    pips: tuple[int, ...]
    total: int
    points: Score
    kind: Literal["plain"] = "plain"


@dataclass(frozen=True)
class Split:
    """AF-11: two players tie for lowest; the third's pips, rounded, are split in half."""

    sides: tuple[int, int]
    low: int  # the pips each of the two tied sides holds
    third: int
    pips: int  # the third side's pips
    rounded: int
    half: Score
    kind: Literal["split"] = "split"


@dataclass(frozen=True)
class Tie:
    """A blocked round tied for lowest (pips, or pips then tiles): nobody scores."""

    sides: tuple[int, ...]
    by: Literal["pips", "tiles"]
    kind: Literal["tie"] = "tie"


@dataclass(frozen=True)
class Bonus:
    """FT-7/FT-8: the point for going out."""

    side: int
    points: Score
    kind: Literal["bonus"] = "bonus"


@dataclass(frozen=True)
class Discarded:
    """FT-10: the last play and its point would pass the target, so both are discarded."""

    side: int
    points: int
    target: int
    kind: Literal["discarded"] = "discarded"


@dataclass(frozen=True)
class NoScore:
    """FT-9: a blocked round of Fives and Threes: no winner, no point."""

    kind: Literal["no_score"] = "no_score"


@dataclass(frozen=True)
class TargetReached:
    """AF-3, MG-9, DB-5: a side reached the target; the match is over, nothing more is paid."""

    side: int
    target: int
    kind: Literal["target"] = "target"


@dataclass(frozen=True)
class TilesNeverScore:
    """FT-9: remaining tiles never score in Fives and Threes."""

    kind: Literal["tiles_never_score"] = "tiles_never_score"


Line = (
    Lowest | Pool | Each | Plain | Split | Tie | Bonus | Discarded | NoScore | TargetReached
    | TilesNeverScore
)


def _json(value: object) -> Any:
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    if isinstance(value, (int, Fraction)):
        return score_json(value)
    return value


def _line_json(line: Line) -> dict[str, Any]:
    return {key: _json(value) for key, value in vars(line).items()}


@dataclass(frozen=True)
class RoundAccount:
    """The whole explanation of a round's end."""

    reason: EndReason
    winner: int | None  # the side that won the round (None: a tie, a FT block, ``target``)
    went_out: int | None  # the seat that played its last tile
    payment: Payment
    hands: tuple[tuple[Tile, ...], ...]  # what each seat still held
    pips: tuple[int, ...]  # per seat
    side_pips: tuple[int, ...]  # per side (a partnership's two hands added)
    side_tiles: tuple[int, ...]  # per side
    points: tuple[Score, ...]  # per side: what the round's end added
    lines: tuple[Line, ...]  # the arithmetic, in reading order

    def to_json(self) -> dict[str, Any]:
        return {
            "reason": self.reason,
            "winner": self.winner,
            "went_out": self.went_out,
            "payment": self.payment,
            "hands": [[str(t) for t in hand] for hand in self.hands],
            "tiles": [len(hand) for hand in self.hands],
            "pips": list(self.pips),
            "side_pips": list(self.side_pips),
            "side_tiles": list(self.side_tiles),
            "points": [score_json(p) for p in self.points],
            "lines": [_line_json(line) for line in self.lines],
        }


def account_of(config: Config, end: RoundEnd) -> RoundAccount:
    """Explain ``end``, a round's end under ``config``."""
    game = config.game
    n = config.players
    sides = config.sides
    hands = end.hands if end.left else tuple(() for _ in range(n))
    pips = end.pips
    side_pips = [0] * sides
    side_tiles = [0] * sides
    for seat in range(n):
        side_pips[config.side_of(seat)] += pips[seat]
        side_tiles[config.side_of(seat)] += len(hands[seat])
    winner = end.winner
    payers = tuple(s for s in range(n) if winner is not None and config.side_of(s) != winner)
    paid = tuple(pips[s] for s in payers)
    lines: list[Line] = []
    pay = end.payment
    if end.reason == "blocked" and winner is not None:
        tied_on_pips = any(
            side_pips[d] == side_pips[winner] for d in range(sides) if d != winner
        )
        by: Literal["pips", "tiles"] = "tiles" if tied_on_pips else "pips"
        lines.append(Lowest(winner, by, side_pips[winner], side_tiles[winner]))
    if pay == "target":
        reached = end.reached if end.reached is not None else winner
        lines.append(TargetReached(reached if reached is not None else 0, config.target))
    elif pay == "pool" and winner is not None:
        lines.append(Pool(winner, payers, paid, sum(paid), round_to_five(sum(paid)),
                          end.points[winner]))
    elif pay == "each" and winner is not None:
        lines.append(Each(winner, payers, paid, tuple(round_to_five(p) for p in paid),
                          end.points[winner]))
    elif pay == "plain" and winner is not None:
        lines.append(Plain(winner, payers, paid, sum(paid), end.points[winner]))
    elif pay == "split":
        tied = tuple(d for d in range(sides) if end.points[d])
        third = next(d for d in range(sides) if d not in tied)
        lines.append(Split((tied[0], tied[1]), side_pips[tied[0]], third, side_pips[third],
                           round_to_five(side_pips[third]), end.points[tied[0]]))
    elif pay == "tie":
        low = min(side_pips)
        if game.block_rule == "lowest-pips-then-tiles":
            best = min((side_pips[d], side_tiles[d]) for d in range(sides))
            tied = tuple(d for d in range(sides) if (side_pips[d], side_tiles[d]) == best)
            tie_by: Literal["pips", "tiles"] = "tiles"
        else:
            tied = tuple(d for d in range(sides) if side_pips[d] == low)
            tie_by = "pips"
        lines.append(Tie(tied, tie_by))
    elif pay == "bonus" and winner is not None:
        lines.append(Bonus(winner, end.points[winner]))
    elif pay == "discarded" and winner is not None:
        lines.append(Discarded(winner, end.discarded, config.target))
    elif pay == "none":
        lines.append(NoScore())
    if game.remaining == "none" and pay != "target":
        lines.append(TilesNeverScore())
    return RoundAccount(
        reason=end.reason,
        winner=winner,
        went_out=end.went_out,
        payment=pay,
        hands=hands,
        pips=tuple(pips),
        side_pips=tuple(side_pips),
        side_tiles=tuple(side_tiles),
        points=tuple(end.points),
        lines=tuple(lines),
    )
