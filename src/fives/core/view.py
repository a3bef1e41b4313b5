"""What one seat may know: the only exit for hidden information.

A :class:`View` holds the seat's own hand, the layout, the public history (a draw shows its
tile only to the drawer), hand and stock sizes, scores and, on the seat's turn, the legal
actions. It never holds another seat's tiles or the stock order. The public (spectator) view
holds no hand at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fives.core.games import Config
from fives.core.layout import Layout
from fives.core.pickling import pickle_by_constructor
from fives.core.state import RoundEnd, RoundInfo, Score, State, score_json
from fives.core.tiles import ACTIONS, ALL_TILES, Action, Tile, tiles_of_mask

__all__ = ["HistoryItem", "View", "public_view", "view_of"]


@dataclass(frozen=True)
class HistoryItem:
    """One public action of the round; ``tile`` is set only for the viewer's own draws."""

    seat: int
    action: Action
    ends: int | None = None
    points: int | None = None
    tile: Tile | None = None

    def to_json(self) -> list[Any]:
        out: list[Any] = [self.seat, str(self.action)]
        if self.tile is not None:
            out.append(str(self.tile))
        return out


@dataclass(frozen=True)
class PastRound:
    """A finished round as everyone saw it: its leader, plays and end (hands revealed at the
    end are public by then, as at a real table)."""

    leader: int
    history: tuple[HistoryItem, ...]
    end: RoundEnd | None
    scores: tuple[Score, ...]


@dataclass(frozen=True)
class View:
    config: Config
    seat: int | None  # None: the public (spectator) view
    round: int  # index of the round in play
    leader: int
    hand: tuple[Tile, ...]
    hand_sizes: tuple[int, ...]
    stock: int
    scores: tuple[Score, ...]
    history: tuple[HistoryItem, ...]
    layout: Layout
    turn: int | None
    legal: tuple[Action, ...]
    end: RoundEnd | None
    over: bool
    winner: int | None
    out: tuple[bool, ...]
    #: the scores when this round was dealt
    round_start_scores: tuple[Score, ...] = ()
    #: the finished rounds, read when asked for (building them costs more than the rest)
    finished: tuple[RoundInfo, ...] = ()

    @property
    def past(self) -> tuple[PastRound, ...]:
        """The finished rounds as everyone saw them."""
        return tuple(
            PastRound(r.leader, _history(r.log, None), r.end, tuple(r.scores))
            for r in self.finished
        )

    @property
    def players(self) -> int:
        return self.config.players

    def to_json(self) -> dict[str, Any]:
        """The view as the bot protocol and the browser receive it (BOT-PROTOCOL.md)."""
        end = self.end
        return {
            **self.config.header(),
            "rules": self.config.house_rules(),
            "seat": self.seat,
            "round": self.round,
            "leader": self.leader,
            "hand": [str(t) for t in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "stock": self.stock,
            "scores": [score_json(s) for s in self.scores],
            "history": [h.to_json() for h in self.history],
            "layout": self.layout.explain(),
            "turn": self.turn,
            "legal": [str(a) for a in self.legal],
            "end": None if end is None else end.to_json(),
            "over": self.over,
            "winner": self.winner,
        }


def _history(log: list[tuple[int, int, int, int, int]], seat: int | None) -> tuple[HistoryItem, ...]:
    out = []
    for who, code, ends, points, tile in log:
        action = ACTIONS[code]
        if action.is_play:
            out.append(HistoryItem(who, action, ends, points))
        else:
            shown = ALL_TILES[tile] if (tile >= 0 and seat is not None and who == seat) else None
            out.append(HistoryItem(who, action, tile=shown))
    return tuple(out)


def view_of(state: State, seat: int | None) -> View:
    """The view of ``seat`` (or the public view for ``None``)."""
    if seat is not None and not 0 <= seat < state.n:
        raise ValueError(f"no seat {seat!r} at a {state.n}-player table")
    turn = state.turn if state.turn >= 0 else None
    legal = tuple(state.legal_actions()) if seat is not None and turn == seat else ()
    start = state.finished[-1].scores if state.finished else [0] * len(state.scores)
    return View(
        config=state.config,
        seat=seat,
        round=state.round_index,
        leader=state.leader,
        hand=tuple(tiles_of_mask(state.hands[seat])) if seat is not None else (),
        hand_sizes=tuple(state.hand_sizes()),
        stock=state.stock_left(),
        scores=tuple(state.scores_out()),
        history=_history(state.log, seat),
        layout=state.layout.copy(),
        turn=turn,
        legal=legal,
        end=state.round_end,
        over=state.over,
        winner=state.winner,
        out=tuple(state.out),
        round_start_scores=tuple(start),
        finished=tuple(state.finished),
    )


def public_view(state: State) -> View:
    return view_of(state, None)

pickle_by_constructor(HistoryItem, PastRound, View)
