"""Bad input to the engine: a tile, end or action written wrongly, a game or house rule that
does not exist or fit, a deal or leader the rules do not allow.

Each error carries a ``key`` and its ``params`` (the catalogue's ``engine.reason.<key>``
translates it) and reads, as a string, in English from :data:`ERROR_TEXT`, quoting the input.

>>> str(InputError("players_count", value="9"))
'players must be 2, 3 or 4, not 9'
"""

from __future__ import annotations

from typing import Final

__all__ = ["ERROR_TEXT", "InputError"]

#: English wording of each kind of bad input; interfaces translate by key.
ERROR_TEXT: Final[dict[str, str]] = {
    # notation (tiles.py)
    "tile_form": "a tile is written 'a-b' with halves 0 to 6, not {text}",
    "no_such_tile": "no such tile: {text} (halves go from 0 to 6)",
    "end_form": "an end is one of W, E, N, S, not {text}",
    "action_form": "an action is 'a-b', 'a-b@X' (X one of W, E, N, S), 'draw' or 'pass', not {text}",
    # games and house rules (games.py)
    "header_object": "a header is a JSON object, not {kind}",
    "missing_field": "missing field '{field}'",
    "rules_object": "field 'rules' must be an object, not {value}",
    "unknown_game": "unknown game {name}: one of {known}",
    "players_count": "players must be 2, 3 or 4, not {value}",
    "teams_bool": "teams must be true or false, not {value}",
    "teams_players": "teams need 4 players, not {players}",
    "no_partnerships": "{game} has no partnerships",
    "target_range": "target must be a whole number from 1 to 10000, not {value}",
    "unknown_house_rule": "unknown house rule {rule}: one of {known}",
    "house_rule_type": "house rule {rule} must be {kind}, not {value}",
    "hand_size_fit": "hand_size {size} does not fit {players} players in a 28-tile set",
    # deals (state.py)
    "deal_hands": "the deal has {hands} hands for {players} players",
    "deal_hand_size": "seat {seat} is dealt {count} tiles; {game} with {players} players deals {size}",
    "deal_twice": "tile {tile} appears twice in the deal",
    "deal_missing": "hands and stock must hold all 28 tiles once; missing: {tiles}",
    "leader_range": "leader must be a seat from 0 to {last}, not {value}",
    "leader_must_be": "the leader must be seat {want} ({why}), not {leader}",
    "no_more_rounds": "the match is already over; no more rounds",
    "previous_round_unfinished": "the previous round has not ended, so no new round can start",
    # why a round's leader is who it is (the ``why`` of ``leader_must_be``)
    "lead.highest-double": "the holder of the highest double, or of the heaviest tile",
    "lead.rotate": "the lead passes one seat clockwise each round",
    "lead.last-tile": "the player who played the last tile leads",
    "lead.lot": "by lot",
}


class InputError(ValueError):
    """Input the engine cannot take; ``key`` and ``params`` name it for translation."""

    def __init__(self, key: str, **params: object) -> None:
        self.key = key
        self.params: dict[str, object] = params
        super().__init__(ERROR_TEXT[key].format(**params))
