"""The host: deals, asks bots, replaces a failing bot, and tells bots of rounds — one place for
every table (tournaments, analysis, the terminal game, the browser's tables).

The host holds the full :class:`~fives.core.state.State`; a bot only ever receives
``view_of(state, seat)``. The ``cheat`` bot (:class:`~fives.bots.ladder.CheatBot`, for
measurement) is shown the state through ``peek`` only where the caller allows it (tournaments
and analysis); player-facing tables never do, and no other bot is ever shown it.

A bot that raises, answers something not legal, or (for outside programs) answers late or exits,
forfeits that decision: the host plays :func:`replacement` (the ``random`` bot's choice from
the decision's own forfeit source), logs a warning on the ``fives.bots`` logger, records a
:class:`Fault`, and goes on.

Every random source of a match comes from its seed through :class:`Seeds`: one per round's deal
(and lot), one per decision of a bot and one per forfeit, each labelled with where it is used,
so a match is the same for the same seed and bots, and a match resumed from its record (or a
table restored after a restart) carries on exactly as it would have.
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
from fives.bots.ladder import CheatBot, RandomBot
from fives.bots.protocol import BotFault
from fives.core.games import Config
from fives.core.state import Lot, State
from fives.core.tiles import ACTIONS, Action, Tile
from fives.core.view import View, view_of

__all__ = [
    "MAX_ROUNDS",
    "Deal",
    "Decision",
    "Fault",
    "MatchStats",
    "Seeds",
    "ask",
    "deal_round",
    "decide",
    "derive_seed",
    "notify",
    "play_match",
    "replacement",
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


@dataclass(frozen=True)
class Seeds:
    """Every random source of one match, derived from its seed."""

    seed: int

    def deal(self, round_no: int) -> random.Random:
        """The shuffle (and lot) of round ``round_no`` (0-based)."""
        return random.Random(derive_seed(self.seed, "deal", round_no))

    def decision(self, seat: int, round_no: int, action_no: int) -> random.Random:
        """The bot of ``seat`` deciding action ``action_no`` of round ``round_no``."""
        return random.Random(derive_seed(self.seed, "bot", seat, round_no, action_no))

    def forfeit(self, seat: int, round_no: int, action_no: int) -> random.Random:
        """The replacement of a decision the bot of ``seat`` forfeited."""
        return random.Random(derive_seed(self.seed, "forfeit", seat, round_no, action_no))

    def of(self, label: str) -> Seeds:
        """Another match's seeds, derived from this one (a rematch, a hint's search)."""
        return Seeds(derive_seed(self.seed, label))


def deal_round(state: State, seeds: Seeds) -> Lot | None:
    """Deal the next round of ``state`` from the match's seeds; the lot, where one was drawn."""
    return state.deal_next(seeds.deal(state.round_index + (1 if state.leader >= 0 else 0)))


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


@dataclass(frozen=True)
class Decision:
    """An action to play, and the fault behind it when the bot forfeited."""

    action: Action
    fault: Fault | None = None


def ask(bot: Bot, view: View, rng: random.Random) -> tuple[Action | None, tuple[str, str] | None]:
    """Ask ``bot`` for its choice; the action, or the fault (kind, detail) that forfeits it."""
    try:
        answer = bot.choose(view, rng)
    except BotFault as exc:
        return None, (exc.kind, exc.detail)
    except Exception as exc:  # a bot's bug is its own forfeit, never the host's crash
        return None, ("error", f"{type(exc).__name__}: {exc}")
    action = ACTIONS[int(answer)] if isinstance(answer, int) and 0 <= int(answer) < len(ACTIONS) else None
    if action is None or action not in view.legal:
        return None, ("illegal", f"{answer!s} is not legal here")
    return action, None


def replacement(view: View, seeds: Seeds, round_no: int, action_no: int) -> Action:
    """What the host plays for a bot that forfeited a decision: the ``random`` bot's choice."""
    assert view.seat is not None
    return RandomBot().choose(view, seeds.forfeit(view.seat, round_no, action_no))


def decide(
    state: State,
    bot: Bot,
    seeds: Seeds,
    *,
    name: str | None = None,
    stats: MatchStats | None = None,
    peek: bool = False,
) -> Decision:
    """The action of the seat to act: made by the host when forced, else asked of its bot,
    replaced by :func:`replacement` when the bot forfeits. ``peek`` lets the cheat bot see
    the state (measurement only)."""
    seat = state.turn
    legal = state.legal_actions()
    if len(legal) == 1:
        return Decision(legal[0])
    view = view_of(state, seat)
    round_no, action_no = state.round_index, len(state.log)
    if peek and isinstance(bot, CheatBot):
        bot.peek(state.copy())
    started = time.perf_counter()
    action, fault = ask(bot, view, seeds.decision(seat, round_no, action_no))
    if stats is not None:
        stats.times[seat].append(time.perf_counter() - started)
    if action is not None:
        return Decision(action)
    kind, detail = fault if fault is not None else ("illegal", "no action")
    action = replacement(view, seeds, round_no, action_no)
    record = Fault(
        seat=seat,
        bot=name or str(getattr(bot, "name", "bot")),
        round=round_no,
        action_no=action_no,
        kind=kind,
        detail=detail,
        played=str(action),
    )
    log.warning("%s", record)
    if stats is not None:
        stats.faults.append(record)
    return Decision(action, record)


def notify(bots: dict[int, Bot] | Sequence[Bot], state: State, hook: str) -> None:
    """Tell each bot of a round's start (``round_start``) or end (``round_end``) through its
    seat's view; a bot that fails to listen never stops the match."""
    items = bots.items() if isinstance(bots, dict) else enumerate(bots)
    for seat, bot in items:
        method = getattr(bot, hook, None)
        if method is None:
            continue
        try:
            method(view_of(state, seat))
        except Exception as exc:
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
    peek: bool = False,
    max_rounds: int = MAX_ROUNDS,
) -> State:
    """Play a whole match with one bot per seat; return the final state.

    Rounds are dealt from the seed's :class:`Seeds`, or taken from ``deals`` while it lasts.
    Bots hear of each deal and each round's end (:func:`notify`). ``on_action(state, seat,
    action)`` is called after every action (forced ones included). ``peek`` shows the state to
    the cheat bot (measurement only).
    """
    n = config.players
    if len(bots) != n:
        raise ValueError(f"{n} players need {n} bots, not {len(bots)}")
    labels = list(names) if names is not None else [getattr(b, "name", "bot") for b in bots]
    seeds = Seeds(seed)
    fixed: Iterator[Deal] | None = iter(deals) if deals is not None else None
    state = State(config)
    rounds = 0
    while not state.over:
        if state.needs_deal():
            if rounds >= max_rounds:
                break
            deal = next(fixed, None) if fixed is not None else None
            if deal is None:
                fixed = None
                deal_round(state, seeds)
            else:
                hands, stock, lot = deal
                leader = state.expected_leader(hands)
                state.start_round(hands, stock, lot if leader is None else leader)
            rounds += 1
            notify(bots, state, "round_start")
            continue
        seat = state.turn
        decision = decide(
            state, bots[seat], seeds, name=labels[seat], stats=stats, peek=peek
        )
        state.apply(decision.action)
        if on_action is not None:
            on_action(state, seat, decision.action)
        if state.round_end is not None:
            notify(bots, state, "round_end")
    return state
