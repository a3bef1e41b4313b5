"""The events' HTTP API (issue 30): the list the home page and lobby show, an arena created by
a person, its page's data (standings, matches in play, the asker's own part: their table and
seat token while they play), and joining, pausing and coming back.

Any process answers from the store (pairing happens in whichever process holds the event's
lease: :mod:`fives.server.contests`); refusals are one translated line."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from fives.core.games import Config, RulesError
from fives.server.bots import bot_levels
from fives.server.contests import Arena, Contests, Swiss, arena_of, swiss_of
from fives.server.identity import Identities, browser_of
from fives.server.manager import game_and_players
from fives.server.messages import ClientError
from fives.server.rated import check_rated_spec
from fives.server.ratelimit import AddressLimit
from fives.server.ratings import bot_player
from fives.server.webio import addr_of, json_body, refusing
from fives.store.base import Store
from fives.store.events import EVENT_KINDS, StoredEntrant, StoredEvent, StoredEventGame
from fives.store.players import StoredPlayer

__all__ = ["ARENA_MINUTES", "EVENTS_PER_DAY", "contest_routes", "event_summary"]

#: an arena's length, in minutes: the shortest and the longest
ARENA_MINUTES = (10, 180)
#: how far ahead an arena may be set to start (minutes)
MAX_LEAD = 7 * 24 * 60
#: a duplicate Swiss's rounds: the fewest and the most
SWISS_ROUNDS = (1, 9)
#: an event's title, in characters at most (longer ones are cut)
TITLE_LENGTH = 60
#: events one identity may create in a day
EVENTS_PER_DAY = 5
DAY = 86400.0


def _int(value: Any, low: int, high: int, code: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ClientError(code, {"low": low, "high": high})
    return value


def event_summary(event: StoredEvent, entrants: int | None = None) -> dict[str, Any]:
    """What a list of events shows of one (never its creator's address or invite)."""
    info = event.meta
    out = {"id": event.id, "kind": event.kind, "title": info.get("title", ""),
           "game": info["game"], "players": info["players"], "teams": bool(info.get("teams")),
           "target": info.get("target"), "rated": bool(info.get("rated")),
           "minutes": info.get("minutes"), "starts": event.starts,
           "ends": event.starts + 60.0 * float(info.get("minutes") or 0),
           "status": event.status, "listed": event.listed, "winners": [],
           "rounds": info.get("rounds")}
    if entrants is not None:
        out["entrants"] = entrants
    return out


def _who(player: str, names: dict[str, str], bots: set[str]) -> dict[str, Any]:
    """An entrant as a list of tables shows them (a bot's name is its level: the page says
    it in its language)."""
    return {"player": player, "name": names.get(player, "?"), "bot": player in bots}


def arena_page(arena: Arena, me: StoredPlayer | None, now: float) -> dict[str, Any]:
    """An arena's page: the standings (each line with its games' points, streak and the
    table it is playing at), the matches in play for watchers, and the asker's own part."""
    names = {e.player: e.name for e in arena.entrants}
    paused = {e.player: e.paused for e in arena.entrants}
    playing = arena.playing()
    bots = {e.player for e in arena.entrants if e.bot}
    lines = [{"rank": s.rank, "player": s.player, "name": names.get(s.player, "?"),
              "bot": s.player in bots,
              "points": s.points, "games": s.games, "wins": s.wins, "streak": s.on_streak,
              "paused": paused.get(s.player, False),
              "table": playing[s.player].table_id if s.player in playing else None}
             for s in arena.standings]
    live = [{"table": g.table_id, "players": [_who(p, names, bots) for p in g.players]}
            for g in arena.games if g.playing]
    out: dict[str, Any] = {**event_summary(arena.event, len(arena.entrants)),
                           "now": now, "standings": lines, "live": live,
                           "played": sum(not g.playing for g in arena.games)}
    if me is not None:
        out["me"] = _my_part(arena.event, arena.entrants, playing, me)
    return out


def _score(points: Fraction) -> str:
    """Match points as people write them: 2½, ½, 3."""
    whole, half = divmod(points * 2, 2)
    return (str(int(whole)) if whole or not half else "") + ("½" if half else "")


def swiss_page(swiss: Swiss, me: StoredPlayer | None, now: float) -> dict[str, Any]:
    """A duplicate Swiss's page: the round, the standings with their tie-breaks, each round's
    tables (who met whom, the result) and byes, and the asker's own part."""
    names = {e.player: e.name for e in swiss.entrants}
    bots = {e.player for e in swiss.entrants if e.bot}
    playing = swiss.playing()
    lines = [{"rank": s.rank, "player": s.entrant,
              "name": names.get(s.entrant, "?"), "bot": s.entrant in bots,
              "points": float(s.points), "score": _score(s.points),
              "buchholz": _score(s.buchholz), "margin": round(float(s.margin), 1),
              "byes": s.byes,
              "table": playing[s.entrant].table_id if s.entrant in playing else None}
             for s in swiss.standings]
    rounds: list[dict[str, Any]] = []
    live: list[dict[str, Any]] = []
    for number in range(1, swiss.round + 1):
        tables: list[dict[str, Any]] = []
        bye = None
        for game in (g for g in swiss.games if g.round == number):
            if len(game.players) == 1:
                bye = _who(game.players[0], names, bots)
                continue
            result = None
            if game.result is not None:
                first, second = game.result["places"][:2]
                result = "1–0" if first < second else "½–½" if first == second else "0–1"
            players = [_who(p, names, bots) for p in game.players]
            tables.append({"table": game.table_id, "result": result, "players": players})
            if result is None:
                live.append({"table": game.table_id, "players": players})
        rounds.append({"round": number, "tables": tables, "bye": bye})
    out: dict[str, Any] = {**event_summary(swiss.event, len(swiss.entrants)),
                           "now": now, "standings": lines, "rounds_played": rounds,
                           "live": live,
                           "round": swiss.round, "played": sum(
                               not g.playing for g in swiss.games if len(g.players) == 2)}
    if me is not None:
        out["me"] = _my_part(swiss.event, swiss.entrants, playing, me)
    return out


def _my_part(event: StoredEvent, entrants: list[StoredEntrant],
             playing: dict[str, StoredEventGame], me: StoredPlayer) -> dict[str, Any]:
    """The asker's part in an event: entered or not, paused, their table and seat token
    while they play; the organiser's bots to add."""
    mine = next((e for e in entrants if e.player == me.id), None)
    part: dict[str, Any] = {"player": me.id, "joined": mine is not None,
                            "paused": bool(mine and mine.paused)}
    if me.id == event.creator:
        # the organiser may add bots (one of each level) while the event is open to them
        entered = {e.player for e in entrants}
        part["organiser"] = True
        part["bots"] = [level for level in bot_levels() if bot_player(level) not in entered]
    game = playing.get(me.id)
    if game is not None:
        part.update(table=game.table_id, seat=game.players.index(me.id),
                    token=game.tokens.get(me.id))
    return part


async def page_of(store: Store, event: StoredEvent, me: StoredPlayer | None) -> dict[str, Any]:
    if event.kind == "swiss":
        return swiss_page(await swiss_of(store, event), me, time.time())
    return arena_page(await arena_of(store, event), me, time.time())


def contest_routes(store: Callable[[], Store], contests: Callable[[], Contests],
                   creations: AddressLimit) -> list[Route]:
    """``creations``: the address limit on making tables, which bounds making events too."""

    def who() -> Identities:
        return Identities(store())

    async def event_of(request: Request) -> StoredEvent:
        event = await store().event(request.path_params["event_id"][:40])
        if event is None:
            raise ClientError("not_found")
        return event

    @refusing
    async def api_events(request: Request) -> Response:
        if request.method == "POST":
            return await create(request)
        db = store()
        out: dict[str, list[dict[str, Any]]] = {}
        for key, statuses, limit in (("running", ["running"], 20),
                                     ("coming", ["scheduled"], 20),
                                     ("finished", ["finished"], 10)):
            out[key] = []
            for event in await db.events(statuses, limit):
                arena = await arena_of(db, event)
                line = event_summary(event, len(arena.entrants))
                if key == "finished":
                    names = {e.player: e.name for e in arena.entrants}
                    line["winners"] = [names[s.player] for s in arena.standings
                                       if s.rank == 1 and s.games]
                out[key].append(line)
        return JSONResponse({**out, "now": time.time()})

    async def create(request: Request) -> Response:
        player = await who().required(request)
        if not await creations.take(addr_of(request)):
            raise ClientError("rate_limited")
        body = await json_body(request)
        if not isinstance(body, dict):
            raise ClientError("bad_request")
        kind = body.get("kind", "arena")
        if kind not in EVENT_KINDS:
            raise ClientError("bad_request")
        game, players = game_and_players(body)
        if kind == "swiss" and players != 2:
            raise ClientError("swiss_two")  # a Swiss pairs entrants two by two
        teams = body.get("teams", False)
        if not isinstance(teams, bool):
            raise ClientError("bad_teams")
        target = body.get("target")
        if target is not None and (isinstance(target, bool) or not isinstance(target, int)):
            raise ClientError("bad_target")
        try:
            cfg = Config.make(game, players, teams=teams, target=target)
        except RulesError:
            raise ClientError("bad_teams" if teams else "bad_target") from None
        if kind == "arena":
            minutes = _int(body.get("minutes", 30), *ARENA_MINUTES, "bad_minutes")
            lead = _int(body.get("starts_in", 0), 0, MAX_LEAD, "bad_start")
        else:  # started by its organiser once its entrants are in (at the latest in a week)
            rounds = _int(body.get("rounds", 3), *SWISS_ROUNDS, "bad_rounds")
            lead = MAX_LEAD
        rated = body.get("rated", False)
        private = body.get("private", False)
        if not isinstance(rated, bool) or not isinstance(private, bool):
            raise ClientError("bad_request")
        if rated:
            check_rated_spec(cfg, 15.0)
        title = body.get("title") or ""
        if not isinstance(title, str):
            raise ClientError("bad_title")
        # printable, spaces folded, cut to its length; none: the page says "Arena" in its language
        title = " ".join("".join(ch for ch in title if ch.isprintable()).split())[:TITLE_LENGTH]
        now = time.time()
        if await store().events_created(player.id, now - DAY) >= EVENTS_PER_DAY:
            raise ClientError("too_many_events", {"n": EVENTS_PER_DAY})
        meta: dict[str, Any] = {"title": title, "game": game, "players": players,
                                "teams": teams, "target": cfg.target, "rated": rated}
        if kind == "arena":
            meta["minutes"] = minutes
        else:  # a club's: reached by its link; every table of a round dealt from one seed
            meta.update(rounds=rounds, seed=secrets.randbits(63))
            private = True
        event = StoredEvent(
            id="e" + secrets.token_urlsafe(7).replace("-", "x").replace("_", "y"),
            kind=kind, meta=meta, creator=player.id, created=now, starts=now + 60.0 * lead,
            listed=not private)
        await store().create_event(event)
        contests().wake()
        return JSONResponse(event_summary(event, 0), status_code=201)

    @refusing
    async def api_event(request: Request) -> Response:
        event = await event_of(request)
        me = await who().current(request)
        return JSONResponse(await page_of(store(), event, me))

    @refusing
    async def api_join(request: Request) -> Response:
        event = await event_of(request)
        player = await who().required(request)
        if event.status not in ("scheduled", "running"):
            raise ClientError("event_over")
        if event.kind == "swiss" and event.status != "scheduled":
            raise ClientError("event_started")  # its pairings count every entrant from round 1
        body = await json_body(request)
        agree = body.get("agree") if isinstance(body, dict) else None
        if event.meta.get("rated") and agree is not True:
            raise ClientError("rated_consent")
        browser = browser_of(request) or ""
        entrants = await store().entrants(event.id)
        if browser and any(e.browser == browser and e.player != player.id for e in entrants):
            raise ClientError("event_same_browser")
        entrant = await store().join_event(
            StoredEntrant(event.id, player.id, player.label, time.time(), browser=browser))
        if entrant.paused:
            await store().set_paused(event.id, player.id, False)
        contests().wake()
        return JSONResponse(await page_of(store(), event, player))

    @refusing
    async def api_pause(request: Request) -> Response:
        event = await event_of(request)
        player = await who().required(request)
        body = await json_body(request)
        paused = body.get("paused") if isinstance(body, dict) else None
        if not isinstance(paused, bool):
            raise ClientError("bad_request")
        if not await store().set_paused(event.id, player.id, paused):
            raise ClientError("not_entered")
        contests().wake()
        return JSONResponse(await page_of(store(), event, player))

    @refusing
    async def api_bots(request: Request) -> Response:
        """The organiser adds a bot level as an entrant (paired with people only)."""
        event = await event_of(request)
        player = await who().required(request)
        if player.id != event.creator:
            raise ClientError("not_organiser")
        if event.status not in ("scheduled", "running"):
            raise ClientError("event_over")
        if event.kind == "swiss" and event.status != "scheduled":
            raise ClientError("event_started")
        body = await json_body(request)
        level = body.get("level") if isinstance(body, dict) else None
        if not isinstance(level, str) or level not in bot_levels():
            raise ClientError("bad_level")
        await store().join_event(StoredEntrant(event.id, bot_player(level), level, time.time(),
                                               bot=True))
        contests().wake()
        return JSONResponse(await page_of(store(), event, player))

    @refusing
    async def api_start(request: Request) -> Response:
        """The organiser starts a Swiss once its entrants are in: round 1 is paired at once."""
        event = await event_of(request)
        player = await who().required(request)
        if player.id != event.creator:
            raise ClientError("not_organiser")
        if event.kind != "swiss" or event.status != "scheduled":
            raise ClientError("event_started")
        if len(await store().entrants(event.id)) < 2:
            raise ClientError("too_few_entrants")
        await store().advance_event(event.id, "scheduled", "running", time.time())
        contests().wake()
        started = await store().event(event.id)
        assert started is not None
        return JSONResponse(await page_of(store(), started, player))

    return [
        Route("/api/events", api_events, methods=["GET", "POST"]),
        Route("/api/events/{event_id}/start", api_start, methods=["POST"]),
        Route("/api/events/{event_id}/bots", api_bots, methods=["POST"]),
        Route("/api/events/{event_id}", api_event),
        Route("/api/events/{event_id}/join", api_join, methods=["POST"]),
        Route("/api/events/{event_id}/pause", api_pause, methods=["POST"]),
    ]
