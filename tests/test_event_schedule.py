"""The site's scheduled arenas (issue 30, ``fives serve --events FILE``): the file's arenas read,
every fault named with what it quotes, and each arena's next start computed in its own time
zone, strictly after the time asked about, the same id in every process."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest

from fives.contests.schedule import ScheduleError, next_start, occurrence_id, parse_schedule

HOURLY = {"key": "hourly", "title": "Hourly", "game": "all-fives", "players": 2,
          "minutes": 30, "every": "hour", "at": ":00"}


def _file(*arenas: dict[str, Any]) -> str:
    return json.dumps({"arenas": list(arenas)})


def _utc(text: str) -> float:
    return dt.datetime.fromisoformat(text).replace(tzinfo=dt.UTC).timestamp()


def test_a_schedule_is_read_with_each_games_own_target_when_none_is_named() -> None:
    [hourly, evening] = parse_schedule(_file(HOURLY, {
        "key": "evening", "game": "block", "players": 4, "teams": True, "target": 100,
        "minutes": 60, "every": "day", "at": "18:30", "tz": "Asia/Kolkata"}))
    assert (hourly.game, hourly.target, hourly.rated, hourly.tz) == ("all-fives", 250, False, "UTC")
    assert (evening.players, evening.teams, evening.target) == (4, True, 100)
    assert evening.meta()["schedule"] == "evening" and evening.meta()["minutes"] == 60


@pytest.mark.parametrize(("text", "key", "quoted"), [
    ("{not json", "json", ""),
    ('{"arenas": {}}', "shape", ""),
    (_file({**HOURLY, "every": "fortnight"}), "field", '"fortnight"'),
    (_file({**HOURLY, "at": "9:00"}), "field", '"9:00"'),
    (_file({**HOURLY, "every": "day", "at": "24:00"}), "field", '"24:00"'),
    (_file({**HOURLY, "every": "week", "at": "Funday 10:00"}), "field", '"Funday 10:00"'),
    (_file({**HOURLY, "minutes": 5}), "field", "5"),
    (_file({**HOURLY, "players": 5}), "field", "5"),
    (_file({**HOURLY, "game": "chess"}), "field", '"chess"'),
    (_file({**HOURLY, "target": 30, "rated": True}), "field", "true"),
    (_file({**HOURLY, "tz": "Mars/Olympus"}), "field", '"Mars/Olympus"'),
    (_file({**HOURLY, "key": "Not A Slug"}), "field", '"Not A Slug"'),
    (_file({k: v for k, v in HOURLY.items() if k != "at"}), "missing", "at"),
    (_file(HOURLY, HOURLY), "twice", "hourly"),
])
def test_every_fault_of_a_schedule_is_named_and_quoted(text: str, key: str, quoted: str) -> None:
    with pytest.raises(ScheduleError) as caught:
        parse_schedule(text)
    assert caught.value.key == key
    assert quoted in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize(("spec", "now", "expected"), [
    ({"every": "hour", "at": ":00"}, "2026-12-06 14:00:00", "2026-12-06 15:00:00"),  # strictly after
    ({"every": "hour", "at": ":15"}, "2026-12-06 14:20:00", "2026-12-06 15:15:00"),
    ({"every": "hour", "at": ":15"}, "2026-12-06 14:10:00", "2026-12-06 14:15:00"),
    ({"every": "day", "at": "18:30", "tz": "Asia/Kolkata"}, "2026-12-06 12:00:00",
     "2026-12-06 13:00:00"),
    ({"every": "day", "at": "18:30", "tz": "Asia/Kolkata"}, "2026-12-06 13:00:00",
     "2026-12-07 13:00:00"),
    ({"every": "week", "at": "Mon 10:00"}, "2026-12-06 12:00:00", "2026-12-07 10:00:00"),  # a Sunday
    ({"every": "week", "at": "sun 10:00"}, "2026-12-06 12:00:00", "2026-12-13 10:00:00"),
    # a summer-time change: 10:00 in London stays 10:00 on the clock
    ({"every": "day", "at": "10:00", "tz": "Europe/London"}, "2026-03-28 12:00:00",
     "2026-03-29 09:00:00"),
])
def test_the_next_start_is_the_first_after_now_on_the_arenas_own_clock(
        spec: dict[str, str], now: str, expected: str) -> None:
    [r] = parse_schedule(_file({**HOURLY, **spec}))
    assert next_start(r, _utc(now)) == _utc(expected)


def test_an_occurrence_has_one_id_whoever_computes_it() -> None:
    [r] = parse_schedule(_file(HOURLY))
    start = next_start(r, _utc("2026-12-06 14:20:00"))
    assert occurrence_id(r, start) == "s-hourly-202612061500"
    assert occurrence_id(r, next_start(r, _utc("2026-12-06 14:59:59"))) == occurrence_id(r, start)


def test_the_example_schedule_the_repository_ships_is_read() -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "deploy" / "events.example.json").read_text(
        encoding="utf-8")
    assert [r.key for r in parse_schedule(text)] == [
        "hourly-all-fives", "evening-block", "sunday-rated"]
