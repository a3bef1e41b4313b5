"""A seat's view: the JSON round trip in one place (``View.to_json`` / ``View.from_json``), and
what a view may hold (nothing secret, not even in a field nobody is meant to read)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from fives.bots.ladder import EasyBot
from fives.core.games import GAMES, Config
from fives.core.state import State
from fives.core.view import View, public_view, view_of


def _views(game: str, players: int, seed: int, teams: bool | None = None) -> Iterator[View]:
    """Every view of the seat to act over a random match, and the public view at each round's
    end."""
    rng = random.Random(seed)
    state = State(Config.make(game, players, teams=teams))
    for _ in range(400):
        if state.over:
            break
        if state.needs_deal():
            state.deal_next(rng)
            continue
        yield view_of(state, state.turn)
        legal = state.legal_actions()
        state.apply(legal[int(rng.random() * len(legal))])
        if state.round_end is not None:
            yield public_view(state)


def _same(a: View, b: View) -> None:
    assert b.config == a.config
    assert (b.seat, b.round, b.leader, b.turn) == (a.seat, a.round, a.leader, a.turn)
    assert b.hand == a.hand and b.hand_sizes == a.hand_sizes and b.stock == a.stock
    assert b.scores == a.scores and b.round_start_scores == a.round_start_scores
    assert b.legal == a.legal and b.out == a.out
    assert (b.end, b.over, b.winner) == (a.end, a.over, a.winner)
    assert b.layout.explain() == a.layout.explain()
    assert [(h.seat, h.action, h.tile, h.ends) for h in b.history] == [
        (h.seat, h.action, h.tile, h.ends) for h in a.history
    ]
    # each play's points as the engine counted them, Fives and Threes' discarded ones too
    assert [h.points for h in b.history] == [h.points for h in a.history]


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_view_survives_its_json_round_trip(game: str, players: int) -> None:
    count = ends = 0
    for view in _views(game, players, seed=players * 7 + len(game)):
        text = json.dumps(view.to_json())
        back = View.from_json(json.loads(text), [str(a) for a in view.legal] if view.legal else None)
        _same(view, back)
        ends += view.end is not None
        if len(view.legal) > 1:
            rng_a, rng_b = random.Random(5), random.Random(5)
            assert EasyBot().values(back, rng_b) == EasyBot().values(view, rng_a)
        count += 1
    assert count > 10 and ends > 0


def test_a_fives_and_threes_partnership_view_keeps_who_sits_out() -> None:
    """FT-8: a partner who went out sits out; the view's JSON says so."""
    sat_out = 0
    for view in _views("fives-and-threes", 4, seed=3, teams=True):
        _same(view, View.from_json(view.to_json(), [str(a) for a in view.legal] or None))
        sat_out += any(view.out)
    assert sat_out > 0


def test_a_view_of_a_play_that_does_not_fit_is_refused() -> None:
    state = State(Config.make("all-fives", 2))
    state.deal_next(random.Random(2))
    data = view_of(state, state.turn).to_json()
    data["history"] = [[0, "1-4"], [1, "6-6@W"]]
    with pytest.raises(ValueError, match="does not fit"):
        View.from_json(data)


@pytest.mark.parametrize("game", list(GAMES))
def test_a_view_holds_no_hand_left_and_past_rounds_only_as_everyone_saw_them(game: str) -> None:
    """Nothing secret in a view, even in fields nobody is meant to read: a round's end keeps
    its pips but not the hands left; a finished round holds no deal, no stock and no drawn
    tile (not even the viewer's own)."""
    rng = random.Random(11)
    state = State(Config.make(game, 2))
    while len(state.finished) < 2 and not state.over:
        if state.needs_deal():
            state.deal_next(rng)
            continue
        legal = state.legal_actions()
        state.apply(legal[int(rng.random() * len(legal))])
        if state.round_end is not None:
            assert state.round_end.left  # the engine keeps them for the round's account
            for seat in (0, 1, None):
                end = view_of(state, seat).end
                assert end is not None and end.left == () and end.pips == state.round_end.pips
    view = view_of(state, 0)
    assert view.past
    for past in view.past:
        assert past.end is None or past.end.left == ()
        assert all(item.tile is None for item in past.history)
        assert not hasattr(past, "hands") and not hasattr(past, "stock")
    assert not any(hasattr(view, name) for name in ("finished", "stock_order", "hands", "dealt"))


def test_a_drawn_double_blank_is_shown_to_its_drawer_alone() -> None:
    """The 0-0 is tile 0: a draw of it is shown to the seat that drew it, as any other draw
    is, and to nobody else (a test of the first tile, which a ``> 0`` would miss)."""
    from fives.core.tiles import ALL_TILES, Action, Tile

    def tiles(text: str) -> list[Tile]:
        return [Tile.parse(t) for t in text.split()]

    mine = tiles("6-6 0-6 3-6 4-6 5-6 3-4 3-5 4-5 4-4")
    theirs = tiles("1-1 1-2 1-3 1-4 1-5 2-2 2-3 2-4 2-5")
    used = {str(t) for t in mine + theirs}
    stock = [Tile.parse("0-0")] + [t for t in ALL_TILES if str(t) not in used | {"0-0"}]
    state = State(Config.make("all-fives", 2))
    state.start_round([mine, theirs], stock, 0)
    state.play(Action.parse("6-6"))
    state.play(Action.parse("draw"))  # seat 1 holds no 6: it draws the 0-0
    drawer = view_of(state, 1).history[-1]
    other = view_of(state, 0).history[-1]
    assert drawer.action.kind == "draw" and str(drawer.tile) == "0-0"
    assert other.action.kind == "draw" and other.tile is None


def test_a_fives_and_threes_play_past_61_is_read_as_scoring_nothing() -> None:
    """FT-10 read from a view's JSON: a play whose points would take its side past 61 scored
    nothing, though its ends count (its JSON was read as scoring them: issue 42's mutation run
    of core/view.py). Read forwards from the round's start; the end point of the play that
    ends the round counts with it."""
    seen = 0
    for seed in range(40):
        for view in _views("fives-and-threes", 2, seed):
            back = View.from_json(view.to_json(), [str(a) for a in view.legal] or None)
            for mine, read in zip(view.history, back.history, strict=True):
                assert read.points == mine.points, (seed, str(mine.action))
                raw = view.config.game.play_points[mine.ends] if mine.ends is not None else 0
                seen += raw > 0 and mine.points == 0
    assert seen > 0  # plays that would have scored and did not were read


def test_only_the_seat_to_act_is_given_the_legal_actions() -> None:
    """The legal actions are the mover's, exactly the engine's; every other seat gets none;
    at a round's end nobody is to act; a seat the table does not have is refused."""
    rng = random.Random(8)
    state = State(Config.make("muggins", 3))
    state.deal_next(rng)
    for _ in range(4):
        mover = state.turn
        assert view_of(state, mover).legal == tuple(state.legal_actions())
        assert view_of(state, mover).turn == mover
        for other in set(range(3)) - {mover}:
            assert view_of(state, other).legal == ()
        state.apply(state.legal_actions()[0])
    for bad in (3, -1):
        with pytest.raises(ValueError, match=f"^no seat {bad} at a 3-player table$"):
            view_of(state, bad)
    while state.round_end is None:
        state.apply(state.legal_actions()[0])
    assert view_of(state, 0).turn is None and view_of(state, 0).legal == ()


def test_a_view_starts_each_round_from_the_last_ones_scores_and_names_the_winner() -> None:
    rng = random.Random(3)
    state = State(Config.make("all-fives", 2, target=60))
    state.deal_next(rng)
    assert view_of(state, 0).round_start_scores == (0, 0)
    while not state.over:
        if state.needs_deal():
            before = tuple(state.scores)
            state.deal_next(rng)
            assert view_of(state, 1).round_start_scores == before
            continue
        state.apply(state.legal_actions()[0])
    view = view_of(state, 0)
    assert view.over and view.winner == state.winner is not None
    assert view.hand == tuple(sorted(view.hand)) and view_of(state, None).hand == ()
