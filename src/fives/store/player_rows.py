"""Rows of the player store, the same for every database, and the anonymising of a
forgotten player's name in the tables and records they sat at."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from fives.store.players import PlayerMatch

__all__ = ["MATCH_COLUMNS", "PLAYER_COLUMNS", "RATING_COLUMNS", "anonymise", "match_of",
           "match_params"]

PLAYER_COLUMNS = "id, name, tag, kind, created"
RATING_COLUMNS = "player_id, game, mu, sigma, matches, wins, updated"
MATCH_COLUMNS = ("table_id, player_id, seat, game, players, rated, private, won, points, rounds, "
                 "ts, mu, sigma")


def match_of(row: Iterable[Any]) -> PlayerMatch:
    (table_id, player_id, seat, game, players, rated, private, won, points, rounds, ts, mu,
     sigma) = row
    return PlayerMatch(table_id, player_id, seat, game, players, bool(rated), bool(private),
                       bool(won), points, rounds, ts, mu, sigma)


def match_params(m: PlayerMatch) -> tuple[Any, ...]:
    return (m.table_id, m.player_id, m.seat, m.game, m.players, int(m.rated), int(m.private),
            int(m.won),
            m.points, m.rounds, m.ts, m.mu, m.sigma)


def anonymise(player_id: str, anonymous: str, meta_text: Any,
              record_text: Any) -> tuple[str | None, str | None]:
    """A table's meta and record JSON with the player's seats renamed ``anonymous`` and their
    id dropped; (None, None) if the player did not sit there (or the row is damaged: it is
    left as it is)."""
    try:
        meta = json.loads(meta_text) if isinstance(meta_text, str) else meta_text
        record = (json.loads(record_text) if isinstance(record_text, str) else record_text)
    except (ValueError, RecursionError):
        return None, None
    if not isinstance(meta, dict) or not isinstance(meta.get("seats"), list):
        return None, None
    seats = [i for i, s in enumerate(meta["seats"])
             if isinstance(s, dict) and s.get("player") == player_id]
    if not seats:
        return None, None
    for i in seats:
        meta["seats"][i].update(player=None, name=anonymous)
    if isinstance(record, dict) and isinstance(record.get("seats"), list):
        for i in seats:
            if i < len(record["seats"]):
                record["seats"][i] = anonymous
    return (json.dumps(meta, ensure_ascii=False),
            json.dumps(record, ensure_ascii=False) if record is not None else None)
