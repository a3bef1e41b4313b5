"""Bots by name: one parser for our levels and outside programs (``cmd:COMMAND LINE``)."""

from __future__ import annotations

import sys

import pytest

from fives.bots import BOT_NAMES, BotError, BotName, make_bot
from fives.bots.protocol import DEFAULT_MOVE_TIME, ProcessBot


def test_our_levels_parse_and_make_their_bots() -> None:
    assert BOT_NAMES == ["random", "easy", "medium", "hard", "expert"]
    for name in [*BOT_NAMES, "cheat"]:
        parsed = BotName.parse(f"  {name} ")
        assert (str(parsed), parsed.outside, parsed.short()) == (name, False, name)
        assert make_bot(name).name == name


def test_an_outside_program_is_parsed_once_with_its_command_line() -> None:
    bot = BotName.parse("cmd:  /usr/local/bin/fives bot 'easy level'")
    assert bot.outside and bot.argv == ("/usr/local/bin/fives", "bot", "easy level")
    assert bot.command == "/usr/local/bin/fives bot 'easy level'"
    assert bot.short() == "fives bot easy level"
    assert isinstance(bot.make(), ProcessBot)


@pytest.mark.parametrize(
    ("text", "key"),
    [("cmd:", "bot_cmd_empty"), ("cmd:   ", "bot_cmd_empty"), ("cmd:prog 'open", "bot_cmd_unreadable"),
     ("grandmaster", "bot_unknown"), ("", "bot_unknown")],
)
def test_a_name_that_names_no_bot_is_refused_with_a_key_and_its_words(text: str, key: str) -> None:
    with pytest.raises(BotError) as info:
        BotName.parse(text)
    assert info.value.key == key
    if key == "bot_unknown":
        assert repr(text) in str(info.value)


def test_whether_an_outside_program_can_be_found() -> None:
    assert BotName.parse(f"cmd:{sys.executable} -c pass").program_found()
    assert BotName.parse("cmd:python3").program_found()
    assert not BotName.parse("cmd:/nonexistent/bot").program_found()
    assert not BotName.parse("cmd:no-such-program-anywhere").program_found()
    assert BotName.parse("hard").program_found()


def test_the_plain_pimc_baseline_is_for_measurement_only() -> None:
    # 200 worlds with the sampler's voids, one greedy playout of every action in each, the
    # best mean point margin: the outside baseline, kept so every change is measured
    from fives.bots.ladder import HalvingBot

    bot = BotName.parse("pimc").make()
    assert isinstance(bot, HalvingBot)
    assert (bot.worlds, bot.eps, bot.look, bot.halving, bot.match_weight, bot.prior) == (
        200, 0.0, 0.0, False, 0.0, 0.0
    )
    assert "pimc" not in BOT_NAMES


def test_a_move_time_caps_the_budget_of_a_time_budget_level() -> None:
    tree = BotName.parse("expert-tree").make()
    own = tree.move_time  # type: ignore[attr-defined]
    assert own > 0
    assert BotName.parse("expert-tree").make(move_time=own / 2).move_time == own / 2  # type: ignore[attr-defined]
    assert BotName.parse("expert-tree").make(move_time=own * 10).move_time == own  # type: ignore[attr-defined]
    # a level with a count of worlds and a time cap: the cap comes down to a smaller move
    # time, never up, and 0 plays it by counts alone (as analyses and self-play do)
    for level in ("hard", "expert"):
        cap = BotName.parse(level).make().max_time  # type: ignore[attr-defined]
        assert 0 < cap <= 1.0
        small = BotName.parse(level).make(move_time=cap / 2)
        assert small.max_time == cap / 2 and small.move_time == 0.0  # type: ignore[attr-defined]
        assert BotName.parse(level).make(move_time=cap * 10).max_time == cap  # type: ignore[attr-defined]
        assert BotName.parse(level).make(move_time=0.0).max_time == 0.0  # type: ignore[attr-defined]
        assert BotName.parse(level).make_by_counts().max_time == 0.0  # type: ignore[attr-defined]
    # an outside program keeps the time it is given to answer
    outside = BotName.parse("cmd:./mybot").make_by_counts()
    assert outside.move_time == DEFAULT_MOVE_TIME  # type: ignore[attr-defined]


def test_the_servers_bots_think_within_their_deadline() -> None:
    from fives.server.bots import move_time_for
    from fives.server.settings import Settings

    deadline = Settings().bot_deadline
    assert 0 < move_time_for(deadline) < deadline
    expert = BotName.parse("expert").make(move_time=move_time_for(deadline))
    assert expert.move_time <= move_time_for(deadline)  # type: ignore[attr-defined]
    assert 0 < expert.max_time <= move_time_for(deadline)  # type: ignore[attr-defined]
