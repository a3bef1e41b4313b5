"""Why the engine refuses an action (core/state.py, issue 42's survivors there): at every turn of
random rounds of every game, every action that is not legal is refused by ``refusal`` and by
``play`` with the same reason, a reason the rules' plain facts call for (a tile not held, an end
not open, a tile that does not fit, a lead after the lead, drawing in a game without it...), its
parameters naming what was wrong; a refused action changes nothing; and a copy of a state is
the same state, independent of it."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from fives.core.games import GAMES, Config
from fives.core.state import REASON_TEXT, IllegalAction, Reason, State
from fives.core.tiles import ACTIONS, ALL_TILES, Action
from recordkit import random_states

ACTIONS_TILES = list(ALL_TILES)

TABLES = [(g, n) for g in sorted(GAMES) for n in (2, 3, 4)]
WENS = "WENS"


def _snapshot(state: State) -> tuple[object, ...]:
    return (list(state.hands), list(state.scores), state.turn, state.stock_pos, len(state.log),
            state.layout.ends, state.layout.count, list(state.out), state.round_end, state.over)


def _expected_key(state: State, action: Action, legal: list[int]) -> str:
    """The reason the rules' plain facts call for (written apart from the engine's own)."""
    game = state.config.game
    hand = state.hands[state.turn]
    lay = state.layout
    if action.kind == "draw":
        if not game.drawing:
            return "no_drawing"
        return "stock_empty" if state.stock_pos >= len(state.stock) else "must_play_not_draw"
    if action.kind == "pass":
        return "must_draw" if legal == [int(Action.parse("draw"))] else "must_play"
    tile = action.tile
    assert tile is not None
    if not hand >> tile.id & 1:
        return "not_held"
    if action.kind == "lead":
        return "lead_over" if lay.count else "lead_must_be"
    if lay.count == 0:
        return "lead_without_end"
    open_ends = dict(lay.ends)
    if action.end not in open_ends:
        gated = lay.spinner >= 0 and action.end is not None and action.end >= 2
        return "side_arm_closed" if gated else "end_not_open"
    return "does_not_fit"


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_every_refused_action_has_the_reason_the_rules_call_for(game: str, players: int) -> None:
    seen: Counter[str] = Counter()
    for i, state in enumerate(random_states(game, players, seed=players * 7 + len(game))):
        if i % 3:
            continue
        legal = state.legal_codes()
        shown = ", ".join(str(ACTIONS[c]) for c in legal)
        for code, action in enumerate(ACTIONS):
            reason = state.refusal(action)
            if code in legal:
                assert reason is None, (str(action), reason)
                continue
            assert reason is not None
            key = _expected_key(state, action, legal)
            assert reason.key == key, (str(action), reason, key)
            seen[key] += 1
            tile = action.tile
            ends = ", ".join(f"{WENS[e]}={v}" for e, v in state.layout.ends)
            if key == "not_held":
                assert reason.params == {"seat": state.turn, "tile": str(tile)}
            elif key == "does_not_fit":
                assert action.end is not None
                assert reason.params == {"tile": str(tile), "end": WENS[action.end],
                                         "value": dict(state.layout.ends)[action.end],
                                         "ends": ends}
            elif key == "end_not_open":
                assert action.end is not None
                assert reason.params == {"end": WENS[action.end], "ends": ends}
            elif key == "no_drawing":
                assert reason.params == {"game": game}
            elif key == "lead_must_be":
                assert reason.params["tile"] != str(tile)
            else:
                assert reason.params == {}
            assert str(reason) == REASON_TEXT[key].format(**reason.params)
            before = _snapshot(state)
            with pytest.raises(IllegalAction) as caught:
                state.play(action)
            assert _snapshot(state) == before  # a refused action changes nothing
            err = caught.value
            assert (err.key, err.params, err.reason) == (reason.key, reason.params, str(reason))
            assert err.action == str(action)
            assert [int(a) for a in err.legal] == legal
            assert str(err) == f"{str(action)!r}: {reason} (legal: {shown})"
    assert {"not_held", "does_not_fit"} <= set(seen), seen
    assert ("no_drawing" in seen) == (not Config.make(game, players).game.drawing)


def test_a_finished_round_and_a_finished_match_refuse_every_action() -> None:
    state = State(Config.make("all-fives", 2, target=60))
    rng = random.Random(3)
    between = 0
    while not state.over:
        if state.needs_deal():
            state.deal_next(rng)
        while state.turn >= 0:
            state.apply_code(rng.choice(state.legal_codes()))
        if not state.over:
            reason = state.refusal(ACTIONS[0])
            assert reason is not None and reason.key == "round_over"
            with pytest.raises(IllegalAction) as caught:
                state.play("draw")
            assert caught.value.key == "round_over" and caught.value.legal == []
            assert str(caught.value) == "'draw': the round is over (legal: none)"
            assert caught.value.action == "draw"
            between += 1
    assert between >= 1  # a round ended without ending the match
    reason = state.refusal(ACTIONS[0])
    assert reason is not None and reason.key == "match_over"
    with pytest.raises(IllegalAction) as caught:
        state.play(ACTIONS[0])
    assert caught.value.key == "match_over" and caught.value.params == {}
    assert (caught.value.action, caught.value.legal) == (str(ACTIONS[0]), [])
    assert str(caught.value).startswith(f"{str(ACTIONS[0])!r}: ")


def test_a_refusal_given_as_words_is_not_allowed_here() -> None:
    err = IllegalAction("0-1", "because", [Action.parse("draw")])
    assert (err.key, err.params, err.reason) == ("not_allowed", {}, "because")
    assert err.legal == [Action.parse("draw")]
    assert str(err) == "'0-1': because (legal: draw)"
    assert repr(Reason("stock_empty")) == "Reason('stock_empty', {})"


@pytest.mark.parametrize(("game", "players"), [("all-fives", 4), ("draw", 2), ("muggins", 3)])
def test_a_copy_is_the_same_state_and_independent_of_it(game: str, players: int) -> None:
    rng = random.Random(9)
    for i, state in enumerate(random_states(game, players, seed=5)):
        if i % 4:
            continue
        copy = state.copy()
        fields = ("scores", "finished", "over", "winner", "hands", "dealt", "stock", "stock_pos",
                  "leader", "lead_tile", "turn", "log", "round_end", "out")
        for name in fields:
            assert getattr(copy, name) == getattr(state, name), name
        assert copy.layout.ends == state.layout.ends and copy.layout.tiles() == state.layout.tiles()
        assert copy.legal_codes() == state.legal_codes()
        before = _snapshot(state)
        log = list(state.log)
        while copy.turn >= 0:
            copy.apply(ACTIONS[rng.choice(copy.legal_codes())])
        assert _snapshot(state) == before and state.log == log
    # a finished round and a finished match copy whole too (how it ended, who won)
    rng = random.Random(2)
    state = State(Config.make(game, players, target=30))
    while not state.over:
        state.deal_next(rng)
        while state.turn >= 0:
            state.apply_code(rng.choice(state.legal_codes()))
        copy = state.copy()
        assert (copy.round_end, copy.over, copy.winner, copy.scores) == (
            state.round_end, state.over, state.winner, state.scores)


def test_a_side_arm_of_the_double_blank_is_closed_until_both_arms_hold_a_tile() -> None:
    # the double blank is tile 0: a spinner all the same (AF-4, SP-2)
    state = State(Config.make("all-fives", 2))
    tiles = {str(t): t for t in ACTIONS_TILES}
    hands = [[tiles[x] for x in ["0-0", "2-3", "2-4", "2-5", "2-6", "3-3", "3-4", "3-5", "3-6"]],
             [tiles[x] for x in ["0-1", "0-2", "1-1", "1-2", "1-3", "1-4", "1-5", "1-6", "4-4"]]]
    dealt = {t for h in hands for t in h}
    state.start_round(hands, [t for t in ACTIONS_TILES if t not in dealt], 0)
    state.play("0-0")
    reason = state.refusal(Action.parse("0-1@N"))
    assert reason is not None and reason.key == "side_arm_closed"
