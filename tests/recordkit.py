"""Small builders for test records (RECORD.md): explicit deals, replay, and checks.

A test writes the interesting tiles of a deal by hand; :func:`rnd` puts every other tile of the
set into the stock (after ``stock`` if given, in set order), so that hands and stock always hold
the 28 tiles once.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from fives.core.games import Config
from fives.core.layout import Layout
from fives.core.record import Record, RecordError, replay, replay_state
from fives.core.state import State
from fives.core.tiles import ALL_TILES, Action, Tile
from fives.core.view import View, view_of

__all__ = [
    "ALL",
    "LINE_BLOCK",
    "SPINNER_BLOCK",
    "block_hands",
    "events",
    "expect_error",
    "layout_of",
    "pips",
    "played",
    "random_states",
    "rec",
    "report",
    "rest",
    "rnd",
    "state",
    "t",
]

#: every tile of the set, written as RECORD.md writes it (lower half first)
ALL: list[str] = [str(x) for x in ALL_TILES]


def t(text: str) -> str:
    """A tile in canonical notation (``"4-1"`` -> ``"1-4"``)."""
    return str(Tile.parse(text))


def pips(tiles: Iterable[str]) -> int:
    """C-9: the pips of some tiles."""
    return sum(Tile.parse(x).pips for x in tiles)


def rest(*used: Iterable[str]) -> list[str]:
    """The tiles of the set not in ``used``, in set order."""
    seen = {t(x) for group in used for x in group}
    return [x for x in ALL if x not in seen]


def rnd(
    hands: Sequence[Sequence[str]],
    actions: Sequence[str] = (),
    *,
    leader: int = 0,
    stock: Sequence[str] = (),
) -> dict[str, Any]:
    """A round of a record: ``stock`` is drawn first, then the rest of the set in set order."""
    full_stock = list(stock) + rest(*hands, stock)
    return {
        "leader": leader,
        "hands": [list(h) for h in hands],
        "stock": full_stock,
        "actions": list(actions),
    }


def rec(game: str, players: int, *rounds: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """A record (as JSON data); ``fields`` may set teams, target, rules, seats."""
    out: dict[str, Any] = {"game": game, "players": players}
    out.update(fields)
    out["rounds"] = list(rounds)
    return out


def report(data: dict[str, Any]) -> dict[str, Any]:
    """Replay a record through the JSON text path and return its report."""
    return replay(Record.from_json(json.dumps(data)))


def state(data: dict[str, Any]) -> State:
    """Replay a record and return the engine state at its end."""
    return replay_state(Record.from_data(data))


def expect_error(data: dict[str, Any] | str) -> RecordError:
    """Replay a record that must be rejected; return the RecordError."""
    text = data if isinstance(data, str) else json.dumps(data)
    try:
        replay_state(Record.from_json(text))
    except RecordError as exc:
        return exc
    raise AssertionError("the record was accepted, but it breaks the rules")


def events(data: dict[str, Any], round_no: int = -1) -> list[dict[str, Any]]:
    return report(data)["rounds"][round_no]["events"]


# -- blocked positions ---------------------------------------------------------------------------

#: A spinner round that blocks: 6-6 led, its four arms all end in 0 and all seven 0 tiles are on
#: the table. Only 4-5@S (the 11th play) scores: ends 0 + 0 + 0 + 5 = 5.
SPINNER_BLOCK = [
    "6-6", "0-6@W", "1-6@E", "0-1@E", "2-6@N", "0-2@N",
    "3-6@S", "0-3@S", "0-0@S", "0-4@S", "4-5@S", "0-5@S",
]
#: The same for a line (no spinner): both ends show 0 and all seven 0 tiles are on the table.
LINE_BLOCK = [
    "6-6", "0-6@W", "1-6@E", "0-1@E", "0-2@W", "2-3@W",
    "0-3@W", "0-0@W", "0-4@W", "4-5@W", "0-5@W",
]


def played(actions: Sequence[str]) -> list[str]:
    """The tiles that the plays of ``actions`` put on the table."""
    return [t(a.split("@")[0]) for a in actions if a not in ("draw", "pass")]


def block_hands(
    seq: Sequence[str], players: int, leftovers: Sequence[Sequence[str]]
) -> list[list[str]]:
    """Hands for playing ``seq`` in turn from seat 0: seat s holds the tiles of plays k with
    k % players == s, plus ``leftovers[s]``."""
    tiles = played(seq)
    return [
        [x for k, x in enumerate(tiles) if k % players == s] + [t(x) for x in leftovers[s]]
        for s in range(players)
    ]


def layout_of(spinner: bool, *plays: str) -> Layout:
    """A layout built from plays in RECORD.md notation (the lead first, its end ignored)."""
    lay = Layout(spinner_rules=spinner)
    for text in plays:
        action = Action.parse(text)
        assert action.tile is not None
        lay.place(action.tile.id, action.end if action.end is not None else 0)
    return lay


def random_states(game: str, players: int, seed: int, rounds: int = 2,
                  ended: bool = False, teams: bool = False) -> Iterator[State]:
    """Each turn's state of a few rounds played at random (the same object, moved on after each
    yield), and with ``ended`` each round's state once it is over too (``teams``: four players
    in partnerships)."""
    rng = random.Random(seed)
    state = State(Config.make(game, players, teams=teams or None))
    for _ in range(rounds):
        if state.over:
            return
        state.deal_next(rng)
        while state.turn >= 0:
            yield state
            state.apply_code(rng.choice(state.legal_codes()))
        if ended:
            yield state


def endgame_views(game: str, players: int, seed: int, low: int, high: int,
                  count: int) -> list[View]:
    """Up to ``count`` views with a choice, nothing left to draw and ``low`` to ``high``
    tiles in hands, from rounds played at random."""
    found = []
    for state in random_states(game, players, seed, rounds=6):
        view = view_of(state, state.turn)
        if len(view.legal) > 1 and view.stock == 0 and low <= sum(view.hand_sizes) <= high:
            found.append(view)
            if len(found) == count:
                break
    return found


def near_target_view(game: str, target: int, seed: int, *, choices: int = 2, low: int = 0,
                     high: int = 99, empty_stock: bool = False) -> View:
    """The first view of a two-player match played at random to ``target`` where a side is
    past 60% of it (a round's end may decide the match there), with at least ``choices``
    legal actions, ``low`` to ``high`` tiles in hands and (``empty_stock``) nothing to draw."""
    rng = random.Random(seed)
    state = State(Config.make(game, 2, target=target))
    while not state.over:
        state.deal_next(rng)
        while state.turn >= 0:
            view = view_of(state, state.turn)
            if (len(view.legal) >= choices and max(state.scores) >= target * 0.6
                    and low <= sum(view.hand_sizes) <= high
                    and not (empty_stock and view.stock)):
                return view
            state.apply_code(rng.choice(state.legal_codes()))
    raise AssertionError("no such view")
