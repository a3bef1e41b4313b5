"""The site's own arenas on a schedule (issue 30: ``fives serve --events FILE``). Pure: the file's
text is read here into recurring arenas, and each one's next start is computed from a time.

The file is JSON::

    {"arenas": [
      {"key": "hourly-all-fives", "title": "Hourly All Fives", "game": "all-fives",
       "players": 2, "minutes": 30, "every": "hour", "at": ":00"},
      {"key": "evening-block", "title": "Evening Block", "game": "block", "players": 4,
       "teams": true, "target": 100, "minutes": 60, "every": "day", "at": "18:30",
       "tz": "Asia/Kolkata", "rated": false}
    ]}

``every`` is ``hour`` (``at`` the minute, ``":MM"``), ``day`` (``"HH:MM"``) or ``week``
(``"Mon HH:MM"``), in the time zone ``tz`` (an IANA name; UTC when absent). ``key`` names the
arena for good: each occurrence's id is made from it and its start, so that every process of
a cluster creating the next one creates the same one, once.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from fives.core.games import GAMES, Config, RulesError

__all__ = ["EVERY", "SCHEDULE_ERROR_TEXT", "Recurring", "ScheduleError", "next_start",
           "occurrence_id", "parse_schedule"]

EVERY = ("hour", "day", "week")
DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
MINUTES = (10, 180)

#: English wording of the file's errors; interfaces translate by key (``cli.events.<key>``)
SCHEDULE_ERROR_TEXT: dict[str, str] = {
    "json": "the events file is not JSON: {why}",
    "shape": 'the events file holds {{"arenas": [...]}}, a list of arenas',
    "field": "arena {n} ({name}): {field} cannot be {value}",
    "missing": "arena {n}: it needs {field}",
    "twice": "arena {n}: the key {name} is used twice",
}

_KEY = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
_AT = {"hour": re.compile(r"^:([0-5]\d)$"), "day": re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$"),
       "week": re.compile(r"^(mon|tue|wed|thu|fri|sat|sun) ([01]\d|2[0-3]):([0-5]\d)$",
                          re.IGNORECASE)}


class ScheduleError(ValueError):
    """A file that cannot be a schedule; ``key`` and ``params`` name the fault."""

    def __init__(self, key: str, /, **params: object) -> None:
        super().__init__(SCHEDULE_ERROR_TEXT[key].format(**params))
        self.key = key
        self.params = params


@dataclass(frozen=True)
class Recurring:
    key: str
    title: str
    game: str
    players: int
    teams: bool
    target: int  # the game's own when the file names none
    minutes: int
    rated: bool
    every: str  # one of EVERY
    at: str
    tz: str = "UTC"

    def meta(self) -> dict[str, Any]:
        """The event's meta, as an arena made on the site has it."""
        return {"title": self.title, "game": self.game, "players": self.players,
                "teams": self.teams, "target": self.target, "minutes": self.minutes,
                "rated": self.rated, "schedule": self.key}


def parse_schedule(text: str) -> list[Recurring]:
    """The recurring arenas of a file's text; :class:`ScheduleError` at the first fault,
    quoting it.

    >>> [r.key for r in parse_schedule('{"arenas": [{"key": "h", "game": "block", '
    ...                                '"players": 2, "minutes": 30, "every": "hour", "at": ":05"}]}')]
    ['h']
    """
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ScheduleError("json", why=exc) from None
    arenas = data.get("arenas") if isinstance(data, dict) else None
    if not isinstance(arenas, list):
        raise ScheduleError("shape")
    out: list[Recurring] = []
    for n, raw in enumerate(arenas, 1):
        if not isinstance(raw, dict):
            raise ScheduleError("shape")
        out.append(_recurring(n, raw))
        if [r.key for r in out].count(out[-1].key) > 1:
            raise ScheduleError("twice", n=n, name=out[-1].key)
    return out


def _recurring(n: int, raw: dict[str, Any]) -> Recurring:
    for field in ("key", "game", "players", "minutes", "every", "at"):
        if field not in raw:
            raise ScheduleError("missing", n=n, field=field)
    key = raw["key"]

    def bad(field: str) -> ScheduleError:
        return ScheduleError("field", n=n, name=key, field=field,
                             value=json.dumps(raw.get(field), ensure_ascii=False))

    if not isinstance(key, str) or not _KEY.match(key):
        raise bad("key")
    title = raw.get("title", "")
    if not isinstance(title, str) or len(title) > 60:
        raise bad("title")
    players, minutes = raw["players"], raw["minutes"]
    if isinstance(players, bool) or not isinstance(players, int):
        raise bad("players")
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not (
            MINUTES[0] <= minutes <= MINUTES[1]):
        raise bad("minutes")
    teams, rated = raw.get("teams", False), raw.get("rated", False)
    if not isinstance(teams, bool):
        raise bad("teams")
    if not isinstance(rated, bool):
        raise bad("rated")
    target = raw.get("target")
    if target is not None and (isinstance(target, bool) or not isinstance(target, int)):
        raise bad("target")
    if not isinstance(raw["game"], str) or raw["game"] not in GAMES:
        raise bad("game")
    try:
        cfg = Config.make(raw["game"], players, teams=teams or None, target=target)
    except RulesError:
        raise bad("target" if target is not None else "teams" if teams else "players") from None
    if rated and cfg.target < cfg.game.targets[players]:
        raise bad("rated")
    every, at = raw["every"], raw["at"]
    if every not in EVERY:
        raise bad("every")
    if not isinstance(at, str) or not _AT[every].match(at):
        raise bad("at")
    tz = raw.get("tz", "UTC")
    try:
        if not isinstance(tz, str):
            raise ValueError(tz)
        ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError):
        raise bad("tz") from None
    return Recurring(key, title, cfg.game.name, players, teams, cfg.target, minutes, rated,
                     every, at.lower(), tz)


def next_start(r: Recurring, now: float) -> float:
    """The first start of ``r`` strictly after ``now`` (a POSIX time).

    >>> r = parse_schedule('{"arenas": [{"key": "d", "game": "block", "players": 2, '
    ...                    '"minutes": 30, "every": "day", "at": "18:30", "tz": "Asia/Kolkata"}]}')[0]
    >>> dt.datetime.fromtimestamp(next_start(r, 0.0), dt.timezone.utc).isoformat()
    '1970-01-01T13:00:00+00:00'
    """
    zone = ZoneInfo(r.tz)
    local = dt.datetime.fromtimestamp(now, zone)
    if r.every == "hour":
        minute = int(r.at[1:])
        start = local.replace(minute=minute, second=0, microsecond=0)
        step = dt.timedelta(hours=1)
    else:
        day, _, clock = r.at.rpartition(" ")
        hour, minute = (int(x) for x in clock.split(":"))
        start = local.replace(hour=hour, minute=minute, second=0, microsecond=0)
        step = dt.timedelta(days=1 if r.every == "day" else 7)
        if day:
            start += dt.timedelta(days=(DAYS.index(day) - start.weekday()) % 7)
    while start.timestamp() <= now:
        start = (start.replace(tzinfo=None) + step).replace(tzinfo=zone)  # wall clock steps
    return start.timestamp()


def occurrence_id(r: Recurring, start: float) -> str:
    """The id of the occurrence of ``r`` starting at ``start``: the same in every process."""
    return f"s-{r.key}-{dt.datetime.fromtimestamp(start, dt.UTC):%Y%m%d%H%M}"
