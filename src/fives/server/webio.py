"""What every HTTP endpoint shares: the reader's language, the client's address, a refusal
as JSON in that language, and a request's JSON body."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response

from fives.i18n import LANGUAGES
from fives.server.cluster.remote import ClusterDown
from fives.server.messages import ClientError
from fives.store.base import StoreError

__all__ = ["STATUS", "addr_of", "error_body", "error_response", "json_body", "lang_of", "refusing"]

#: the HTTP status of a refusal, by the reason's code (else 400)
STATUS = {"rate_limited": 429, "too_many_tables": 429, "too_many_bot_tables": 429,
          "too_many_seats": 429, "server_full": 503, "not_found": 404, "no_identity": 401,
          "already_identified": 409, "name_taken": 409, "already_matched": 409,
          "busy": 503, "bots_unreachable": 503}


def lang_of(request: HTTPConnection) -> str:
    lang = request.query_params.get("lang")
    if lang in LANGUAGES:
        return lang
    header = request.headers.get("accept-language", "")
    for part in header.split(","):
        code = part.split(";")[0].strip().split("-")[0].lower()
        if code in LANGUAGES:
            return code
    return "en"


def addr_of(conn: HTTPConnection) -> str:
    """The client's address (as uvicorn gives it: a proxy's forwarded one only from a trusted
    proxy)."""
    return conn.client.host if conn.client else "?"


def error_body(request: HTTPConnection, err: ClientError) -> dict[str, str]:
    return {"error": err.code, "message": err.text(lang_of(request))}


def error_response(request: HTTPConnection, err: ClientError,
                   status: int | None = None) -> JSONResponse:
    return JSONResponse(error_body(request, err), status_code=status or STATUS.get(err.code, 400))


async def json_body(request: Request) -> Any:
    body = await request.body()  # already read, and bounded, by RequestGuard
    try:
        return json.loads(body or b"{}")
    except (ValueError, RecursionError):
        raise ClientError("bad_json") from None


def refusing(
    body: Callable[[Request], Awaitable[Response]],
) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint whose refusals (a :class:`ClientError`, a store or a cluster's Redis that
    cannot answer) are one translated JSON line with their status, never a traceback."""

    async def endpoint(request: Request) -> Response:
        try:
            return await body(request)
        except ClientError as err:
            return error_response(request, err)
        except (StoreError, ClusterDown):
            return error_response(request, ClientError("server"), 503)

    return endpoint
