"""The Starlette app: pages, the JSON API, the catalogue and the table WebSocket."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from fives.contests.schedule import parse_schedule
from fives.core.games import GAMES
from fives.core.record import Record, RecordError
from fives.i18n import LANGUAGES
from fives.rulespages import worked_example
from fives.server.analyses import Busy, Full
from fives.server.assets import Assets, PlainStatic, VersionedStatic
from fives.server.bot_api import bot_routes
from fives.server.bots import bot_levels
from fives.server.cluster.remote import ClusterDown, RemoteTable
from fives.server.conn import Conn
from fives.server.contest_api import contest_routes
from fives.server.contests import Contests
from fives.server.guard import PEER, ConnectionGuard, RequestGuard
from fives.server.identity import Identities, first_visit
from fives.server.installable import OFFLINE, manifest_response, worker_response
from fives.server.manager import TableManager, player_count
from fives.server.messages import REFUSALS, ClientError, error_message, parse_message
from fives.server.metrics import CONNECTIONS, CONTENT_TYPE, TABLES, exposition
from fives.server.pairing import PairingQueue
from fives.server.pairing_api import bot_mus, pairing_routes
from fives.server.player_api import browser_of, player_routes
from fives.server.puzzle_api import puzzle_routes
from fives.server.ratelimit import AddressBuckets, SiteLimits
from fives.server.replay import replay_frames
from fives.server.serving import parser_name, running_loop_name
from fives.server.settings import Settings
from fives.server.table import Table
from fives.server.tickets import Book, MemoryBook
from fives.server.webio import addr_of as _addr
from fives.server.webio import json_body as _json_body
from fives.server.webio import lang_of as _lang
from fives.store.base import DamagedRow, Store, StoredTable, StoreError
from fives.store.open import open_store
from fives.store.players import StoredPlayer

__all__ = ["create_app"]

log = logging.getLogger("fives.server")

WEB = Path(str(resources.files("fives") / "web"))


#: the HTTP status of a refused creation, by the reason's code (else 400)
_STATUS = {"rate_limited": 429, "too_many_tables": 429, "too_many_bot_tables": 429,
           "too_many_seats": 429, "server_full": 503}


#: tables one "my tables" question may name (a browser keeps the tokens of its recent ones)
MAX_CLAIMS = 40


def _error(request: Request, err: ClientError, status: int = 400) -> JSONResponse:
    return JSONResponse(
        {"error": err.code, "message": err.text(_lang(request))}, status_code=status
    )


async def _gauges(manager: TableManager) -> None:
    """Tables and connections held, for /metrics, every second."""
    while True:
        by_status = Counter(t.status for t in manager.tables.values())
        for status in ("waiting", "playing", "over"):
            TABLES.labels(status).set(by_status[status])
        CONNECTIONS.set(sum(t.connected for t in manager.tables.values()))
        await asyncio.sleep(1.0)


def create_app(settings: Settings | None = None, store: Store | None = None) -> Starlette:
    """The app; ``store`` replaces the SQLite file of ``settings.db`` (another database)."""
    settings = settings or Settings()
    state: dict[str, Any] = {}
    given_store = store
    guard = ConnectionGuard(settings)
    limits = SiteLimits()
    # the schedule is read before anything starts: a bad file stops the server at once
    # (fives serve checks it first, to say why in one line)
    schedule = (parse_schedule(Path(settings.events_file).read_text(encoding="utf-8"))
                if settings.events_file else [])

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store: Store = given_store if given_store is not None else open_store(settings.db)
        cluster = None
        if settings.redis:
            from fives.server.cluster.node import Cluster  # needs the cluster extras

            cluster = Cluster(settings.redis, settings.lease, settings.bot_move_time)
            store = cluster.fenced(store)
        await store.start()
        manager = TableManager(store, settings, owners=cluster,
                               outside=cluster.outside if cluster is not None else None)
        state["manager"] = manager
        state["cluster"] = cluster
        app.state.manager = manager
        if cluster is not None:
            await cluster.start(manager)
            limits.site = cluster.take_token
        await manager.startup()
        book: Book = MemoryBook()
        if cluster is not None:  # one queue for every process
            from fives.server.cluster.queue import RedisBook

            book = RedisBook(cluster.redis, cluster.id, settings.lease)
        queue = PairingQueue(manager.create_paired, lambda game: bot_mus(store, game),
                             settings.bot_offer, book, manager.withdraw)
        state["queue"] = queue
        queue.start()
        contests = Contests(store, manager.create_event_table, manager.withdraw,
                            owner=cluster.id if cluster is not None else "",
                            every=settings.event_every, lease=settings.event_lease,
                            scheduled=schedule)
        manager.contests = state["contests"] = contests
        contests.start()
        gauges = asyncio.get_running_loop().create_task(_gauges(manager))
        log.info("event loop %s, HTTP parser %s", running_loop_name(), parser_name())
        try:
            yield
        finally:
            gauges.cancel()
            await contests.close()
            await queue.stop()
            await manager.shutdown()
            if cluster is not None:
                await cluster.stop()
            await store.close()

    assets = Assets.load(WEB)

    def _page(name: str) -> Any:
        async def endpoint(request: Request) -> Response:
            return first_visit(request, assets.page(request, name),
                               request.url.scheme == "https")

        return endpoint

    creations = limits.limit("tables", settings.create_rate, settings.create_burst)
    identities = limits.limit("identities", settings.identity_rate, settings.identity_burst)

    async def check_create_rate(request: Request) -> None:
        """Each address may create only so many tables a minute (HTTP has no connection to
        hold a limit, so it is kept per address, for the whole site)."""
        if not await creations.take(_addr(request)):
            raise ClientError("rate_limited")

    def manager() -> TableManager:
        current: TableManager = state["manager"]
        return current

    async def who(conn: Request | WebSocket) -> tuple[StoredPlayer | None, str | None]:
        """The identity whose cookie came with a request, and the browser's own id."""
        try:
            player = await Identities(manager().store).current(conn)
        except StoreError:
            player = None
        return player, browser_of(conn)

    # -- API ---------------------------------------------------------------------------------

    async def api_i18n(request: Request) -> Response:
        lang = request.path_params["lang"]
        if lang not in LANGUAGES:
            return _error(request, ClientError("bad_lang"), 404)
        return assets.catalogue(request, lang, rules=request.url.path.endswith("/rules"))

    # installed on the home screen (fives.server.installable)
    async def web_manifest(request: Request) -> Response:
        return manifest_response(request, assets)

    async def worker(request: Request) -> Response:
        return worker_response(request, assets)

    async def offline(request: Request) -> Response:
        return assets.page(request, "offline.html")

    async def api_meta(request: Request) -> Response:
        games = {
            name: {
                **g.properties(),
                "players": [2, 3, 4],
                "targets": {str(k): v for k, v in g.targets.items()},
                "teams_for_four": g.teams_for_four,
                "teams_allowed": g.teams_allowed,
            }
            for name, g in GAMES.items()
        }
        return JSONResponse(
            {
                "games": games,
                "bots": bot_levels(),
                "turn_time": settings.turn_time,
                # seconds in the pairing queue before bots are offered (the lobby says so)
                "bot_offer": settings.bot_offer,
                # what a client may send, so that it can pace itself
                "limits": {
                    "messages_per_second": settings.rate,
                    "burst": settings.burst,
                    "address_messages_per_second": settings.address_rate,
                    "address_burst": settings.address_burst,
                    "max_message": settings.max_message,
                },
                "languages": LANGUAGES,
            }
        )

    def _created(table: Table, seat: int | None, token: str | None) -> JSONResponse:
        return JSONResponse(
            {"table": table.id, "seat": seat, "token": token, "private": table.meta.private,
             "invite": table.meta.invite},
            status_code=201,
        )

    async def api_tables(request: Request) -> Response:
        if request.method == "GET":
            return JSONResponse({"tables": await manager().lobby()})
        try:
            await check_create_rate(request)
            spec = await _json_body(request)
            table, seat, token = await manager().create(spec, _addr(request), *await who(request))
        except ClientError as err:
            return _error(request, err, _STATUS.get(err.code, 400))
        return _created(table, seat, token)

    async def api_my_tables(request: Request) -> Response:
        """The tables this browser holds a seat at (its kept tokens prove it), listed for its
        lobby to return to: private ones included, which the open list never shows."""
        try:
            body = await _json_body(request)
            claims = body.get("tables") if isinstance(body, dict) else None
            if not isinstance(claims, list) or len(claims) > MAX_CLAIMS:
                raise ClientError("bad_request")
            pairs = []
            for claim in claims:
                if not isinstance(claim, dict):
                    raise ClientError("bad_request")
                table_id, token = claim.get("table"), claim.get("token")
                if not (isinstance(table_id, str) and isinstance(token, str)
                        and 0 < len(table_id) <= 64 and 0 < len(token) <= 100):
                    raise ClientError("bad_request")
                pairs.append((table_id, token))
        except ClientError as err:
            return _error(request, err, _STATUS.get(err.code, 400))
        return JSONResponse({"tables": await manager().mine(pairs)})

    async def api_play_now(request: Request) -> Response:
        try:
            await check_create_rate(request)
            body = await _json_body(request)
            if not isinstance(body, dict):
                raise ClientError("bad_request")
            level = body.get("level", "easy")
            players = player_count(body.get("players", 2))
            spec = {
                "game": body.get("game", "all-fives"),
                "players": players,
                "name": body.get("name") or "",
                "seats": [{"kind": "human"}]
                + [{"kind": "bot", "level": level}] * (players - 1),
                "seed": body.get("seed"),
                "rated": body.get("rated", False),
            }
            if "turn_time" in body:  # else the site's (or a rated table's) clock
                spec["turn_time"] = body["turn_time"]
            table, seat, token = await manager().create(spec, _addr(request), *await who(request))
        except ClientError as err:
            return _error(request, err, _STATUS.get(err.code, 400))
        return _created(table, seat, token)

    async def api_matches(request: Request) -> Response:
        try:
            offset = int(request.query_params.get("offset", "0"))
        except ValueError:
            offset = -1
        if not 0 <= offset <= 1_000_000:
            return _error(request, ClientError("bad_request"))
        out = []
        for stored in await manager().store.finished(limit=50, offset=offset, listed_only=True):
            meta = stored.meta
            record = stored.record or {}
            out.append(
                {
                    "id": stored.id,
                    "game": meta.get("game"),
                    "players": meta.get("players"),
                    "teams": meta.get("teams"),
                    "seats": record.get("seats"),
                    "kinds": _seat_kinds(stored),
                    "finished": stored.finished,
                    "rounds": len(record.get("rounds", [])),
                }
            )
        return JSONResponse({"matches": out})

    def _seat_kinds(stored: StoredTable) -> list[str]:
        """Each seat's kind ("human" or "bot"), from the table itself: a bot is shown as one by
        its kind, never because of its name."""
        return [str(s.get("kind", "human")) for s in stored.meta.get("seats", [])]

    async def _finished(request: Request) -> StoredTable:
        table_id = request.path_params["table_id"]
        try:
            stored = await manager().store.load(table_id) if 4 <= len(table_id) <= 32 else None
        except DamagedRow:
            stored = None
        if stored is None or stored.status not in ("open", "over"):
            raise ClientError("not_found")
        if stored.meta.get("private"):
            # a private table's match is shown only to those holding its invite
            invite = request.query_params.get("invite") or ""
            secret = stored.meta.get("invite") or ""
            if not (invite and secret and hmac.compare_digest(invite, secret)):
                raise ClientError("not_found")
        if stored.status != "over" or stored.record is None:
            raise ClientError("not_finished")
        return stored

    async def api_record(request: Request) -> Response:
        try:
            record = (await _finished(request)).record or {}
        except ClientError as err:
            return _error(request, err, 404)
        name = f"fives-{record.get('game', 'match')}-{request.path_params['table_id']}.json"
        return Response(
            json.dumps(record, ensure_ascii=False, indent=1),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def api_replay(request: Request) -> Response:
        try:
            stored = await _finished(request)
            record = Record.from_data(stored.record)
            frames = replay_frames(record)
            frames["kinds"] = _seat_kinds(stored)
        except ClientError as err:
            return _error(request, err, 404)
        except RecordError:
            return _error(request, ClientError("server"), 500)
        frames["id"] = request.path_params["table_id"]
        return JSONResponse(frames)

    async def api_analysis(request: Request) -> Response:
        """The analysis of one seat of a finished match (``?seat=S``, from 1): 200 with its
        document once computed, 202 with the queue's state meanwhile (asking queues it)."""
        try:
            stored = await _finished(request)
            record = Record.from_data(stored.record)
        except ClientError as err:
            return _error(request, err, 404)
        except RecordError:
            return _error(request, ClientError("server"), 500)
        raw = request.query_params.get("seat", "")
        players = record.config.players
        if not raw.isdigit() or not 1 <= int(raw) <= players:
            return _error(request, ClientError("analysis_seat", {"max": players}))
        seat = int(raw) - 1
        me = await Identities(manager().store).current(request)
        requester = me.id if me is not None else "addr:" + _addr(request)
        analyst = manager().analyst
        try:
            job = await analyst.request(request.path_params["table_id"], seat, requester)
        except Busy as busy:
            waiting = busy.waiting
            return JSONResponse({"error": "analysis_busy",
                                 "message": ClientError("analysis_busy").text(_lang(request)),
                                 "waiting": {"table": waiting.table_id, "seat": waiting.seat + 1}},
                                status_code=429)
        except Full:
            return _error(request, ClientError("analysis_full"), 503)
        if job.status == "done" and job.result is not None:
            return JSONResponse({**job.result, "status": "done"})
        if job.given_up(time.time()):
            return _error(request, ClientError("analysis_failed"), 500)
        ahead = await manager().store.queued_before(job.requested) if job.status == "queued" else 0
        return JSONResponse({"status": job.status, "seat": seat + 1, "ahead": ahead},
                            status_code=202, headers={"Retry-After": "2"})

    async def api_example(request: Request) -> Response:
        """The layout after some plays (the rules pages' worked examples)."""
        game = request.query_params.get("game", "all-fives")
        actions = request.query_params.get("actions", "")
        if game not in GAMES or len(actions) > 300:
            return _error(request, ClientError("bad_request"))
        try:
            lay, points = worked_example(game, [a for a in actions.split(",") if a.strip()][:28])
        except ValueError:
            return _error(request, ClientError("illegal"))
        return JSONResponse({"layout": lay.explain(), "points": points})

    # -- WebSocket ---------------------------------------------------------------------------

    connects = AddressBuckets(settings.connects_per_minute / 60, max(1, int(
        settings.connects_per_minute / 2)))
    messages = AddressBuckets(settings.address_rate, settings.address_burst)

    async def refuse(ws: WebSocket, lang: str, err: ClientError, code: int) -> None:
        """Say why, then close: the page shows the reason instead of reconnecting at once."""
        with contextlib.suppress(Exception):
            await ws.send_text(json.dumps(error_message(err, lang), ensure_ascii=False))
            await ws.close(code=code)

    async def ws_table(ws: WebSocket) -> None:
        await ws.accept()
        table_id = ws.path_params["table_id"]
        addr = _addr(ws)

        async def drop() -> None:
            """A reader that cannot keep up: closed with 4008 if the close gets through in
            time, else cut off (its unread messages would hold the socket for ever)."""
            pump.cancel()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(code=4008), settings.close_grace)
            await asyncio.sleep(settings.close_grace)
            guard.abort(ws.scope.get(PEER))

        async def end(code: int) -> None:
            """Close with ``code`` once the outbox is sent (a table that moved, a refusal
            decided by the table's owner in another process)."""
            deadline = time.monotonic() + settings.close_grace
            while not conn.outbox.empty() and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            conn.closed = True
            with contextlib.suppress(Exception):
                await ws.close(code=code)

        conn = Conn(ws.send_text, settings.rate, settings.burst, settings.outbox, drop, addr,
                    end)
        lang = ws.query_params.get("lang")
        if lang in LANGUAGES:
            conn.lang = lang
        if not connects.take(addr):  # a reconnect loop is slowed down before it costs anything
            await refuse(ws, conn.lang, ClientError("rate_limited"), 4429)
            return
        try:
            found = await manager().find(table_id)
        except ClusterDown:  # who owns the table cannot be known now: the page tries again
            await refuse(ws, conn.lang, ClientError("server"), 1013)
            return
        if found is None:
            await refuse(ws, conn.lang, ClientError("not_found"), 4404)
            return
        table: Table | RemoteTable = (
            state["cluster"].remote(table_id, found) if isinstance(found, str) else found)
        pump = asyncio.get_running_loop().create_task(conn.pump())
        hello_by = time.monotonic() + settings.hello_timeout
        try:
            while True:
                if conn.greeted:
                    message = await ws.receive()
                else:  # a connection that never says hello does not hold a socket
                    try:
                        message = await asyncio.wait_for(
                            ws.receive(), max(0.0, hello_by - time.monotonic()))
                    except TimeoutError:
                        await refuse(ws, conn.lang, ClientError("hello_first"), 4408)
                        return
                if message["type"] == "websocket.disconnect":
                    break
                received = time.time()
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                # the connection's own limit, and its address's over all its connections
                if not (conn.bucket.take() and messages.take(addr)):
                    conn.strikes += 1
                    if conn.strikes == 1:
                        conn.error(ClientError("rate_limited"), table.n)
                    if conn.strikes > 200:
                        break
                    continue
                conn.strikes = 0
                try:
                    msg = parse_message(raw, settings.max_message)
                    if not conn.greeted:
                        if msg["type"] != "hello":
                            raise ClientError("hello_first")
                        if "lang" in msg:
                            conn.lang = msg["lang"]
                        conn.player, conn.browser = await who(ws)
                        try:
                            table.attach(conn, msg.get("token"), msg.get("invite"))
                        except ClientError as err:
                            await refuse(ws, conn.lang, err, REFUSALS.get(err.code, 4400))
                            return
                        continue
                    await table.handle(conn, msg, received)
                except ClientError as err:
                    conn.error(err, table.n)
                if conn.closed:
                    break
        except WebSocketDisconnect:
            pass
        except Exception:
            log.exception("table %s: connection failed", table_id)
        finally:
            if conn.greeted:
                table.detach(conn)
            conn.closed = True
            pump.cancel()
            with contextlib.suppress(BaseException):
                await pump
            if conn.dropping is not None:
                conn.dropping.cancel()
            if ws.application_state != WebSocketState.DISCONNECTED:
                with contextlib.suppress(Exception):
                    await ws.close()

    async def healthz(request: Request) -> Response:
        """The store's and the bus's health: 200 when both answer, else 503."""
        health: dict[str, Any] = {"ok": True, "tables": len(manager().tables), "store": "ok",
                                  "bus": "off"}
        try:
            await asyncio.wait_for(manager().store.ping(), 2.0)
        except (StoreError, TimeoutError) as exc:
            health.update(ok=False, store=str(exc) or "timeout")
        cluster = state["cluster"]
        if cluster is not None:
            status = cluster.status()
            health.update(process=status["process"],
                          bus="ok" if status["bus"] and status["lease"] else "down")
            health["ok"] = health["ok"] and health["bus"] == "ok"
        return JSONResponse(health, status_code=200 if health["ok"] else 503)

    async def metrics(request: Request) -> Response:
        return Response(exposition(), media_type=CONTENT_TYPE)

    # -- errors ------------------------------------------------------------------------------

    async def http_error(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        code = "not_found" if status == 404 else "server"
        if request.url.path.startswith("/api/"):
            return _error(request, ClientError(code), status)
        return assets.page(request, "error.html", status)

    async def server_error(request: Request, exc: Exception) -> Response:
        log.error("request %s failed: %r", request.url.path, exc)
        return await http_error(request, exc)

    routes = [
        Route("/", _page("index.html")),
        Route("/t/{table_id}", _page("table.html")),
        Route("/replay/{table_id}", _page("replay.html")),
        Route("/history", _page("history.html")),
        Route("/me", _page("me.html")),
        Route("/device", _page("device.html")),
        Route("/p/{player_id}", _page("profile.html")),
        Route("/leaderboard", _page("leaderboard.html")),
        Route("/leaderboard/{game}", _page("leaderboard.html")),
        Route("/watch", _page("watch.html")),
        Route("/puzzles", _page("puzzles.html")),
        *bot_routes(manager, identities, limits.limit("bot_logins", settings.bot_login_rate,
                                                      settings.bot_login_burst)),
        *pairing_routes(lambda: manager().store, lambda: state["queue"],
                        limits.limit("queue", settings.pairing_rate, settings.pairing_burst)),
        *player_routes(lambda: manager().store, identities, lambda: manager().lobby()),
        *puzzle_routes(lambda: manager().store),
        *contest_routes(lambda: manager().store, lambda: state["contests"], creations),
        Route("/events/{event_id}", _page("event.html")),
        Route("/rules", _page("rules.html")),
        Route("/rules/{game}", _page("rules.html")),
        Route("/manifest.webmanifest", web_manifest),
        Route("/sw.js", worker),
        Route(OFFLINE, offline),
        Route("/healthz", healthz),
        Route("/metrics", metrics),
        Route("/api/i18n/{lang}", api_i18n),
        Route("/api/i18n/{lang}/rules", api_i18n),
        Route("/api/meta", api_meta),
        Route("/api/tables", api_tables, methods=["GET", "POST"]),
        Route("/api/tables/mine", api_my_tables, methods=["POST"]),
        Route("/api/play-now", api_play_now, methods=["POST"]),
        Route("/api/matches", api_matches),
        Route("/api/matches/{table_id}/record", api_record),
        Route("/api/matches/{table_id}/replay", api_replay),
        Route("/api/matches/{table_id}/analysis", api_analysis),
        Route("/api/example", api_example),
        WebSocketRoute("/ws/{table_id}", ws_table),
        Mount(f"/static/{assets.version}", VersionedStatic(directory=WEB)),
        Mount("/static", PlainStatic(directory=WEB), name="static"),
    ]
    middleware = [Middleware(RequestGuard, settings=settings)]
    if settings.proxies:
        # X-Forwarded-For is believed only from these; RequestGuard (outside) keeps the peer
        middleware.append(
            Middleware(ProxyHeadersMiddleware, trusted_hosts=sorted(settings.proxies)))
    # text (pages, scripts, catalogues, JSON) compressed for slow connections
    middleware.append(Middleware(GZipMiddleware, minimum_size=500))
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=middleware,
        exception_handlers={HTTPException: http_error, Exception: server_error},
    )
    app.state.guard = guard
    return app
