"""One hostile client must not take the service down: the limits that hold whatever a client sends,
checked with the Flask test client on a real Redis (``test_abuse_http.py`` checks them over HTTP)."""

from __future__ import annotations

import io
import json
import logging
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

import service.bots
from engines import REGISTRY
from schemas.common import LOG_LIMIT_MAX
from service import observability, runtime, stream
from service.app import create_app
from service.bots import BotPolicy, RequestBots
from service.config import Settings
from tests.service.test_api import untimed


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _problem(reply: Any, status: int, code: str) -> dict[str, Any]:
    assert reply.status_code == status, (reply.status_code, reply.data[:300])
    assert reply.content_type == "application/problem+json"
    assert reply.json["code"] == code
    return reply.json  # type: ignore[no-any-return]


def _sten_with_a_bot(client: FlaskClient, seed: str = "abuse") -> tuple[str, str]:
    created = client.post("/v1/sten/games", json={"players": 2, "seed": seed, "bots": [1]}).json
    return created["game_id"], created["seats"][0]["token"]


def _move(client: FlaskClient, gid: str, token: str) -> Any:
    view = client.get(f"/v1/sten/games/{gid}", headers=_auth(token)).json
    return client.post(f"/v1/sten/games/{gid}/moves", json={"move": view["legal_moves"][0]}, headers=_auth(token))


# --- two 500s --------------------------------------------------------------------------------


def test_a_deeply_nested_move_is_a_422_that_echoes_nothing(client: FlaskClient, caplog) -> None:
    """2 KB of ``[[[...]]]`` under ``move`` is within the JSON parser's depth limit; it used to reach
    the one-of schema's ``repr`` of the value and die there with a RecursionError (a 500)."""
    gid, token = _sten_with_a_bot(client)
    before = client.get(f"/v1/sten/games/{gid}", headers=_auth(token)).json
    headers = {**_auth(token), "Content-Type": "application/json"}
    for depth in (1000, 1020):
        for body in (b'{"move": ' + b"[" * depth + b"]" * depth + b"}",
                     b'{"move": {"type": ' + b"[" * depth + b"]" * depth + b"}}"):
            with caplog.at_level(logging.ERROR, logger="cardtable"):
                reply = client.post(f"/v1/sten/games/{gid}/moves", data=body, headers=headers)
            problem = _problem(reply, 422, "validation_error")
            assert len(reply.data) < 400, problem
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert untimed(client.get(f"/v1/sten/games/{gid}", headers=_auth(token)).json) == untimed(before)


@pytest.mark.parametrize("move", [["7H"] * 5000, "7H" * 10000, {"type": "x" * 20000}, {"type": ["play"] * 3000}, 12])
def test_a_non_object_or_unknown_move_is_refused_without_echoing_it(client: FlaskClient, move: Any) -> None:
    gid, token = _sten_with_a_bot(client)
    reply = client.post(f"/v1/sten/games/{gid}/moves", json={"move": move}, headers=_auth(token))
    problem = _problem(reply, 422, "validation_error")
    assert len(reply.data) < 400, problem
    assert set(problem["errors"]) == {"move"}


class _ChunkError(Exception):
    """What gunicorn's parser raises from the body stream for a malformed chunk: its
    ``InvalidChunkSize`` and kin are plain Exceptions (werkzeug turns only OSError and ValueError
    into a 400 of its own)."""


class _BrokenChunks:
    """The body stream as gunicorn hands it over when the chunked encoding is malformed."""

    def read(self, size: int | None = -1) -> bytes:
        raise _ChunkError("Invalid chunk size: b'zz'")

    readline = read


@pytest.mark.parametrize("path", ["/v1/sten/games", "/v1/sten/games/{gid}/moves", "/v1/sten/games/{gid}/moves/check"])
def test_a_body_that_cannot_be_read_is_a_400(client: FlaskClient, path: str, caplog) -> None:
    gid, token = _sten_with_a_bot(client)
    with caplog.at_level(logging.ERROR, logger="cardtable"):
        reply = client.post(path.format(gid=gid),
                            headers={**_auth(token), "Content-Type": "application/json",
                                     "Transfer-Encoding": "chunked"},
                            environ_overrides={"wsgi.input_terminated": True, "wsgi.input": _BrokenChunks()})
    problem = _problem(reply, 400, "bad_request")
    assert "could not be read" in problem["detail"]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


# --- caches ----------------------------------------------------------------------------------


def test_a_seat_view_stays_in_the_callers_cache_and_the_spectators_revalidates(client: FlaskClient) -> None:
    gid, token = _sten_with_a_bot(client)
    seat = client.get(f"/v1/sten/games/{gid}", headers=_auth(token))
    spectator = client.get(f"/v1/sten/games/{gid}")
    not_modified = client.get(f"/v1/sten/games/{gid}", headers={**_auth(token), "If-None-Match": seat.headers["ETag"]})
    spectator_304 = client.get(f"/v1/sten/games/{gid}", headers={"If-None-Match": spectator.headers["ETag"]})
    assert not_modified.status_code == spectator_304.status_code == 304
    for reply in (seat, not_modified, client.get(f"/v1/sten/games/{gid}/log", headers=_auth(token)),
                  _move(client, gid, token)):
        assert reply.headers["Cache-Control"] == "private, no-cache"
        assert reply.headers["Vary"] == "Authorization"
    for reply in (spectator, spectator_304, client.get(f"/v1/sten/games/{gid}/log")):
        assert reply.headers["Cache-Control"] == "public, no-cache"
        assert reply.headers["Vary"] == "Authorization"


# --- metrics ---------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/v1/sten/games", "/v1/games", "/healthz"])
def test_a_plain_options_request_answers_204_with_allow_and_no_body(client: FlaskClient, path: str) -> None:
    """No HTML-typed empty page: an OPTIONS without CORS says only which methods the path takes."""
    reply = client.open(path, method="OPTIONS")
    assert reply.status_code == 204 and reply.data == b""
    assert "Content-Type" not in reply.headers
    assert "OPTIONS" in reply.headers["Allow"] and ("POST" in reply.headers["Allow"]) == (path == "/v1/sten/games")


def test_metric_labels_come_from_closed_sets() -> None:
    assert observability.labels("GET", "/healthz", "200") == ("GET", "/healthz", "200")
    assert observability.labels("PROPFIND", None, "200") == ("other", "unmatched", "200")
    assert observability.labels("XYZZY", "/v1/games", "299") == ("other", "/v1/games", "other")
    assert observability.labels("get", None, "429") == ("other", "unmatched", "429")


# --- streams and the log ---------------------------------------------------------------------


@pytest.fixture()
def small_app(redis_server) -> Flask:
    app = create_app(Settings(redis_url=redis_server.url, allow_fixed_deals=True, stream_keepalive=0.05,
                              stream_max_seconds=0.3))
    app.extensions["cardtable.access_log"].stream = io.StringIO()
    return app


def _frames(body: bytes) -> list[str]:
    return [f for f in body.decode().split("\n\n") if f]


def test_a_stream_pauses_between_pages_and_ends_at_its_entry_limit(small_app: Flask, monkeypatch) -> None:
    """A replay reads the log in pages and gives the worker back between two (``time.sleep(0)``,
    which gevent's monkey-patch makes a yield); one request sends at most ``stream_max_entries``."""
    client = small_app.test_client()
    gid, token = _sten_with_a_bot(client)
    for _ in range(8):
        assert _move(client, gid, token).status_code == 200
    monkeypatch.setattr(stream, "STREAM_BATCH", 3)
    small_app.extensions["cardtable"].stream_max_entries = 10
    pauses: list[float] = []
    monkeypatch.setattr(stream.time, "sleep", pauses.append)
    reply = client.get(f"/v1/sten/games/{gid}/events?since=0", headers=_auth(token))
    frames = _frames(reply.data)
    ids = [int(m.group(1)) for f in frames if (m := re.match(r"id: (\d+)", f))]
    assert ids == list(range(1, 11))
    assert frames[-1].startswith(": entry limit of this stream reached")
    assert pauses == [0, 0, 0]  # after each of the three full pages, none after the last one


def test_a_stream_is_logged_with_its_real_duration(small_app: Flask) -> None:
    """The access line of a stream is written when the stream ends, not when its headers went out."""
    client = small_app.test_client()
    gid, token = _sten_with_a_bot(client)
    access = small_app.extensions["cardtable.access_log"]
    reply = client.get(f"/v1/sten/games/{gid}/events", headers={**_auth(token), "X-Request-Id": "follow"},
                       buffered=False)
    access.flush()
    assert "follow" not in access.stream.getvalue()  # still streaming: not logged yet
    assert b"keep-alive" in b"".join(reply.response)  # until stream_max_seconds (0.3 s) closes it
    reply.close()
    access.flush()
    line = next(d for raw in access.stream.getvalue().splitlines()
                if (d := json.loads(raw)).get("client_request_id") == "follow")
    assert line["duration_ms"] >= 300 and line["status"] == 200


def test_the_log_route_answers_no_more_than_a_stream_sends(client: FlaskClient) -> None:
    gid, _ = _sten_with_a_bot(client)
    assert LOG_LIMIT_MAX <= runtime.STREAM_MAX_ENTRIES
    _problem(client.get(f"/v1/sten/games/{gid}/log?limit={LOG_LIMIT_MAX + 1}"), 422, "validation_error")


@pytest.mark.parametrize("crossing", [False, True])
def test_a_game_takes_no_move_past_its_log_cap(redis_server, crossing: bool) -> None:
    """At the cap, or when the bot's answer would cross it (a human move and the bot's are two
    entries), the move is refused with 409 ``log_full`` and nothing changes."""
    app = create_app(Settings(redis_url=redis_server.url, allow_fixed_deals=True, max_log_entries=50))
    app.extensions["cardtable.access_log"].stream = io.StringIO()
    client = app.test_client()
    gid, token = _sten_with_a_bot(client, seed="cap")
    start = client.get(f"/v1/sten/games/{gid}").json["version"]
    full = start + 6  # three human moves and the bot's answers
    app.extensions["cardtable"].max_log_entries = full + crossing
    while (reply := _move(client, gid, token)).status_code == 200:
        assert reply.json["version"] <= full
    problem = _problem(reply, 409, "log_full")
    view = client.get(f"/v1/sten/games/{gid}", headers=_auth(token)).json
    assert problem["current_version"] == view["version"] == full and view["status"] == "active"
    assert len(client.get(f"/v1/sten/games/{gid}/log").json["entries"]) == full
    check = client.post(f"/v1/sten/games/{gid}/moves/check", json={"move": view["legal_moves"][0]},
                        headers=_auth(token))
    if crossing:  # a check plays no bots: the move alone still fits
        assert check.status_code == 200
    else:
        _problem(check, 409, "log_full")


def test_the_log_cap_is_a_setting() -> None:
    assert Settings.from_env({}).max_log_entries == runtime.MAX_LOG_ENTRIES == 100_000
    assert Settings.from_env({"CARDTABLE_MAX_LOG_ENTRIES": "30"}).max_log_entries == 30
    assert Settings.from_env({}).stream_max_entries == runtime.STREAM_MAX_ENTRIES


# --- bots ------------------------------------------------------------------------------------


def test_the_default_bound_is_five_strong_searches_a_request() -> None:
    assert Settings().bot_request_seconds == BotPolicy().request_seconds == 0.25
    assert BotPolicy().strong_moves_per_request == 5  # at most 5 x 50 ms of search per request


def test_a_single_choice_does_not_count_against_the_bound() -> None:
    engine = REGISTRY["kanaster"]
    state = engine.new_game(2, {}, "single")
    while len(engine.legal_moves(state, seat := engine.to_move(state)[0])) != 1:
        state = engine.apply(state, seat, engine.legal_moves(state, seat)[0])
    bots = RequestBots(BotPolicy(budget_ms=50.0, request_seconds=0.05))
    bots.choose(engine, state, seat, "strong", "single", 0)
    assert bots.strong_moves == 0 and bots.level_now("strong") == "strong"


class _FrozenClock:
    """``time`` for ``service.bots`` only: its CPU clock stands still, so that only the count of
    searches can bound a request (the CPU safety net would make the test depend on the machine)."""

    @staticmethod
    def process_time() -> float:
        return 0.0


def test_four_strong_kanaster_bots_search_at_most_the_bound_per_request(redis_server, monkeypatch) -> None:
    app = create_app(Settings(redis_url=redis_server.url, allow_fixed_deals=True, bot_budget_ms=5.0,
                              bot_request_seconds=0.01))  # 2 searches a request, each a tenth of the usual
    app.extensions["cardtable.access_log"].stream = io.StringIO()
    client = app.test_client()
    bound = app.extensions["cardtable"].bot_policy.strong_moves_per_request
    assert bound == 2
    monkeypatch.setattr(service.bots, "time", _FrozenClock)
    played: list[tuple[str, bool]] = []
    real = service.bots.choose_move

    def spy(*args: Any, **kw: Any) -> Any:
        move = real(*args, **kw)
        played.append((args[3], kw["stats"].skipped))
        return move

    monkeypatch.setattr(service.bots, "choose_move", spy)
    created = client.post("/v1/kanaster/games", json={
        "players": 5, "seed": "four-strong", "bots": [{"seat": s, "level": "strong"} for s in range(1, 5)]}).json
    gid, token = created["game_id"], created["seats"][0]["token"]
    searches, fallbacks = [], 0
    for _ in range(12):
        view = client.get(f"/v1/kanaster/games/{gid}", headers=_auth(token)).json
        if view["status"] != "active":
            break
        played.clear()
        reply = client.post(f"/v1/kanaster/games/{gid}/moves", json={"move": view["legal_moves"][0]},
                            headers=_auth(token))
        assert reply.status_code == 200, reply.json
        searches.append(sum(1 for level, skipped in played if level == "strong" and not skipped))
        fallbacks += sum(1 for level, _ in played if level == "greedy")  # every bot seat is strong
    assert max(searches) == bound, searches
    assert fallbacks > 0
