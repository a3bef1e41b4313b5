"""What one seat may know: the only exit for hidden information.

A :class:`View` holds the seat's own hand, the layout, the public history (a draw shows its
tile only to the drawer), hand and stock sizes, scores and, on the seat's turn, the legal
actions. It never holds another seat's tiles or the stock order. The public (spectator) view
holds no hand at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, get_args

from fives.core.games import Config
from fives.core.history import HistoryItem, PastRound, history_of, public_end
from fives.core.layout import Layout
from fives.core.outcome import EndReason, Payment, RoundEnd, Score, score_json
from fives.core.pickling import pickle_by_constructor
from fives.core.state import State
from fives.core.tiles import Action, Tile, tiles_of_mask

__all__ = ["HistoryItem", "PastRound", "View", "public_view", "view_of"]


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
    #: the finished rounds as everyone saw them
    past: tuple[PastRound, ...] = ()

    @property
    def players(self) -> int:
        return self.config.players

    @staticmethod
    def from_json(data: Mapping[str, Any], legal: Any = None) -> View:
        """Rebuild a view from :meth:`to_json`'s JSON (an ``act`` line of BOT-PROTOCOL.md).

        The layout is rebuilt by replaying the history's plays on a fresh layout; ``legal``
        (the ``act`` line's list) overrides the view's own. Points of past plays are recomputed
        from the ends totals; in Fives and Threes a play whose points would certainly have
        passed 61 counts 0 (the view does not say whether a play that might have fitted was
        discarded). Finished rounds are not part of the JSON. Raises ``ValueError`` for JSON
        that does not describe a view.
        """
        return _view_from_json(data, legal)

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
            "out": list(self.out),
            "round_start_scores": [score_json(s) for s in self.round_start_scores],
        }


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
        history=history_of(state.log, seat),
        layout=state.layout.copy(),
        turn=turn,
        legal=legal,
        end=public_end(state.round_end),
        over=state.over,
        winner=state.winner,
        out=tuple(state.out),
        round_start_scores=tuple(start),
        past=tuple(r.public() for r in state.finished),
    )


def public_view(state: State) -> View:
    return view_of(state, None)


# -- a view from its JSON (the bot protocol's ``act`` line, a browser state) --------------------


def _score(x: Any) -> Score:
    if isinstance(x, bool) or not isinstance(x, int | float):
        raise ValueError(f"a score is a number, not {x!r}")
    if isinstance(x, int):
        return x
    f = Fraction(x).limit_denominator(2)
    return int(f) if f.denominator == 1 else f


def _int(data: Mapping[str, Any], key: str, default: int | None = None) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"field {key!r} must be a whole number, not {value!r}")
    return value


def _scores(raw: Any, sides: int, default: tuple[Score, ...] | None) -> tuple[Score, ...]:
    if raw is None and default is not None:
        return default
    if not isinstance(raw, list) or len(raw) != sides:
        raise ValueError(f"scores must list {sides} numbers, not {raw!r}")
    return tuple(_score(s) for s in raw)


def _out(data: Mapping[str, Any], hand_sizes: tuple[int, ...], played: bool) -> tuple[bool, ...]:
    raw = data.get("out")
    if isinstance(raw, list) and len(raw) == len(hand_sizes):
        return tuple(bool(x) for x in raw)
    # an older host: a seat with no tiles once the round is under way has gone out
    return tuple(size == 0 for size in hand_sizes) if played else (False,) * len(hand_sizes)


def _choice(value: Any, allowed: tuple[str, ...], field: str) -> Any:
    if value not in allowed:
        raise ValueError(f"field {field!r} must be one of {', '.join(allowed)}, not {value!r}")
    return value


def _round_end(data: Any, sides: int) -> RoundEnd | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ValueError("field 'end' must be an object or null")
    reached = data.get("reached")
    return RoundEnd(
        reason=_choice(data.get("reason"), get_args(EndReason), "reason"),
        winner=data.get("winner"),
        points=tuple(_score(p) for p in data.get("points", [0] * sides)),
        pips=tuple(int(p) for p in data.get("pips", [])),
        payment=_choice(data.get("payment", "none"), get_args(Payment), "payment"),
        went_out=data.get("went_out"),
        discarded=int(data.get("discarded") or 0),
        reached=reached if isinstance(reached, int) and not isinstance(reached, bool) else None,
    )


def _view_from_json(data: Mapping[str, Any], legal: Any = None) -> View:
    """See :meth:`View.from_json`."""
    if not isinstance(data, Mapping):
        raise ValueError("a view is a JSON object")
    config = Config.from_header(data)
    n = config.players
    seat = data.get("seat")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
        raise ValueError(f"field 'seat' must be a seat from 0 to {n - 1}, not {seat!r}")
    hand = tuple(sorted(Tile.parse(t) for t in data.get("hand", [])))
    sizes_raw = data.get("hand_sizes")
    if not isinstance(sizes_raw, list) or len(sizes_raw) != n:
        raise ValueError(f"field 'hand_sizes' must list {n} numbers")
    hand_sizes = tuple(int(x) for x in sizes_raw)
    scores = _scores(data.get("scores", [0] * config.sides), config.sides, None)
    game = config.game
    layout = Layout(game.spinner, config.side_arm_gate)
    history: list[HistoryItem] = []
    plays: list[tuple[int, int, int]] = []  # (index in history, side, points)
    for item in data.get("history", []):
        if not isinstance(item, list) or len(item) < 2:
            raise ValueError(f"a history item is [seat, action], not {item!r}")
        who = item[0]
        if isinstance(who, bool) or not isinstance(who, int) or not 0 <= who < n:
            raise ValueError(f"a history item names no seat: {item!r}")
        action = Action.parse(item[1])
        tile = action.tile
        if tile is None:
            drawn = Tile.parse(item[2]) if len(item) > 2 and item[2] is not None else None
            history.append(HistoryItem(who, action, tile=drawn))
            continue
        if layout.count == 0:
            if action.kind != "lead":
                raise ValueError(f"the round must open with a lead, not {action}")
            total = layout.place(tile.id, 0)
        else:
            end = action.end
            if end is None or not layout.fits(tile.id, end):
                raise ValueError(f"{action} does not fit the layout")
            total = layout.place(tile.id, end)
        points = game.play_points[total]
        plays.append((len(history), config.side_of(who), points))
        history.append(HistoryItem(who, action, total, points))
    round_start = _scores(data.get("round_start_scores"), config.sides, ())
    if game.exact_target and round_start:
        # FT-10, read forwards from the round's start: a play whose points (with the hand-ending
        # point, for the play that ended the round) would pass the target scored nothing
        now = list(round_start)
        end_raw = data.get("end")
        ended_by = plays[-1][0] if plays and isinstance(end_raw, Mapping) and \
            end_raw.get("reason") == "domino" else None
        for index, side, points in plays:
            event = points + (game.domino_bonus if index == ended_by else 0)
            if event and now[side] + event > config.target:
                old = history[index]
                history[index] = HistoryItem(old.seat, old.action, old.ends, 0)
            else:
                now[side] += event
    elif game.exact_target:
        # FT-10 for a host that sends no round_start_scores, read backwards from the scores
        # now: a play that would have to have started below zero was discarded.
        now = list(scores)
        for index, side, points in reversed(plays):
            if not points:
                continue
            if now[side] - points < 0:
                old = history[index]
                history[index] = HistoryItem(old.seat, old.action, old.ends, 0)
            else:
                now[side] -= points
    turn = data.get("turn")
    if turn is not None and (isinstance(turn, bool) or not isinstance(turn, int)):
        raise ValueError(f"field 'turn' must be a seat or null, not {turn!r}")
    if turn is None and seat is not None and legal is not None:
        turn = seat
    legal_raw = legal if legal is not None else data.get("legal", [])
    if not isinstance(legal_raw, list):
        raise ValueError("the legal actions are a list")
    legal_actions = tuple(Action.parse(a) for a in legal_raw)
    round_end = _round_end(data.get("end"), config.sides)
    return View(
        config=config,
        seat=seat,
        round=_int(data, "round", 0),
        leader=_int(data, "leader"),
        hand=hand,
        hand_sizes=hand_sizes,
        stock=_int(data, "stock", 0),
        scores=scores,
        history=tuple(history),
        layout=layout,
        turn=turn,
        legal=legal_actions,
        end=round_end,
        over=bool(data.get("over")),
        winner=data.get("winner"),
        out=_out(data, hand_sizes, layout.count > 0),
        round_start_scores=round_start,
    )


pickle_by_constructor(View)
