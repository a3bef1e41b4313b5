"""The search's values, not only its legality (issue 42: planted bugs in the search passed every
test): successive halving keeps the better half of the candidates, never the worse; the exact
endgame counts a partner as a partner; and plays the search merges as one are plays that
leave the same game."""

from __future__ import annotations

import random
from functools import partial

import pytest

from fives.bots.search import endgame_ready, exact_value, halving_values, ismcts_values
from fives.bots.transpose import action_classes
from fives.core.games import Config
from fives.core.state import State
from fives.core.view import view_of
from minimax import plain_minimax as _minimax
from results_digest import decision_views

#: (game, players, seed, decision): positions with four classes or more where the full
#: evaluation's best play leads the next by more than a point (found by running it)
CLEAR = [("muggins", 2, 1, 5), ("all-fives", 2, 2, 0), ("all-fives", 2, 2, 7),
         ("fives-and-threes", 2, 3, 0), ("all-fives", 3, 4, 0), ("all-fives", 3, 4, 2),
         ("all-fives", 3, 4, 4), ("all-fives", 3, 4, 5), ("all-fives", 3, 4, 6),
         ("all-fives", 3, 4, 7)]


@pytest.mark.parametrize(("game", "players", "seed", "k"), CLEAR)
def test_successive_halving_keeps_the_better_half(game: str, players: int, seed: int,
                                                  k: int) -> None:
    view = decision_views(Config.make(game, players), seed, k + 1)[k]
    assert len(action_classes(view.layout, list(view.legal))) >= 4
    full = halving_values(view, random.Random(k), worlds=64, eps=0.1, halving=False)
    half = halving_values(view, random.Random(k), worlds=64, eps=0.1, halving=True)
    best = max(full.values())
    assert sorted(full.values())[-1] - sorted(set(full.values()))[-2] > 1.0
    # the clear best survives every halving and is chosen
    chosen = max(half, key=lambda a: half[a])
    assert full[chosen] == best, (str(chosen), {str(a): round(v, 2) for a, v in full.items()})


def _endgames(game: str, count: int) -> list[State]:
    """Four-player partnership rounds played at random until six tiles are left in hands."""
    out = []
    rng = random.Random(42)
    while len(out) < count:
        state = State(Config.make(game, 4, teams=True))
        state.deal_next(rng)
        while state.turn >= 0 and not endgame_ready(state, 6):
            codes = state.legal_codes()
            state.apply_code(codes[int(rng.random() * len(codes))])
        if state.turn >= 0 and len(state.legal_codes()) > 1:
            out.append(state)
    return out


def test_the_exact_endgame_counts_a_partner_as_a_partner() -> None:
    """Four players in partnerships are two sides: the exact endgame plays the partner's moves
    for the side (alpha-beta gives plain minimax's value, a partner maximising), not against
    it."""
    differs = 0
    for state in [s for game in ("fives-and-threes", "all-fives", "block")
                  for s in _endgames(game, 6)]:
        before = [float(s) for s in state.scores]
        for side in (0, 1):
            exact = exact_value(state, before, side, 0.0)
            assert exact == pytest.approx(_minimax(state, before, side))
        # and the partner's treatment matters here: as an opponent the value would differ
        seat = state.turn
        # the planted bug: only the seat itself playing for its side
        partner_as_foe = _minimax(state, before, state.config.side_of(seat),
                                  lambda st, seat=seat: st.turn == seat)
        differs += partner_as_foe != pytest.approx(_minimax(state, before,
                                                              state.config.side_of(seat)))
    assert differs >= 1  # the positions test what they claim to


@pytest.mark.parametrize("game", ["fives-and-threes", "block", "all-fives"])
def test_the_exact_endgame_is_plain_minimax_deeper_and_leaves_the_state_alone(game: str) -> None:
    """Two players, up to nine tiles in hands (the plays tried best first, each node copying
    only for the actions before its last): alpha-beta's value is plain minimax's, with a match
    won weighing too, and the state searched is left as it was."""
    rng = random.Random(5)
    checked = 0
    while checked < 4:
        state = State(Config.make(game, 2))
        state.deal_next(rng)
        while state.turn >= 0 and not endgame_ready(state, 9):
            codes = state.legal_codes()
            state.apply_code(codes[int(rng.random() * len(codes))])
        if state.turn < 0 or len(state.legal_codes()) < 2:
            continue
        before = [float(s) for s in state.scores]
        log, hands = state.log[:], state.hands[:]
        for side in (0, 1):
            exact = exact_value(state, before, side, 30.0)
            assert exact == pytest.approx(_minimax(state, before, side, match_weight=30.0))
        assert (state.log, state.hands) == (log, hands)
        checked += 1


@pytest.mark.parametrize(("game", "players"), [("all-fives", 2), ("muggins", 3),
                                               ("fives-and-threes", 4), ("block", 4)])
def test_plays_merged_as_one_leave_the_same_game(game: str, players: int) -> None:
    """Two plays in one class leave the same points, the same open ends (numbers and
    doubles), the same spinner, and the same legal plays for whoever is next, in hundreds of
    positions; different tiles are never merged."""
    rng = random.Random(7)
    merged = 0
    for _ in range(40):
        state = State(Config.make(game, players))
        state.deal_next(rng)
        while state.turn >= 0:
            view = view_of(state, state.turn)
            for group in action_classes(view.layout, list(view.legal)):
                if len(group) < 2:
                    continue
                merged += 1
                assert len({a.tile for a in group}) == 1, [str(a) for a in group]
                after = []
                for action in group:
                    st = state.copy()
                    st.apply(action)
                    lay = st.layout
                    ends = sorted((v, lay.double[e]) for e, v in lay.ends)
                    nxt = sorted(str(a.tile) for a in (view_of(st, st.turn).legal
                                                       if st.turn >= 0 else []) if a.tile)
                    after.append((list(st.scores), ends, lay.spinner >= 0, nxt))
                assert all(x == after[0] for x in after), [str(a) for a in group]
            codes = state.legal_codes()
            state.apply_code(codes[int(rng.random() * len(codes))])
    assert merged >= 10


@pytest.mark.parametrize(("game", "players", "seed", "k"), CLEAR[:4])
def test_a_playout_cut_past_the_rounds_end_is_the_whole_playout(game: str, players: int,
                                                                seed: int, k: int) -> None:
    # the learned leaves' cut (issue 27): a leaf that values nothing, reached only after more
    # moves than any round has, leaves every search value as the full playouts make it; a leaf
    # reached at once is the leaf's own value of each world, added to what the play scored
    view = decision_views(Config.make(game, players), seed, k + 1)[k]
    searches = (partial(halving_values, worlds=64), partial(ismcts_values, iterations=200))
    for search in searches:
        name = search.func.__name__
        plain = search(view, random.Random(k), eps=0.1)
        cut = search(view, random.Random(k), eps=0.1, leaf=lambda st: 0.0, leaf_after=99)
        assert cut == plain, name
        once = search(view, random.Random(k), eps=0.1, leaf=lambda st: 1000.0, leaf_after=0)
        assert min(once.values()) > 900, name


@pytest.mark.parametrize(("game", "players", "seed", "k"), CLEAR[:4])
def test_searching_the_replies_values_each_play_at_its_opponents_best_answer(
        game: str, players: int, seed: int, k: int) -> None:
    # (a trial of issue 27) noiseless playouts answer as the greedy policy does, one of the
    # opponent's answers: the worst answer is never better for the searcher, and is worse
    # somewhere; in the same worlds, since the worlds are drawn before anything is played
    view = decision_views(Config.make(game, players), seed, k + 1)[k]
    plain = halving_values(view, random.Random(k), worlds=32, eps=0.0, halving=False)
    worst = halving_values(view, random.Random(k), worlds=32, eps=0.0, halving=False,
                           replies=True)
    assert all(worst[a] <= plain[a] + 1e-9 for a in view.legal)
    assert any(worst[a] < plain[a] - 1e-9 for a in view.legal)


@pytest.mark.parametrize(("players", "teams"), [(2, False), (4, True)])
def test_with_others_by_policy_no_other_seat_chooses_by_the_tree(players: int,
                                                                 teams: bool) -> None:
    """A tree node of another seat aggregates that seat's worlds, so it chooses as if it did
    not know its own tiles; with ``others_by_policy`` none of the other seats' choices in the
    tree is the tree's (they play from their own hands, as in the playouts); without it, all
    are. Either way every legal action is valued."""
    config = Config.make("all-fives", players, teams=teams)
    view = next(v for v in decision_views(config, 3, 12)
                if len(action_classes(v.layout, list(v.legal))) >= 2)
    shares = []
    for by_policy in (False, True):
        stats: dict[str, float] = {}
        values = ismcts_values(view, random.Random(1), iterations=600, eps=0.0, pool=50,
                               stats=stats, others_by_policy=by_policy)
        assert set(values) == set(view.legal)
        shares.append(stats["others_by_tree"])
    assert shares == [1.0, 0.0]
