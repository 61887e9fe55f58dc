"""Secrets stay secret (tokens, the seed), and the service is observable (request ids,
JSON logs, Prometheus metrics, CORS by configuration)."""

from __future__ import annotations

import io
import json
import logging

from service.app import create_app
from service.config import Settings
from tests.http import Client


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _play_a_little(client, game_id: str, tokens: list[str], moves: int = 10) -> list:
    answers = []
    for _ in range(moves):
        for token in tokens:
            view = client.get(f"/v1/sten/games/{game_id}", headers=_auth(token))
            answers.append(view)
            if view.json["legal_moves"]:
                answers.append(client.post(f"/v1/sten/games/{game_id}/moves", headers=_auth(token),
                                           json={"move": view.json["legal_moves"][0]}))
                break
    return answers


def test_tokens_never_appear_in_a_url_a_log_line_or_a_view(app, client, caplog) -> None:
    caplog.set_level(logging.DEBUG, logger="cardtable")
    access = app.extensions["cardtable.access_log"]
    access.stream = io.StringIO()
    created = client.post("/v1/sten/games", json={"players": 3, "seed": "s3cr3t-seed-value"})
    tokens = [s["token"] for s in created.json["seats"]]
    gid = created.json["game_id"]
    answers = _play_a_little(client, gid, tokens)
    answers.append(client.get(f"/v1/sten/games/{gid}/log", headers=_auth(tokens[0])))
    answers.append(client.get(f"/v1/sten/games/{gid}/moves"))  # 405
    answers.append(client.post(f"/v1/sten/games/{gid}/moves", headers=_auth("wrong-" + tokens[0]),
                               json={"move": {"type": "stein"}}))
    for reply in answers:
        text = reply.get_data(as_text=True) + json.dumps(dict(reply.headers))
        assert not any(t in text for t in tokens), "a token was sent back after create"
    assert created.headers["Location"] == f"/v1/sten/games/{gid}"
    access.flush()
    logged = access.stream.getvalue() + caplog.text + "".join(json.dumps(r.__dict__, default=str)
                                                              for r in caplog.records)
    assert logged.count('"msg":"request"') == len(answers) + 1, "not every request was logged"
    assert not any(t in logged for t in tokens), "a token reached a log line"


def test_the_seed_appears_in_no_view_or_log(client) -> None:
    seed = "s3cr3t-seed-value"
    created = client.post("/v1/sten/games", json={"players": 3, "seed": seed}).json
    tokens = [s["token"] for s in created["seats"]]
    gid = created["game_id"]
    answers = _play_a_little(client, gid, tokens)
    answers += [client.get(f"/v1/sten/games/{gid}"), client.get(f"/v1/sten/games/{gid}/log")]
    assert all(seed not in r.get_data(as_text=True) for r in answers)


def test_every_response_carries_its_own_request_id_whatever_the_client_sends(client) -> None:
    """A client's X-Request-Id never becomes the request's id: it could name another request."""
    a, b = client.get("/healthz"), client.get("/healthz")
    assert a.headers["X-Request-Id"] != b.headers["X-Request-Id"]
    first = client.get("/healthz", headers={"X-Request-Id": "trace-42"}).headers["X-Request-Id"]
    again = client.get("/healthz", headers={"X-Request-Id": "trace-42"}).headers["X-Request-Id"]
    assert "trace-42" not in first and first != again
    assert client.get("/healthz", headers={"X-Request-Id": first}).headers["X-Request-Id"] != first
    assert client.get("/nope").headers["X-Request-Id"]


def test_requests_are_logged_as_json_lines(app, client) -> None:
    access = app.extensions["cardtable.access_log"]
    access.stream = io.StringIO()
    ours = client.get("/v1/sten/games/nope", headers={"X-Request-Id": "rid-1"}).headers["X-Request-Id"]
    client.get("/no/such/route", headers={"X-Request-Id": "rid-2"})
    client.get("/healthz", headers={"X-Request-Id": "x" * 500})
    access.flush()
    logged = [json.loads(line) for line in access.stream.getvalue().splitlines()]
    lines = {d.get("client_request_id"): d for d in logged}
    assert lines["rid-1"]["request_id"] == ours
    assert None in lines and "x" * 500 not in access.stream.getvalue()  # an insane one is not kept
    assert lines["rid-1"]["status"] == 404
    assert lines["rid-1"]["endpoint"] == "/v1/sten/games/<string(maxlength=64):game_id>"
    assert lines["rid-1"]["method"] == "GET" and lines["rid-1"]["duration_ms"] >= 0
    assert lines["rid-2"]["endpoint"] == "unmatched" and lines["rid-2"]["level"] == "info"


def test_the_access_log_writes_buffered_lines_when_due() -> None:
    from service.observability import AccessLog

    stream = io.StringIO()
    log = AccessLog(stream, max_bytes=200, max_age=3600)
    log.write({"n": 1})
    assert stream.getvalue() == ""
    for n in range(20):
        log.write({"n": n, "pad": "x" * 20})
    assert stream.getvalue().count("\n") >= 5, "a full buffer was not written"
    log.flush()
    assert stream.getvalue().count("\n") == 21


def test_metrics_count_requests_moves_and_conflicts(live_url) -> None:
    client = Client(live_url)
    created = client.post("/v1/sten/games", {"players": 2}).json
    gid, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    view = next(v for t in tokens if (v := client.get(f"/v1/sten/games/{gid}", token=t).json)["legal_moves"])
    token = tokens[view["seat"]]
    body = {"version": view["version"], "move": view["legal_moves"][0]}
    assert client.post(f"/v1/sten/games/{gid}/moves", body, token=token).status == 200
    assert client.post(f"/v1/sten/games/{gid}/moves", body, token=token).status == 409
    reply = client.get("/metrics")
    assert reply.status == 200 and reply.content_type.startswith("text/plain")
    text = reply.body.decode()
    for name in ("cardtable_requests_total", "cardtable_request_duration_seconds_bucket",
                 'cardtable_moves_applied_total{game="sten"}', 'cardtable_conflicts_total{code="stale_version"}',
                 'cardtable_games_created_total{game="sten"}', 'cardtable_active_games{game="sten"}'):
        assert name in text, name


def test_cors_is_off_by_default_and_configurable(redis_server) -> None:
    plain = create_app(Settings(redis_url=redis_server.url, request_log=False)).test_client()
    assert "Access-Control-Allow-Origin" not in plain.get("/healthz", headers={"Origin": "https://a.example"}).headers
    app = create_app(Settings(redis_url=redis_server.url, cors_origins=("https://a.example",), request_log=False))
    client = app.test_client()
    allowed = client.get("/healthz", headers={"Origin": "https://a.example"})
    assert allowed.headers["Access-Control-Allow-Origin"] == "https://a.example"
    assert "ETag" in allowed.headers["Access-Control-Expose-Headers"]
    other = client.get("/healthz", headers={"Origin": "https://b.example"})
    assert "Access-Control-Allow-Origin" not in other.headers
    preflight = client.open("/v1/sten/games", method="OPTIONS", headers={
        "Origin": "https://a.example", "Access-Control-Request-Method": "POST"})
    assert preflight.status_code == 204
    assert "Authorization" in preflight.headers["Access-Control-Allow-Headers"]
