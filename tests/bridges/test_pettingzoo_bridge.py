"""The PettingZoo bridge: PettingZoo's API, render and seed tests for every game and player
count, rewards per round and per match, masks, what an agent observes, the picture."""

from __future__ import annotations

import random
import warnings

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")
pytest.importorskip("PIL")

from pettingzoo.test import api_test, render_test  # noqa: E402
from pettingzoo.test.seed_test import check_environment_deterministic  # noqa: E402

from fives.bridges.knowledge import knowledge_of  # noqa: E402
from fives.bridges.pettingzoo import FivesEnv, env  # noqa: E402
from fives.bridges.table import Table  # noqa: E402
from fives.bridges.tensors import Encoder  # noqa: E402
from fives.core.games import GAMES  # noqa: E402

# PettingZoo's api_test warns about every dict observation with an action mask (its own
# classic environments included); these two warnings are about that layout, not faults.
_DICT_OBSERVATION_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
)


def _api_test(e, cycles: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(e, num_cycles=cycles)
    other = {str(w.message) for w in caught if not str(w.message).startswith(_DICT_OBSERVATION_WARNINGS)}
    assert not other


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", list(GAMES))
def test_api_test(name: str, players: int) -> None:
    _api_test(env(game=name, players=players), 150)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"game": "all-fives", "players": 4, "teams": False, "episode": "round"},
        {"game": "fives-and-threes", "players": 4, "reward": "win"},
        {"game": "muggins", "players": 3, "observation": "information_state"},
        {"game": "draw", "players": 2, "hand_size": 5, "max_rounds": 2},
    ],
)
def test_api_test_variants(kwargs: dict) -> None:
    _api_test(env(**kwargs), 150)


def test_render_modes() -> None:
    render_test(
        lambda render_mode=None: env(game="all-fives", players=4, render_mode=render_mode),
        custom_tests={"ansi": lambda text: "ends:" in text or "no tile" in text},
    )


def test_seeded_runs_repeat() -> None:
    check_environment_deterministic(env(game="draw", players=3), env(game="draw", players=3), 300)


def _run(e, rng: random.Random, limit: int = 100_000, ended: dict | None = None):
    """Random legal moves until every agent is done; the rewards each agent was paid. The
    info each agent last sees (as it is done) goes into ``ended`` if given."""
    e.reset(seed=rng.randrange(1 << 30))
    paid = {a: 0.0 for a in e.possible_agents}
    steps = 0
    for agent in e.agent_iter(limit):
        obs, reward, terminated, truncated, info = e.last()
        paid[agent] += reward
        if terminated or truncated:
            if ended is not None:
                ended[agent] = info
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[int(rng.random() * len(legal))]))
        steps += 1
    return paid, steps


@pytest.mark.parametrize("name,players", [("all-fives", 2), ("fives-and-threes", 4), ("muggins", 3)])
def test_points_rewards_add_up_to_the_match_scores(name: str, players: int) -> None:
    rng = random.Random(3)
    e = FivesEnv(game=name, players=players)
    paid, _ = _run(e, rng)
    cfg = e.config
    scores = [float(s) for s in e.table.state.scores]
    assert e.table.state.over or e.table.rounds == e.max_rounds
    for p, agent in enumerate(e.possible_agents):
        mine = scores[cfg.side_of(p)]
        others = [scores[s] for s in range(cfg.sides) if s != cfg.side_of(p)]
        assert paid[agent] == pytest.approx(mine - sum(others) / len(others))
    assert sum(paid.values()) == pytest.approx(0.0)


def test_round_rewards_come_at_each_round_end() -> None:
    rng = random.Random(8)
    e = FivesEnv(game="draw", players=2)
    e.reset(seed=8)
    rounds_paid = 0
    for agent in e.agent_iter(100_000):
        obs, _reward, terminated, truncated, _info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        before = e.table.rounds
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[int(rng.random() * len(legal))]))
        ended = e.table.rounds != before or e.table.phase == "over"
        paid = any(r != 0 for r in e.rewards.values())
        if paid:
            assert ended
        if ended:
            rounds_paid += 1
            assert e.infos[agent]["round"] == before
            assert e.rewards["player_0"] == e.infos["player_0"]["round_points"]
    assert rounds_paid >= 1


def test_one_round_episodes() -> None:
    rng = random.Random(5)
    e = FivesEnv(game="block", players=4, episode="round")
    paid, _ = _run(e, rng)
    assert e.table.rounds == 1
    st = e.table.state
    assert st.round_end is not None
    assert sum(paid.values()) == pytest.approx(0.0)


def test_win_rewards_only_at_the_end() -> None:
    rng = random.Random(6)
    e = FivesEnv(game="all-fives", players=4, reward="win", target=60)
    ended: dict = {}
    paid, _ = _run(e, rng, ended=ended)
    st = e.table.state
    assert st.over
    want = e.table.match_result()
    assert [paid[a] for a in e.possible_agents] == pytest.approx(want)
    # every agent saw the match result in its last info; then all were removed
    assert [ended[a]["match_result"] for a in e.possible_agents] == pytest.approx(want)
    assert e.agents == [] and e.infos == {}


def test_bad_options_and_illegal_actions() -> None:
    with pytest.raises(ValueError):
        FivesEnv(episode="season")
    with pytest.raises(ValueError):
        FivesEnv(reward="win", episode="round")
    with pytest.raises(ValueError):
        FivesEnv(render_mode="3d")
    e = FivesEnv(game="block", players=2)
    e.reset(seed=1)
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        e.step(illegal)


def test_masks_only_for_the_agent_to_act() -> None:
    e = FivesEnv(game="muggins", players=3)
    e.reset(seed=2)
    for agent in e.possible_agents:
        mask = e.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == e.agent_selection)
    legal = e.table.legal_codes()
    assert list(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])) == legal


@pytest.mark.parametrize("perfect_recall", [False, True])
def test_an_agent_observes_only_what_its_seat_may_know(perfect_recall: bool) -> None:
    """The observation is the same in every world the seat cannot tell apart."""
    rng = random.Random(12)
    e = FivesEnv(game="all-fives", players=3,
                 observation="information_state" if perfect_recall else "observation")
    for depth in (0, 5, 12, 20):
        e.reset(seed=depth)
        for _ in range(depth):
            if e.terminations[e.agent_selection]:
                break
            legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
            e.step(int(legal[int(rng.random() * len(legal))]))
        table = e.table
        encoder = Encoder(e.config, perfect_recall)
        for seat, agent in enumerate(e.possible_agents):
            mine = e.observe(agent)["observation"]
            for _ in range(3):
                world = Table(table.config, table.match, table.max_rounds)
                for action in table.resample_actions(seat, rng):
                    world.apply(action)
                assert np.array_equal(encoder.encode(knowledge_of(world, seat)), mine)


def test_rgb_frame_draws_the_layout() -> None:
    from fives.bridges.picture import compute_layout, draw_frame

    e = FivesEnv(game="all-fives", players=2, render_mode="rgb_array")
    e.reset(seed=3)
    empty = e.render()
    rng = random.Random(3)
    for _ in range(12):
        if e.terminations[e.agent_selection]:
            break
        legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
        e.step(int(legal[int(rng.random() * len(legal))]))
    frame = e.render()
    assert frame.shape == (440, 640, 3) and frame.dtype == np.uint8
    assert not np.array_equal(frame, empty)
    lay = e.table.state.layout
    pic = compute_layout(lay.explain())
    assert len(pic.rects) == lay.count
    assert len(pic.markers) == len(lay.ends)
    assert draw_frame({}, "").shape == (440, 640, 3)


# -- the outside checks researchers run first (issue 41) -----------------------------------------


@pytest.mark.parametrize(("name", "players"), [("all-fives", 2), ("block", 4), ("muggins", 3)])
def test_seed_test(name: str, players: int) -> None:
    from pettingzoo.test.seed_test import seed_test

    seed_test(lambda: env(game=name, players=players), num_cycles=200)


@pytest.mark.parametrize(("name", "players"), [("fives-and-threes", 2), ("draw", 4)])
def test_api_test_on_one_round_episodes(name: str, players: int) -> None:
    _api_test(FivesEnv(game=name, players=players, episode="round"), 150)
