"""A round or a match of our engine as a sequence of decisions and chance events.

Frameworks such as OpenSpiel and PettingZoo want every random event of a game as an explicit
step. A :class:`Table` wraps a :class:`~fives.core.state.State` and adds them:

- the deal, one tile at a time (outcome: the tile id, uniform over the tiles not dealt yet;
  seat 0's hand first, then seat 1's, ...);
- the lot for the lead, where the rules leave the leader to chance (outcome: the seat);
- each draw: the player chooses ``draw`` (action 140), then chance picks the tile (outcome:
  the tile id, uniform over the stock still unseen).

Player actions are our action codes (0..141: play = tile*4+end, lead = 112+tile, draw = 140,
pass = 141), so ``str(Action.from_code(a))`` is the move in our notation.

What a seat may know is written by :func:`knowledge_string` (OpenSpiel's information state and
observation strings); :mod:`fives.bridges.tensors` writes the same as numbers.

>>> from fives.core.games import Config
>>> table = Table(Config.make("block", 2))
>>> table.current_player() == CHANCE, len(table.chance_outcomes())
(True, 28)
>>> for tile in range(14):
...     table.apply(tile)
>>> table.current_player(), [str(a) for a in table.legal_actions()]
(1, ['2-2'])
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from fives.core.games import Config
from fives.core.sampling import WorldSampler
from fives.core.state import RoundEnd, RoundInfo, Score, State
from fives.core.tiles import ACTIONS, ALL_TILES, DRAW, LEAD_BASE, Action, tiles_of_mask
from fives.core.view import view_of

__all__ = [
    "CHANCE",
    "DEAL",
    "DRAWING",
    "LOT",
    "NUM_ACTIONS",
    "NUM_CHANCE_OUTCOMES",
    "OVER",
    "PLAY",
    "TERMINAL",
    "Table",
    "config_from",
    "knowledge_string",
    "round_action_bound",
]

#: OpenSpiel's ids for "chance acts" and "nobody acts any more"
CHANCE: Final = -1
TERMINAL: Final = -4
NUM_ACTIONS: Final = 142
NUM_CHANCE_OUTCOMES: Final = 28

# phases of a table
DEAL: Final = "deal"  # tiles are being dealt (chance)
LOT: Final = "lot"  # the leader is drawn by lot (chance)
PLAY: Final = "play"  # a seat acts
DRAWING: Final = "drawing"  # a seat chose to draw; chance picks the tile
OVER: Final = "over"  # the round (or the match) is over

_DRAW_CODE: Final = int(DRAW)

def config_from(
    game: str,
    players: int,
    teams: bool | None = None,
    target: int | None = None,
    hand_size: int | None = None,
    side_arm_gate: bool | None = None,
) -> Config:
    """A :class:`Config` from loose parameters; ``None`` (or 0 for target and hand size) keeps
    the rules' default. ``teams`` is read only for four players."""
    rules: dict[str, Any] = {}
    if hand_size:
        rules["hand_size"] = hand_size
    if side_arm_gate is not None:
        rules["side_arm_gate"] = side_arm_gate
    return Config.make(
        game,
        players,
        teams=teams if players == 4 else None,
        target=target or None,
        rules=rules,
    )


def round_action_bound(config: Config) -> int:
    """The most decisions one round can take: every play, every draw, and at most ``n - 1``
    passes after each play (a round where nobody can play is over at once, C-8)."""
    n = config.players
    dealt = n * config.hand_size
    draws = 28 - dealt if config.game.drawing else 0
    plays = dealt + draws
    return n * plays + draws


def utility_bound(config: Config) -> float:
    """A bound on one round's point difference (a side's gain minus the others' mean)."""
    game = config.game
    # End payments are at most the whole set's 168 pips, rounded up per seat.
    payment = 168 + 2 * config.players
    if game.play_scoring == "none":
        return float(payment)
    # Play points stop at the target (the round ends there); the last play adds at most 36.
    return float(config.target + 36 + payment)


class Table:
    """One round (``match=False``) or a whole match of a game, chance steps included."""

    __slots__ = (
        "_cache",
        "_legal",
        "actions",
        "config",
        "dealt",
        "dealt_mask",
        "lot",
        "match",
        "max_rounds",
        "phase",
        "round_start",
        "rounds",
        "start_scores",
        "state",
    )

    def __init__(self, config: Config, match: bool = False, max_rounds: int = 100) -> None:
        self.config = config
        self.match = match
        self.max_rounds = max_rounds
        self.state = State(config)
        self.phase = DEAL
        #: tile ids dealt so far this round, in deal order (seat 0's hand first)
        self.dealt: list[int] = []
        self.dealt_mask = 0
        #: the number of the round being dealt or played (1 for the first)
        self.rounds = 1
        #: the scores when the round in play was dealt
        self.start_scores: list[Score] = [0] * config.sides
        #: every action and chance outcome applied, in order (the OpenSpiel history)
        self.actions: list[int] = []
        #: index in ``actions`` where the round in play began to be dealt
        self.round_start = 0
        #: the leader of the round in play was drawn by lot
        self.lot = False
        self._cache: tuple[int, WorldSampler] | None = None
        self._legal: list[int] | None = None

    # -- copying and pickling ---------------------------------------------------------------

    def copy(self) -> Table:
        new = Table.__new__(Table)
        new.config = self.config
        new.match = self.match
        new.max_rounds = self.max_rounds
        new.state = self.state.copy()
        new.phase = self.phase
        new.dealt = self.dealt[:]
        new.dealt_mask = self.dealt_mask
        new.rounds = self.rounds
        new.start_scores = self.start_scores[:]
        new.actions = self.actions[:]
        new.round_start = self.round_start
        new.lot = self.lot
        new._cache = None
        new._legal = self._legal
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        return self.copy()

    def __getstate__(self) -> dict[str, Any]:
        """Pickled as its configuration and its actions (replayed when unpickled)."""
        return {
            **self.config.header(),
            "match": self.match,
            "max_rounds": self.max_rounds,
            "actions": list(self.actions),
        }

    def __setstate__(self, data: dict[str, Any]) -> None:
        config = Config.from_header(data)
        Table.__init__(self, config, data["match"], data["max_rounds"])
        for action in data["actions"]:
            self.apply(action)

    # -- whose turn --------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.config.players

    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE`, or :data:`TERMINAL`."""
        phase = self.phase
        if phase is PLAY:
            return self.state.turn
        if phase is OVER:
            return TERMINAL
        return CHANCE

    def is_chance(self) -> bool:
        return self.phase is DEAL or self.phase is LOT or self.phase is DRAWING

    def is_over(self) -> bool:
        return self.phase is OVER

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance outcomes and their probabilities (empty unless chance acts)."""
        phase = self.phase
        if phase is DEAL:
            mask = self.dealt_mask
            left = [t for t in range(28) if not mask >> t & 1]
        elif phase is DRAWING:
            st = self.state
            left = sorted(st.stock[st.stock_pos :])
        elif phase is LOT:
            p = 1.0 / self.config.players
            return [(seat, p) for seat in range(self.config.players)]
        else:
            return []
        p = 1.0 / len(left)
        return [(t, p) for t in left]

    def legal_codes(self) -> list[int]:
        """The legal action codes of the seat to act (sorted; empty at chance and the end)."""
        if self.phase is not PLAY:
            return []
        if self._legal is None:
            self._legal = self.state.legal_codes()
        return self._legal[:]

    def legal_actions(self) -> list[Action]:
        return [ACTIONS[c] for c in self.legal_codes()]

    # -- acting ------------------------------------------------------------------------------

    def apply(self, action: int) -> None:
        """Apply a chance outcome or the acting seat's action code (both checked)."""
        phase = self.phase
        action = int(action)
        if phase is PLAY:
            legal = self._legal if self._legal is not None else self.state.legal_codes()
            if action not in legal:
                raise ValueError(
                    f"{_code_text(action)} is not legal here (legal: "
                    f"{', '.join(str(a) for a in self.legal_actions())})"
                )
            self._record(action)
            if action == _DRAW_CODE:
                self.phase = DRAWING
                return
            self.state.apply_code(action)
            if self.state.round_end is not None:
                self._round_over()
            return
        if phase is DEAL:
            if not 0 <= action < 28 or self.dealt_mask >> action & 1:
                raise ValueError(f"chance outcome {action} is not a tile left to deal")
            self._record(action)
            self.dealt.append(action)
            self.dealt_mask |= 1 << action
            if len(self.dealt) == self.config.players * self.config.hand_size:
                self._all_dealt()
            return
        if phase is LOT:
            if not 0 <= action < self.config.players:
                raise ValueError(f"chance outcome {action} is not a seat")
            self._record(action)
            self._start(action)
            return
        if phase is DRAWING:
            st = self.state
            try:
                i = st.stock.index(action, st.stock_pos)
            except ValueError:
                raise ValueError(f"chance outcome {action} is not a tile in the stock") from None
            self._record(action)
            stock = st.stock[:]  # copies share the stock list: copy before reordering
            pos = st.stock_pos
            stock[pos], stock[i] = stock[i], stock[pos]
            st.stock = stock
            st.apply_code(_DRAW_CODE)
            self.phase = PLAY
            if st.round_end is not None:
                self._round_over()
            return
        raise ValueError("the game is over; no more actions")

    def _record(self, action: int) -> None:
        self.actions.append(action)
        self._cache = None
        self._legal = None

    def hands_dealt(self) -> list[int]:
        """The hands dealt so far this round, as tile masks per seat."""
        size = self.config.hand_size
        hands = []
        for seat in range(self.config.players):
            mask = 0
            for t in self.dealt[seat * size : (seat + 1) * size]:
                mask |= 1 << t
            hands.append(mask)
        return hands

    def _all_dealt(self) -> None:
        hands = [tiles_of_mask(h) for h in self.hands_dealt()]
        leader = self.state.expected_leader(hands)
        if leader is None:
            self.phase = LOT
            self.lot = True
        else:
            self._start(leader)

    def _start(self, leader: int) -> None:
        mask = self.dealt_mask
        stock = [t for t in range(28) if not mask >> t & 1]
        self.state._begin(self.hands_dealt(), stock, leader)
        self.phase = PLAY

    def _round_over(self) -> None:
        st = self.state
        if not self.match or st.over or self.rounds >= self.max_rounds:
            self.phase = OVER
            return
        self.phase = DEAL
        self.dealt = []
        self.dealt_mask = 0
        self.rounds += 1
        self.start_scores = list(st.scores)
        self.round_start = len(self.actions)
        self.lot = False

    # -- outcomes ----------------------------------------------------------------------------

    def round_points(self) -> list[float]:
        """Per seat: its side's points since the round in play was dealt, minus the mean of
        the other sides' (zero-sum; partners get the same)."""
        cfg = self.config
        scores = self.state.scores
        gains = [float(scores[s] - self.start_scores[s]) for s in range(cfg.sides)]
        total = sum(gains)
        per_side = [g - (total - g) / (cfg.sides - 1) for g in gains]
        return [per_side[cfg.side_of(p)] for p in range(cfg.players)]

    def match_result(self) -> list[float]:
        """Per seat: 1 for the match winner's side, -1/(sides-1) for the others; 0 for all
        when the match is drawn or unfinished."""
        cfg = self.config
        st = self.state
        if not st.over or st.winner is None:
            return [0.0] * cfg.players
        lose = -1.0 / (cfg.sides - 1)
        return [1.0 if cfg.side_of(p) == st.winner else lose for p in range(cfg.players)]

    def returns(self) -> list[float]:
        """OpenSpiel's returns: zero until the end; then the round's point difference (one
        round) or the match result (a whole match)."""
        if self.phase is not OVER:
            return [0.0] * self.config.players
        return self.match_result() if self.match else self.round_points()

    # -- knowledge ---------------------------------------------------------------------------

    def past_rounds(self) -> list[RoundInfo]:
        """The finished rounds of the match (the one just ended included while dealing)."""
        st = self.state
        past = list(st.finished)
        if self.phase in (DEAL, LOT) and st.leader >= 0:
            past.append(st.current_round_info())
        return past

    def dealt_to(self, seat: int) -> int:
        """The tiles dealt to ``seat`` this round (so far, while dealing), as a mask."""
        if self.phase in (DEAL, LOT):
            return self.hands_dealt()[seat]
        return self.state.dealt[seat]

    # -- resampling --------------------------------------------------------------------------

    def resample_actions(self, seat: int, rng: random.Random) -> list[int]:
        """The actions of a table ``seat`` cannot tell from this one, drawn at random.

        Earlier rounds are kept as they were (nothing in them bears on the rest of the match);
        the round in play is dealt anew, with the seat's own tiles and draws as they were and
        everyone's moves replayed, by :class:`~fives.core.sampling.WorldSampler`.
        """
        prefix = self.actions[: self.round_start]
        cfg = self.config
        n = cfg.players
        size = cfg.hand_size
        if self.phase in (DEAL, LOT):
            # Keep the seat's own tiles where they were dealt; shuffle the rest.
            mine = set(range(seat * size, (seat + 1) * size))
            own = {t for i, t in enumerate(self.dealt) if i in mine}
            others = [t for t in range(28) if t not in own]
            rng.shuffle(others)
            deal = [t if i in mine else others.pop() for i, t in enumerate(self.dealt)]
            return prefix + deal  # (in the lot phase the lot is still to be drawn)
        st = self.state
        if self._cache is not None and self._cache[0] == seat:
            sampler = self._cache[1]
        else:
            sampler = WorldSampler(view_of(st, seat))
            self._cache = (seat, sampler)
        world = sampler.sample(rng)
        out = prefix
        for s in range(n):
            out.extend(t.id for t in tiles_of_mask(world.dealt[s]))
        if self.lot:
            out.append(world.leader)
        for _seat, code, _ends, _points, tile in world.log:
            out.append(code)
            if code == _DRAW_CODE:
                out.append(tile)
        if self.phase is DRAWING:
            out.append(_DRAW_CODE)
        return out

    # -- text --------------------------------------------------------------------------------

    def action_text(self, action: int, player: int | None = None) -> str:
        """A player action in our notation, or a chance outcome described in words."""
        if player is None or player >= 0:
            return _code_text(action)
        if self.phase is DEAL:
            seat = len(self.dealt) // self.config.hand_size
            return f"deal {ALL_TILES[action]} to seat {seat}" if 0 <= action < 28 else f"deal {action}"
        if self.phase is LOT:
            return f"lot: seat {action} leads"
        if self.phase is DRAWING:
            return f"seat {self.state.turn} draws {ALL_TILES[action]}" if 0 <= action < 28 else f"draw {action}"
        return f"chance {action}"

    def __str__(self) -> str:
        """Everything, hidden tiles included (for debugging and OpenSpiel's consistency checks)."""
        cfg = self.config
        st = self.state
        lines = [f"{cfg.game.name} {cfg.players}p{' teams' if cfg.teams else ''} "
                 f"round {self.rounds} {self.phase}"]
        lines.append("scores " + " ".join(_score(s) for s in st.scores))
        if self.phase in (DEAL, LOT):
            for seat, mask in enumerate(self.hands_dealt()):
                lines.append(f"seat {seat} dealt: {_tiles(mask)}")
            return "\n".join(lines)
        for seat in range(cfg.players):
            lines.append(f"seat {seat}: {_tiles(st.hands[seat])}")
        lines.append("stock: " + " ".join(str(ALL_TILES[t]) for t in st.stock[st.stock_pos :]))
        lines.append("moves: " + _moves(st.log, None, reveal=True))
        lines.append(_layout_line(st))
        if st.round_end is not None:
            lines.append(_end_text(st.round_end))
        return "\n".join(lines)


# -- what a seat may know, as text -------------------------------------------------------------


def _code_text(code: int) -> str:
    return str(ACTIONS[code]) if 0 <= code < NUM_ACTIONS else f"action {code}"


def _score(x: Score) -> str:
    return str(int(x)) if x == int(x) else f"{float(x):g}"


def _tiles(mask: int) -> str:
    return " ".join(str(t) for t in tiles_of_mask(mask)) or "-"


def _moves(log: Sequence[tuple[int, int, int, int, int]], seat: int | None, reveal: bool = False) -> str:
    """Moves as ``seat:action``; a draw shows its tile (``0:draw=3-4``) only to the drawer."""
    parts = []
    for who, code, _ends, _points, tile in log:
        text = f"{who}:{ACTIONS[code]}"
        if tile >= 0 and (reveal or who == seat):
            text += f"={ALL_TILES[tile]}"
        parts.append(text)
    return " ".join(parts) or "-"


def _end_text(end: RoundEnd) -> str:
    who = "" if end.went_out is None else f" by seat {end.went_out}"
    winner = "none" if end.winner is None else f"side {end.winner}"
    return (f"end: {end.reason}{who}, winner {winner}, points "
            f"{' '.join(_score(p) for p in end.points)}, pips {' '.join(map(str, end.pips))}")


def _layout_line(st: State) -> str:
    lay = st.layout
    if lay.count == 0:
        return "table: empty"
    arms = []
    for e, name in enumerate("WENS"):
        if lay.arms[e]:
            arms.append(f"{name}[{' '.join(str(ALL_TILES[t]) for t, _ in lay.arms[e])}]")
    centre = f"{ALL_TILES[lay.center]}{'*' if lay.spinner >= 0 else ''}"
    ends = " ".join(f"{'WENS'[e]}:{v}" for e, v in lay.ends)
    return f"table: {centre} {' '.join(arms)}".rstrip() + f"; ends {ends} = {lay.ends_total()}"


def knowledge_string(table: Table, seat: int, perfect_recall: bool = True) -> str:
    """What ``seat`` knows, as text: OpenSpiel's information state (``perfect_recall``: its
    dealt hand, the leader and every move of the round, its own draws with their tiles, and in
    a match the earlier rounds) or its observation (the present only: hand, table with the open
    ends and their count, hand sizes, stock, scores, whose turn)."""
    cfg = table.config
    st = table.state
    n = cfg.players
    lines = [f"{cfg.game.name} {n}p{' teams' if cfg.teams else ''} seat {seat}"]
    if table.match:
        lines.append(f"round {table.rounds}; scores {' '.join(_score(s) for s in st.scores)} "
                     f"of {cfg.target}")
        if perfect_recall:
            for i, r in enumerate(table.past_rounds()):
                own = " ".join(str(t) for t in r.hands[seat]) or "-"
                end = _end_text(r.end) if r.end is not None else "end: -"
                lines.append(f"past {i + 1}: dealt {own}; leader {r.leader}; "
                             f"{_moves(r.log, seat)}; {end}")
    phase = table.phase
    if phase is DEAL or phase is LOT:
        lines.append(f"dealing: {_tiles(table.dealt_to(seat))} "
                     f"({len(table.dealt)} of {n * cfg.hand_size} dealt)")
        if phase is LOT:
            lines.append("lot for the lead")
        return "\n".join(lines)
    if perfect_recall:
        lines.append(f"dealt: {_tiles(st.dealt[seat])}; leader {st.leader}"
                     f"{' by lot' if table.lot else ''}")
        lines.append("moves: " + _moves(st.log, seat))
    elif st.log:
        lines.append("last: " + _moves(st.log[-1:], seat))
    lines.append("hand: " + _tiles(st.hands[seat]))
    lines.append(_layout_line(st))
    sizes = " ".join(str(h.bit_count()) for h in st.hands)
    out = "".join("x" if o else "-" for o in st.out) if any(st.out) else ""
    scores = " ".join(_score(s) for s in st.scores)
    lines.append(f"hands {sizes}{'; out ' + out if out else ''}; stock {st.stock_left()}; "
                 f"scores {scores}")
    if phase is PLAY:
        lines.append(f"turn {st.turn}")
    elif phase is DRAWING:
        lines.append(f"seat {st.turn} draws")
    if st.round_end is not None:
        lines.append(_end_text(st.round_end))
    if phase is OVER and table.match:
        lines.append("match over" + ("" if st.winner is None else f", side {st.winner} wins"))
    return "\n".join(lines)


def play_code(tile_id: int, end: int | None) -> int:
    """The action code of a lead (``end`` None) or a play."""
    return LEAD_BASE + tile_id if end is None else tile_id * 4 + end
