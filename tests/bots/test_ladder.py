"""The ladder of bots (bots/ladder.py, bots/search.py): views only, determinism, the easy rules.

* No peeking: in whole matches (every game, 2 to 4 players, partnerships), a spy around each bot
  records every object the host and the analyser hand it: always a :class:`View` of that
  seat, with that seat's hand, and nothing in it (JSON or objects) names a tile of another
  hand or of the stock. Our bots decide the same whatever the hidden deal behind a view: the
  same view in worlds whose hidden tiles are dealt differently gives the same choice and the
  same values for the same seed.
* Determinism: same view and seed, same choice and values (twice, with a fresh bot, and in a
  fresh process with another hash seed); same match seed, same record.
* ``easy`` plays the most points now, ties to the heaviest tile, and in Fives and Threes points
  past 61 count for nothing; Block and Draw: the heaviest tile. ``medium`` lands on 61 exactly.
* Every bot answers one of ``view.legal``; ``values`` covers exactly ``view.legal``.
* ``cheat`` and ``cheat-hard`` search the true hands they were shown by ``peek`` (never the
  stock order), and play differently when they differ.

Strength is measured by benchmarks, not here; search bots run with small budgets.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import fives.bots.ladder as ladder
from fives.analysis import analyse
from fives.bots.base import Bot
from fives.bots.host import Seeds, decide, play_match
from fives.bots.ladder import (
    CheatBot,
    CheatHardBot,
    EasyBot,
    HalvingBot,
    IsmctsBot,
    MediumBot,
    RandomBot,
    SearchBot,
    play_points,
)
from fives.bots.search import exact_value
from fives.core.games import Config
from fives.core.record import record_of
from fives.core.sampling import WorldSampler
from fives.core.state import RoundInfo, State
from fives.core.tiles import ALL_TILES, DRAW, Action, NotationError, Tile, tiles_of_mask
from fives.core.view import HistoryItem, View, view_of


def _hard() -> Bot:
    return SearchBot("hard", worlds=4, budget=40, eps=0.1)


def _weighted() -> Bot:
    # the other search options: likelihood-weighted worlds and the exact endgame
    return SearchBot("weighted", worlds=4, budget=40, eps=0.1, endgame_tiles=8, beta=1.0)


BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "easy": EasyBot,
    "medium": MediumBot,
    "hard": _hard,
    "weighted": _weighted,
    # the ladder's search with every option on, small counts
    "halving": lambda: HalvingBot("halving", worlds=16, eps=0.05, look=0.7, endgame_tiles=6),
    "pimc": lambda: HalvingBot("pimc", worlds=8, eps=0.0, match_weight=0.0, halving=False),
    "ismcts": lambda: IsmctsBot("ismcts", iterations=60, eps=0.05, look=0.7, pool=8,
                                endgame_tiles=6),
}

TABLES = [
    ("all-fives", 2, False),
    ("all-fives", 4, True),
    ("fives-and-threes", 3, False),
    ("fives-and-threes", 4, True),
    ("muggins", 4, False),
    ("draw", 2, False),
    ("block", 3, False),
]


def _config(game: str, players: int, teams: bool) -> Config:
    return Config.make(game, players, teams=teams, target=31 if game == "fives-and-threes" else 40)


# -- no peeking ------------------------------------------------------------------------------


class Spy(Bot):
    """Passes everything to ``inner`` and keeps every argument it is given."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = inner.name
        self.given: list[tuple[str, Any]] = []

    def choose(self, view: View, rng: random.Random) -> Action:
        self.given.append(("choose", view))
        return self.inner.choose(view, rng)

    def values(self, view: View, rng: random.Random) -> dict[Action, float]:
        self.given.append(("values", view))
        return self.inner.values(view, rng)


def _truth(rnd: RoundInfo, k: int, players: int) -> tuple[list[int], set[Tile]]:
    """Each seat's hand (mask) after the first ``k`` actions of a round, and the hidden stock."""
    hands = [0] * players
    for seat, hand in enumerate(rnd.hands):
        for tile in hand:
            hands[seat] |= tile.mask
    drawn = 0
    for seat, code, _ends, _points, tile_id in rnd.log[:k]:
        action = Action.from_code(code)
        if action.is_play:
            assert action.tile is not None
            hands[seat] &= ~action.tile.mask
        elif action == DRAW:
            hands[seat] |= 1 << tile_id
            drawn += 1
    return hands, set(rnd.stock[drawn:])


def _tiles_named(data: Any) -> set[Tile]:
    """Every tile a JSON value names (as a tile or as an action)."""
    out: set[Tile] = set()
    if isinstance(data, str):
        try:
            tile = Action.parse(data).tile
        except NotationError:
            return out
        if tile is not None:
            out.add(tile)
    elif isinstance(data, dict):
        for key, value in data.items():
            out |= _tiles_named(key) | _tiles_named(value)
    elif isinstance(data, list | tuple):
        for value in data:
            out |= _tiles_named(value)
    return out


def _objects_named(view: View) -> set[Tile]:
    """Tile objects anywhere in the view's own round (past rounds are public history)."""
    out: set[Tile] = set()

    def walk(x: Any) -> None:
        if isinstance(x, Tile):
            out.add(x)
        elif isinstance(x, Action):
            if x.tile is not None:
                out.add(x.tile)
        elif isinstance(x, HistoryItem):
            walk(x.action)
            walk(x.tile)
        elif isinstance(x, list | tuple):
            for y in x:
                walk(y)

    for field in ("hand", "history", "legal"):
        walk(getattr(view, field))
    out.update(view.layout.tiles())
    return out


def _check_view(given: Any, seat: int, state: State) -> None:
    assert type(given) is View, type(given)
    view: View = given
    assert view.seat == seat == view.turn
    hands, stock = _truth(state.rounds()[view.round], len(view.history), view.players)
    assert set(view.hand) == set(tiles_of_mask(hands[seat]))
    hidden = set(stock)
    for other in range(view.players):
        if other != seat:
            hidden |= set(tiles_of_mask(hands[other]))
    table = set(view.layout.tiles())
    named = _tiles_named(view.to_json())
    assert not named & hidden, sorted(map(str, named & hidden))
    assert named <= set(view.hand) | table
    objects = _objects_named(view)
    assert not objects & hidden, sorted(map(str, objects & hidden))
    for item in view.history:  # one's own draws show their tile, nothing else does
        assert (item.tile is not None) == (item.seat == seat and str(item.action) == "draw")
    for past in view.past:
        assert all(item.tile is None for item in past.history)


@pytest.mark.parametrize(("game", "players", "teams"), TABLES)
def test_bots_only_ever_receive_their_own_view(game: str, players: int, teams: bool) -> None:
    config = _config(game, players, teams)
    names = ["random", "easy", "medium", "hard"]
    spies = [Spy(BOTS[names[s % 4]]()) for s in range(players)]
    state = play_match(config, spies, seed=players * 7 + len(game))
    assert state.over
    for seat, spy in enumerate(spies):
        assert spy.given, seat
        for kind, given in spy.given:
            assert kind == "choose"
            _check_view(given, seat, state)
    # the analyser asks for values: views again, and only of the seat analysed
    spy = Spy(MediumBot())
    analyse(record_of(state), spy, seats=[1])
    assert spy.given and {kind for kind, _ in spy.given} == {"values"}
    for _kind, given in spy.given:
        _check_view(given, 1, state)


def _first_round_decisions(config: Config, seed: int) -> Iterator[State]:
    """States at the decisions (two or more legal actions, after the lead) of a first round."""
    rng = random.Random(seed)
    state = State(config)
    state.deal_next(rng)
    while state.turn >= 0:
        legal = state.legal_actions()
        if len(legal) > 1 and state.log:
            yield state
        state.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("name", list(BOTS))
def test_decisions_do_not_depend_on_the_hidden_deal(name: str) -> None:
    scrambled = 0
    for game, players, teams in TABLES[::2]:
        config = _config(game, players, teams)
        for n, state in enumerate(_first_round_decisions(config, 11)):
            if n % 3:
                continue
            me = state.turn
            view = view_of(state, me)
            sampler = WorldSampler(view)
            worlds = [state] + [sampler.sample(random.Random(k), check=True) for k in range(3)]
            answers = set()
            for world in worlds:
                assert view_of(world, me).to_json() == view.to_json()
                if world.hands != state.hands:
                    scrambled += 1
                bot = BOTS[name]()
                choice = decide(world, bot, Seeds(5)).action
                values = bot.values(view_of(world, me), random.Random(6))
                answers.add((choice, tuple(sorted(values.items()))))
            assert len(answers) == 1, (game, players, len(state.log), answers)
    assert scrambled > 20


# -- determinism -----------------------------------------------------------------------------


def _positions() -> Iterator[View]:
    for game, players, teams in TABLES:
        for n, state in enumerate(_first_round_decisions(_config(game, players, teams), 3)):
            if n % 4 == 1:
                yield view_of(state, state.turn)


@pytest.mark.parametrize("name", list(BOTS))
def test_same_view_same_seed_same_choice(name: str) -> None:
    bot = BOTS[name]()
    for view in _positions():
        first = bot.choose(view, random.Random(42))
        assert first == bot.choose(view, random.Random(42))
        assert first == BOTS[name]().choose(view, random.Random(42))
        assert bot.values(view, random.Random(43)) == BOTS[name]().values(view, random.Random(43))


_FRESH = r"""
import json, random, sys
from fives.bots.ladder import SearchBot
from fives.core.games import Config
from fives.core.state import State
from fives.core.view import view_of
game, players, seed, steps = json.loads(sys.argv[1])
state = State(Config.make(game, players))
rng = random.Random(seed)
state.deal_next(rng)
for _ in range(steps):
    legal = state.legal_actions()
    state.apply(legal[rng.randrange(len(legal))])
view = view_of(state, state.turn)
bot = SearchBot("hard", worlds=4, budget=40, eps=0.1)
choice = bot.choose(view, random.Random(99))
values = bot.values(view, random.Random(100))
print(json.dumps({"choice": str(choice), "values": {str(a): repr(v) for a, v in values.items()}}))
"""


def _fresh_position(game: str, players: int, seed: int, steps: int) -> View:
    state = State(Config.make(game, players))
    rng = random.Random(seed)
    state.deal_next(rng)
    for _ in range(steps):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return view_of(state, state.turn)


@pytest.mark.parametrize("hash_seed", ["1", "4242"])
def test_hard_decides_the_same_in_a_fresh_process(hash_seed: str) -> None:
    position = ["all-fives", 3, 8, 5]
    view = _fresh_position(*position)  # type: ignore[arg-type]
    assert len(view.legal) > 2
    bot = SearchBot("hard", worlds=4, budget=40, eps=0.1)
    here = {
        "choice": str(bot.choose(view, random.Random(99))),
        "values": {str(a): repr(v) for a, v in bot.values(view, random.Random(100)).items()},
    }
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    out = subprocess.run(
        [sys.executable, "-c", _FRESH, json.dumps(position)],
        capture_output=True, text=True, env=env, timeout=60, check=True,
    )
    assert json.loads(out.stdout) == here


@pytest.mark.parametrize(("game", "players", "teams"), [
    ("all-fives", 2, False), ("fives-and-threes", 4, True), ("draw", 3, False),
])
def test_same_seed_same_match_with_searching_bots(game: str, players: int, teams: bool) -> None:
    config = _config(game, players, teams)

    def run(seed: int) -> str:
        bots = [(_hard if s % 2 else MediumBot)() for s in range(players)]
        return record_of(play_match(config, bots, seed)).to_json()

    assert run(5) == run(5)
    assert run(5) != run(6)


# -- what each bot plays ---------------------------------------------------------------------


def _tiles(text: str) -> list[Tile]:
    return [Tile.parse(x) for x in text.split()]


def _position(
    game: str, hands: list[str], actions: str, leader: int = 0, scores: list[int] | None = None
) -> State:
    """A 2-player round with the hands written out (the stock: every other tile, in set order)."""
    dealt = [_tiles(h) for h in hands]
    config = Config.make(game, 2, rules={"hand_size": len(dealt[0])})
    used = {t for h in dealt for t in h}
    state = State(config)
    if scores is not None:
        state.scores = list(scores)
    state.start_round(dealt, [t for t in ALL_TILES if t not in used], leader)
    for text in actions.split():
        state.play(Action.parse(text))
    return state


def _easy(state: State, seed: int = 0) -> Action:
    view = view_of(state, state.turn)
    choice = EasyBot().choose(view, random.Random(seed))
    assert choice in view.legal
    return choice


def test_easy_plays_the_most_points_now() -> None:
    # 5-5 is the spinner (10); 0-5 on W makes 0 + 5 + 5 = 10 again: seat 1 to play on 5|5
    state = _position("all-fives", ["5-5 1-2 1-3 1-4", "0-5 4-5 5-6 3-5"], "5-5")
    view = view_of(state, 1)
    assert {str(a): play_points(view, a) for a in view.legal} == {
        "0-5@W": 10, "0-5@E": 10, "3-5@W": 0, "3-5@E": 0,
        "4-5@W": 0, "4-5@E": 0, "5-6@W": 0, "5-6@E": 0,
    }
    assert all(_easy(state, seed).tile == Tile.parse("0-5") for seed in range(5))


def test_easy_breaks_ties_for_the_heaviest_tile() -> None:
    # W 0, E 6, N and S 5: 4-5 on N (0+6+4) and 0-4 on W (4+6) both make 10; 6-6 is heaviest
    # but scores nothing (0 + 12)
    state = _position(
        "all-fives", ["5-5 5-6 1-2 1-3", "0-5 4-5 0-4 6-6"], "5-5 0-5@W 5-6@E", leader=0
    )
    view = view_of(state, 1)
    points = {str(a): play_points(view, a) for a in view.legal}
    assert points["4-5@N"] == points["0-4@W"] == 10 and points["6-6@E"] == 0
    choices = {str(_easy(state, seed)) for seed in range(8)}
    assert choices == {"4-5@N", "4-5@S"}  # the same tile on either side arm


FT_HANDS = ["3-6 1-1 1-2 2-2", "3-3 0-3 0-6 4-6"]


@pytest.mark.parametrize(("score", "best"), [
    (40, "3-3@W"),  # 3-3 on W: 6 + 6 = 12, four points, the most
    (59, "0-3@W"),  # 3-3 would pass 61 (counts 0); 0-3 on W: 0 + 6 = 6, two points, 61 exactly
    (60, "0-6@E"),  # 0-6 on E: 3 + 0 = 3, one point, 61 exactly
])
def test_easy_in_fives_and_threes_counts_points_past_61_as_nothing(score: int, best: str) -> None:
    state = _position("fives-and-threes", FT_HANDS, "3-6", leader=0, scores=[0, score])
    assert str(_easy(state)) == best


def test_easy_in_fives_and_threes_with_nothing_to_score_plays_the_heaviest() -> None:
    # at 60, 3-3 (to 64) and 0-3 (to 62) count nothing: the heaviest tile, 4-6, goes
    state = _position("fives-and-threes", ["3-6 1-1 1-2 2-2", "3-3 0-3 4-6 1-4"], "3-6",
                      scores=[0, 60])
    view = view_of(state, 1)
    assert {str(a): play_points(view, a) for a in view.legal} == {
        "3-3@W": 0, "0-3@W": 0, "4-6@E": 0,
    }
    assert str(_easy(state)) == "4-6@E"


def test_medium_steers_to_61_exactly() -> None:
    state = _position("fives-and-threes", FT_HANDS, "3-6", leader=0, scores=[0, 59])
    view = view_of(state, 1)
    assert MediumBot().choose(view, random.Random(0)) == Action.parse("0-3@W")


@pytest.mark.parametrize("game", ["block", "draw"])
def test_easy_in_block_and_draw_plays_the_heaviest_tile(game: str) -> None:
    # 6-6 leads; 0-6 and 2-6 fit (5-5, heavier, does not)
    state = _position(game, ["6-6 1-1 1-2 1-3", "0-6 3-4 2-6 5-5"], "6-6")
    assert {_easy(state, seed).tile for seed in range(5)} == {Tile.parse("2-6")}


@pytest.mark.parametrize("name", list(BOTS))
def test_every_bot_answers_a_legal_action_and_values_every_legal_action(name: str) -> None:
    bot = BOTS[name]()
    rng = random.Random(1)
    for game, players, teams in TABLES:
        config = _config(game, players, teams)
        state = State(config)
        state.deal_next(rng)
        while state.turn >= 0:
            view = view_of(state, state.turn)
            if len(state.log) % 3 == 0 or len(view.legal) == 1:
                values = bot.values(view, random.Random(len(state.log)))
                assert set(values) == set(view.legal)
                assert all(isinstance(v, float | int) for v in values.values())
            choice = bot.choose(view, rng)
            assert choice in view.legal
            state.apply(choice)


# -- cheat -----------------------------------------------------------------------------------


def _cheat_position() -> tuple[State, State]:
    """Fives and Threes, 3-tile hands: seat 0 led 0-4; seat 1 holds 0-2 1-3 1-4.

    0-2 on W scores 2 (2 + 4 = 6). 1-4 on E scores nothing (0 + 1) but leaves 0|1 open: if seat 0
    holds 2-2 4-6 (the truth) it cannot follow, passes, and seat 1 goes out first; if it holds
    0-3 1-5 (another world with the same view) it can, and the 2 points now are worth more.
    """
    true = _position("fives-and-threes", ["0-4 2-2 4-6", "0-2 1-3 1-4"], "0-4")
    other = _position("fives-and-threes", ["0-4 0-3 1-5", "0-2 1-3 1-4"], "0-4")
    assert view_of(true, 1).to_json() == view_of(other, 1).to_json()
    return true, other


def _exact_best(state: State) -> Action:
    side = state.config.side_of(state.turn)
    values = {}
    for action in state.legal_actions():
        after = state.copy()
        after.apply(action)
        values[action] = exact_value(after, state.scores[:], side, state.config.target * 0.5)
    return max(values, key=values.__getitem__)


_CHEATS = pytest.mark.parametrize(
    ("make", "search"), [(CheatBot, "search_values"), (CheatHardBot, "halving_values")],
    ids=["cheat", "cheat-hard"],
)


@_CHEATS
def test_cheat_plays_for_the_hands_it_peeked(make: Any, search: str) -> None:
    true, other = _cheat_position()
    view = view_of(true, 1)
    assert _exact_best(true) == Action.parse("1-4@E")
    assert _exact_best(other) == Action.parse("0-2@W")
    cheat = make()
    cheat.peek(true.copy())
    assert cheat.choose(view, random.Random(1)) == Action.parse("1-4@E")
    cheat.peek(other.copy())
    assert cheat.choose(view, random.Random(1)) == Action.parse("0-2@W")
    # a bot that sees only the view plays the same in both worlds
    assert EasyBot().choose(view, random.Random(1)) == Action.parse("0-2@W")


@_CHEATS
def test_cheat_searches_the_peeked_hands_never_the_stock_order(
    monkeypatch: pytest.MonkeyPatch, make: Any, search: str
) -> None:
    state = State(Config.make("all-fives", 2))
    state.deal_next(random.Random(4))
    for _ in range(5):
        state.apply(state.legal_actions()[0])
    view = view_of(state, state.turn)
    assert len(view.legal) > 1
    seen: list[State] = []
    sources: list[Any] = []

    def fake_search(view: View, rng: random.Random, **options: Any) -> dict[Action, float]:
        source = options["world_source"]
        sources.append(source)
        if source is not None:
            seen.extend(source(random.Random(k)) for k in range(4))
        return {a: 0.0 for a in view.legal}

    monkeypatch.setattr(ladder, search, fake_search)
    cheat = make()
    cheat.peek(state.copy())
    cheat.values(view, random.Random(0))
    assert len(seen) == 4
    pos = state.stock_pos
    for world in seen:
        assert world.hands == state.hands
        assert world.stock[:pos] == state.stock[:pos]
        assert sorted(world.stock[pos:]) == sorted(state.stock[pos:])
    assert len({tuple(w.stock[pos:]) for w in seen}) > 1  # the undrawn order is shuffled
    # without a peek it samples worlds from the view like the others
    make().values(view, random.Random(0))
    assert sources[-1] is None
