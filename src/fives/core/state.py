"""Round and match state: deal, lead, turns, draws, passes, knocks, scoring, targets.

One :class:`State` holds a whole match: the scores, the finished rounds, and the round in play.
It is the full, secret state; players and bots see it only through :mod:`fives.core.view`.

>>> from fives.core.games import Config
>>> st = State(Config.make("all-fives", 2))
>>> st.start_round(*State.random_deal(st.config, seed=1))
>>> len(st.legal_actions()) == 9
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final, NamedTuple

from fives.core.errors import ERROR_TEXT, InputError
from fives.core.games import Config
from fives.core.history import LogEntry, PastRound, history_of, public_end
from fives.core.layout import Layout
from fives.core.outcome import Payment, RoundEnd, Score
from fives.core.pickling import pickle_by_attributes
from fives.core.tiles import (
    ACTIONS,
    ALL_TILES,
    DRAW,
    FULL_SET_MASK,
    LEAD_BASE,
    PASS,
    Action,
    Tile,
    mask_of,
    pips_of_mask,
    round_to_five,
    tiles_of_mask,
)

__all__ = [
    "DealError",
    "IllegalAction",
    "Lot",
    "REASON_TEXT",
    "Reason",
    "RoundInfo",
    "State",
    "draw_lot",
    "lead_priority",
]

_DRAW_CODE: Final = int(DRAW)
_PASS_CODE: Final = int(PASS)
_TILE_LOW: Final = tuple(t.low for t in ALL_TILES)
_TILE_HIGH: Final = tuple(t.high for t in ALL_TILES)
_TILE_PIPS: Final = tuple(t.pips for t in ALL_TILES)


#: English wording of each reason an action is refused; interfaces translate by key.
REASON_TEXT: Final[dict[str, str]] = {
    "no_drawing": "{game} has no drawing",
    "stock_empty": "the stock is empty",
    "must_play_not_draw": "a player who can play must play, not draw",
    "must_draw": "no tile fits, so the player must draw",
    "must_play": "a player who can play must play",
    "not_held": "seat {seat} does not hold {tile}",
    "lead_over": "the lead is over: a play names its end, as a-b@X",
    "lead_must_be": "the lead must be {tile} (the highest double, or the heaviest tile)",
    "lead_without_end": "the opening lead is written without an end",
    "side_arm_closed": "a side arm opens only once both straight arms hold a tile beyond the spinner",
    "end_not_open": "end {end} is not open (open ends: {ends})",
    "does_not_fit": "{tile} does not fit end {end}, which shows {value} (open ends: {ends})",
    "drawn_tile": "after drawing a playable tile the player must play that tile",
    "not_allowed": "not allowed here",
    "round_over": "the round is over",
    "match_over": "the match is over",
}


class Reason:
    """Why an action is refused: a key of :data:`REASON_TEXT` and its parameters."""

    __slots__ = ("key", "params")

    def __init__(self, key: str, **params: object) -> None:
        self.key = key
        self.params = params

    def __str__(self) -> str:
        return REASON_TEXT[self.key].format(**self.params)

    def __repr__(self) -> str:
        return f"Reason({self.key!r}, {self.params!r})"


class IllegalAction(ValueError):
    """An action the rules do not allow here; ``reason`` says why (in English, with ``key``
    and ``params`` for translation), ``legal`` what is allowed."""

    def __init__(self, action: str, reason: Reason | str, legal: Sequence[Action]) -> None:
        self.action = action
        why = reason if isinstance(reason, Reason) else Reason("not_allowed")
        self.key = why.key
        self.params = why.params
        self.reason = str(reason)
        self.legal = list(legal)
        shown = ", ".join(str(a) for a in self.legal) or "none"
        super().__init__(f"{action!r}: {reason} (legal: {shown})")


class DealError(InputError):
    """A deal or a leader that does not fit the game."""


def lead_priority(tile: Tile) -> tuple[bool, int, int]:
    """MG-3: doubles first, highest first; then the heaviest tile, 6-3 before 5-4."""
    return (tile.is_double, tile.pips, tile.high)


_TILE_IDS: Final = tuple(range(len(ALL_TILES)))
#: the numbers (a 7-bit mask) each tile shows, by tile id
_NUMBERS: Final = tuple(1 << t.low | 1 << t.high for t in ALL_TILES)


#: tile ids from the strongest claim to the lead down
_LEAD_ORDER: Final = tuple(t.id for t in sorted(ALL_TILES, key=lead_priority, reverse=True))


def _strongest(mask: int) -> int:
    """MG-3: the tile of ``mask`` with the strongest claim to the lead."""
    for t in _LEAD_ORDER:
        if mask >> t & 1:
            return t
    raise ValueError("no tile to lead")


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def shuffle(rng: random.Random, items: list[int]) -> None:
    """``rng.shuffle(items)``, written out: the same draws, but compiled it runs without the
    interpreter (``random.Random.shuffle`` is Python code, a fifth of a random round's time)."""
    if type(rng) is not random.Random:  # a subclass may draw its own way
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        j = _below(getrandbits, i + 1)
        items[i], items[j] = items[j], items[i]


def _below(getrandbits: Callable[[int], int], n: int) -> int:
    """A number from 0 to n - 1 as ``random.Random`` draws it (its ``_randbelow``)."""
    bits = n.bit_length()
    r = getrandbits(bits)
    while r >= n:
        r = getrandbits(bits)
    return r


@dataclass
class RoundInfo:
    """One round as it was dealt and played (a record's round, with its results)."""

    leader: int
    hands: list[list[Tile]]
    stock: list[Tile]
    log: list[LogEntry] = field(default_factory=list)
    end: RoundEnd | None = None
    scores: list[Score] = field(default_factory=list)
    _public: PastRound | None = field(default=None, repr=False, compare=False)

    def public(self) -> PastRound:
        """This finished round as everyone saw it (built once, then kept: views ask often)."""
        if self._public is None:
            self._public = PastRound(
                self.leader, history_of(self.log, None), public_end(self.end), tuple(self.scores)
            )
        return self._public

    @property
    def actions(self) -> list[Action]:
        return [ACTIONS[entry[1]] for entry in self.log]


def _norm(x: Score) -> Score:
    if isinstance(x, int):  # first: Fraction's isinstance is an abstract-class check, and slow
        return x
    return int(x) if x.denominator == 1 else x


class Lot(NamedTuple):
    """C-11 as it is drawn at a table: each seat draws a tile from the shuffled set, the most
    pips leads, tied seats draw again. ``drawn`` holds each draw as (seats, tile ids)."""

    leader: int
    drawn: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]

    @property
    def draws(self) -> tuple[tuple[tuple[int, Tile], ...], ...]:
        """Every draw: (seat, tile) for each seat that drew."""
        return tuple(
            tuple((seat, ALL_TILES[tid]) for seat, tid in zip(seats, tids))
            for seats, tids in self.drawn
        )

    def __repr__(self) -> str:
        return f"Lot(leader={self.leader}, draws={self.draws!r})"


def draw_lot(rng: random.Random, players: int) -> Lot:
    """Draw the lot (C-11) among ``players`` seats; fair by symmetry, ties drawn again."""
    rand = rng.random
    contenders = tuple(range(players))
    drawn: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    while True:
        taken = 0
        tids: list[int] = []
        for _ in contenders:
            tid = int(rand() * 28)
            while taken >> tid & 1:  # each seat draws a different tile of the set
                tid = int(rand() * 28)
            taken |= 1 << tid
            tids.append(tid)
        drawn.append((contenders, tuple(tids)))
        pips = [_TILE_PIPS[t] for t in tids]
        best = max(pips)
        if pips.count(best) == 1:
            return Lot(contenders[pips.index(best)], tuple(drawn))
        contenders = tuple(c for c, p in zip(contenders, pips) if p == best)


class State:
    """A match in progress: the exact state with every hidden tile."""

    __slots__ = (
        "_draw",
        "_exact",
        "_next",
        "_play_on",
        "_points",
        "_target",
        "config",
        "dealt",
        "finished",
        "hands",
        "layout",
        "lead_tile",
        "leader",
        "log",
        "n",
        "out",
        "over",
        "round_end",
        "scores",
        "side",
        "stock",
        "stock_pos",
        "turn",
        "winner",
    )

    def __init__(self, config: Config) -> None:
        self.config = config
        game = config.game
        self.n = config.players
        #: side of each seat
        self.side: tuple[int, ...] = tuple(config.side_of(s) for s in range(self.n))
        self.scores: list[Score] = [0] * config.sides
        self.finished: list[RoundInfo] = []
        self.over = False
        self.winner: int | None = None
        # round fields (set by start_round)
        self.hands: list[int] = [0] * self.n
        self.dealt: list[int] = [0] * self.n
        self.stock: list[int] = []
        self.stock_pos = 0
        self.layout = Layout(game.spinner, config.side_arm_gate)
        self.leader = -1
        self.lead_tile = -1
        self.turn = -1
        self.log: list[LogEntry] = []
        self.round_end: RoundEnd | None = None
        self.out: list[bool] = [False] * self.n
        self._draw = game.drawing
        self._points = game.play_points
        self._target = config.target
        self._exact = game.exact_target
        self._play_on = game.partners_play_on and config.teams
        self._next = tuple((s + 1) % self.n for s in range(self.n))

    # -- copying (search) --------------------------------------------------------------------

    def copy(self) -> State:
        """An independent copy of the round in play (finished rounds are shared, read-only)."""
        new = State(self.config)
        new.scores = self.scores[:]
        new.finished = self.finished[:]
        new.over = self.over
        new.winner = self.winner
        new.hands = self.hands[:]
        new.dealt = self.dealt
        new.stock = self.stock
        new.stock_pos = self.stock_pos
        new.layout = self.layout.copy()
        new.leader = self.leader
        new.lead_tile = self.lead_tile
        new.turn = self.turn
        new.log = self.log[:]
        new.round_end = self.round_end
        new.out = self.out[:]
        return new

    # -- rounds ------------------------------------------------------------------------------

    @property
    def round_index(self) -> int:
        return len(self.finished)

    @property
    def round_over(self) -> bool:
        return self.round_end is not None

    @property
    def in_round(self) -> bool:
        return self.leader >= 0 and self.round_end is None

    def needs_deal(self) -> bool:
        """True when the match goes on and the next round has not been dealt yet."""
        return not self.over and (self.leader < 0 or self.round_end is not None)

    def expected_leader(self, hands: Sequence[Sequence[Tile]] | None = None) -> int | None:
        """The seat the rules fix as the next round's leader, or None where it goes by lot.

        Games that lead with the highest double need the deal (``hands``) to say.
        """
        game = self.config.game
        prev = self._previous_round()
        rule = game.first_lead if prev is None else game.next_lead
        if rule == "highest-double":
            if hands is None:
                return None
            best = max(
                ((lead_priority(t), s) for s, hand in enumerate(hands) for t in hand),
                default=None,
            )
            return None if best is None else best[1]
        if rule == "lot" or prev is None:
            return None
        if rule == "rotate":
            return (prev[0] + 1) % self.n
        if rule == "last-tile":
            end = prev[1]
            if end is not None and end.reason == "domino":
                return end.went_out
        return None

    def check_deal(
        self, hands: Sequence[Sequence[Tile]], stock: Sequence[Tile], leader: object
    ) -> int:
        """Raise :class:`DealError` unless this is a deal and a leader the rules allow; return
        the leader. (``leader`` is typed ``object``: compiled, an ``int`` parameter would let
        ``True`` through as seat 1 and stop a string with a TypeError, not the rules' words.)"""
        cfg = self.config
        if len(hands) != self.n:
            raise DealError("deal_hands", hands=len(hands), players=self.n)
        for seat, hand in enumerate(hands):
            if len(hand) != cfg.hand_size:
                raise DealError(
                    "deal_hand_size", seat=seat, count=len(hand), game=cfg.game.name,
                    players=self.n, size=cfg.hand_size,
                )
        seen: set[int] = set()
        for tile in [t for hand in hands for t in hand] + list(stock):
            if tile.id in seen:
                raise DealError("deal_twice", tile=tile)
            seen.add(tile.id)
        if len(seen) != 28:
            missing = tiles_of_mask(FULL_SET_MASK & ~sum(1 << i for i in seen))
            raise DealError("deal_missing", tiles=", ".join(str(t) for t in missing))
        if isinstance(leader, bool) or not isinstance(leader, int) or not 0 <= leader < self.n:
            raise DealError("leader_range", last=self.n - 1, value=repr(leader))
        want = self.expected_leader(hands)
        if want is not None and want != leader:
            rule = self._lead_rule()
            why = ERROR_TEXT[f"lead.{rule}"]
            raise DealError("leader_must_be", want=want, why=why, rule=rule, leader=leader)
        return leader

    def _previous_round(self) -> tuple[int, RoundEnd | None] | None:
        """(leader, end) of the round before the next deal, or None before the first."""
        if self.leader >= 0:
            return self.leader, self.round_end
        return None

    def _lead_rule(self) -> str:
        """The rule that fixes the next round's leader (a key of ``lead.*`` in ERROR_TEXT)."""
        game = self.config.game
        return game.first_lead if self._previous_round() is None else game.next_lead

    def start_round(
        self, hands: Sequence[Sequence[Tile]], stock: Sequence[Tile], leader: object
    ) -> None:
        """Deal a new round: ``hands[seat]``, ``stock`` in draw order, and its leader."""
        if self.over:
            raise DealError("no_more_rounds")
        if self.leader >= 0 and self.round_end is None:
            raise DealError("previous_round_unfinished")
        seat = self.check_deal(hands, stock, leader)
        self._begin([mask_of(h) for h in hands], [t.id for t in stock], seat)

    def _begin(self, hands: list[int], stock: list[int], leader: int) -> None:
        """Start a round from a deal already known to be valid (masks and tile ids)."""
        if self.leader >= 0 and self.round_end is not None:
            self._archive()
        self.hands = hands
        self.dealt = hands[:]
        self.stock = stock
        self.stock_pos = 0
        self.layout = Layout(self.config.game.spinner, self.config.side_arm_gate)
        self.leader = leader
        self.turn = leader
        self.log = []
        self.round_end = None
        self.out = [False] * self.n
        self.lead_tile = -1
        if self.config.game.first_lead == "highest-double":
            self.lead_tile = _strongest(hands[leader])

    def _archive(self) -> None:
        self.finished.append(self.current_round_info())

    def current_round_info(self) -> RoundInfo:
        return RoundInfo(
            leader=self.leader,
            hands=[tiles_of_mask(h) for h in self.dealt],
            stock=[ALL_TILES[t] for t in self.stock],
            log=self.log[:],
            end=self.round_end,
            scores=[_norm(s) for s in self.scores],
        )

    def rounds(self) -> list[RoundInfo]:
        """Every round dealt so far, the one in play (or just ended) last."""
        out = list(self.finished)
        if self.leader >= 0:
            out.append(self.current_round_info())
        return out

    @staticmethod
    def random_deal(
        config: Config, seed: int | None = None, rng: random.Random | None = None
    ) -> tuple[list[list[Tile]], list[Tile], int]:
        """A shuffled deal and a leader by lot (the caller corrects it where rules fix it)."""
        r = rng if rng is not None else random.Random(seed)
        tiles = list(ALL_TILES)
        r.shuffle(tiles)
        size = config.hand_size
        hands = [sorted(tiles[i * size : (i + 1) * size]) for i in range(config.players)]
        stock = tiles[config.players * size :]
        return hands, stock, draw_lot(r, config.players).leader

    def deal_next(self, rng: random.Random) -> Lot | None:
        """Deal the next round at random, with the leader the rules say; where they leave it to
        a lot (C-11), the lot is drawn from ``rng`` too and returned."""
        if self.over:
            raise DealError("no_more_rounds")
        if self.leader >= 0 and self.round_end is None:
            raise DealError("previous_round_unfinished")
        ids = list(_TILE_IDS)
        shuffle(rng, ids)
        n = self.n
        size = self.config.hand_size
        hands = []
        for i in range(n):
            mask = 0
            for t in ids[i * size : (i + 1) * size]:
                mask |= 1 << t
            hands.append(mask)
        game = self.config.game
        rule = game.first_lead if self.leader < 0 else game.next_lead
        lot: Lot | None = None
        if rule == "highest-double":
            dealt = FULL_SET_MASK
            for t in ids[n * size :]:
                dealt ^= 1 << t
            best = _strongest(dealt)
            leader = 0
            while not hands[leader] >> best & 1:
                leader += 1
        else:
            want = self.expected_leader()
            if want is None:
                lot = draw_lot(rng, n)
                leader = lot.leader
            else:
                leader = want
        self._begin(hands, ids[n * size :], leader)
        return lot

    # -- legal actions -----------------------------------------------------------------------

    def legal_codes(self) -> list[int]:
        """Legal actions as codes, sorted (tile, then end); empty when nobody is to act."""
        if self.turn < 0:
            return []
        hand = self.hands[self.turn]
        lay = self.layout
        if lay.count == 0:
            if self.lead_tile >= 0:
                return [LEAD_BASE + self.lead_tile]
            return [LEAD_BASE + t for t in _bits(hand)]
        playable = hand & lay.open_mask
        if playable:
            # tiles in id order, each on the ends it fits in end order: codes come out sorted
            # (not cached: with a spinner's four ends, most calls would miss)
            codes: list[int] = []
            ends = lay.ends
            # the open numbers in end order, read once (a line has two ends, a spinner four)
            w = ends[0][1]
            e = ends[1][1]
            four = len(ends) == 4
            n = ends[2][1] if four else -1
            s = ends[3][1] if four else -1
            while playable:
                low = playable & -playable
                playable ^= low
                tile = low.bit_length() - 1
                numbers = _NUMBERS[tile]
                code = tile << 2
                if numbers >> w & 1:
                    codes.append(code)
                if numbers >> e & 1:
                    codes.append(code | 1)
                if four:
                    if numbers >> n & 1:
                        codes.append(code | 2)
                    if numbers >> s & 1:
                        codes.append(code | 3)
            return codes
        if self._draw and self.stock_pos < len(self.stock):
            return [_DRAW_CODE]
        return [_PASS_CODE]

    def legal_actions(self) -> list[Action]:
        return [ACTIONS[c] for c in self.legal_codes()]

    # -- acting ------------------------------------------------------------------------------

    def play(self, action: Action | str) -> LogEntry:
        """Check and apply one action of the player to act; return its log entry."""
        text = str(action)
        if self.over:
            raise IllegalAction(text, Reason("match_over"), [])
        if self.leader < 0 or self.round_end is not None:
            raise IllegalAction(text, Reason("round_over"), [])
        act = Action.parse(action) if isinstance(action, str) else action
        legal = self.legal_codes()
        code = int(act)
        if code not in legal:
            raise IllegalAction(text, self._why_illegal(code, legal), [ACTIONS[c] for c in legal])
        return self.apply_code(code)

    def refusal(self, action: Action) -> Reason | None:
        """Why the rules refuse ``action`` now, or None if it is legal (the state is unchanged)."""
        if self.over:
            return Reason("match_over")
        if self.leader < 0 or self.round_end is not None:
            return Reason("round_over")
        legal = self.legal_codes()
        code = int(action)
        return None if code in legal else self._why_illegal(code, legal)

    def _why_illegal(self, code: int, legal: list[int]) -> Reason:
        act = ACTIONS[code]
        hand = self.hands[self.turn]
        lay = self.layout
        tile = act.tile
        if act.kind == "draw":
            if not self._draw:
                return Reason("no_drawing", game=self.config.game.name)
            if self.stock_pos >= len(self.stock):
                return Reason("stock_empty")
            return Reason("must_play_not_draw")
        if act.kind == "pass":
            if legal == [_DRAW_CODE]:
                return Reason("must_draw")
            return Reason("must_play")
        assert tile is not None
        if not hand & tile.mask:
            return Reason("not_held", seat=self.turn, tile=str(tile))
        if act.kind == "lead":
            if lay.count:
                return Reason("lead_over")
            return Reason("lead_must_be", tile=str(ALL_TILES[self.lead_tile]))
        if lay.count == 0:
            return Reason("lead_without_end")
        end = act.end
        assert end is not None
        open_names = {e: v for e, v in lay.ends}
        names = ", ".join(f"{'WENS'[e]}={v}" for e, v in lay.ends)
        if end not in open_names:
            if lay.spinner >= 0 and end >= 2:
                return Reason("side_arm_closed")
            return Reason("end_not_open", end="WENS"[end], ends=names)
        if not tile.has(open_names[end]):
            return Reason(
                "does_not_fit", tile=str(tile), end="WENS"[end], value=open_names[end], ends=names
            )
        if self.log and self.log[-1][0] == self.turn and self.log[-1][1] == _DRAW_CODE:
            return Reason("drawn_tile")
        return Reason("not_allowed")

    def apply_code(self, code: int) -> LogEntry:
        """Apply a legal action code (unchecked: the caller took it from :meth:`legal_codes`).

        The engine's inner loop: kept flat on purpose.
        """
        seat = self.turn
        hands = self.hands
        if code >= LEAD_BASE:
            if code == _DRAW_CODE:
                tid = self.stock[self.stock_pos]
                self.stock_pos += 1
                hands[seat] = hands[seat] | 1 << tid  # (compiled, |= on an item is generic)
                entry: LogEntry = (seat, code, -1, -1, tid)
                self.log.append(entry)
                if self.stock_pos == len(self.stock):
                    self._check_block()
                return entry
            if code == _PASS_CODE:
                entry = (seat, code, -1, -1, -1)
                self.log.append(entry)
                self._advance()
                return entry
            tid = code - LEAD_BASE
            end = 0
        else:
            tid = code >> 2
            end = code & 3
        hand = hands[seat] & ~(1 << tid)
        hands[seat] = hand
        total = self.layout.place(tid, end)
        points = self._points[total]
        if self._exact:
            return self._apply_exact(seat, code, total, points, hand)
        entry = (seat, code, total, points, -1)
        self.log.append(entry)
        if points:
            side = self.side[seat]
            score = self.scores[side] + points
            self.scores[side] = score
            if score >= self._target:
                if hand:
                    self._end_target(side)
                else:
                    self._end_out_at_target(seat)
                return entry
        # partners play on (FT-8) only where the target is exact (a Game refuses it otherwise),
        # on the path above: here an emptied hand ends the round
        if not hand:
            self._end_domino(seat)
            return entry
        if not self._draw or self.stock_pos == len(self.stock):
            mask = self.layout.open_mask
            for h in hands:
                if h & mask:
                    break
            else:
                self._end_blocked()
                return entry
        self.turn = self._next[seat]
        return entry

    def _apply_exact(self, seat: int, code: int, total: int, points: int, hand: int) -> LogEntry:
        """FT-10/FT-11: play points (with the hand-ending point, as one event) count only if
        they keep the side at or under the target; reaching it exactly wins."""
        side = self.side[seat]
        ends_round = not hand and not (self._play_on and self.hands[(seat + 2) % 4])
        bonus = self.config.game.domino_bonus if ends_round else 0
        event = points + bonus
        discarded = bool(event) and self.scores[side] + event > self._target
        entry = (seat, code, total, 0 if discarded else points, -1)
        self.log.append(entry)
        if event and not discarded:
            self.scores[side] += event
        if ends_round:
            if discarded:
                self._end_domino(seat, bonus_discarded=event)
            else:
                self._end_domino(seat, bonus=bonus)
            return entry
        if event and not discarded and self.scores[side] == self._target:
            self._end_target(side)
            return entry
        self._after_play(seat, not hand)
        return entry

    def apply(self, action: Action) -> LogEntry:
        return self.apply_code(int(action))

    def _after_play(self, seat: int, going_out: bool) -> None:
        if going_out:
            self.out[seat] = True
        if self._check_block():
            return
        self._advance()

    def _advance(self) -> None:
        seat = self._next[self.turn]
        if self._play_on:
            while self.out[seat]:
                seat = self._next[seat]
        self.turn = seat

    def _check_block(self) -> bool:
        """C-8: blocked as soon as nobody holding tiles can play and nobody can draw."""
        if self._draw and self.stock_pos < len(self.stock):
            return False
        mask = self.layout.open_mask
        for hand in self.hands:
            if hand & mask:
                return False
        self._end_blocked()
        return True

    # -- round ends --------------------------------------------------------------------------

    def _pips(self) -> tuple[int, ...]:
        return tuple(pips_of_mask(h) for h in self.hands)

    def _finish(self, end: RoundEnd) -> None:
        self.round_end = end
        self.turn = -1
        for side, pts in enumerate(end.points):
            if pts:
                self.scores[side] = _norm(self.scores[side] + pts)
        if self._exact:
            if any(s == self._target for s in self.scores):
                self.over = True
                self.winner = self.scores.index(self._target)
            return
        reached = [s for s in range(len(self.scores)) if self.scores[s] >= self._target]
        if reached:
            self.over = True
            best = max(self.scores[s] for s in reached)
            top = [s for s in reached if self.scores[s] == best]
            self.winner = top[0] if len(top) == 1 else None  # AF-3: equal scores draw

    def _end_target(self, side: int) -> None:
        self.round_end = RoundEnd(
            "target", None, (0,) * len(self.scores), self._pips(), "target",
            left=tuple(self.hands), reached=side,
        )
        self.turn = -1
        self.over = True
        self.winner = side

    def _end_out_at_target(self, seat: int) -> None:
        """RECORD.md: a play that empties the hand ends the round as ``domino`` even when its own
        points reach the target; the match is over, so nothing more is paid."""
        side = self.side[seat]
        self.round_end = RoundEnd(
            "domino", side, (0,) * len(self.scores), self._pips(), "target", seat,
            left=tuple(self.hands), reached=side,
        )
        self.turn = -1
        self.over = True
        self.winner = side

    def _end_domino(self, seat: int, bonus: int = 0, bonus_discarded: int = 0) -> None:
        cfg = self.config
        game = cfg.game
        side = self.side[seat]
        pips = self._pips()
        opponents = [s for s in range(self.n) if self.side[s] != side]
        points: list[Score] = [0] * len(self.scores)
        rule = game.remaining
        payment: Payment
        if rule == "pool-rounded":
            points[side] = round_to_five(sum(pips[s] for s in opponents))
            payment = "pool"
        elif rule == "each-rounded":
            points[side] = sum(round_to_five(pips[s]) for s in opponents)
            payment = "each"
        elif rule == "plain":
            points[side] = sum(pips[s] for s in opponents)
            payment = "plain"
        else:
            points[side] = bonus
            payment = "discarded" if bonus_discarded else "bonus"
        # The bonus of Fives and Threes was added with its play as one event (FT-10).
        end = RoundEnd(
            "domino", side, tuple(points), pips, payment, seat, bonus_discarded, tuple(self.hands)
        )
        if rule == "none":
            self.round_end = end
            self.turn = -1
            if self._exact and self.scores[side] == self._target:
                self.over = True
                self.winner = side
            return
        self._finish(end)

    def _end_blocked(self) -> None:
        cfg = self.config
        game = cfg.game
        pips = self._pips()
        nsides = len(self.scores)
        points: list[Score] = [0] * nsides
        side_pips = [0] * nsides
        side_tiles = [0] * nsides
        for s in range(self.n):
            side_pips[self.side[s]] += pips[s]
            side_tiles[self.side[s]] += self.hands[s].bit_count()
        rule = game.block_rule
        winner: int | None = None
        payment: Payment = "none"
        if rule == "lowest-side":
            low = min(side_pips)
            tied = [s for s in range(nsides) if side_pips[s] == low]
            if len(tied) == 1:
                winner = tied[0]
                points[winner] = round_to_five(sum(side_pips) - low)
                payment = "pool"
            elif game.split_ties_three and nsides == 3 and len(tied) == 2:
                third = next(s for s in range(3) if s not in tied)
                half = Fraction(round_to_five(side_pips[third]), 2)
                for s in tied:
                    points[s] = _norm(half)
                payment = "split"
            else:
                payment = "tie"
        elif rule == "lowest-pips-then-tiles":
            best = min((side_pips[s], side_tiles[s]) for s in range(nsides))
            tied = [s for s in range(nsides) if (side_pips[s], side_tiles[s]) == best]
            if len(tied) == 1:
                winner = tied[0]
                opponents = [s for s in range(self.n) if self.side[s] != winner]
                if game.remaining == "each-rounded":
                    points[winner] = sum(round_to_five(pips[s]) for s in opponents)
                    payment = "each"
                else:
                    points[winner] = sum(pips[s] for s in opponents)
                    payment = "plain"
            else:
                payment = "tie"
        self._finish(
            RoundEnd("blocked", winner, tuple(points), pips, payment, left=tuple(self.hands))
        )

    # -- convenience -------------------------------------------------------------------------

    def hand(self, seat: int) -> list[Tile]:
        return tiles_of_mask(self.hands[seat])

    def stock_left(self) -> int:
        return len(self.stock) - self.stock_pos if self._draw else 0

    def hand_sizes(self) -> list[int]:
        return [h.bit_count() for h in self.hands]

    def scores_out(self) -> list[Score]:
        return [_norm(s) for s in self.scores]


pickle_by_attributes(State, ("config",))
pickle_by_attributes(Reason, ("key",))
