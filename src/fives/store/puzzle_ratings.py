"""What the store keeps of puzzles (issue 28): each identity's puzzle rating and streak, each
puzzle's own rating (a puzzle that beats many players is rated high), every first try, and the
puzzles mined from finished matches of people (each a :class:`fives.puzzles.Puzzle` as JSON).

Only a player's first try at a puzzle is rated: a puzzle seen again (its answer shown the first
time) is checked but moves no rating, so nobody farms the ladder on puzzles they know. The try,
both ratings and the streak change in one transaction.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

__all__ = ["PUZZLE_RATING_COLUMNS", "PuzzleRating", "PuzzleStore", "PuzzleTry", "RatePuzzle",
           "decide"]

PUZZLE_RATING_COLUMNS = "id, mu, sigma, tries, solved, streak, best_streak, updated"


@dataclass(frozen=True)
class PuzzleRating:
    """A player's puzzle rating (``id`` the player's), or a puzzle's own (the puzzle's id)."""

    id: str
    mu: float
    sigma: float
    tries: int = 0
    solved: int = 0
    streak: int = 0  # puzzles solved in a row at the first try, now
    best_streak: int = 0
    updated: float = 0.0


@dataclass(frozen=True)
class PuzzleTry:
    """What one answer did: ``rated`` False when the player had tried the puzzle before (the
    ratings are then as they were)."""

    rated: bool
    correct: bool
    player_before: PuzzleRating | None
    player: PuzzleRating
    puzzle_before: PuzzleRating | None
    puzzle: PuzzleRating


#: the rating step: (player's rating, puzzle's, solved) → the new (mu, sigma) of the player and
#: of the puzzle; called inside the store's transaction
RatePuzzle = Callable[[PuzzleRating, PuzzleRating, bool],
                      tuple[tuple[float, float], tuple[float, float]]]


def decide(first: bool, correct: bool, ts: float, player: PuzzleRating,
           puzzle: PuzzleRating, rate: RatePuzzle) -> PuzzleTry:
    """What an answer does to the two rows as they are stored (a new one at the start):
    nothing but report them for a try that is not the first; for the first, both ratings
    moved, the counts and the player's streak (grown, or broken by a wrong answer)."""
    before_player = player if player.tries else None
    before_puzzle = puzzle if puzzle.tries else None
    if not first:
        return PuzzleTry(False, correct, before_player, player, before_puzzle, puzzle)
    mine, its = rate(player, puzzle, correct)
    streak = player.streak + 1 if correct else 0
    new_player = replace(player, mu=mine[0], sigma=mine[1], tries=player.tries + 1,
                         solved=player.solved + int(correct), streak=streak,
                         best_streak=max(player.best_streak, streak), updated=ts)
    new_puzzle = replace(puzzle, mu=its[0], sigma=its[1], tries=puzzle.tries + 1,
                         solved=puzzle.solved + int(correct), updated=ts)
    return PuzzleTry(True, correct, before_player, new_player, before_puzzle, new_puzzle)


class PuzzleStore(ABC):
    """Puzzle ratings (mixed into :class:`~fives.store.base.Store`)."""

    @abstractmethod
    async def try_puzzle(self, player_id: str, puzzle_id: str, correct: bool, ts: float,
                         rate: RatePuzzle, start: tuple[float, float]) -> PuzzleTry:
        """Record the player's answer: the first try at a puzzle moves both ratings and the
        streak (``rate``; a rating not stored yet is ``start``, a (mu, sigma)); a later one
        only reports them (:func:`decide`)."""

    @abstractmethod
    async def puzzle_rating(self, player_id: str) -> PuzzleRating | None: ...

    @abstractmethod
    async def puzzle_strength(self, puzzle_id: str) -> PuzzleRating | None:
        """The puzzle's own rating (None until somebody has tried it)."""

    @abstractmethod
    async def puzzles_tried(self, player_id: str, puzzle_ids: list[str]) -> set[str]:
        """Which of these puzzles the player has tried."""

    @abstractmethod
    async def add_mined_puzzles(self, table_id: str, puzzles: list[dict[str, Any]],
                                ts: float) -> int:
        """Keep puzzles mined from a match (each with its ``id``; one already kept is left as
        it is); how many were new."""

    @abstractmethod
    async def mined_puzzles(self, limit: int = 5000) -> list[dict[str, Any]]:
        """The mined puzzles in the order they were found (the oldest first)."""

    @abstractmethod
    async def mined_puzzle(self, puzzle_id: str) -> dict[str, Any] | None: ...
