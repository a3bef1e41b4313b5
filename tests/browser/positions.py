"""Short synthetic positions for the layout checks: a real engine state part way into a round,
sent to the table page as the server would send it (a ``state`` message for seat 0), through
a mocked WebSocket, so every screen size is checked without playing a match to get there."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from fives.core.games import Config
from fives.core.state import State
from fives.core.tiles import ACTIONS
from fives.core.view import view_of
from fives.server.events import event_of

NAMES = {"en": "Asha", "hi": "आशा"}


@dataclass
class Position:
    state: State
    event: dict[str, Any] | None  # the last play, as the server tells it
    n: int


def position(game: str, players: int, seed: int, *, min_layout: int = 2,
             min_hand: int = 0, scored: bool = False) -> Position:
    """Random legal play from ``seed`` until it is seat 0's turn with a tile that fits two
    ends, at least ``min_layout`` tiles down and ``min_hand`` in seat 0's hand, and the last
    action a play (one that scored, with ``scored``)."""
    rng = random.Random(seed)
    for _ in range(5000):
        state = State(Config.make(game, players))
        state.deal_next(rng)
        n, event = 1, None
        while state.round_end is None:
            seat = state.turn
            legal = state.legal_actions()
            plays = [a for a in legal if a.is_play]
            several = {str(a.tile) for a in plays if sum(b.tile == a.tile for b in plays) > 1}
            if (seat == 0 and plays and event is not None and several
                    and (event["points"] > 0 or not scored)
                    and len(state.layout.tiles()) >= min_layout
                    and len(state.hand(0)) >= min_hand):
                return Position(state, event, n)
            action = rng.choice(legal)
            entry = state.apply_code(int(action))
            n += 1
            if ACTIONS[entry[1]].is_play:
                event = event_of(state, entry, "bot", n).public
            else:
                event = None
    raise RuntimeError(f"no such position of {game} for {players} players")


def state_message(pos: Position, lang: str = "en", clock: bool = True) -> dict[str, Any]:
    """The ``state`` message the server sends seat 0 (Table._message), for this position."""
    state = pos.state
    cfg = state.config
    game = cfg.game
    seats = [{"kind": "human", "level": None, "name": NAMES[lang], "claimed": True,
              "connected": True, "away": False, "timeouts": 0, "side": cfg.side_of(0)}]
    for i in range(1, cfg.players):
        seats.append({"kind": "bot", "level": ["easy", "medium", "hard"][i - 1], "name": None,
                      "claimed": True, "connected": False, "away": False, "timeouts": 0,
                      "side": cfg.side_of(i)})
    info = {
        "id": "synthetic", **game.properties(), "players": cfg.players, "teams": cfg.teams,
        "target": cfg.target, "turn_time": 15.0 if clock else 0, "status": "playing",
        "private": False, "host": 0, "seats": seats,
        "clock": {"seat": 0, "remaining": 9000, "total": 15000} if clock else None,
        "ready": [], "waiting_for": [], "rematch": None, "rematch_of": None, "spectators": 0,
    }
    return {"type": "state", "table": "synthetic", "n": pos.n, "t": 0, "you": 0, "info": info,
            "view": view_of(state, 0).to_json(), "event": None, "summary": None,
            "result": None}


@dataclass
class FakeTable:
    """The server side of the mocked socket: what the page sent, and a way to send it more."""

    received: list[dict[str, Any]]
    sockets: list[Any]

    def send(self, msg: dict[str, Any]) -> None:
        for ws in self.sockets:
            ws.send(json.dumps(msg, ensure_ascii=False))


def serve(context: Any, messages: list[dict[str, Any]]) -> FakeTable:
    """Answer the table page's WebSocket with ``messages`` after its hello (welcome first)."""
    table = FakeTable([], [])

    def handler(ws: Any) -> None:
        table.sockets.append(ws)

        def on_message(text: str | bytes) -> None:
            msg = json.loads(text)
            table.received.append(msg)
            if msg.get("type") == "hello":
                ws.send(json.dumps({"type": "welcome", "table": "synthetic", "seat": 0}))
                for m in messages:
                    ws.send(json.dumps(m, ensure_ascii=False))

        ws.on_message(on_message)

    context.route_web_socket("**/ws/**", handler)
    return table


def with_event(msg: dict[str, Any], pos: Position) -> list[dict[str, Any]]:
    """The position, then the same position telling its last play (the banner's sentence)."""
    told = dict(msg, event=pos.event)
    return [msg, told]
