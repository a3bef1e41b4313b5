"""The games' data and a match's configuration, in process (issue 42: a mutation run of
core/games.py found the points tables computed where no test could switch a mutant on, and
``Config.make``'s refusals read only through the command line): each game's points by ends
total against RULES.md's words (AF-6, FT-6), the division written after the sum, the
properties an interface reads, and every refusal's key and quoted values at its boundary."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from fives.core.games import GAMES, Config, RulesError, _points_table, find_game

HOUSE_KNOWN = "hand_size, side_arm_gate"


def test_all_fives_scores_the_total_when_it_is_a_multiple_of_five() -> None:
    """AF-6: a total that is a multiple of five scores itself; any other nothing."""
    table = _points_table("fives")
    assert len(table) == 37
    assert table == tuple(t if t and t % 5 == 0 else 0 for t in range(37))
    assert all(type(p) is int for p in table)
    assert find_game("all-fives").play_points == table == find_game("muggins").play_points


def test_fives_and_threes_scores_a_point_per_three_and_per_five() -> None:
    """FT-6: a total divisible by 3 scores total ÷ 3, by 5 scores total ÷ 5, by both the sum
    (15: 5 + 3 = 8)."""
    table = _points_table("fives-and-threes")
    assert table[3] == 1 and table[5] == 1 and table[6] == 2 and table[10] == 2
    assert table[15] == 8 and table[30] == 16 and table[0] == 0 and table[7] == 0
    assert table == tuple((t // 3 if t % 3 == 0 else 0) + (t // 5 if t % 5 == 0 else 0)
                          if t else 0 for t in range(37))
    assert all(type(p) is int for p in table)  # whole points, never 5.0
    assert find_game("fives-and-threes").play_points == table


def test_a_game_made_anew_computes_its_points_table() -> None:
    """A game's table is made when the game is (a variant built with dataclasses.replace)."""
    variant = dataclasses.replace(find_game("all-fives"), name="all-fives-variant")
    assert variant.play_points == _points_table("fives")
    threes = dataclasses.replace(variant, play_scoring="fives-and-threes")
    assert threes.play_points == _points_table("fives-and-threes")


def test_partners_play_on_only_where_the_target_is_exact() -> None:
    """FT-8 comes with FT-10: the engine plays a partner's going out on where it plays the exact
    target, so a variant with the one and not the other is refused, with its name."""
    threes = find_game("fives-and-threes")
    assert threes.partners_play_on and threes.exact_target
    with pytest.raises(ValueError, match=r"^loose: partners play on only with an exact target$"):
        dataclasses.replace(threes, name="loose", exact_target=False)
    assert not dataclasses.replace(threes, partners_play_on=False,
                                   exact_target=False).partners_play_on


def test_games_that_score_no_plays_have_a_table_of_nothing() -> None:
    assert _points_table("none") == (0,) * 37
    assert find_game("draw").play_points == find_game("block").play_points == (0,) * 37


def test_the_division_is_written_only_where_the_points_are_not_the_total() -> None:
    ft, af = find_game("fives-and-threes"), find_game("all-fives")
    assert ft.division(15) == "15 ÷ 3 + 15 ÷ 5" and ft.division(12) == "12 ÷ 3"
    assert ft.division(10) == "10 ÷ 5" and ft.division(7) == "" and ft.division(0) == ""
    assert af.division(15) == "" and find_game("block").division(15) == ""


def test_each_game_tells_an_interface_what_it_needs_without_its_name() -> None:
    for name, game in GAMES.items():
        props = game.properties()
        assert props == {
            "game": name, "scoring": game.play_scoring, "ends_score": game.ends_score,
            "spinner": game.spinner, "drawing": game.drawing, "no_play": game.no_play,
            "score_sheet": game.score_sheet, "exact_target": game.exact_target,
            "partners_play_on": game.partners_play_on,
        }
    assert find_game("fives-and-threes").properties()["no_play"] == "knock"
    assert find_game("all-fives").properties()["spinner"] is True


def test_a_play_past_61_counts_nothing_and_elsewhere_its_points() -> None:
    ft = Config.make("fives-and-threes", 2)
    assert ft.counted_points(15, 53) == 8 and ft.counted_points(15, 54) == 0
    assert ft.counted_points(7, 60) == 0 and ft.counted_points(3, 60) == 1
    af = Config.make("all-fives", 2)
    assert af.counted_points(15, 249) == 15 and af.counted_points(12, 0) == 0


def test_a_game_is_found_by_its_name_or_passed_as_itself() -> None:
    game = find_game("muggins")
    assert Config.make(game, 3) == Config.make("muggins", 3)
    assert Config.make(game, 3).game is game


REFUSALS: list[tuple[dict[str, Any], str, dict[str, Any]]] = [
    ({"game": "chess"}, "unknown_game",
     {"name": "'chess'", "known": "all-fives, fives-and-threes, muggins, draw, block"}),
    ({"game": ["all-fives"]}, "unknown_game",
     {"name": "['all-fives']", "known": "all-fives, fives-and-threes, muggins, draw, block"}),
    ({"game": 5}, "unknown_game",
     {"name": "5", "known": "all-fives, fives-and-threes, muggins, draw, block"}),
    ({"teams": "yes"}, "teams_bool", {"value": "'yes'"}),
    ({"players": 3, "teams": True}, "teams_players", {"players": 3}),
    ({"players": 5}, "players_count", {"value": "5"}),
    ({"players": True}, "players_count", {"value": "True"}),
    ({"target": 0}, "target_range", {"value": "0"}),
    ({"target": 10001}, "target_range", {"value": "10001"}),
    ({"target": True}, "target_range", {"value": "True"}),
    ({"target": 2.5}, "target_range", {"value": "2.5"}),
    ({"rules": {"speed": 2}}, "unknown_house_rule", {"rule": "'speed'", "known": HOUSE_KNOWN}),
    ({"rules": {"hand_size": True}}, "house_rule_type",
     {"rule": "'hand_size'", "kind": "int", "value": "True"}),
    ({"rules": {"hand_size": "7"}}, "house_rule_type",
     {"rule": "'hand_size'", "kind": "int", "value": "'7'"}),
    ({"rules": {"side_arm_gate": 1}}, "house_rule_type",
     {"rule": "'side_arm_gate'", "kind": "bool", "value": "1"}),
    ({"rules": {"hand_size": 15}}, "hand_size_fit", {"size": 15, "players": 2}),
    ({"rules": {"hand_size": 0}}, "hand_size_fit", {"size": 0, "players": 2}),
]


@pytest.mark.parametrize(("changes", "key", "params"), REFUSALS,
                         ids=[f"{k}-{i}" for i, (_, k, _) in enumerate(REFUSALS)])
def test_a_configuration_that_does_not_fit_is_refused_with_its_reason_and_values(
        changes: dict[str, Any], key: str, params: dict[str, Any]) -> None:
    args: dict[str, Any] = {"game": "all-fives", "players": 2, **changes}
    game, players = args.pop("game"), args.pop("players")
    with pytest.raises(RulesError) as refused:
        Config.make(game, players, **args)
    assert (refused.value.key, refused.value.params) == (key, params)
    assert "\n" not in str(refused.value)


def test_a_game_without_partnerships_refuses_them() -> None:
    """Every game of RULES.md allows partnerships for four; a game made without them (as a
    house variant might be) refuses them by its name."""
    solo = dataclasses.replace(find_game("block"), name="block-solo", teams_allowed=False)
    with pytest.raises(RulesError) as refused:
        Config.make(solo, 4, teams=True)
    assert (refused.value.key, refused.value.params) == ("no_partnerships", {"game": "block-solo"})
    assert not Config.make(solo, 4).teams


def test_the_edges_of_what_fits_are_accepted() -> None:
    assert Config.make("all-fives", 2, target=1).target == 1
    assert Config.make("all-fives", 2, target=10000).target == 10000
    assert Config.make("all-fives", 2, rules={"hand_size": 14}).hand_size == 14
    assert Config.make("all-fives", 4, rules={"hand_size": 7}).hand_size == 7
    assert Config.make("all-fives", 2, rules={"hand_size": 1}).hand_size == 1
    assert Config.make("all-fives", 4, teams=True).teams
    assert not Config.make("all-fives", 2, rules={"side_arm_gate": False}).side_arm_gate
