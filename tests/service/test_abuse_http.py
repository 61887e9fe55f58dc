"""One hostile client must not take the service down, over real HTTP: gunicorn with
``deploy/gunicorn.conf.py`` (gevent workers) on a real Redis, a client on loopback sending a bounded
number of requests."""

from __future__ import annotations

import http
import json
import random
import re
import socket
import string
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from schemas.common import LOG_LIMIT_MAX
from service.app import create_app
from service.config import Settings
from tests.http import Client
from tests.servers import gunicorn
from tests.sse import EventStream

CLOSED_METHODS = {"GET", "POST", "OPTIONS", "HEAD", "other"}
CLOSED_STATUSES = {str(s.value) for s in http.HTTPStatus} | {"other"}
SERIES = re.compile(r'^cardtable_requests_total\{endpoint="([^"]*)",method="([^"]*)",status="([^"]*)"\}', re.M)


@pytest.fixture(scope="module")
def rate_limited(redis_server) -> Iterator[str]:
    """One worker with the production rate limit (20/s per address or token): most of a burst is 429."""
    with gunicorn(redis_server.url, workers=1, extra_env={"CARDTABLE_RATE_LIMIT": "20/s"}) as url:
        yield url


@pytest.fixture(scope="module")
def short_streams(redis_server) -> Iterator[str]:
    """Two workers whose streams send at most 7 entries each (production: 2,000); the keep-alives
    come often, so that a stream whose client left ends soon and the server stops at once."""
    with gunicorn(redis_server.url, workers=2, extra_env={"CARDTABLE_STREAM_MAX_ENTRIES": "7",
                                                          "CARDTABLE_STREAM_KEEPALIVE": "0.5"}) as url:
        yield url


def _raw(base: str, request: bytes) -> bytes:
    """Send ``request`` as it is on a fresh connection; everything the server answers until it closes."""
    parts = urlsplit(base)
    with socket.create_connection((parts.hostname, parts.port), timeout=5) as sock:
        sock.sendall(request)
        out = b""
        while chunk := sock.recv(65536):
            out += chunk
    return out


def _status_and_body(answer: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def _hostile_burst(base: str, rng: random.Random, count: int) -> None:
    """``count`` requests with made-up upper-case methods, to real and made-up paths, as fast as
    one keep-alive connection goes."""
    client = Client(base, timeout=10)
    for _ in range(count):
        method = "".join(rng.choice(string.ascii_uppercase) for _ in range(rng.randint(5, 12)))
        path = rng.choice(["/v1/games", "/" + "".join(rng.choice(string.ascii_lowercase) for _ in range(12))])
        assert client.request(method, path).status in (404, 405, 429)
    client.close()


def _series(base: str) -> set[tuple[str, str, str]]:
    text = Client(base).get("/metrics").body.decode()
    return {(m.group(2), m.group(1), m.group(3)) for m in SERIES.finditer(text)}


def test_hostile_method_names_do_not_grow_the_metrics(rate_limited: str, redis_server) -> None:
    """Every label comes from a closed set, so two bursts of 150 made-up methods (most answered
    429) add no series after the first."""
    rules = {r.rule for r in create_app(Settings(redis_url=redis_server.url, request_log=False)).url_map.iter_rules()}
    rng = random.Random("hostile-methods")
    _hostile_burst(rate_limited, rng, 150)
    first = _series(rate_limited)
    _hostile_burst(rate_limited, rng, 150)
    second = _series(rate_limited)
    assert {method for method, _, _ in second} <= CLOSED_METHODS
    assert {status for _, _, status in second} <= CLOSED_STATUSES
    assert {endpoint for _, endpoint, _ in second} <= rules | {"unmatched"}
    assert ("other", "unmatched", "429") in second  # the limiter's answers are counted, under "other"
    hostile = {s for s in second if s[0] == "other"}
    assert len(hostile) <= 6, hostile  # /v1/games or unmatched, times 404, 405 or 429
    assert second - first <= {s for s in second if s[0] != "other"}  # the second burst made no new series


@pytest.mark.parametrize("body", [b"zz\r\n{}\r\n0\r\n\r\n", b"5\r\n{\"a\": 1}\r\n0\r\n\r\n", b"-1\r\n\r\n"])
def test_a_malformed_chunked_body_is_a_400_problem(live_url: str, body: bytes) -> None:
    """gunicorn parses the chunks only as the app reads them: the app answers, with a problem."""
    created = Client(live_url).post("/v1/sten/games", {"players": 2}).json
    gid, token = created["game_id"], created["seats"][0]["token"]
    for path in ("/v1/sten/games", f"/v1/sten/games/{gid}/moves"):
        answer = _raw(live_url, (f"POST {path} HTTP/1.1\r\nHost: loopback\r\nAuthorization: Bearer {token}\r\n"
                                 "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
                                 "Connection: close\r\n\r\n").encode() + body)
        status, headers, payload = _status_and_body(answer)
        assert status == 400 and headers["content-type"] == "application/problem+json", answer[:300]
        assert json.loads(payload)["code"] == "bad_request"


def test_a_deeply_nested_move_over_http_is_a_422(live_url: str) -> None:
    client = Client(live_url)
    created = client.post("/v1/sten/games", {"players": 2}).json
    gid, token = created["game_id"], created["seats"][0]["token"]
    nested = b'{"move": ' + b"[" * 1000 + b"]" * 1000 + b"}"  # 2 KB, within the JSON parser's depth
    reply = client.post(f"/v1/sten/games/{gid}/moves", raw=nested, token=token,
                        headers={"Content-Type": "application/json"})
    assert reply.status == 422 and reply.content_type == "application/problem+json"
    assert reply.json["code"] == "validation_error" and len(reply.body) < 400


def test_a_client_following_a_long_log_reconnects_and_gets_every_entry_once(short_streams: str) -> None:
    """A stream ends after its entry limit with a comment; reconnecting with Last-Event-ID goes on
    where it stopped, so a client that follows gets every entry exactly once."""
    client = Client(short_streams)
    created = client.post("/v1/sten/games", {"players": 2, "seed": "follow", "bots": [1]}).json
    gid, token = created["game_id"], created["seats"][0]["token"]
    version = created["version"]
    while version < 30:
        view = client.get(f"/v1/sten/games/{gid}", token=token).json
        if view["status"] != "active":
            break
        reply = client.post(f"/v1/sten/games/{gid}/moves", {"move": view["legal_moves"][0]}, token=token)
        assert reply.status == 200, reply.json
        version = reply.json["version"]
    got: list[dict] = []
    cut_by_limit = 0
    for _ in range(version):  # bounded: every connection brings at least one entry
        headers = {"Last-Event-ID": str(got[-1]["version"])} if got else {}
        stream = EventStream(short_streams, f"/v1/sten/games/{gid}/events" + ("" if got else "?since=0"),
                             token=token, headers=headers)
        this = 0
        while (not got or got[-1]["version"] < version) and (frame := stream.next()) is not None:
            if frame.event == "entry":
                got.append(frame.json)
                this += 1
            cut_by_limit += (frame.comment or "").startswith("entry limit")
            if frame.event == "end":
                break
        stream.close()
        assert 0 < this <= 7
        if got[-1]["version"] == version:
            break
    assert [e["version"] for e in got] == list(range(1, version + 1))
    assert got == client.get(f"/v1/sten/games/{gid}/log?limit={LOG_LIMIT_MAX}", token=token).json["entries"]
    assert cut_by_limit >= version // 7 - 1
