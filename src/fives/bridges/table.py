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

A table is the world: it holds every hidden tile. What a seat may know is taken from the seat's
:class:`~fives.core.view.View` (:meth:`Table.view`) by :mod:`fives.bridges.knowledge`, which
writes OpenSpiel's information state and observation strings; :mod:`fives.bridges.tensors`
writes the same as numbers.

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
from typing import Any, Final

from fives.bridges.text import end_text, layout_line, moves_text, score_text, tiles_text
from fives.core.games import Config
from fives.core.outcome import Score
from fives.core.sampling import WorldSampler
from fives.core.state import State
from fives.core.tiles import ACTIONS, ALL_TILES, DRAW, Action, Tile, tiles_of_mask
from fives.core.view import View, view_of

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
        "_legal",
        "actions",
        "carried",
        "config",
        "dealt",
        "dealt_mask",
        "lot",
        "match",
        "max_rounds",
        "memo",
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
        #: what was worked out at this position (seats' views and knowledge, world samplers),
        #: so that a string and a tensor of one seat build its view once; every step clears it
        self.memo: dict[tuple[str, int | None], Any] = {}
        #: what the seats' encoders carry from one position to the next (a table only moves
        #: forward; a copy starts without)
        self.carried: dict[str, Any] = {}
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
        new.memo = {}
        new.carried = {}
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
        self.memo = {}
        self._legal = None

    def _dealt_ids(self, seat: int) -> list[int]:
        size = self.config.hand_size
        return self.dealt[seat * size : (seat + 1) * size]

    def dealt_so_far(self, seat: int) -> int:
        """While a round is being dealt (or its lead drawn by lot): the tiles dealt to ``seat``
        so far, as a mask. The engine has no round yet, so no view holds them."""
        return sum(1 << t for t in self._dealt_ids(seat))

    def _deal(self) -> list[list[Tile]]:
        return [[ALL_TILES[t] for t in self._dealt_ids(s)] for s in range(self.players)]

    def _all_dealt(self) -> None:
        hands = self._deal()
        leader = self.state.expected_leader(hands)
        if leader is None:
            self.phase = LOT
            self.lot = True
        else:
            self._start(leader, hands)

    def _start(self, leader: int, hands: list[list[Tile]] | None = None) -> None:
        mask = self.dealt_mask
        stock = [ALL_TILES[t] for t in range(28) if not mask >> t & 1]
        self.state.start_round(self._deal() if hands is None else hands, stock, leader)
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

    # -- views -----------------------------------------------------------------------------

    def view(self, seat: int | None) -> View:
        """The view of ``seat`` (``None``: the public view) of the engine's state, once per
        position. Shared: callers must not change it. While a round is being dealt it is still
        the view of the round before (or of an empty table)."""
        key = ("view", seat)
        view: View | None = self.memo.get(key)
        if view is None:
            view = self.memo[key] = view_of(self.state, seat)
        return view

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
        key = ("sampler", seat)
        sampler: WorldSampler | None = self.memo.get(key)
        if sampler is None:
            sampler = self.memo[key] = WorldSampler(self.view(seat))
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
        lines.append("scores " + " ".join(score_text(s) for s in st.scores))
        if self.phase in (DEAL, LOT):
            for seat in range(cfg.players):
                lines.append(f"seat {seat} dealt: {tiles_text(self.dealt_so_far(seat))}")
            return "\n".join(lines)
        for seat in range(cfg.players):
            lines.append(f"seat {seat}: {tiles_text(st.hands[seat])}")
        lines.append("stock: " + " ".join(str(ALL_TILES[t]) for t in st.stock[st.stock_pos :]))
        moves = ((who, ACTIONS[code], ALL_TILES[t] if t >= 0 else None) for who, code, _, _, t in st.log)
        lines.append("moves: " + moves_text(moves))
        lines.append(layout_line(st.layout))
        if st.round_end is not None:
            lines.append(end_text(st.round_end))
        return "\n".join(lines)


def _code_text(code: int) -> str:
    return str(ACTIONS[code]) if 0 <= code < NUM_ACTIONS else f"action {code}"
