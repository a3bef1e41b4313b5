"""Duplicate Swiss for clubs (issue 30): N rounds; each round pairs the entrants two by two by
their score, never a pair that has met, a bye for an odd count; every table of a round plays
the same deals (boards), so the luck of the deal cancels when a board's result is compared with
the same board at the other tables. Pure: the server stores what was played and asks here who
meets whom next and how the entrants stand.

The rules, as the event's page states them:

- **Match points**: a match won scores 1, drawn ½, lost 0; a bye scores 1 (once an entrant at
  most, the lowest-ranked without one takes it).
- **Pairing**: the entrants by standing; the first is paired with the next it has not met,
  and so on down (when the last ones left have all met, the pairing above is undone as far as
  needed: backtracking finds a pairing without a rematch whenever one exists).
- **Tie-breaks**, in order: *Buchholz* (the sum of the match points of the entrants one has
  met; a bye counts as meeting nobody), then the *duplicate margin* (for each board one played,
  one's point margin on it minus the mean margin of everyone who played the same board from the
  same seat: the deal's luck taken out), then the name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

__all__ = ["Board", "Bye", "Pairing", "SwissMatch", "SwissStanding", "swiss_pairing",
           "swiss_standings"]


@dataclass(frozen=True)
class Board:
    """One deal of a round as played at one table: the seat-0 entrant's points minus the
    seat-1 entrant's on it."""

    board: int
    margin: int


@dataclass(frozen=True)
class SwissMatch:
    """A round's match between two entrants (``first`` in seat 0): its boards, and its score
    for ``first`` (1, ½ or 0) when finished."""

    round: int
    first: str
    second: str
    boards: tuple[Board, ...] = ()
    score: Fraction | None = None  # for ``first``; None while the match is being played


@dataclass(frozen=True)
class Bye:
    round: int
    entrant: str


@dataclass(frozen=True)
class Pairing:
    """A round's pairs (first entrant in seat 0) and its bye, if the count is odd."""

    pairs: tuple[tuple[str, str], ...]
    bye: str | None


@dataclass
class SwissStanding:
    entrant: str
    points: Fraction = Fraction(0)
    buchholz: Fraction = Fraction(0)
    margin: Fraction = Fraction(0)  # the duplicate margin
    met: list[str] = field(default_factory=list)
    byes: int = 0
    rank: int = 0


def swiss_standings(entrants: Sequence[str], matches: Sequence[SwissMatch],
                    byes: Sequence[Bye] = ()) -> list[SwissStanding]:
    """The standings from the finished matches and the byes, best first (the rules above)."""
    lines = {e: SwissStanding(e) for e in entrants}
    done = [m for m in matches if m.score is not None]
    for m in done:
        assert m.score is not None
        lines[m.first].points += m.score
        lines[m.second].points += 1 - m.score
        lines[m.first].met.append(m.second)
        lines[m.second].met.append(m.first)
    for bye in byes:
        lines[bye.entrant].points += 1
        lines[bye.entrant].byes += 1
    for line in lines.values():
        line.buchholz = sum((lines[o].points for o in line.met), Fraction(0))
    # the duplicate margin: each board against the mean of the same board from the same seat
    by_board: dict[tuple[int, int], list[int]] = {}
    for m in done:
        for b in m.boards:
            by_board.setdefault((m.round, b.board), []).append(b.margin)
    for m in done:
        for b in m.boards:
            seen = by_board[(m.round, b.board)]
            par = Fraction(sum(seen), len(seen))
            lines[m.first].margin += b.margin - par
            lines[m.second].margin += par - b.margin  # seat 1's margin is the negation
    order = sorted(lines.values(), key=_key)
    for i, line in enumerate(order):
        same = i and _key(line)[:3] == _key(order[i - 1])[:3]
        line.rank = order[i - 1].rank if same else i + 1
    return order


def _key(line: SwissStanding) -> tuple[Fraction, Fraction, Fraction, str]:
    return (-line.points, -line.buchholz, -line.margin, line.entrant)


def swiss_pairing(standings: Sequence[SwissStanding]) -> Pairing:
    """The next round's pairs from the standings (best first): no rematch, a bye for an odd
    count to the lowest-ranked without one. The better-ranked of a pair sits in seat 0 (every
    table plays the same boards from the same seats, so the duplicate margin compares like
    with like whoever sits where).

    Raises ``ValueError`` when no pairing without a rematch exists (more rounds than such a
    field allows).
    """
    order = [s.entrant for s in standings]
    met = {s.entrant: set(s.met) for s in standings}
    bye: str | None = None
    if len(order) % 2:
        for candidate in reversed(standings):
            if candidate.byes == 0:
                bye = candidate.entrant
                break
        else:
            bye = standings[-1].entrant
        order.remove(bye)
    pairs = _pair(order, met)
    if pairs is None:
        raise ValueError("no pairing without a rematch is left for these entrants")
    return Pairing(tuple(pairs), bye)


def _pair(order: list[str], met: dict[str, set[str]]) -> list[tuple[str, str]] | None:
    if not order:
        return []
    first, rest = order[0], order[1:]
    for i, other in enumerate(rest):
        if other in met[first]:
            continue
        tail = _pair(rest[:i] + rest[i + 1:], met)
        if tail is not None:
            return [(first, other), *tail]
    return None
