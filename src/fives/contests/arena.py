"""Arenas (issue 30): players join for a set time, are paired as soon as they are free with
others of the event, and score by each match they finish. Pure: the server feeds it who is
free and what finished; it says who plays whom and how they stand.

The scoring rule (lichess's arena, as players know it): a win scores 2, a draw 1, a loss 0.
Two wins in a row put a player **on a streak**: while on it, a win scores 4 and a draw 2; a
game that is not a win ends the streak (its points still doubled if it was a draw). A match of
three or four players (or two partnerships) is won by the one who finishes first (a side: both
partners win); first place shared is a draw for those who share it; every other place is a
loss.

Pairing: the free players by their points (then their rating), each with the nearest by points
who was not their last opponent; a player left without a fitting partner waits for the next
pairing (never paired with the same opponent twice in a row, even when that means waiting).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum

__all__ = ["ArenaResult", "ArenaStanding", "Outcome", "arena_points", "arena_standings",
           "outcomes_of_places", "pair_arena"]

WIN_POINTS = 2
DRAW_POINTS = 1
STREAK_AFTER = 2  # wins in a row that start a streak


class Outcome(Enum):
    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


def outcomes_of_places(places: Sequence[int]) -> list[Outcome]:
    """Each finisher's outcome from its place (1 the best; equal places share): the sole first
    wins, a shared first draws, the rest lose.

    >>> [o.value for o in outcomes_of_places([2, 1, 3])]
    ['loss', 'win', 'loss']
    >>> [o.value for o in outcomes_of_places([1, 1, 2, 2])]
    ['draw', 'draw', 'loss', 'loss']
    """
    if not places:
        return []
    best = min(places)
    firsts = sum(p == best for p in places)
    return [Outcome.LOSS if p != best else Outcome.WIN if firsts == 1 else Outcome.DRAW
            for p in places]


@dataclass(frozen=True)
class ArenaResult:
    """One finished match of the arena: its players in seat order, each one's outcome, and
    when it finished (any increasing number: the order the streaks are counted in)."""

    players: tuple[str, ...]
    outcomes: tuple[Outcome, ...]
    finished: float

    def __post_init__(self) -> None:
        if len(self.players) != len(self.outcomes) or len(set(self.players)) != len(self.players):
            raise ValueError(f"a result names each player once with an outcome: {self!r}")


def arena_points(outcomes: Sequence[Outcome]) -> tuple[list[int], bool]:
    """The points of a player's games in order, and whether the player is on a streak now.

    >>> W, D, L = Outcome.WIN, Outcome.DRAW, Outcome.LOSS
    >>> arena_points([W, W, W, D, W, L])
    ([2, 2, 4, 2, 2, 0], False)
    >>> arena_points([L, W, W])
    ([0, 2, 2], True)
    """
    points: list[int] = []
    run = 0  # wins in a row just before this game
    for outcome in outcomes:
        on_streak = run >= STREAK_AFTER
        base = WIN_POINTS if outcome is Outcome.WIN else DRAW_POINTS if outcome is Outcome.DRAW else 0
        points.append(base * 2 if on_streak else base)
        run = run + 1 if outcome is Outcome.WIN else 0
    return points, run >= STREAK_AFTER


@dataclass
class ArenaStanding:
    """A player's line in the standings: the points of each game in order (a streak's doubled
    points shown doubled), the total, and whether the player is on a streak now."""

    player: str
    games: list[int] = field(default_factory=list)
    points: int = 0
    wins: int = 0
    on_streak: bool = False
    rank: int = 0


def arena_standings(players: Sequence[str], results: Sequence[ArenaResult]) -> list[ArenaStanding]:
    """Every player's standing from the finished matches, best first: by points, then wins,
    then fewer games (the same points from fewer games), then name; equal on all but the name
    share a rank."""
    outcomes: dict[str, list[Outcome]] = {p: [] for p in players}
    for result in sorted(results, key=lambda r: r.finished):
        for player, outcome in zip(result.players, result.outcomes, strict=True):
            outcomes.setdefault(player, []).append(outcome)
    lines = []
    for player, seen in outcomes.items():
        games, streak = arena_points(seen)
        lines.append(ArenaStanding(player, games, sum(games),
                                   sum(o is Outcome.WIN for o in seen), streak))
    lines.sort(key=lambda s: (-s.points, -s.wins, len(s.games), s.player))
    for i, line in enumerate(lines):
        same = i and (line.points, line.wins, len(line.games)) == (
            lines[i - 1].points, lines[i - 1].wins, len(lines[i - 1].games))
        line.rank = lines[i - 1].rank if same else i + 1
    return lines


def pair_arena(free: Sequence[str], points: Mapping[str, int], last_opponents: Mapping[str, set[str]],
               size: int = 2, rating: Mapping[str, float] | None = None,
               people: set[str] | None = None) -> list[tuple[str, ...]]:
    """Groups of ``size`` among the ``free`` players: by points (then rating, then name), each
    group the nearest by points, none with a player who met another of it in their last match,
    and (given ``people``) none without one of them: bots entered in an arena play people.
    Who cannot be placed waits (the next pairing, when others are free, may fit them).

    >>> pair_arena(["a", "b", "c", "d"], {"a": 9, "b": 8, "c": 2, "d": 1}, {})
    [('a', 'b'), ('c', 'd')]
    >>> pair_arena(["a", "b", "c"], {"a": 9, "b": 8, "c": 2}, {"a": {"b"}, "b": {"a"}})
    [('a', 'c')]
    >>> pair_arena(["bot1", "bot2", "c"], {"bot1": 9, "bot2": 8, "c": 2}, {}, people={"c"})
    [('bot1', 'c')]
    """
    rated = rating or {}
    order = sorted(free, key=lambda p: (-points.get(p, 0), -rated.get(p, 0.0), p))
    groups: list[tuple[str, ...]] = []
    left = list(order)
    while len(left) >= size:
        first = left[0]
        group = [first]
        for other in sorted(left[1:], key=lambda p: (abs(points.get(p, 0) - points.get(first, 0)),
                                                      left.index(p))):
            if (people is not None and len(group) == size - 1 and other not in people
                    and not people.intersection(group)):
                continue  # the last place of a group of bots is a person's
            if all(other not in last_opponents.get(g, set()) and g not in last_opponents.get(other, set())
                   for g in group):
                group.append(other)
                if len(group) == size:
                    break
        if len(group) == size:
            groups.append(tuple(group))
            left = [p for p in left if p not in group]
        else:
            left.pop(0)  # waits: nobody free fits them now
    return groups
