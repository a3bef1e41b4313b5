"""The host: plays matches with bots, one decision at a time.

Shared by tournaments, analysis and (later) the terminal and browser tables. The host holds the
full :class:`~fives.core.state.State`; a bot only ever receives ``view_of(state, seat)`` (and, for
a measuring bot that has a ``peek`` method, ``peek(state)`` just before it chooses, in
tournaments and analysis only). Forced actions (a single legal action) are made by the host.

A bot that raises, answers something not legal, or (for outside programs) answers late or exits,
forfeits that decision: the host plays the ``random`` bot's choice, logs a warning on the
``fives.bots`` logger, records a :class:`Fault`, and goes on.

Every random source is derived from the match seed: the deals (:func:`deal_rng`), each seat's
bot (:func:`bot_rng`) and each seat's forfeits, so the same seed and bots give the same match.
"""

from __future__ import annotations

import hashlib
import logging
import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from fives.bots.base import Bot
from fives.bots.ladder import RandomBot
from fives.bots.protocol import BotFault
from fives.core.games import Config
from fives.core.state import State
from fives.core.tiles import ACTIONS, Action, Tile
from fives.core.view import view_of

__all__ = [
    "MAX_ROUNDS",
    "Deal",
    "Fault",
    "MatchStats",
    "bot_rng",
    "deal_rng",
    "decide",
    "derive_seed",
    "play_match",
]

log = logging.getLogger("fives.bots")

#: A safety stop for a match that would not end (RULES.md's matches always do).
MAX_ROUNDS = 1000

#: One round's deal: hands per seat, the stock in draw order, and the lot for the leader (used
#: only where the rules do not fix the leader).
Deal = tuple[Sequence[Sequence[Tile]], Sequence[Tile], int]


def derive_seed(*parts: object) -> int:
    """A 64-bit seed from a seed and labels (stable across runs, platforms and Python versions)."""
    text = "\x1f".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def deal_rng(seed: int, round_no: int | None = None) -> random.Random:
    """The random source of a match's deals: the same seed deals the same rounds.

    Without ``round_no`` one stream deals every round in turn; with it, that round's own
    stream (for a table that deals one round at a time and may restart between rounds).
    """
    if round_no is None:
        return random.Random(derive_seed(seed, "deals"))
    return random.Random(derive_seed(seed, "deals", round_no))


def bot_rng(seed: int, seat: int, decision: int | None = None) -> random.Random:
    """The random source of the bot in ``seat``: one stream for the match, or with
    ``decision`` (a table's action counter) that decision's own."""
    if decision is None:
        return random.Random(derive_seed(seed, "bot", seat))
    return random.Random(derive_seed(seed, "bot", seat, decision))


def _forfeit_rng(seed: int, seat: int) -> random.Random:
    return random.Random(derive_seed(seed, "forfeit", seat))


@dataclass
class Fault:
    """A decision a bot forfeited."""

    seat: int
    bot: str
    round: int  # 0-based
    action_no: int  # 0-based index of the action in its round
    kind: str  # garbage, illegal, timeout, exit, start, error
    detail: str
    played: str  # the random action played instead

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "bot": self.bot,
            "round": self.round,
            "action_no": self.action_no,
            "kind": self.kind,
            "detail": self.detail,
            "played": self.played,
        }

    def __str__(self) -> str:
        return (
            f"seat {self.seat} ({self.bot}) forfeits action {self.action_no + 1} of round "
            f"{self.round + 1}: {self.kind}: {self.detail}; {self.played} played at random"
        )


@dataclass
class MatchStats:
    """What the host measured: faults, and the seconds each seat took per decision."""

    players: int
    faults: list[Fault] = field(default_factory=list)
    times: list[list[float]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.times:
            self.times = [[] for _ in range(self.players)]


def decide(
    state: State,
    bot: Bot,
    rng: random.Random,
    forfeit_rng: random.Random,
    *,
    name: str | None = None,
    stats: MatchStats | None = None,
    peek: bool = False,
) -> Action:
    """The action of the seat to act: made by the host when forced, else asked of its bot.

    A failing bot forfeits the decision (a random legal action from ``forfeit_rng``).
    """
    seat = state.turn
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    view = view_of(state, seat)
    if peek and hasattr(bot, "peek"):
        bot.peek(state.copy())
    started = time.perf_counter()
    fault: tuple[str, str] | None = None
    action: Action | None = None
    try:
        answer = bot.choose(view, rng)
        if isinstance(answer, int) and 0 <= int(answer) < len(ACTIONS):
            action = ACTIONS[int(answer)]
        if action is None or action not in view.legal:
            fault = ("illegal", f"{answer!s} is not legal here")
    except BotFault as exc:
        fault = (exc.kind, exc.detail)
    except Exception as exc:  # a bot's bug is its own forfeit, never the host's crash
        fault = ("error", f"{type(exc).__name__}: {exc}")
    elapsed = time.perf_counter() - started
    if stats is not None:
        stats.times[seat].append(elapsed)
    if fault is None and action is not None:
        return action
    kind, detail = fault if fault is not None else ("illegal", "no action")
    action = RandomBot().choose(view, forfeit_rng)
    record = Fault(
        seat=seat,
        bot=name or str(getattr(bot, "name", "bot")),
        round=state.round_index,
        action_no=len(state.log),
        kind=kind,
        detail=detail,
        played=str(action),
    )
    log.warning("%s", record)
    if stats is not None:
        stats.faults.append(record)
    return action


def _notify(bots: Sequence[Bot], state: State, hook: str) -> None:
    for seat, bot in enumerate(bots):
        method = getattr(bot, hook, None)
        if method is None:
            continue
        try:
            method(view_of(state, seat))
        except Exception as exc:  # a notification never stops the match
            log.warning("seat %d (%s): %s failed: %r", seat, getattr(bot, "name", "bot"), hook, exc)


def play_match(
    config: Config,
    bots: Sequence[Bot],
    seed: int,
    *,
    deals: Iterable[Deal] | None = None,
    on_action: Callable[[State, int, Action], None] | None = None,
    stats: MatchStats | None = None,
    names: Sequence[str] | None = None,
    peek: bool = True,
    max_rounds: int = MAX_ROUNDS,
) -> State:
    """Play a whole match with one bot per seat; return the final state.

    Rounds are dealt from :func:`deal_rng(seed) <deal_rng>`, or taken from ``deals`` while it
    lasts (then from the seed). Bots with ``round_start(view)`` / ``round_end(view)`` methods
    hear of each deal and each round's end. ``on_action(state, seat, action)`` is called after
    every action (forced ones included). ``peek`` lets a bot with a ``peek`` method see the state
    (for measurement; player-facing tables pass ``False``).
    """
    n = config.players
    if len(bots) != n:
        raise ValueError(f"{n} players need {n} bots, not {len(bots)}")
    labels = list(names) if names is not None else [getattr(b, "name", "bot") for b in bots]
    dealer = deal_rng(seed)
    fixed: Iterator[Deal] | None = iter(deals) if deals is not None else None
    rngs = [bot_rng(seed, s) for s in range(n)]
    forfeits = [_forfeit_rng(seed, s) for s in range(n)]
    state = State(config)
    rounds = 0
    while not state.over:
        if state.needs_deal():
            if rounds >= max_rounds:
                break
            deal = next(fixed, None) if fixed is not None else None
            if deal is None:
                fixed = None
                state.deal_next(dealer)
            else:
                hands, stock, lot = deal
                leader = state.expected_leader(hands)
                state.start_round(hands, stock, lot if leader is None else leader)
            rounds += 1
            _notify(bots, state, "round_start")
            continue
        seat = state.turn
        action = decide(
            state, bots[seat], rngs[seat], forfeits[seat], name=labels[seat], stats=stats, peek=peek
        )
        state.apply(action)
        if on_action is not None:
            on_action(state, seat, action)
        if state.round_end is not None:
            _notify(bots, state, "round_end")
    return state
