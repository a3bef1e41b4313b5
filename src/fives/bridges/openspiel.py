"""Our five games as OpenSpiel games (``pip install fives[openspiel]``).

Importing this module registers, with :func:`pyspiel.register_game`:

================================ ====================
short name                       game
================================ ====================
``fives_all_fives``              All Fives
``fives_fives_and_threes``       Fives and Threes
``fives_muggins``                Muggins
``fives_draw``                   Draw
``fives_block``                  Block
================================ ====================

Parameters (``pyspiel.load_game("fives_all_fives(players=4,match=True)")``):

- ``players``: 2, 3 or 4 (default 2);
- ``teams``: partnerships, read only for 4 players (default: the rules', true for All Fives
  and Fives and Threes);
- ``target``: the match target, 0 for the rules' (it ends a round early only when reached);
- ``hand_size``: 0 for the rules'; ``side_arm_gate``: the spinner's side arms open only once
  both straight arms hold a tile (default true);
- ``match``: false (default) for one round per episode, true for a whole match;
- ``max_rounds``: a match stops (drawn) after this many rounds (default 100).

Returns: one round gives each player its side's points in the round minus the mean of the
other sides' (zero-sum; partners share); a match gives 1 to the winner's side and
-1/(sides-1) to the others (0 to all when drawn). Rewards come at the end only.

Chance nodes: the deal tile by tile (seat 0 first), the lot for the lead where the rules leave it
to chance, and the tile of each draw (the player chooses ``draw``, then chance picks the tile,
uniformly from the unseen stock). Player actions are our action codes (0..141) and their
strings our notation (``3-4@W``, ``6-6``, ``draw``, ``pass``).

Information state and observation (strings, :mod:`fives.bridges.knowledge`, and tensors,
:mod:`fives.bridges.tensors`) are written from the seat's view and hold only what it may know:
its own tiles and draws, the table with its open ends and their count, every public move, hand
sizes, stock and scores. :meth:`FivesState.resample_from_infostate`
deals a world consistent with a seat's information (our :class:`~fives.core.sampling.WorldSampler`),
which is what OpenSpiel's information-set MCTS needs::

    from open_spiel.python.algorithms import ismcts, mcts
    import fives.bridges.openspiel as fo
    game = fo.load("block", players=2)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(), uct_c=2.0, max_simulations=100)
"""

from __future__ import annotations

import random
from typing import Any, Final

import pyspiel

from fives.bots import Bot, make_bot
from fives.bridges.knowledge import knowledge_of, knowledge_string
from fives.bridges.table import OVER, Table, config_from, round_action_bound, utility_bound
from fives.bridges.tensors import Encoder
from fives.core.games import GAMES, Config
from fives.core.tiles import ACTIONS
from fives.core.view import view_of

__all__ = [
    "SHORT_NAMES",
    "FivesBot",
    "FivesGame",
    "FivesObserver",
    "FivesState",
    "load",
    "register",
    "short_name",
]

#: our game name -> OpenSpiel short name
SHORT_NAMES: Final = {name: "fives_" + name.replace("-", "_") for name in GAMES}
_BY_SHORT: Final = {short: name for name, short in SHORT_NAMES.items()}


def short_name(game: str) -> str:
    """The OpenSpiel name of one of our games (``"all-fives"`` -> ``"fives_all_fives"``)."""
    if game in _BY_SHORT:
        return game
    try:
        return SHORT_NAMES[game]
    except KeyError:
        raise ValueError(f"unknown game {game!r}: one of {', '.join(GAMES)}") from None


def _game_type(name: str) -> pyspiel.GameType:
    game = GAMES[name]
    return pyspiel.GameType(
        short_name=SHORT_NAMES[name],
        long_name=f"fives {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": 2,
            "teams": game.teams_for_four,
            "target": 0,
            "hand_size": 0,
            "side_arm_gate": True,
            "match": False,
            "max_rounds": 100,
        },
    )


class FivesGame(pyspiel.Game):
    """One of our games with its parameters (see the module docstring)."""

    NAME = ""  # set by each registered subclass

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        game_type = _game_type(self.NAME)
        spec = game_type.parameter_specification
        values = {k: params.get(k, spec[k]) for k in spec}
        unknown = set(params) - set(spec)
        if unknown:
            raise ValueError(f"unknown parameters {sorted(unknown)}: the parameters are {sorted(spec)}")
        config = config_from(
            self.NAME,
            int(values["players"]),
            teams=bool(values["teams"]),
            target=int(values["target"]),
            hand_size=int(values["hand_size"]),
            side_arm_gate=bool(values["side_arm_gate"]),
        )
        self.config: Config = config
        self.match = bool(values["match"])
        self.max_rounds = int(values["max_rounds"])
        if self.max_rounds < 1:
            raise ValueError("max_rounds must be at least 1")
        per_round = round_action_bound(config)
        rounds = self.max_rounds if self.match else 1
        bound = 1.0 if self.match else utility_bound(config)
        drawing = 28 - config.players * config.hand_size if config.game.drawing else 0
        self._chance_nodes = (config.players * config.hand_size + 1 + drawing) * rounds
        info = pyspiel.GameInfo(
            num_distinct_actions=142,
            max_chance_outcomes=28,
            num_players=config.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=per_round * rounds,
        )
        super().__init__(game_type, info, values)

    def new_initial_state(self) -> FivesState:
        return FivesState(self)

    def max_chance_nodes_in_history(self) -> int:
        return self._chance_nodes

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> FivesObserver | None:
        """A seat's observer, or None for an observer type this game does not offer, as
        OpenSpiel's contract says (its tools then go without it): the public-only and the
        private-only observations are not offered (docs/bridges.md says why)."""
        if iig_obs_type is not None and not offered(iig_obs_type):
            return None
        return FivesObserver(self.config, iig_obs_type, params)


def offered(iig_obs_type: pyspiel.IIGObservationType) -> bool:
    """The observer types a fives game offers: one seat's knowledge, public and private
    together (its observation, or with perfect recall its information state)."""
    return bool(iig_obs_type.public_info
                and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER)


class FivesState(pyspiel.State):
    """A round or a match in progress: a :class:`~fives.bridges.table.Table` underneath
    (``state.table``; ``state.table.state`` is our engine's full state)."""

    def __init__(self, game: FivesGame) -> None:
        super().__init__(game)
        self._table = Table(game.config, game.match, game.max_rounds)

    @property
    def table(self) -> Table:
        return self._table

    def current_player(self) -> int:
        return self._table.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self._table.legal_codes()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._table.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._table.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self._table.action_text(action, player)

    def is_terminal(self) -> bool:
        return self._table.phase is OVER

    def returns(self) -> list[float]:
        return self._table.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> FivesState:
        """A state ``player_id`` cannot tell from this one, dealt at random (the same public
        moves and own tiles; everyone else's tiles and the stock drawn anew), built by
        applying its whole history to a new initial state.

        ``probability_sampler`` is called for uniform numbers in [0, 1), as OpenSpiel's
        ``UniformProbabilitySampler``; pass a seeded one for repeatable worlds."""
        seed = int(probability_sampler() * (1 << 26)) << 26 | int(probability_sampler() * (1 << 26))
        actions = self._table.resample_actions(player_id, random.Random(seed))
        state = self.get_game().new_initial_state()
        for action in actions:
            state.apply_action(action)
        return state

    def __str__(self) -> str:
        return str(self._table)


class FivesObserver:
    """OpenSpiel's Python observer: a seat's information state (``perfect_recall``) or its
    observation, as a tensor (:mod:`fives.bridges.tensors`) and a string."""

    def __init__(
        self, config: Config, iig_obs_type: pyspiel.IIGObservationType | None, params: dict[str, Any] | None
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if not offered(iig_obs_type):
            raise ValueError(
                "fives observers hold one seat's knowledge (public and the seat's own private "
                "information)"
            )
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self._encoder = Encoder(config, self.perfect_recall)
        self.tensor = self._encoder.tensor
        self.dict = self._encoder.dict

    def set_from(self, state: FivesState, player: int) -> None:
        self._encoder.encode(knowledge_of(state.table, player))

    def string_from(self, state: FivesState, player: int) -> str:
        return knowledge_string(knowledge_of(state.table, player), self.perfect_recall)


class FivesBot(pyspiel.Bot):
    """One of our bots (``make_bot(name)``) playing a seat of one of our OpenSpiel games: it
    sees only ``view_of(state, seat)``, exactly as at our own tables."""

    def __init__(self, bot: str | Bot, player_id: int, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = make_bot(bot) if isinstance(bot, str) else bot
        self.player_id = player_id
        self.rng = random.Random(seed)

    def restart_at(self, state: pyspiel.State) -> None:
        pass

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        pass

    def step(self, state: pyspiel.State) -> int:
        table: Table = state.table
        legal = table.legal_codes()
        if len(legal) == 1:
            return legal[0]
        view = view_of(table.state, table.current_player())
        return int(self.bot.choose(view, self.rng))

    def step_with_policy(self, state: pyspiel.State) -> tuple[list[tuple[int, float]], int]:
        action = self.step(state)
        return [(a, 1.0 if a == action else 0.0) for a in state.legal_actions()], action


def load(game: str, **params: Any) -> pyspiel.Game:
    """``pyspiel.load_game`` by our name or the short name, with keyword parameters."""
    register()
    return pyspiel.load_game(short_name(game), params)


def action_text(action: int) -> str:
    """A player action code in our notation (``ACTIONS[action]``)."""
    return str(ACTIONS[action])


_registered = False


def register() -> None:
    """Register the five games with OpenSpiel (done when this module is imported)."""
    global _registered
    if _registered:
        return
    known = set(pyspiel.registered_names())
    for name in GAMES:
        cls = type(f"FivesGame_{name.replace('-', '_')}", (FivesGame,), {"NAME": name, "__module__": __name__})
        globals()[cls.__name__] = cls
        if SHORT_NAMES[name] not in known:
            pyspiel.register_game(_game_type(name), cls)
    _registered = True


register()
