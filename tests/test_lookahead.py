"""The bots' look-ahead agrees with the play itself.

``Layout.total_after(tile, end)`` answers "what would the ends total be after this play?"
without touching the layout; the bots score their candidates with it: ``play_points`` (easy and
medium), the medium bot's best reply, the search bots' greedy playouts (``greedy_code``) and
their model of the others (``greedy_log_likelihood``). Each is checked here against what
``Layout.place`` and the engine's own play make of the same play (C-4, C-5, C-7, SP-1, SP-4,
SP-5), on every small layout, on random layouts of every game, and at every decision of random
matches.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fives.bots.ladder import play_points
from fives.bots.search import greedy_code, greedy_log_likelihood
from fives.core.layout import Layout
from fives.core.state import State
from fives.core.tiles import ACTIONS, ALL_TILES, LEAD_BASE
from fives.core.view import view_of
from randommatch import config_of, matches, play_match

#: the layouts of the games: a line (Fives and Threes, Draw, Block), the spinner with its side
#: arms opened by both straight arms (All Fives, Muggins), and without that gate (house rule)
KINDS = {"line": (False, True), "spinner": (True, True), "spinner-ungated": (True, False)}


def _candidates(lay: Layout) -> Iterator[tuple[int, int]]:
    """Every (tile id, end) that could be played next on ``lay``, whoever holds the tile: the
    lead (any tile, written on W) or any tile off the table on an open end it fits."""
    on_table = {t.id for t in lay.tiles()}
    for tile in ALL_TILES:
        if tile.id in on_table:
            continue
        if lay.count == 0:
            yield tile.id, 0
            continue
        for end, value in lay.ends:
            if tile.has(value):
                yield tile.id, end


def _snapshot(lay: Layout) -> str:
    """Everything a layout holds, to see that a look-ahead changed nothing."""
    return repr([getattr(lay, name) for name in Layout.__slots__])


def _check_every_candidate(lay: Layout) -> list[tuple[int, int, Layout]]:
    """total_after equals the total place() returns, for every candidate; the layout is left
    as it was. Returns the candidates with the layouts they make."""
    before = _snapshot(lay)
    out = []
    for tid, end in _candidates(lay):
        after = lay.copy()
        total = after.place(tid, end)
        assert total == after.ends_total()
        assert lay.total_after(tid, end) == total, (lay.explain(), str(ALL_TILES[tid]), end)
        out.append((tid, end, after))
    assert _snapshot(lay) == before
    return out


def _shape(lay: Layout, tid: int, end: int, after: Layout) -> str | None:
    """The kind of play whose look-ahead is easiest to get wrong, or None."""
    tile = ALL_TILES[tid]
    if lay.count == 0:
        return None
    if after.spinner >= 0 and lay.spinner < 0:
        return "a double becomes the spinner"  # SP-1
    if after.spinner < 0:
        return "a double on a line end" if tile.is_double else None  # C-5
    if end >= 2:
        return "a double on a side arm" if tile.is_double else "a play on a side arm"
    if not lay.length[end]:
        return "a play beside the spinner"  # SP-4: the spinner may stop counting
    return "a double on a straight arm" if tile.is_double else None


@pytest.mark.parametrize("kind", KINDS)
def test_total_after_is_what_place_makes_on_every_layout_of_up_to_three_tiles(kind: str) -> None:
    """Every layout reached by any three plays, and every fourth play on it (50,000 to
    130,000 plays), including each kind of play with doubles and spinner arms."""
    spinner, gate = KINDS[kind]
    shapes: Counter[str] = Counter()
    layer = [Layout(spinner_rules=spinner, side_arm_gate=gate)]
    for depth in range(4):
        following = []
        for lay in layer:
            for tid, end, after in _check_every_candidate(lay):
                shapes[_shape(lay, tid, end, after) or ""] += 1
                if depth < 3:
                    following.append(after)
        layer = following
    if not spinner:
        want = {"a double on a line end"}
    else:
        want = {"a double becomes the spinner", "a double on a straight arm",
                "a play on a side arm", "a play beside the spinner"}
        if not gate:  # behind the gate, a side arm's double is the fifth play at the earliest
            want.add("a double on a side arm")
    assert want <= set(shapes), shapes


@st.composite
def layouts(draw: st.DrawFn) -> tuple[str, list[tuple[int, int]]]:
    """A layout of one of the KINDS, as the plays that build it: any tiles, in any order the
    rules of the layout allow, up to the whole set."""
    kind = draw(st.sampled_from(sorted(KINDS)))
    lay = Layout(*KINDS[kind])
    plays = []
    for _ in range(draw(st.integers(min_value=0, max_value=28))):
        options = list(_candidates(lay))
        if not options:
            break
        tid, end = draw(st.sampled_from(options))
        lay.place(tid, end)
        plays.append((tid, end))
    return kind, plays


@given(layouts())
def test_total_after_is_what_place_makes_on_random_layouts(built: tuple[str, list]) -> None:
    """After every play of a random layout, every next play is looked ahead correctly."""
    kind, plays = built
    lay = Layout(*KINDS[kind])
    _check_every_candidate(lay)
    for tid, end in plays:
        lay.place(tid, end)
        _check_every_candidate(lay)


def _play_code(code: int) -> tuple[int, int] | None:
    """(tile id, end) of a lead or play code; None for draw and pass."""
    if code < LEAD_BASE:
        return code >> 2, code & 3
    if code < LEAD_BASE + 28:
        return code - LEAD_BASE, 0
    return None


def _check_the_bots_look_ahead(state: State, code: int | None) -> None:
    """At a decision: every play's look-ahead against the engine's own play of it."""
    if state.round_end is not None:
        return
    codes = state.legal_codes()
    seat = state.turn
    side = state.side[seat]
    cfg = state.config
    table = cfg.game.play_points
    view = view_of(state, seat)
    now: dict[int, tuple[int, int]] = {}  # code: (points now, pips of the tile)
    for c in codes:
        play = _play_code(c)
        if play is None:
            assert play_points(view, ACTIONS[c]) == 0
            continue
        tid, end = play
        after = state.copy()
        _, _, total, points, _ = after.apply_code(c)
        assert state.layout.total_after(tid, end) == total
        counted = cfg.counted_points(total, state.scores[side])
        assert play_points(view, ACTIONS[c]) == counted
        # the points the engine gave the play; but a Fives and Threes last tile is one event
        # with its extra point (FT-10), which play_points does not weigh
        if not (cfg.game.exact_target and not after.hands[seat]):
            assert counted == points
        now[c] = (table[total], ALL_TILES[tid].pips)
    if len(now) < 2:
        return  # a draw, a pass or a single play: nothing to rank
    # the playout policy: most points now, then the heaviest tile (the first such code)
    best = max(now.values())
    assert greedy_code(state, codes, random.Random(0), 0.0) == next(
        c for c in codes if now[c] == best
    )
    # the model of the others: a softmax over points now plus pips / 12
    beta = 1.5
    model = greedy_log_likelihood(beta)
    value = {c: points + pips / 12 for c, (points, pips) in now.items()}
    norm = sum(math.exp(beta * v) for v in value.values())
    for c, v in value.items():
        assert model(state, c) == pytest.approx(beta * v - math.log(norm))


@given(matches)
def test_the_bots_look_ahead_scores_each_play_as_the_engine_does(match: tuple) -> None:
    """At every decision of a random match: total_after gives the ends total
    the engine's play makes, play_points the points it counts, and the greedy policy and the
    model of the others rank the plays by those points."""
    spec, seed = match
    play_match(config_of(spec), seed, _check_the_bots_look_ahead)
