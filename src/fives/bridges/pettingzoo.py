"""Our five games as PettingZoo AEC environments (``pip install fives[pettingzoo]``).

>>> from fives.bridges.pettingzoo import env
>>> e = env(game="block", players=2)
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs), int(obs["action_mask"].sum()) >= 1
(['action_mask', 'observation'], True)

Agents are ``player_0`` .. ``player_{n-1}`` (seat numbers). Each observation is a dict:
``"observation"``, the seat's knowledge as a float32 vector (:mod:`fives.bridges.tensors`: the
present, or with ``observation="information_state"`` the whole round), and ``"action_mask"``
(142 int8: our action codes, play = tile*4+end, lead = 112+tile, draw = 140, pass = 141).
Chance (the deal, the lot for the lead, the tiles drawn) is played by the environment with its
own random source, seeded by ``reset(seed=...)``.

Episodes and rewards:

- ``episode="match"`` (default): a whole match; ``episode="round"``: one round.
- ``reward="points"`` (default): at the end of every round each agent receives its side's
  points in the round minus the mean of the other sides' (partners share; zero-sum);
  ``reward="win"``: at the end of the match, 1 for the winning side, -1/(sides-1) for the
  others (0 for all on a draw). ``infos`` always carry the last finished round's points
  (``"round_points"``) and, at the end, the match result (``"match_result"``).

Render modes: ``"ansi"`` (text: the layout as :func:`fives.core.render.render_layout` draws it,
with scores, hand sizes and stock), ``"human"`` (that text printed) and ``"rgb_array"`` (a
640x440 picture of the layout drawn as in the browser game, :mod:`fives.bridges.picture`).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from fives.bridges.knowledge import knowledge_of
from fives.bridges.table import CHANCE, OVER, Table, config_from
from fives.bridges.tensors import Encoder
from fives.core.games import Config
from fives.core.render import render_layout
from fives.core.tiles import ACTIONS
from fives.core.view import View

__all__ = ["FivesEnv", "env", "raw_env"]

NUM_ACTIONS = 142


def env(**kwargs: Any) -> AECEnv:
    """The environment wrapped as PettingZoo recommends (order enforcing, bounds checked)."""
    e: AECEnv = FivesEnv(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class FivesEnv(AECEnv):
    """One of our games (``game``: all-fives, fives-and-threes, muggins, draw, block) for
    ``players`` seats, with ``teams``, ``target`` and house rules (``hand_size``,
    ``side_arm_gate``) as in :meth:`Config.make <fives.core.games.Config.make>`."""

    metadata = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": "fives_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        game: str = "all-fives",
        players: int = 2,
        teams: bool | None = None,
        target: int | None = None,
        hand_size: int | None = None,
        side_arm_gate: bool | None = None,
        episode: str = "match",
        reward: str = "points",
        observation: str = "observation",
        max_rounds: int = 100,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if episode not in ("match", "round"):
            raise ValueError(f"episode is 'match' or 'round', not {episode!r}")
        if reward not in ("points", "win"):
            raise ValueError(f"reward is 'points' or 'win', not {reward!r}")
        if reward == "win" and episode == "round":
            raise ValueError("reward='win' pays at the end of a match: use episode='match'")
        if observation not in ("observation", "information_state"):
            raise ValueError(f"observation is 'observation' or 'information_state', not {observation!r}")
        modes = ["human", "ansi", "rgb_array"]
        if render_mode is not None and render_mode not in modes:
            raise ValueError(f"render_mode is one of {modes}, not {render_mode!r}")
        self.config: Config = config_from(game, players, teams, target, hand_size, side_arm_gate)
        self.episode = episode
        self.reward_kind = reward
        self.max_rounds = max_rounds
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self._encoder = Encoder(self.config, observation == "information_state")
        high = float(max(self.config.target + 250, max_rounds + 1, 30))
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, high, (self._encoder.size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._rng = random.Random()
        self.table = Table(self.config, match=episode == "match", max_rounds=max_rounds)

    # -- spaces ------------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- episode -----------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.table = Table(self.config, match=self.episode == "match", max_rounds=self.max_rounds)
        self._play_chance()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.table.current_player()]
        if self.render_mode == "human":
            self.render()

    def _play_chance(self) -> None:
        table = self.table
        rng = self._rng
        while table.current_player() == CHANCE:
            outcomes = table.chance_outcomes()
            table.apply(outcomes[int(rng.random() * len(outcomes))][0])  # all uniform

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._index[agent]
        known = knowledge_of(self.table, seat)
        observation = self._encoder.encode(known).copy()
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if self.table.current_player() == seat:  # not while chance acts (a tile being drawn)
            mask[[int(a) for a in known.view.legal]] = 1
        return {"observation": observation, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        code = int(action)
        legal = table.legal_codes()
        if code not in legal:
            shown = ", ".join(f"{c} ({ACTIONS[c]})" for c in legal)
            raise ValueError(f"{agent}: action {code} is not legal here; legal: {shown}")
        self._cumulative_rewards[agent] = 0.0
        rounds_before = table.rounds
        start = list(table.start_scores)
        table.apply(code)
        self._play_chance()
        # A round is over when the table is, or when the next round is being played; the
        # scores have not moved since its end (a deal scores nothing).
        round_over = table.phase is OVER or table.rounds != rounds_before
        points = _points(self.config, table.state.scores, start) if round_over else None
        for a in self.agents:
            self.rewards[a] = 0.0
        if round_over:
            assert points is not None
            for a in self.agents:
                self.infos[a] = dict(self.infos[a], round=rounds_before,
                                     round_points=points[self._index[a]])
            if self.reward_kind == "points":
                for a in self.agents:
                    self.rewards[a] = points[self._index[a]]
        if table.phase is OVER:
            result = table.match_result()
            finished = table.state.over or self.episode == "round"
            for a in self.agents:
                if self.episode == "match":
                    self.infos[a] = dict(self.infos[a], match_result=result[self._index[a]])
                if self.reward_kind == "win":
                    self.rewards[a] += result[self._index[a]]
                self.terminations[a] = finished
                self.truncations[a] = not finished
        else:
            self.agent_selection = self.possible_agents[table.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # -- rendering ---------------------------------------------------------------------------

    def _status(self, view: View) -> str:
        table = self.table
        cfg = self.config
        scores = " ".join(f"{float(s):g}" for s in view.scores)
        sizes = " ".join(map(str, view.hand_sizes))
        turn = table.current_player()
        who = f"turn: player_{turn}" if turn >= 0 else ("over" if table.phase is OVER else "dealing")
        return (f"{cfg.game.title} round {table.rounds} | scores {scores} | hands {sizes} | "
                f"stock {view.stock} | {who}")

    def render(self) -> Any:
        """What a spectator sees (the public view): the layout, scores, hand sizes, stock."""
        if self.render_mode is None:
            return None
        view = self.table.view(None)
        if self.render_mode == "rgb_array":
            from fives.bridges.picture import draw_frame

            return draw_frame(view.layout.explain(), self._status(view))
        text = render_layout(view.layout) + "\n" + self._status(view)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def _points(config: Config, scores: list[Any], start: list[Any]) -> list[float]:
    gains = [float(scores[s] - start[s]) for s in range(config.sides)]
    total = sum(gains)
    per_side = [g - (total - g) / (config.sides - 1) for g in gains]
    return [per_side[config.side_of(p)] for p in range(config.players)]


raw_env = FivesEnv
