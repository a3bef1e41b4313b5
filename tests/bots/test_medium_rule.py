"""medium's rule of thumb, compiled for the playouts (``MediumRule``), against its definition
written plainly from a view (the medium bot's code before it was compiled, kept here as the
oracle): every term, in every game and player count and in partnerships, with each weight and
switch the bot's subclasses can set. A playout's choices are checked against the bot in
``test_medium_playouts.py``; there both sides use the rule, so its terms are checked here."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from fives.bots.ladder import MediumBot, rule_values
from fives.bots.search import MEDIUM_WEIGHTS, RULE_TERMS, MediumPolicy, MediumRule, best_code
from fives.core.sampling import proven_voids
from fives.core.state import State
from fives.core.tiles import ACTIONS, ALL_TILES, LEAD_BASE, Action
from fives.core.view import View, view_of
from recordkit import random_states

TABLES = [(g, n, False) for g in ("all-fives", "fives-and-threes", "muggins", "draw", "block")
          for n in (2, 3, 4)] + [("all-fives", 4, True), ("fives-and-threes", 4, True)]


def reference_values(bot: MediumBot, view: View) -> dict[Action, float]:
    """medium's values as defined (README, "medium in every game"), term by term."""
    cfg = view.config
    game = cfg.game
    seat = view.seat
    assert seat is not None
    n = cfg.players
    table = game.play_points
    scoring = [p for p in table if p > 0]
    k = min(scoring) / 5.0 if scoring and bot.unit_scaled else 1.0
    nxt = (seat + 1) % n
    while view.out and view.out[nxt] and nxt != seat:
        nxt = (nxt + 1) % n
    partner = bool(cfg.teams) and cfg.side_of(nxt) == cfg.side_of(seat)
    seen = {t.id for t in view.hand} | {t.id for t in view.layout.tiles()}
    unseen = [t for t in ALL_TILES if t.id not in seen]
    void_next = proven_voids(view, nxt)
    void_all = 0x7F
    for s in range(n):
        if cfg.side_of(s) != cfg.side_of(seat):
            void_all &= proven_voids(view, s)
    my_score = view.scores[cfg.side_of(seat)]
    out: dict[Action, float] = {}
    for action in view.legal:
        tile = action.tile
        if tile is None:
            out[action] = 0.0
            continue
        lay = view.layout.copy()
        total = lay.place(tile.id, action.end if action.end is not None else 0)
        points = table[total]
        value = float(points)
        if game.exact_target:
            after = my_score + points
            if after > cfg.target:
                value = -5.0
            elif after == cfg.target:
                value += 100.0
            elif cfg.target - after <= 8:
                value += 1.0
        replies: list[int] = []
        fitting = 0
        for t in unseen:
            if (1 << t.low | 1 << t.high) & void_next:
                continue
            best_t = -1
            for e, v in lay.ends:
                if t.has(v):
                    best_t = max(best_t, table[lay.total_after(t.id, e)])
            if best_t >= 0:
                fitting += 1
            replies.append(max(0, best_t))
        chance = min(1.0, view.hand_sizes[nxt] / len(replies)) if replies else 0.0
        if bot.block_weight and replies:
            value -= (-0.5 if partner else 1.0) * bot.block_weight * k * (
                1.0 - (1.0 - chance) ** fitting)
        reply = 0.0
        if game.play_scoring != "none" and replies:
            if bot.expected_reply:
                miss = 1.0
                for r in sorted(replies, reverse=True):
                    if not r:
                        break
                    reply += r * chance * miss
                    miss *= 1.0 - chance
            else:
                reply = float(max(replies))
        value += (0.5 if partner else -bot.reply_weight) * reply
        rest = [t for t in view.hand if t is not tile]
        if game.remaining != "none":
            value += bot.pips_weight * k * tile.pips
        if tile.is_double:
            value += 2.0 * k
        showing = {v for _, v in lay.ends}
        value += 0.8 * k * sum(1 for t in rest if any(t.has(v) for v in showing))
        value += 0.3 * k * len({h for t in rest for h in (t.low, t.high)})
        if void_all and all(void_all >> v & 1 for v in showing):
            value += 4.0 * k
        out[action] = value
    return out


class _BestReply(MediumBot):
    expected_reply = False
    reply_weight = 0.7
    pips_weight = 0.4
    block_weight = 5.0


class _Unscaled(MediumBot):
    unit_scaled = False


def _decisions(game: str, players: int, teams: bool, seed: int) -> Iterator[View]:
    """Each turn's view (a forced draw or pass too), and where the target is exact (Fives and
    Threes' 61) the same turn with the mover's side 1 to 9 points short of it."""
    for k, state in enumerate(random_states(game, players, seed, rounds=6, teams=teams)):
        codes = state.legal_codes()
        if len(codes) > 1 or k % 7 == 0 or codes[0] >= LEAD_BASE + 28:  # a draw or a pass
            yield view_of(state, state.turn)
        if state.config.game.exact_target and k % 3 == 0:
            near = state.copy()
            near.scores[near.side[near.turn]] = near.config.target - 1 - k % 9
            yield view_of(near, near.turn)


@pytest.mark.parametrize(("game", "players", "teams"), TABLES)
def test_the_compiled_rule_gives_every_term_of_mediums_definition(
        game: str, players: int, teams: bool) -> None:
    bots = (MediumBot(fitted=False), _BestReply(fitted=False), _Unscaled(fitted=False))
    checked = 0
    for k, view in enumerate(_decisions(game, players, teams, seed=21)):
        bot = bots[k % 3]
        found = bot.values(view, random.Random(0))
        expected = reference_values(bot, view)
        assert found.keys() == expected.keys()
        for action, value in expected.items():
            assert found[action] == pytest.approx(value, abs=1e-9), (k, str(action))
        checked += 1
    assert checked >= 40


def _heaviest_best(state: State) -> set[int]:
    values = reference_values(MediumBot(fitted=False), view_of(state, state.turn))
    top = max(values.values())
    best = [a for a, v in values.items() if v >= top - 1e-9]
    heaviest = max(a.tile.pips if a.tile is not None else -1 for a in best)
    return {int(a) for a in best if (a.tile.pips if a.tile is not None else -1) == heaviest}


@pytest.mark.parametrize(("game", "players", "teams"), [("all-fives", 2, False),
                                                        ("draw", 3, False),
                                                        ("fives-and-threes", 4, True)])
def test_a_playout_from_any_state_plays_mediums_best_then_the_heaviest_tile(
        game: str, players: int, teams: bool) -> None:
    """``finish`` reads what the round so far proves from the state itself, then every seat
    plays medium's best value, the heaviest tile of those tied."""
    checked = 0
    for k, state in enumerate(random_states(game, players, seed=13, rounds=3, teams=teams)):
        if k % 3 or state.turn < 0:
            continue
        policy = MediumPolicy(state, eps=0.0)
        played = state.copy()
        policy.finish(played, random.Random(k))
        assert played.turn < 0
        replay = state.copy()
        for entry in played.log[len(state.log):]:
            if len(replay.legal_codes()) > 1:
                assert entry[1] in _heaviest_best(replay), (k, entry)
                checked += 1
            replay.apply_code(entry[1])
        assert replay.scores == played.scores
    assert checked >= 20


def test_a_playout_plays_a_random_legal_move_exactly_when_its_draw_falls_under_eps() -> None:
    state = next(s for s in random_states("all-fives", 2, seed=4)
                 if len(s.legal_codes()) > 2 and all(c < LEAD_BASE + 28 for c in s.legal_codes()))
    codes = state.legal_codes()
    policy = MediumPolicy(state, eps=0.25)
    policy.start(state)
    best = _heaviest_best(state)
    # a draw under eps, then the second draw picks the move by its index
    for pick in range(len(codes)):
        draws = iter([0.2499, (pick + 0.5) / len(codes)])
        assert policy.choose(state, codes, draws.__next__) == codes[pick]
    assert policy.choose(state, codes, iter([0.25]).__next__) in best


def test_the_next_seats_chance_to_hold_a_tile_is_at_most_certain() -> None:
    """Where the next seat holds more tiles than it may hold of those unseen (its voids rule
    out the rest), each of them is certainly held, not more than certainly."""
    state = next(s for s in random_states("all-fives", 2, seed=8)
                 if s.layout.count and len(s.legal_codes()) > 1
                 and not (s.hands[s.turn] | _on_table(s)) >> _SIX_SIX & 1)
    rule = MediumRule(state.config)
    seat = state.turn
    hand = state.hands[seat]
    on_table = _on_table(state)
    all_but_six = 0x3F  # the next seat is void in 0 to 5: it may hold only the 6-6

    def values(next_size: int) -> list[float]:
        return rule.values(state.legal_codes(), hand, state.layout, on_table, all_but_six, 0,
                           next_size, False, state.scores[0])

    assert values(5) == values(1)


_SIX_SIX = next(t.id for t in ALL_TILES if t.low == t.high == 6)


def _on_table(state: State) -> int:
    mask = 0
    for t in state.layout.tiles():
        mask |= 1 << t.id
    return mask


def test_the_policy_breaks_ties_as_the_bot_does() -> None:
    """Values within a rounding of the best tie; the heaviest tile of those tied is chosen, the
    first of equal weight; a value below the best by more than a rounding never is."""
    state = next(s for s in random_states("muggins", 2, seed=6)
                 if len({_PIPS[_tile(c)] for c in s.legal_codes()}) >= 3
                 and all(c < LEAD_BASE + 28 for c in s.legal_codes()))
    codes = state.legal_codes()
    weights = [_PIPS[_tile(c)] for c in codes]
    light = codes[weights.index(min(weights))]  # the first of the lightest
    heavy = codes[weights.index(max(weights))]  # and of the heaviest

    def chosen(table: dict[int, float]) -> int:
        return best_code(codes, [table.get(c, -100.0) for c in codes])

    assert chosen({light: 3.0, heavy: 3.0 - 5e-10}) == heavy
    assert chosen({light: 3.0 - 5e-10, heavy: 3.0}) == heavy
    assert chosen({light: 3.0, heavy: 3.0 - 2e-9}) == light
    assert chosen({light: -1.0, heavy: -1.0 - 2e-9}) == light
    assert chosen(dict.fromkeys(codes, 0.0)) == heavy  # all alike: the heaviest
    same = [c for c in codes if _PIPS[_tile(c)] == _PIPS[_tile(heavy)]]
    assert chosen(dict.fromkeys(same, 1.0)) == same[0]
    # a draw or a pass weighs less than any tile, the double blank too
    assert best_code([LEAD_BASE + 28, 0], [1.0, 1.0]) == 0
    assert best_code([LEAD_BASE + 29, LEAD_BASE + 28], [1.0, 1.0]) == LEAD_BASE + 29
    assert best_code([0, LEAD_BASE + 28], [0.0, 1.0]) == LEAD_BASE + 28
    # a lead weighs its tile's pips: the 0-1 over the double blank
    assert best_code([LEAD_BASE, LEAD_BASE + 1], [1.0, 1.0]) == LEAD_BASE + 1
    # and the policy picks by this rule from medium's values
    policy = MediumPolicy(state, eps=0.0)
    policy.start(state)
    values = MediumBot(fitted=False).values(view_of(state, state.turn), random.Random(0))
    assert policy.choose(state, codes, lambda: 0.99) == best_code(
        codes, [values[ACTIONS[c]] for c in codes])


def _tile(code: int) -> int:
    return code - LEAD_BASE if code >= LEAD_BASE else code >> 2


_PIPS = [t.pips for t in ALL_TILES]


def test_with_a_partner_out_the_next_seat_is_the_next_still_playing() -> None:
    """Fives and Threes in partnerships: a partner who went out sits the round's rest out
    (FT-8), so the next seat medium reckons with is the one after it."""
    checked = 0
    for seed in range(400):
        for state in random_states("fives-and-threes", 4, seed=seed, rounds=1, teams=True):
            if state.turn < 0 or not state.out[(state.turn + 1) % 4]:
                continue
            if len(state.legal_codes()) < 2:
                continue
            policy = MediumPolicy(state, eps=0.0)
            policy.start(state)
            policy.voids = policy.root_voids[:]
            assert policy.choose(state, state.legal_codes(), lambda: 0.99) in \
                _heaviest_best(state)
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize(("game", "players", "teams"), [("all-fives", 2, False),
                                                        ("fives-and-threes", 2, False),
                                                        ("fives-and-threes", 4, True),
                                                        ("all-fives", 4, True)])
def test_a_rule_is_its_terms_each_times_its_weight(game: str, players: int, teams: bool) -> None:
    """The value of a play is the sum of its terms, each times its weight: the rule with every
    weight but one at 0 gives that term, and any weights give the sum (what fitting weights to
    a search's values relies on); medium's weights give medium's values to the last bit."""
    weights = {t: 0.1 + 0.37 * i for i, t in enumerate(RULE_TERMS)}
    checked = 0
    for k, view in enumerate(_decisions(game, players, teams, seed=33)):
        cfg = view.config
        terms = {t: rule_values(MediumRule.weighted(cfg, {u: float(u == t) for u in RULE_TERMS}),
                                view) for t in RULE_TERMS}
        mixed = rule_values(MediumRule.weighted(cfg, weights), view)
        for action, value in mixed.items():
            assert value == pytest.approx(sum(weights[t] * terms[t][action] for t in RULE_TERMS),
                                          abs=1e-9), (k, str(action))
        assert rule_values(MediumRule.weighted(cfg, {}), view) == MediumBot(fitted=False).values(
            view, random.Random(0))
        checked += 1
    assert checked >= 20


def test_a_weight_for_a_term_the_rule_lacks_is_refused_by_name() -> None:
    cfg = next(random_states("all-fives", 2, seed=1)).config
    with pytest.raises(ValueError) as refused:
        MediumRule.weighted(cfg, {"now": 1.0, "spin": 2.0, "bonus": 1.0})
    assert str(refused.value) == "unknown terms bonus, spin: " + ", ".join(RULE_TERMS)


def test_a_partners_reply_is_weighed_by_its_own_weight() -> None:
    """Fives and Threes in partnerships, the next opponent out: the next seat still playing is
    the partner, whose reply counts by ``partner_reply`` (twice the weight, twice the term)."""
    zero = dict.fromkeys(RULE_TERMS, 0.0)
    replies = 0
    for seed in range(400):
        for state in random_states("fives-and-threes", 4, seed=seed, rounds=1, teams=True):
            if state.turn < 0 or not state.out[(state.turn + 1) % 4]:
                continue
            view = view_of(state, state.turn)
            once = rule_values(MediumRule.weighted(state.config, {**zero, "partner_reply": 1.0}),
                               view)
            twice = rule_values(MediumRule.weighted(state.config, {**zero, "partner_reply": 2.0}),
                                view)
            assert twice == {a: 2.0 * v for a, v in once.items()}
            replies += sum(1 for v in once.values() if v > 0)
    assert replies >= 5


def reference_extra(view: View) -> dict[Action, dict[str, float]]:
    """The terms medium gives no weight, as ``tools/rule_fit.py --extra`` defines them."""
    cfg = view.config
    table = cfg.game.play_points
    hand = list(view.hand)
    seen = {t.id for t in hand} | {t.id for t in view.layout.tiles()}
    unseen = [t for t in ALL_TILES if t.id not in seen]
    assert view.seat is not None
    side = cfg.side_of(view.seat)
    near_me = float(view.scores[side] >= cfg.target - 50)
    near_them = float(max(s for i, s in enumerate(view.scores) if i != side) >= cfg.target - 50)
    out: dict[Action, dict[str, float]] = {}
    for a in view.legal:
        if a.tile is None:
            out[a] = dict.fromkeys(EXTRA, 0.0)
            continue
        lay = view.layout.copy()
        points = table[lay.place(a.tile.id, a.end if a.end is not None else 0)]
        rest = [t for t in hand if t.id != a.tile.id]
        showing = {v for _e, v in lay.ends}
        fit = sum(1 for t in unseen if any(t.has(v) for v in showing))
        out[a] = {
            "follow": max((table[lay.total_after(t.id, e)] for t in rest for e, v in lay.ends
                           if t.has(v)), default=0),
            "lock": sum(1 for v in showing if not any(t.has(v) for t in unseen)),
            "spinner": float(view.layout.spinner_tile is None and lay.spinner_tile is not None),
            "doubles_kept": sum(1 for t in rest if t.low == t.high),
            "now_near": points * near_me,
            "fit_stock_empty": float(view.stock == 0) * fit,
            "fit": fit,
            "last_fits": float(len(rest) <= 1) * sum(1 for t in rest
                                                      if any(t.has(v) for v in showing)),
            "fit_them_near": near_them * fit,
        }
    return out


EXTRA = [t for t in RULE_TERMS if not MEDIUM_WEIGHTS[t]]


@pytest.mark.parametrize(("game", "players", "teams"), TABLES)
def test_each_term_medium_does_not_weigh_is_its_definition(
        game: str, players: int, teams: bool) -> None:
    """The terms a fitted rule may add (their weight alone, every other 0), against their
    definition written plainly from the view, in every game and player count; medium gives
    them no weight, so its values do not move (the tests above)."""
    checked = 0
    for view in _decisions(game, players, teams, seed=45):
        cfg = view.config
        expected = reference_extra(view)
        for term in EXTRA:
            found = rule_values(MediumRule.weighted(
                cfg, {u: float(u == term) for u in RULE_TERMS}), view)
            for action, value in found.items():
                assert value == pytest.approx(expected[action][term], abs=1e-9), (term, str(action))
        checked += 1
    assert checked >= 20
    assert len(EXTRA) == 9
