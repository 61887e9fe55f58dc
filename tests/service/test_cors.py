"""CORS (CARDTABLE_CORS_ORIGINS) at the HTTP level, against a real Redis: preflights answered 204
with the methods, headers and Max-Age; the allowed request headers are every header the service
reads and the exposed response headers every one it sends for a client, both found by running
every operation (not by reading a list); disallowed origins get nothing; caches are told the
answer varies by Origin. The browser's side of it is tests/web/test_cors.py.
"""

from __future__ import annotations

import io
import uuid
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service import cors
from service.app import create_app
from service.config import Settings

ORIGIN = "https://table.example"
#: Request headers a page's script cannot set or that need no permission: the browser sends them
#: itself (forbidden request headers) or they are CORS-safelisted.
BROWSER_SET = {"host", "origin", "cookie", "referer", "user-agent", "content-length", "connection",
               "accept-encoding", "transfer-encoding", "access-control-request-method",
               "access-control-request-headers", "accept", "accept-language", "content-language"}
#: Response headers every script may read anyway (the CORS-safelisted ones) or that are not for
#: a script: hints to caches and proxies, and the CORS headers themselves.
NOT_TO_EXPOSE = {"cache-control", "content-language", "content-length", "content-type", "expires",
                 "last-modified", "pragma", "vary", "x-accel-buffering", "allow", "x-content-type-options"}


def _app(redis_url: str, origins: tuple[str, ...] = (ORIGIN,), **settings: Any) -> Flask:
    app = create_app(Settings(redis_url=redis_url, allow_fixed_deals=True, cors_origins=origins, **settings))
    app.extensions["cardtable.access_log"].stream = io.StringIO()
    return app


def _names(header: str) -> list[str]:
    return [h.strip() for h in header.split(",") if h.strip()]


def _header_names(reply: Any) -> set[str]:
    """The names of a reply's headers, lowercased (werkzeug's Headers iterate as pairs)."""
    return {name.lower() for name, _ in reply.headers.items()}


def _cors_headers(reply: Any) -> set[str]:
    return {name for name in _header_names(reply) if name.startswith("access-control-")}


def _preflight(client: FlaskClient, path: str, origin: str = ORIGIN, method: str = "GET",
               headers: str = "authorization") -> Any:
    return client.open(path, method="OPTIONS", headers={
        "Origin": origin, "Access-Control-Request-Method": method, "Access-Control-Request-Headers": headers})


class _ReadHeaders(dict):  # type: ignore[type-arg]
    """A WSGI environ that notes every request header the app looks up."""

    def __init__(self, environ: dict[str, Any], seen: set[str]) -> None:
        super().__init__(environ)
        self.seen = seen

    def _note(self, key: object) -> None:
        if isinstance(key, str) and (key.startswith("HTTP_") or key == "CONTENT_TYPE"):
            self.seen.add(key.removeprefix("HTTP_").replace("_", "-").lower())

    def __getitem__(self, key: str) -> Any:
        self._note(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self._note(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        self._note(key)
        return super().__contains__(key)


def _every_operation(client: FlaskClient, origin: str = ORIGIN) -> list[Any]:
    """Each operation of the API once, as a client on ``origin`` with every header it may send;
    the responses (a stream closed unread)."""
    key, replies = str(uuid.uuid4()), []

    def call(method: str, path: str, token: str | None = None, **headers: str) -> Any:
        sent = {"Origin": origin, "X-Request-Id": "r-" + key[:8], **headers}
        if token is not None:
            sent["Authorization"] = f"Bearer {token}"
        reply = client.open(path, method=method, headers=sent)
        replies.append(reply)
        return reply

    body = {"players": 2, "bots": [1], "seed": "cors"}
    created = client.post("/v1/sten/games", json=body, headers={"Origin": origin, "Idempotency-Key": key})
    replies.append(created)
    replies.append(client.post("/v1/sten/games", json=body, headers={"Origin": origin, "Idempotency-Key": key}))
    game = created.get_json()
    path, token = created.headers["Location"], game["seats"][0]["token"]
    view = call("GET", path, token)
    call("GET", path, token, **{"If-None-Match": view.headers["ETag"]})
    move = {"version": view.get_json()["version"], "move": view.get_json()["legal_moves"][0]}
    replies.append(client.post(f"{path}/moves/check", json=move, headers={
        "Origin": origin, "Authorization": f"Bearer {token}"}))
    replies.append(client.post(f"{path}/moves", json=move, headers={
        "Origin": origin, "Authorization": f"Bearer {token}", "Idempotency-Key": key}))
    replies.append(client.post(f"{path}/moves", json=move, headers={"Origin": origin}))  # 401
    stream = client.get(f"{path}/events", headers={"Origin": origin, "Authorization": f"Bearer {token}",
                                                  "Last-Event-ID": "0"}, buffered=False)
    stream.close()
    replies.append(stream)
    call("GET", f"{path}/log?since=0", token)
    call("GET", "/v1/games")
    call("GET", "/v1/sten/games/no-such-game")  # 404 problem
    return replies


def test_a_preflight_from_an_allowed_origin_answers_204_empty_with_methods_headers_and_max_age(redis_server) -> None:
    client = _app(redis_server.url).test_client()
    for path, method in [("/v1/sten/games", "POST"), ("/v1/sten/games/g/events", "GET"),
                         ("/v1/kanaster/games/g/moves", "POST"), ("/v1/nowhere", "GET")]:
        reply = _preflight(client, path, method=method, headers="authorization,last-event-id,x-request-id")
        assert reply.status_code == 204 and reply.data == b"", path
        assert "Content-Type" not in reply.headers, path
        assert reply.headers["Access-Control-Allow-Origin"] == ORIGIN
        assert _names(reply.headers["Access-Control-Allow-Methods"]) == ["GET", "POST"]
        assert _names(reply.headers["Access-Control-Allow-Headers"]) == list(cors.ALLOW_HEADERS)
        assert reply.headers["Access-Control-Max-Age"] == "600"
        assert "Origin" in _names(", ".join(reply.headers.get_all("Vary")))
        assert "Access-Control-Allow-Credentials" not in reply.headers


def test_every_request_header_the_service_reads_is_allowed(redis_server) -> None:
    app = _app(redis_server.url)
    seen: set[str] = set()
    inner = app.wsgi_app

    def reading(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        return inner(_ReadHeaders(environ, seen), start_response)

    app.wsgi_app = reading  # type: ignore[method-assign]
    _every_operation(app.test_client())
    allowed = {h.lower() for h in cors.ALLOW_HEADERS}
    assert seen - BROWSER_SET == allowed, "allow what the service reads, and only that"


def test_every_response_header_for_a_client_is_exposed(redis_server) -> None:
    replies = _every_operation(_app(redis_server.url).test_client())
    # Retry-After comes with a 429 (and a 503): a limit of one request a minute per seat token
    limited = _app(redis_server.url, rate_limit="1/m").test_client()
    token = {"Origin": ORIGIN, "Authorization": f"Bearer {uuid.uuid4()}"}
    replies += [limited.get("/v1/sten/games/g", headers=token) for _ in range(2)]
    assert replies[-1].status_code == 429
    statuses = {r.status_code for r in replies}
    assert {200, 201, 304, 401, 404, 429} <= statuses
    sent = set().union(*(_header_names(r) - _cors_headers(r) for r in replies)) - NOT_TO_EXPOSE
    assert sent == {h.lower() for h in cors.EXPOSE_HEADERS}, "expose what the service sends, and only that"
    for reply in replies:
        assert reply.headers["Access-Control-Allow-Origin"] == ORIGIN
        assert _names(reply.headers["Access-Control-Expose-Headers"]) == list(cors.EXPOSE_HEADERS)
        assert "Origin" in _names(", ".join(reply.headers.get_all("Vary")))


def test_an_origin_not_allowed_gets_no_cors_header(redis_server) -> None:
    client = _app(redis_server.url).test_client()
    other = "https://elsewhere.example"
    replies = [*_every_operation(client, origin=other), _preflight(client, "/v1/sten/games", other, "POST")]
    for reply in replies:
        assert not _cors_headers(reply), reply.request.path
        assert "Origin" in _names(", ".join(reply.headers.get_all("Vary")))
    # the plain OPTIONS answer (204 with Allow), without Access-Control-*: the browser refuses it
    assert replies[-1].status_code == 204 and "Allow" in replies[-1].headers


def test_an_answer_without_origin_still_varies_by_origin_for_caches(redis_server) -> None:
    reply = _app(redis_server.url).test_client().get("/v1/games")
    assert reply.status_code == 200 and "Access-Control-Allow-Origin" not in reply.headers
    assert reply.headers.get_all("Vary") == ["Origin"]


def test_any_origin_with_star_is_answered_star_and_does_not_vary(redis_server) -> None:
    client = _app(redis_server.url, origins=("*",)).test_client()
    reply = client.get("/v1/games", headers={"Origin": "https://anyone.example"})
    assert reply.headers["Access-Control-Allow-Origin"] == "*" and "Vary" not in reply.headers
    preflight = _preflight(client, "/v1/sten/games", "https://anyone.example", "POST")
    assert preflight.status_code == 204 and preflight.headers["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in preflight.headers


def test_cors_off_sends_no_cors_header_and_no_vary(redis_server) -> None:
    client = _app(redis_server.url, origins=()).test_client()
    reply = client.get("/v1/games", headers={"Origin": ORIGIN})
    preflight = _preflight(client, "/v1/sten/games", method="POST")
    for r in (reply, preflight):
        assert not _cors_headers(r)
        assert "Vary" not in r.headers


def test_configured_origins_match_without_trailing_slash_or_case(redis_server) -> None:
    client = _app(redis_server.url, origins=("HTTPS://Table.Example/", "http://127.0.0.1:8001")).test_client()
    for origin in (ORIGIN, "http://127.0.0.1:8001"):
        assert client.get("/v1/games", headers={"Origin": origin}).headers["Access-Control-Allow-Origin"] == origin
    assert "Access-Control-Allow-Origin" not in client.get("/v1/games", headers={
        "Origin": "http://127.0.0.1:8002"}).headers


@pytest.mark.parametrize("entry", ["table.example", "https://table.example/play", "null", "https://"])
def test_a_setting_that_is_not_an_origin_fails_at_startup(entry: str) -> None:
    with pytest.raises(ValueError, match="CARDTABLE_CORS_ORIGINS"):
        cors.parse_origins((entry,))
