"""The OpenSpiel bridge: OpenSpiel's own consistency checks for every game and player count,
what a seat may know, resampling, information-set MCTS, parameters, returns, serialization."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import fives.bridges.openspiel as fo  # noqa: E402
from fives.core.games import GAMES  # noqa: E402
from fives.core.tiles import ACTIONS  # noqa: E402

GAME_NAMES = list(GAMES)
COUNTS = [2, 3, 4]


def _random_state(game, rng: random.Random, max_moves: int, *, stop_at_decision: bool = True):
    """A state reached by random play: after about ``max_moves`` player moves, at a decision."""
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
            continue
        if moves >= max_moves and stop_at_decision:
            break
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.random() * len(legal))])
        moves += 1
    return state


# -- OpenSpiel's own checks -----------------------------------------------------------------------


@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("name", GAME_NAMES)
def test_random_sim_test_one_round(name: str, players: int) -> None:
    game = fo.load(name, players=players)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("name", GAME_NAMES)
def test_random_sim_test_whole_match(name: str, players: int) -> None:
    game = fo.load(name, players=players, match=True)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(
    "name,params",
    [
        ("all-fives", {"players": 4, "teams": False}),
        ("fives-and-threes", {"players": 4, "teams": False}),
        ("block", {"players": 4, "teams": True}),
        ("draw", {"players": 4, "teams": True}),
        ("muggins", {"players": 4, "teams": True, "match": True}),
        ("all-fives", {"players": 2, "hand_size": 5, "side_arm_gate": False}),
        ("all-fives", {"players": 2, "target": 15}),  # rounds that end on the target
        ("fives-and-threes", {"players": 2, "target": 9}),
        ("muggins", {"players": 3, "target": 10, "match": True}),
        ("draw", {"players": 2, "match": True, "max_rounds": 2}),  # a match cut short
    ],
)
def test_random_sim_test_variants(name: str, params: dict) -> None:
    game = fo.load(name, **params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_random_sim_test_from_a_string() -> None:
    game = pyspiel.load_game("fives_all_fives(players=3,match=True,target=60)")
    assert game.num_players() == 3
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


# -- parameters ------------------------------------------------------------------------------------


def test_short_names_and_defaults() -> None:
    assert set(fo.SHORT_NAMES.values()) <= set(pyspiel.registered_names())
    assert fo.short_name("fives-and-threes") == "fives_fives_and_threes"
    game = fo.load("all-fives", players=4)
    assert game.config.teams and game.config.target == 200 and game.config.hand_size == 5
    assert not fo.load("muggins", players=4).config.teams
    assert not fo.load("all-fives", players=2, teams=True).config.teams  # read for 4 only
    assert fo.load("draw", players=3, hand_size=5, target=50).config.hand_size == 5
    assert not fo.load("all-fives", side_arm_gate=False).config.side_arm_gate
    assert game.num_distinct_actions() == 142
    assert game.max_chance_outcomes() == 28
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(Exception, match="players"):
        fo.load("block", players=5)
    with pytest.raises(Exception, match="hand_size"):
        fo.load("block", players=4, hand_size=8)
    with pytest.raises(ValueError, match="unknown game"):
        fo.load("poker")


# -- chance nodes, actions, returns ----------------------------------------------------------------


def test_deal_tile_by_tile_then_the_lot() -> None:
    game = fo.load("all-fives", players=2)  # 9 tiles each; the first lead by lot
    state = game.new_initial_state()
    for k in range(18):
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 28 - k
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, outcomes[0][0]).startswith("deal ")
        state.apply_action(outcomes[0][0])
    assert state.is_chance_node()
    assert [a for a, _ in state.chance_outcomes()] == [0, 1]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 1) == "lot: seat 1 leads"
    state.apply_action(1)
    assert state.current_player() == 1
    # seat 1 holds tiles 9..17 and may lead any of them
    assert state.legal_actions() == [112 + t for t in range(9, 18)]


def test_highest_double_leads_without_a_lot() -> None:
    game = fo.load("block", players=2)
    state = game.new_initial_state()
    for t in list(range(7, 14)) + list(range(7)):  # seat 1 gets 0-0 .. 0-6
        state.apply_action(t)
    assert state.current_player() == 0  # seat 0 holds 2-2, the highest double dealt
    assert [state.action_to_string(0, a) for a in state.legal_actions()] == ["2-2"]


def test_a_draw_is_a_choice_then_a_chance_node() -> None:
    rng = random.Random(4)
    game = fo.load("all-fives", players=2)
    for _ in range(50):
        state = _random_state(game, rng, 200, stop_at_decision=False)
        # find a draw in the history and replay up to it
        history = state.history()
        replay = game.new_initial_state()
        for i, action in enumerate(history):
            if not replay.is_chance_node() and action == 140:
                drawer = replay.current_player()
                assert replay.legal_actions() == [140]
                assert replay.action_to_string(drawer, 140) == "draw"
                replay.apply_action(140)
                assert replay.is_chance_node()
                stock = replay.table.state.stock[replay.table.state.stock_pos :]
                outcomes = replay.chance_outcomes()
                assert sorted(a for a, _ in outcomes) == sorted(stock)
                assert all(abs(p - 1 / len(stock)) < 1e-12 for _, p in outcomes)
                tile = history[i + 1]
                replay.apply_action(tile)
                assert replay.table.state.hands[drawer] >> tile & 1
                return
            replay.apply_action(action)
    pytest.fail("no draw in 50 random rounds")


def test_action_strings_are_our_notation() -> None:
    rng = random.Random(2)
    game = fo.load("all-fives", players=3)
    state = _random_state(game, rng, 6)
    player = state.current_player()
    for action in state.legal_actions():
        text = state.action_to_string(player, action)
        assert text == str(ACTIONS[action])
        assert state.string_to_action(text) == action


@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("name", GAME_NAMES)
def test_round_returns_are_the_point_difference(name: str, players: int) -> None:
    game = fo.load(name, players=players)
    rng = random.Random(players)
    for _ in range(5):
        state = _random_state(game, rng, 10_000)
        assert state.is_terminal()
        returns = state.returns()
        cfg = game.config
        scores = [float(s) for s in state.table.state.scores]
        assert abs(sum(returns)) < 1e-9
        for p in range(players):
            mine = scores[cfg.side_of(p)]
            others = [scores[s] for s in range(cfg.sides) if s != cfg.side_of(p)]
            assert returns[p] == pytest.approx(mine - sum(others) / len(others))
        if cfg.teams:
            assert returns[0] == returns[2] and returns[1] == returns[3]


def test_match_returns_are_win_or_loss() -> None:
    rng = random.Random(5)
    for name, players in [("block", 2), ("all-fives", 4), ("draw", 3)]:
        game = fo.load(name, players=players, match=True)
        state = _random_state(game, rng, 100_000)
        table = state.table
        assert state.is_terminal() and table.state.over
        returns = state.returns()
        assert abs(sum(returns)) < 1e-9
        if table.state.winner is not None:
            cfg = game.config
            for p in range(players):
                want = 1.0 if cfg.side_of(p) == table.state.winner else -1.0 / (cfg.sides - 1)
                assert returns[p] == pytest.approx(want)
        assert table.rounds == len(table.state.rounds())


# -- what a seat may know --------------------------------------------------------------------------


def _knowledge(state, player):
    return (
        state.information_state_string(player),
        tuple(state.information_state_tensor(player)),
        state.observation_string(player),
        tuple(state.observation_tensor(player)),
    )


@pytest.mark.parametrize(
    "name,players,match",
    [("all-fives", 2, False), ("all-fives", 4, True), ("fives-and-threes", 3, False),
     ("muggins", 3, True), ("draw", 2, False), ("block", 4, False)],
)
def test_resampled_worlds_look_the_same_to_the_seat(name: str, players: int, match: bool) -> None:
    """Every world a seat's information allows gives it the same strings and tensors; other
    seats' tiles do change between worlds (so nothing hidden reaches the seat's knowledge)."""
    game = fo.load(name, players=players, match=match)
    rng = random.Random(11)
    sampler = pyspiel.UniformProbabilitySampler(3, 0.0, 1.0)
    changed = 0
    for depth in (0, 3, 8, 14, 25):
        state = _random_state(game, rng, depth)
        if state.is_terminal():
            continue
        for player in range(players):
            mine = _knowledge(state, player)
            for _ in range(4):
                world = state.resample_from_infostate(player, sampler)
                assert _knowledge(world, player) == mine
                assert len(world.history()) == len(state.history())
                assert world.current_player() == state.current_player()
                if world.current_player() == player:
                    assert world.legal_actions() == state.legal_actions()
                if str(world) != str(state):
                    changed += 1
    assert changed > 0


def test_resample_during_a_draw_and_at_the_deal() -> None:
    game = fo.load("draw", players=2)
    sampler = pyspiel.UniformProbabilitySampler(5, 0.0, 1.0)
    state = game.new_initial_state()
    for t in range(10):
        state.apply_action(t)
    world = state.resample_from_infostate(1, sampler)
    assert world.information_state_string(1) == state.information_state_string(1)
    rng = random.Random(9)
    for _ in range(200):
        state = _random_state(game, rng, rng.randrange(30))
        if not state.is_terminal() and state.legal_actions() == [140]:
            state.apply_action(140)
            for player in (0, 1):
                world = state.resample_from_infostate(player, sampler)
                assert world.is_chance_node()
                assert world.information_state_string(player) == state.information_state_string(player)
            return
    pytest.fail("no draw found")


def test_information_state_holds_the_open_ends_and_own_draws() -> None:
    rng = random.Random(7)
    game = fo.load("all-fives", players=2)
    for _ in range(100):
        state = _random_state(game, rng, rng.randrange(4, 30))
        st = state.table.state
        if state.is_terminal() or not any(e[1] == 140 for e in st.log):
            continue
        player = state.current_player()
        text = state.information_state_string(player)
        for end, value in st.layout.ends:
            assert f"{'WENS'[end]}:{value}" in text
        for who, code, _e, _p, tile in st.log:
            if code == 140:
                shown = f"{who}:draw={ACTIONS[112 + tile].tile}"
                assert (shown in text) == (who == player)
        obs = state.observation_tensor(player)
        assert len(obs) == game.observation_tensor_size()
        return
    pytest.fail("no draw found")


def test_observation_tensor_pieces() -> None:
    from open_spiel.python.observation import make_observation

    game = fo.load("all-fives", players=3)
    state = _random_state(game, random.Random(1), 5)
    player = state.current_player()
    obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    obs.set_from(state, player)
    st = state.table.state
    assert obs.dict["seat"][player] == 1
    assert sorted(np.flatnonzero(obs.dict["hand"])) == [t.id for t in st.hand(player)]
    assert obs.dict["hand_sizes"][0] == len(st.hand(player))
    for end, value in st.layout.ends:
        assert obs.dict["ends"][end, 0] == 1 and obs.dict["ends"][end, 1 + value] == 1
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    info.set_from(state, player)
    assert int(info.dict["history"][:, :3].sum()) == len(st.log)


def test_serialization_round_trip() -> None:
    rng = random.Random(3)
    for params in ({"players": 2}, {"players": 4, "match": True}):
        game = fo.load("all-fives", **params)
        state = _random_state(game, rng, 17)
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(game2) == str(game)
        assert str(state2) == str(state)
        assert state2.history() == state.history()
        for p in range(game.num_players()):
            assert state2.information_state_string(p) == state.information_state_string(p)
        clone = state.clone()
        assert str(clone) == str(state)


# -- algorithms ------------------------------------------------------------------------------------


def _play(state, bots, rng: random.Random):
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    return state.returns()


@pytest.mark.parametrize(
    "name,players", [(n, 2) for n in GAME_NAMES] + [("all-fives", 4), ("fives-and-threes", 3)]
)
def test_information_set_mcts_completes_games(name: str, players: int) -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = fo.load(name, players=players)
    rs = np.random.RandomState(0)
    sampler = pyspiel.UniformProbabilitySampler(1, 0.0, 1.0)
    bots = []
    for _ in range(players):
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), uct_c=2.0,
                               max_simulations=8, random_state=rs)
        bot.set_resampler(lambda state, p: state.resample_from_infostate(p, sampler))
        bots.append(bot)
    returns = _play(game.new_initial_state(), bots, random.Random(0))
    assert abs(sum(returns)) < 1e-9


def test_information_set_mcts_with_its_own_sampler() -> None:
    """The bot as OpenSpiel ships it: a fresh UniformProbabilitySampler per resample."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = fo.load("block", players=2)
    rs = np.random.RandomState(2)
    bots = [ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 10, random_state=rs)
            for _ in range(2)]
    _play(game.new_initial_state(), bots, random.Random(2))


def test_our_bots_play_through_openspiel() -> None:
    game = fo.load("fives-and-threes", players=4)
    bots = [fo.FivesBot("medium", p, seed=p) for p in range(4)]
    returns = _play(game.new_initial_state(), bots, random.Random(4))
    assert returns[0] == returns[2]


def test_mcts_runs_on_the_true_state() -> None:
    from open_spiel.python.algorithms import mcts

    game = fo.load("draw", players=2)
    rs = np.random.RandomState(3)
    bots = [mcts.MCTSBot(game, 2.0, 10, mcts.RandomRolloutEvaluator(1, rs), random_state=rs)
            for _ in range(2)]
    _play(game.new_initial_state(), bots, random.Random(3))


# -- the outside checks researchers run first (issue 41) -----------------------------------------


@pytest.mark.parametrize(("name", "params"), [
    ("all-fives", {"players": 2}), ("fives-and-threes", {"players": 4}),
    ("muggins", {"players": 3}), ("block", {"players": 4, "match": True, "target": 30})])
def test_random_sim_test_without_serialization(name: str, params: dict) -> None:
    pyspiel.random_sim_test(fo.load(name, **params), num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("name", ["all-fives", "draw"])
def test_games_and_states_pickle_and_clone(name: str) -> None:
    import pickle

    game = fo.load(name, players=3)
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game)
    state = _random_state(game, random.Random(3), 6)
    copy = pickle.loads(pickle.dumps(state))
    clone = state.clone()
    for other in (copy, clone):
        assert other.history() == state.history() and str(other) == str(state)
        assert other.legal_actions() == state.legal_actions()
    # a clone goes its own way
    clone.apply_action(clone.legal_actions()[0])
    assert clone.history() != state.history()


@pytest.mark.parametrize(("name", "players"), [("all-fives", 2), ("fives-and-threes", 4),
                                                ("muggins", 3)])
def test_evaluate_bots_with_openspiels_random_bots_and_ours(name: str, players: int) -> None:
    from open_spiel.python.algorithms import evaluate_bots

    game = fo.load(name, players=players)
    rng = np.random.RandomState(7)
    for _ in range(3):
        bots = [pyspiel.make_uniform_random_bot(p, int(rng.randint(1 << 30)))
                for p in range(players - 1)]
        bots.append(fo.FivesBot("easy", players - 1, seed=int(rng.randint(1 << 30))))
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        assert len(returns) == players and abs(sum(returns)) < 1e-9


@pytest.mark.parametrize(("name", "params"), [("block", {"players": 2}),
                                              ("all-fives", {"players": 4, "match": True,
                                                             "target": 50})])
def test_rl_environment_runs_episodes(name: str, params: dict) -> None:
    from open_spiel.python import rl_environment

    game = fo.load(name, **params)
    env = rl_environment.Environment(game, enable_legality_check=True)
    rng = random.Random(11)
    for _ in range(2):
        step = env.reset()
        steps = 0
        while not step.last():
            player = step.observations["current_player"]
            legal = step.observations["legal_actions"][player]
            step = env.step([legal[int(rng.random() * len(legal))]])
            steps += 1
        assert steps > 0 and abs(sum(step.rewards)) < 1e-9
        assert len(step.observations["info_state"][0]) == game.information_state_tensor_size()
