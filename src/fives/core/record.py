"""Game records (RECORD.md): read, check, write and replay them.

>>> rec = Record.from_json('''{"game": "fives-and-threes", "players": 2, "rounds": [
...   {"leader": 0, "hands": [["1-4","4-4","1-2","0-0","0-1","0-2","0-3"],
...                           ["1-1","3-4","0-4","0-6","1-6","2-2","2-3"]],
...    "stock": ["2-4","2-5","2-6","3-3","3-5","3-6","4-5","4-6","5-6","6-6","5-5","1-3","1-5","0-5"],
...    "actions": ["1-4", "1-1@W"]}]}''')
>>> report = replay(rec)
>>> [(e["action"], e["ends"], e["points"]) for e in report["rounds"][0]["events"]]
[('1-4', 5, 1), ('1-1@W', 6, 2)]
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fives.core.games import Config, RulesError
from fives.core.outcome import score_json
from fives.core.state import DealError, IllegalAction, RoundInfo, State
from fives.core.tiles import ACTIONS, ALL_TILES, Action, NotationError, Tile

__all__ = ["Record", "RecordError", "RecordRound", "record_of", "replay", "report_of", "score_json"]


class RecordError(ValueError):
    """A record that breaks the format or the rules; the message names where and why.

    ``key`` and ``params`` name the reason for translation (``engine.reason.<key>`` in the
    catalogue, as :class:`~fives.core.state.IllegalAction` does) when it has a key: the
    engine's refusals and the record-level ones of :func:`replay_state`; None otherwise.
    """

    def __init__(
        self,
        reason: str,
        *,
        round_no: int | None = None,
        action_no: int | None = None,
        seat: int | None = None,
        action: str | None = None,
        legal: Sequence[Action] | None = None,
        key: str | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        self.reason = reason
        self.key = key
        self.params: dict[str, object] = dict(params) if params is not None else {}
        self.round_no = round_no
        self.action_no = action_no
        self.seat = seat
        self.action = action
        self.legal = list(legal) if legal is not None else None
        parts = []
        if round_no is not None:
            parts.append(f"round {round_no + 1}")
        if action_no is not None:
            parts.append(f"action {action_no + 1}")
        if seat is not None:
            parts.append(f"seat {seat}")
        if action is not None:
            parts.append(f"{action!r}")
        where = ", ".join(parts)
        text = f"{where}: {reason}" if where else reason
        if self.legal is not None:
            text += f" (legal: {', '.join(str(a) for a in self.legal) or 'none'})"
        super().__init__(text)


@dataclass
class RecordRound:
    leader: int
    hands: list[list[Tile]]
    stock: list[Tile]
    actions: list[str]


@dataclass
class Record:
    """A match record as written: the configuration and the rounds, unchecked against rules."""

    config: Config
    rounds: list[RecordRound]
    seats: list[str] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @staticmethod
    def from_json(text: str) -> Record:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(
                f"malformed JSON: {exc}",
                key="malformed_json",
                params={"line": exc.lineno, "column": exc.colno},
            ) from None
        except RecursionError:
            raise RecordError("malformed JSON: nested too deeply", key="nested_too_deep") from None
        except ValueError as too_long:  # (one name per exception type: compiled, one type)
            # a number with more digits than Python converts (sys.set_int_max_str_digits)
            raise RecordError(f"malformed JSON: {too_long}", key="number_too_long") from None
        return Record.from_data(data)

    @staticmethod
    def from_data(data: Any) -> Record:
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object", key="not_object")
        if "rounds" not in data and "game" in data and "players" in data:
            raise RecordError("missing field 'rounds'", key="missing_field", params={"field": "rounds"})
        try:
            config = Config.from_header(data)
        except RulesError as exc:
            raise RecordError(str(exc), key=exc.key, params=exc.params) from None
        seats = data.get("seats")
        if seats is not None and (
            not isinstance(seats, list)
            or len(seats) != config.players
            or not all(isinstance(s, str) for s in seats)
        ):
            raise RecordError(
                f"field 'seats' must list {config.players} names",
                key="seats_count",
                params={"n": config.players},
            )
        raw_rounds = data["rounds"]
        if not isinstance(raw_rounds, list):
            raise RecordError("field 'rounds' must be a list", key="rounds_list")
        rounds = [_read_round(i, r) for i, r in enumerate(raw_rounds)]
        known = {"game", "players", "teams", "target", "rules", "seats", "rounds"}
        extra = {k: v for k, v in data.items() if k not in known}
        return Record(config, rounds, seats, extra)

    def to_data(self) -> dict[str, Any]:
        out = self.config.header()
        if self.seats is not None:
            out["seats"] = list(self.seats)
        out.update(self.extra)
        out["rounds"] = [
            {
                "leader": r.leader,
                "hands": [[str(t) for t in h] for h in r.hands],
                "stock": [str(t) for t in r.stock],
                "actions": list(r.actions),
            }
            for r in self.rounds
        ]
        return out

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_data(), indent=indent, ensure_ascii=False)


def _read_tiles(round_no: int, what: str, value: Any) -> list[Tile]:
    if not isinstance(value, list):
        raise RecordError(
            f"{what} must be a list of tiles", round_no=round_no, key="tiles_list", params={"what": what}
        )
    out = []
    for item in value:
        try:
            out.append(Tile.parse(item))
        except NotationError as exc:
            raise RecordError(
                f"{what}: {exc}", round_no=round_no, key="bad_tile", params={"what": what, "text": item}
            ) from None
    return out


def _read_round(i: int, raw: Any) -> RecordRound:
    if not isinstance(raw, dict):
        raise RecordError("a round is a JSON object", round_no=i, key="round_object")
    for key in ("leader", "hands", "stock", "actions"):
        if key not in raw:
            raise RecordError(
                f"missing field {key!r}", round_no=i, key="missing_field", params={"field": key}
            )
    leader = raw["leader"]
    if isinstance(leader, bool) or not isinstance(leader, int):
        raise RecordError(
            f"leader must be a seat number, not {leader!r}",
            round_no=i,
            key="leader_seat",
            params={"value": repr(leader)},
        )
    hands_raw = raw["hands"]
    if not isinstance(hands_raw, list):
        raise RecordError("hands must be a list of hands", round_no=i, key="hands_list")
    hands = [_read_tiles(i, f"hands[{s}]", h) for s, h in enumerate(hands_raw)]
    stock = _read_tiles(i, "stock", raw["stock"])
    actions = raw["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError("actions must be a list of strings", round_no=i, key="actions_list")
    return RecordRound(leader, hands, stock, list(actions))


def replay_state(record: Record) -> State:
    """Play a record through the engine; raise :class:`RecordError` at the first fault."""
    state = State(record.config)
    for i, rnd in enumerate(record.rounds):
        if state.over:
            raise RecordError(
                "the match is already over; no more rounds", round_no=i, key="no_more_rounds"
            )
        try:  # (a round before the previous one ended is the engine's DealError too)
            state.start_round(rnd.hands, rnd.stock, rnd.leader)
        except DealError as bad_deal:
            raise RecordError(
                str(bad_deal), round_no=i, key=bad_deal.key, params=bad_deal.params
            ) from None
        for k, text in enumerate(rnd.actions):
            if state.round_end is not None:
                why = "the match is over" if state.over else "the round is over"
                key = "no_more_actions_match" if state.over else "no_more_actions_round"
                raise RecordError(
                    f"{why}; no more actions", round_no=i, action_no=k, action=text, key=key
                )
            seat = state.turn  # someone is to act in a round that has not ended
            try:
                action = Action.parse(text)
            except NotationError as bad_notation:
                # one name per exception type: compiled, a name has a single type
                raise RecordError(
                    str(bad_notation), round_no=i, action_no=k, seat=seat, action=text,
                    legal=state.legal_actions(), key=bad_notation.key, params=bad_notation.params,
                ) from None
            try:
                state.play(action)
            except IllegalAction as refused:
                raise RecordError(
                    refused.reason, round_no=i, action_no=k, seat=seat, action=text,
                    legal=refused.legal, key=refused.key, params=refused.params,
                ) from None
    return state


def round_report(info: RoundInfo) -> dict[str, Any]:
    events: list[dict[str, Any]] = []
    for seat, code, ends, points, tile in info.log:
        event: dict[str, Any] = {"seat": seat, "action": str(ACTIONS[code])}
        if code < 140:
            event["ends"] = ends
            event["points"] = points
        elif tile >= 0:
            event["tile"] = str(ALL_TILES[tile])
        events.append(event)
    end = info.end
    return {
        "leader": info.leader,
        "events": events,
        "end": None if end is None else end.to_json(),
        "scores": [score_json(s) for s in info.scores],
    }


def report_of(state: State) -> dict[str, Any]:
    """The ``fives replay --json`` report of a match state (RECORD.md)."""
    out = state.config.header()
    out["rounds"] = [round_report(r) for r in state.rounds()]
    out["scores"] = [score_json(s) for s in state.scores]
    out["winner"] = state.winner
    out["over"] = state.over
    return out


def replay(record: Record) -> dict[str, Any]:
    return report_of(replay_state(record))


def record_of(state: State, seats: Sequence[str] | None = None, **extra: Any) -> Record:
    """The record of a match state (every round dealt so far, actions as played)."""
    rounds = [
        RecordRound(r.leader, r.hands, r.stock, [str(a) for a in r.actions])
        for r in state.rounds()
    ]
    return Record(state.config, rounds, list(seats) if seats is not None else None, dict(extra))
