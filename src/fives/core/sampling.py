"""Worlds consistent with a view: complete states a search bot may play out.

What a seat knows of the hidden tiles, from its view alone:

- its own hand, its own draws, every tile on the table, each hand's size and the stock's;
- a draw followed at once by a play of the same seat drew exactly that tile (AF-7);
- a seat that drew or passed held no tile matching the open ends *at that moment* (its hand
  then; tiles it draws later are not covered by that proof);
- in games that lead with the highest double (MG-3), no dealt tile outranks the lead tile;
- in games without drawing, the undealt tiles stay unknown, anywhere among the unseen.

A :class:`WorldSampler` turns these into slots (each seat's dealt hand, each tile a seat drew
and kept, the rest of the stock) with the tiles each slot may hold, fills them at random, mixes
the result with random swaps that keep every constraint (a symmetric walk, so worlds come out
close to uniform and every consistent world is reachable), and replays the round's public
history on the completed deal.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from fives.core.layout import Layout
from fives.core.state import State, lead_priority, shuffle
from fives.core.tiles import ACTIONS, ALL_TILES, FULL_SET_MASK, mask_of
from fives.core.view import View

__all__ = ["SamplingError", "WorldSampler", "proven_voids", "sample_world"]

_INF: Final = 1 << 30
_DRAW_CODE: Final = 140
_RANK: Final = tuple(sorted(ALL_TILES, key=lead_priority).index(t) for t in ALL_TILES)
_NUMS: Final = tuple((1 << t.low) | (1 << t.high) for t in ALL_TILES)


class SamplingError(ValueError):
    """No world fits the view (it cannot come from a real game)."""


@dataclass
class _Slot:
    owner: int  # seat, or -1 for the rest (undrawn stock, or out of play)
    arrival: int  # -1: dealt; otherwise the history index of the draw that brought it
    capacity: int
    is_deal: bool


class WorldSampler:
    """Samples complete states consistent with one seat's view (built once per decision)."""

    def __init__(self, view: View) -> None:
        if view.seat is None:
            raise SamplingError("the public view has no seat to sample for")
        self.view = view
        cfg = view.config
        me = view.seat
        n = cfg.players
        self.config = cfg
        # Walk the history on a fresh layout: open numbers at each draw or pass, who played what.
        lay = Layout(cfg.game.spinner, cfg.side_arm_gate)
        history = view.history
        voids: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # (time, numbers mask)
        # (tile, time); a tile drawn and played at once is in it too, harmlessly: it is known
        # (a draw's tile below), so no slot is ever asked to hold it
        played: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        draws: list[tuple[int, int, int]] = []  # (time, seat, known tile or -1)
        self.codes: list[int] = []
        for k, item in enumerate(history):
            code = int(item.action)
            self.codes.append(code)
            if item.action.is_play:
                tile = item.action.tile
                assert tile is not None
                played[item.seat].append((tile.id, k))
                lay.place(tile.id, item.action.end if item.action.end is not None else 0)
                continue
            numbers = 0
            for _, v in lay.ends:
                numbers |= 1 << v
            voids[item.seat].append((k, numbers))
            if item.action.kind == "draw":
                nxt = history[k + 1] if k + 1 < len(history) else None
                if nxt is not None and nxt.seat == item.seat and nxt.action.is_play:
                    tile = nxt.action.tile
                    assert tile is not None
                    draws.append((k, item.seat, tile.id))
                elif item.seat == me:
                    if item.tile is None:
                        raise SamplingError("the view hides one of its own seat's draws")
                    draws.append((k, me, item.tile.id))
                else:
                    draws.append((k, item.seat, -1))
        self.draws = draws
        self.leader = view.leader
        # What is known exactly.
        my_hand = mask_of(view.hand)
        my_played = mask_of(ALL_TILES[t] for t, _ in played[me])
        my_drawn = 0
        known_stock = 0
        for _, seat, tid in draws:
            if tid >= 0:
                known_stock |= 1 << tid
                if seat == me:
                    my_drawn |= 1 << tid
        # own drawn tiles (played or kept) came from the stock, not the deal
        self.my_dealt = (my_hand | my_played) & ~my_drawn
        if self.my_dealt.bit_count() != cfg.hand_size:
            raise SamplingError("the view's own hand and plays do not add up to a deal")
        unknown = FULL_SET_MASK & ~self.my_dealt & ~known_stock
        # Slots.
        slots: list[_Slot] = []
        for seat in range(n):
            if seat == me:
                continue
            slots.append(_Slot(seat, -1, cfg.hand_size, True))
            for time, who, tid in draws:
                if who == seat and tid < 0:
                    slots.append(_Slot(seat, time, 1, False))
        rest = 28 - n * cfg.hand_size - len(draws)
        if rest < 0:
            raise SamplingError("more draws than the stock held")
        slots.append(_Slot(-1, -1, rest, False))
        self.slots = slots
        capacity = sum(s.capacity for s in slots)
        self.tiles = [t for t in range(28) if unknown >> t & 1]
        if capacity != len(self.tiles):
            raise SamplingError("hand sizes, draws and stock do not add up")
        # Played tiles of the others must come from their own slots, before they were played.
        owner_of_played: dict[int, tuple[int, int]] = {}
        for seat in range(n):
            if seat != me:
                for tid, time in played[seat]:
                    owner_of_played[tid] = (seat, time)
        lead_rank = _INF
        # MG-3: the lead is the highest tile dealt; before it is made, only the leader knows it
        self.check_lead = cfg.game.first_lead == "highest-double" and not history
        if cfg.game.first_lead == "highest-double" and history:
            first = history[0].action.tile
            if first is not None:
                lead_rank = _RANK[first.id]
        elif self.check_lead and me == view.leader:
            lead_rank = max(_RANK[t.id] for t in view.hand)
        # allowed[i]: the slot indexes tile i may go to
        self.allowed: list[list[int]] = []
        for tid in self.tiles:
            options = []
            played_info = owner_of_played.get(tid)
            for j, slot in enumerate(slots):
                if played_info is not None:
                    owner, until = played_info
                    if slot.owner != owner or slot.arrival >= until:
                        continue
                else:
                    if slot.owner < 0:
                        options.append(j)
                        continue
                    until = _INF
                if slot.is_deal and _RANK[tid] > lead_rank:
                    continue
                ok = True
                for time, numbers in voids[slot.owner]:
                    if slot.arrival < time < until and _NUMS[tid] & numbers:
                        ok = False
                        break
                if ok:
                    options.append(j)
            if not options:
                raise SamplingError(f"no place fits tile {ALL_TILES[tid]}")
            self.allowed.append(options)
        self.allowed_sets = [frozenset(a) for a in self.allowed]
        self.round_start_scores = list(view.round_start_scores) or None

    # -- sampling ----------------------------------------------------------------------------

    def assign(self, rng: random.Random, swaps: int | None = None) -> list[int]:
        """A slot index for each unknown tile (``self.tiles`` order), all constraints kept."""
        count = len(self.tiles)
        order = sorted(range(count), key=lambda i: (len(self.allowed[i]), rng.random()))
        for _attempt in range(200):
            left = [s.capacity for s in self.slots]
            where = [-1] * count
            for i in order:
                options = [j for j in self.allowed[i] if left[j]]
                if not options:
                    break
                pick = rng.random() * sum(left[j] for j in options)
                chosen = options[-1]
                for j in options:
                    pick -= left[j]
                    if pick < 0:
                        chosen = j
                        break
                where[i] = chosen
                left[chosen] -= 1
            else:
                self._mix(where, rng, 3 * count if swaps is None else swaps)
                return where
        raise SamplingError("no consistent world found")

    def _mix(self, where: list[int], rng: random.Random, swaps: int) -> None:
        count = len(where)
        if count < 2:
            return
        allowed = self.allowed_sets
        for _ in range(swaps):
            i = int(rng.random() * count)
            j = int(rng.random() * count)
            a = where[i]
            b = where[j]
            if a != b and b in allowed[i] and a in allowed[j]:
                where[i] = b
                where[j] = a

    def sample(self, rng: random.Random, check: bool = False) -> State:
        """A complete state consistent with the view, at the same point of the round.

        One constraint is checked after the fact: when the seat to act can only pass, some
        other hand must hold a playable tile (or the round would already be blocked, C-8).
        """
        return self.sample_weighted(rng, None, check)[0]

    def sample_weighted(
        self,
        rng: random.Random,
        log_likelihood: Callable[[State, int], float] | None,
        check: bool = False,
    ) -> tuple[State, float]:
        """A world and the log-likelihood of the others' choices in it under a model of play.

        ``log_likelihood(state, code)`` is asked before each play of another seat (a model
        gives 0 where the seat had no choice); the sum lets a bot weight worlds by how well
        they explain what it saw.
        """
        for _attempt in range(100):
            built = self._build(rng, check, log_likelihood)
            if built is not None:
                return built
        raise SamplingError("no consistent world found")

    def _build(
        self,
        rng: random.Random,
        check: bool,
        log_likelihood: Callable[[State, int], float] | None = None,
    ) -> tuple[State, float] | None:
        view = self.view
        cfg = self.config
        where = self.assign(rng)
        n = cfg.players
        hands = [0] * n
        hands[view.seat if view.seat is not None else 0] = self.my_dealt
        kept: dict[int, int] = {}
        rest: list[int] = []
        for tile, j in zip(self.tiles, where):
            slot = self.slots[j]
            if slot.owner < 0:
                rest.append(tile)
            elif slot.is_deal:
                hands[slot.owner] |= 1 << tile
            else:
                kept[slot.arrival] = tile
        shuffle(rng, rest)
        stock = [tile if tile >= 0 else kept[time] for time, _, tile in self.draws]
        stock.extend(rest)
        if self.check_lead:
            best = max(_RANK[t] for t in range(28) if hands[self.leader] >> t & 1)
            dealt = [_RANK[t] for s in range(n) if s != self.leader
                     for t in range(28) if hands[s] >> t & 1]
            if dealt and max(dealt) > best:
                return None
        state = State(cfg)
        if self.round_start_scores is not None:
            state.scores = list(self.round_start_scores)
        state._begin(hands, stock, self.leader)
        me = view.seat
        total = 0.0
        for code in self.codes:
            if state.turn < 0:
                return None  # this world blocked the round earlier than it really ended
            if log_likelihood is not None and state.turn != me and code < _DRAW_CODE:
                total += log_likelihood(state, code)
            if check:
                state.play(ACTIONS[code])
            else:
                state.apply_code(code)
        if state.turn != view.turn:
            return None
        return state, total


def sample_world(view: View, rng: random.Random) -> State:
    """One world consistent with ``view`` (build a :class:`WorldSampler` to draw many)."""
    return WorldSampler(view).sample(rng)


def proven_voids(view: View, seat: int) -> int:
    """Numbers (a 7-bit mask) ``seat`` is proven not to hold in its current hand.

    Each draw or pass proves the hand of that moment held none of the open numbers; a tile
    drawn and kept afterwards is not covered until the seat's next draw or pass.
    """
    cfg = view.config
    lay = Layout(cfg.game.spinner, cfg.side_arm_gate)
    numbers = 0
    history = view.history
    for k, item in enumerate(history):
        if item.action.is_play:
            tile = item.action.tile
            assert tile is not None
            lay.place(tile.id, item.action.end if item.action.end is not None else 0)
            continue
        if item.seat != seat:
            continue
        for _, v in lay.ends:
            numbers |= 1 << v
        if item.action.kind == "draw":
            nxt = history[k + 1] if k + 1 < len(history) else None
            if not (nxt is not None and nxt.seat == seat and nxt.action.is_play):
                numbers = 0  # a kept tile, not covered by any proof yet
    return numbers
