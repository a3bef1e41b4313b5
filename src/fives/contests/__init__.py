"""Events people play in on the site (issue 30): arenas and duplicate Swiss, their pairing and
standings as pure functions of what was played (the server stores, these decide)."""

from fives.contests.arena import (
    ArenaResult,
    ArenaStanding,
    Outcome,
    arena_points,
    arena_standings,
    outcomes_of_places,
    pair_arena,
)
from fives.contests.swiss import (
    Board,
    Bye,
    Pairing,
    SwissMatch,
    SwissStanding,
    swiss_pairing,
    swiss_standings,
)

__all__ = ["ArenaResult", "ArenaStanding", "Board", "Bye", "Outcome", "Pairing", "SwissMatch",
           "SwissStanding", "arena_points", "arena_standings", "outcomes_of_places", "pair_arena",
           "swiss_pairing", "swiss_standings"]
