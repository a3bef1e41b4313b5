"""One reader of a configuration's header (RECORD.md's game, players, teams, target, rules):
Config.from_header, the inverse of Config.header, used by records, bots' views, the bridges'
pickles and the server's tables."""

from __future__ import annotations

import re
from typing import Any

import pytest

from fives.core.games import GAMES, Config, RulesError


def every_config() -> list[Config]:
    out = []
    for name, game in GAMES.items():
        for players in (2, 3, 4):
            out.append(Config.make(name, players))
            if players == 4 and game.teams_allowed:
                out.append(Config.make(name, 4, teams=not game.teams_for_four))
        out.append(Config.make(name, 2, target=7, rules={"hand_size": 5}))
        out.append(Config.make(name, 3, rules={"side_arm_gate": False}))
    return out


@pytest.mark.parametrize("config", every_config(), ids=str)
def test_a_header_reads_back_as_its_configuration(config: Config) -> None:
    assert Config.from_header(config.header()) == config
    # other keys of a record, a view or a table are the caller's
    assert Config.from_header({**config.header(), "rounds": [], "seat": 0}) == config


@pytest.mark.parametrize(
    ("header", "quoted"),
    [
        ({"players": 2}, "'game'"),
        ({"game": "all-fives"}, "'players'"),
        ({"game": "chess", "players": 2}, "chess"),
        ({"game": "block", "players": 2.0}, "2.0"),
        ({"game": "block", "players": 2, "rules": [1]}, "[1]"),
        ({"game": "block", "players": 2, "rules": {"speed": 1}}, "speed"),
        ({"game": "block", "players": 2, "target": 0}, "0"),
        ({"game": "block", "players": 3, "teams": True}, "3"),
        ([], "list"),
    ],
)
def test_a_bad_header_is_refused_quoting_what_is_wrong(header: Any, quoted: str) -> None:
    with pytest.raises(RulesError, match=re.escape(quoted)):
        Config.from_header(header)
