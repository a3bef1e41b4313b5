"""Ratings per game family with OpenSkill's Weng-Lin Plackett-Luce model (the model the
library recommends: it rates any number of sides, each of one player or a partnership), from
rated matches only. A bot level is rated too, as a player of its own, from its rated matches
against people (bots' matches among themselves are never rated).

Shown as ``mu`` × 60 (a new player starts at 1500, as on most sites); provisional ("?")
while uncertain: fewer than :data:`PROVISIONAL_MATCHES` rated matches or a sigma above
:data:`PROVISIONAL_SIGMA`. Leaderboards sort by the conservative estimate mu − 3σ.
"""

from __future__ import annotations

import time
from typing import Any

from openskill.models import PlackettLuce

from fives.core.state import State
from fives.server.meta import TableMeta
from fives.store.players import PlayerMatch, Rate, StoredRating

__all__ = ["MODEL", "bot_player", "match_rows", "rating_json", "rating_step", "shown", "side_places"]

#: the default model: tau (a little uncertainty added each match) keeps a rating movable
MODEL = PlackettLuce()
SCALE = 60
PROVISIONAL_MATCHES = 5
PROVISIONAL_SIGMA = 6.0


def shown(mu: float) -> int:
    return round(mu * SCALE)


def provisional(rating: StoredRating | None) -> bool:
    return rating is None or (rating.matches < PROVISIONAL_MATCHES
                              or rating.sigma > PROVISIONAL_SIGMA)


def rating_json(rating: StoredRating | None) -> dict[str, Any]:
    if rating is None:
        return {"rating": shown(MODEL.mu), "provisional": True, "matches": 0, "wins": 0}
    return {"game": rating.game, "rating": shown(rating.mu), "provisional": provisional(rating),
            "matches": rating.matches, "wins": rating.wins, "sigma": round(rating.sigma, 3)}


def bot_player(level: str) -> str:
    """The player id under which a bot level is rated."""
    return f"bot-{level}"


def side_places(state: State) -> list[int]:
    """Each side's place (1 best; equal scores share a place); the winner first."""
    scores = [float(s) for s in state.scores_out()]
    ranks = [1 + sum(other > mine for other in scores) for mine in scores]
    if state.winner is not None:
        ranks = [1 if side == state.winner else r + 1 for side, r in enumerate(ranks)]
    return ranks


def match_rows(table_id: str, meta: TableMeta, state: State, ts: float) -> list[PlayerMatch]:
    """Each identified seat's part in the finished match: people with an identity, and at a
    rated table the bot levels that played them."""
    cfg = meta.config
    scores = state.scores_out()
    rows: list[PlayerMatch] = []
    for seat_no, seat in enumerate(meta.seats):
        player = seat.player
        if seat.kind == "bot" and not player and meta.counts:
            player = bot_player(seat.level or "easy")
        if player is None or any(row.player_id == player for row in rows):
            continue  # a level at two seats is rated once, at its first
        side = cfg.side_of(seat_no)
        rows.append(PlayerMatch(
            table_id, player, seat_no, cfg.game.name, cfg.players, meta.counts, meta.private,
            state.winner == side, int(scores[side]), state.round_index + 1, ts))
    return rows


def _model_rating(rating: StoredRating | None) -> Any:
    return MODEL.rating() if rating is None else MODEL.rating(mu=rating.mu, sigma=rating.sigma)


def rating_step(meta: TableMeta, state: State, rows: list[PlayerMatch]) -> Rate:
    """The rating step of a finished rated match: sides as OpenSkill's teams, ranked by the
    result."""
    cfg = meta.config
    ranks = side_places(state)
    game = cfg.game.name
    seat_of = {row.player_id: row.seat for row in rows}

    def rate(now: dict[str, StoredRating | None]) -> dict[str, StoredRating]:
        sides: dict[int, list[str]] = {}
        for player_id in now:
            sides.setdefault(cfg.side_of(seat_of[player_id]), []).append(player_id)
        order = sorted(sides)
        teams = [[_model_rating(now[p]) for p in sides[side]] for side in order]
        if len(teams) < 2:
            return {}
        rated = MODEL.rate(teams, ranks=[ranks[side] for side in order])
        new = {}
        stamp = time.time()
        for side, team in zip(order, rated, strict=True):
            for player_id, r in zip(sides[side], team, strict=True):
                old = now[player_id]
                new[player_id] = StoredRating(
                    player_id, game, r.mu, r.sigma, (old.matches if old else 0) + 1,
                    (old.wins if old else 0) + (state.winner == side), stamp)
        return new

    return rate
