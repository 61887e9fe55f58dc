"""deploy/nginx in front of a real gunicorn, on loopback: slow requests are cut before gunicorn sees
them, streams pass through unbuffered, one address is capped in requests a second and in requests in
progress (a flood is refused before gunicorn sees it), and nginx's own errors are problem+json.

The config is the shipped one with ports and file paths replaced (tests/nginx.py). Debian's nginx
is installed by tests/run.sh; the tests skip only where it cannot be. Clients use several loopback
source addresses (127.0.0.x) so that each test is its own client address to nginx and the service.
"""

from __future__ import annotations

import http.client
import json
import re
import socket
import subprocess
import threading
import time
from collections.abc import Iterator

import pytest

from service.observability import FLUSH_SECONDS
from tests import nginx
from tests.http import Client
from tests.servers import RedisServer, free_port, gunicorn
from tests.sse import EventStream

if nginx.binary() is None:
    pytest.skip("nginx is not installed (tests/run.sh installs Debian's)", allow_module_level=True)

SITE = (nginx.NGINX / "cardtable.conf").read_text()
RATE = 150  # requests per minute per address at the service: high enough for every test but one
KEEPALIVE = 6  # seconds between a stream's keep-alives (a stream's entry must not wait for one)


def _directive(name: str) -> str:
    (value,) = re.findall(rf"^\s*{name}\s+([^;]+);", SITE, re.M)
    return value.strip()


def _request_rate() -> tuple[int, int, int]:
    """nginx's limit_req per address: requests a second, how many over it are answered at once, and
    the burst (those between the two are delayed to the rate; past the burst, refused)."""
    rate = re.fullmatch(r"\$binary_remote_addr zone=cardtable_rate:\S+ rate=(\d+)r/s", _directive("limit_req_zone"))
    burst = re.fullmatch(r"zone=cardtable_rate burst=(\d+) delay=(\d+)", _directive("limit_req"))
    assert rate and burst, "limit_req_zone and limit_req as these tests know them"
    return int(rate.group(1)), int(burst.group(2)), int(burst.group(1))


def _paced(count: int) -> Iterator[int]:
    """``range(count)`` at 80 % of nginx's per-address rate: a test's many requests from one address
    that must not meet nginx's rate limit."""
    rate, _, _ = _request_rate()
    started = time.monotonic()
    for n in range(count):
        time.sleep(max(0.0, started + n / (0.8 * rate) - time.monotonic()))
        yield n


@pytest.fixture(scope="module")
def stack() -> Iterator[tuple[str, str]]:
    """(nginx's URL, gunicorn's URL). The service trusts one proxy, as it must behind nginx; its own
    stream caps are off here so that nginx's limit is the one met; its own body deadline is longer
    than nginx's, so a slow body that got through would be seen by gunicorn."""
    redis = RedisServer()
    redis.start()
    env = {"CARDTABLE_TRUSTED_PROXIES": "1", "CARDTABLE_RATE_LIMIT": f"{RATE}/m", "CARDTABLE_BODY_TIMEOUT": "60",
           "CARDTABLE_STREAMS_PER_ADDRESS": "0", "CARDTABLE_STREAMS_PER_SEAT": "0",
           "CARDTABLE_STREAM_KEEPALIVE": str(KEEPALIVE)}
    try:
        with gunicorn(redis.url, workers=2, extra_env=env) as upstream:
            proxy = nginx.Nginx(int(upstream.rsplit(":", 1)[1]))
            proxy.start()
            try:
                yield proxy.url, upstream
            finally:
                proxy.cleanup()
    finally:
        redis.cleanup()


def _connect(url: str, source: str = "127.0.0.1") -> socket.socket:
    port = int(url.rsplit(":", 1)[1])
    return socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))


def _raw(url: str, request: bytes, source: str = "127.0.0.1", limit: float = 30) -> tuple[bytes, float]:
    """Send ``request`` and read until nginx closes the connection: what came, and the seconds it took."""
    with _connect(url, source) as sock:
        started, data = time.monotonic(), b""
        sock.sendall(request)
        sock.settimeout(limit)
        while chunk := sock.recv(65536):
            data += chunk
        return data, time.monotonic() - started


def _problem(data: bytes) -> tuple[int, dict[str, str], dict]:
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    assert headers["content-type"] == "application/problem+json", head
    return int(lines[0].split()[1]), headers, json.loads(body)


def _requests_seen(upstream: str, method: str) -> float:
    """Requests of ``method`` gunicorn has answered, from its /metrics, once every worker has written
    what it counted (each writes its counts at most ``FLUSH_SECONDS`` late: the worker that answers the
    scrape need not be the one that answered the requests)."""
    time.sleep(FLUSH_SECONDS + 0.5)
    text = Client(upstream).get("/metrics").body.decode()
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith("cardtable_requests_total{") and f'method="{method}"' in line)


def _posts_seen(upstream: str) -> float:
    return _requests_seen(upstream, "POST")


def _read_answers(sock: socket.socket, count: int) -> list[tuple[int, dict[str, str], bytes]]:
    """``count`` answers with a Content-Length read off ``sock``: (status, headers, body)."""
    sock.settimeout(30)
    buffer, answers = b"", []
    while len(answers) < count:
        while b"\r\n\r\n" not in buffer:
            chunk = sock.recv(65536)
            assert chunk, f"the connection closed after {len(answers)} answers"
            buffer += chunk
        head, _, buffer = buffer.partition(b"\r\n\r\n")
        lines = head.decode().split("\r\n")
        headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        length = int(headers["content-length"])
        while len(buffer) < length:
            chunk = sock.recv(65536)
            assert chunk, "the connection closed inside an answer"
            buffer += chunk
        answers.append((int(lines[0].split()[1]), headers, buffer[:length]))
        buffer = buffer[length:]
    return answers


def test_the_shipped_config_is_valid_nginx() -> None:
    proxy = nginx.Nginx(free_port())
    try:
        checked = subprocess.run(proxy.command("-t"), capture_output=True, text=True, timeout=30)
    finally:
        proxy.cleanup()
    assert checked.returncode == 0, checked.stderr


@pytest.mark.slow  # nginx's own client timeouts run out
def test_slow_requests_are_cut_by_nginx_and_never_reach_gunicorn(stack) -> None:
    url, upstream = stack
    header_timeout = int(_directive("client_header_timeout").removesuffix("s"))
    body_timeout = int(_directive("client_body_timeout").removesuffix("s"))
    before = _posts_seen(upstream)
    slow_head = _connect(url)
    slow_head.sendall(b"POST /v1/sten/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n")
    slow_body = _connect(url)
    slow_body.sendall(b"POST /v1/sten/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 60000\r\n\r\n{\"players\": 2")
    started = time.monotonic()
    for sock, timeout in ((slow_head, header_timeout), (slow_body, body_timeout)):
        with sock:
            sock.settimeout(timeout + 10)
            assert sock.recv(65536) == b"", "nginx closes a client that runs out of time, without an answer"
        assert time.monotonic() - started < max(header_timeout, body_timeout) + 5
    assert _posts_seen(upstream) == before, "gunicorn saw a request nginx was still reading"
    created = Client(url).post("/v1/sten/games", {"players": 2})  # and a request sent whole goes through
    assert created.status == 201
    assert _posts_seen(upstream) == before + 1


def test_a_stream_passes_through_nginx_as_it_is_written(stack) -> None:
    url, _ = stack
    client = Client(url)
    created = client.post("/v1/sten/games", {"players": 2}).json
    gid, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    stream = EventStream(url, f"/v1/sten/games/{gid}/events", token=tokens[0], timeout=KEEPALIVE - 2)
    try:
        assert stream.status == 200 and stream.response_headers["content-type"].startswith("text/event-stream")
        assert stream.next().comment == "connected"
        view = client.get(f"/v1/sten/games/{gid}", token=tokens[0]).json
        mover = tokens[view["to_move"][0]]
        move = client.get(f"/v1/sten/games/{gid}", token=mover).json["legal_moves"][0]
        assert client.post(f"/v1/sten/games/{gid}/moves", {"move": move}, token=mover).status == 200
        # the next keep-alive is seconds away: only a stream nginx does not hold back delivers this now
        frame = stream.next()
        assert frame is not None and frame.event == "entry" and frame.json["version"] == 1
    finally:
        stream.close()


class _Stream:
    """One request on its own connection from ``source``, left open (an event stream, or its refusal)."""

    def __init__(self, url: str, path: str, source: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", int(url.rsplit(":", 1)[1]), timeout=10,
                                               source_address=(source, 0))
        self.conn.request("GET", path, headers={"Accept": "text/event-stream"})
        self.response = self.conn.getresponse()
        self.status = self.response.status

    def close(self) -> None:
        self.response.close()
        self.conn.close()


def test_one_address_has_at_most_the_limit_of_requests_in_progress(stack) -> None:
    url, _ = stack
    limit = int(re.fullmatch(r"cardtable_addr (\d+)", _directive("limit_conn")).group(1))  # type: ignore[union-attr]
    gid = Client(url).post("/v1/sten/games", {"players": 2}).json["game_id"]
    path = f"/v1/sten/games/{gid}/events"
    source = "127.0.0.2"
    streams = [_Stream(url, path, source) for _ in _paced(limit)]
    try:
        assert {s.status for s in streams} == {200}
        refused = _Stream(url, path, source)
        answer = refused.response
        assert refused.status == 429 and answer.getheader("Content-Type") == "application/problem+json"
        assert json.loads(answer.read())["code"] == "too_many_connections"
        assert int(answer.getheader("Retry-After") or 0) >= 1
        refused.close()
        other = _Stream(url, path, "127.0.0.3")  # another address is not affected
        assert other.status == 200
        other.close()
        streams.pop().close()
        deadline = time.monotonic() + 10
        while (again := _Stream(url, path, source)).status != 200:  # the closed one's place is free
            again.close()
            assert time.monotonic() < deadline, "a closed stream kept its place"
            time.sleep(0.1)
        streams.append(again)
    finally:
        for stream in streams:
            stream.close()


@pytest.mark.parametrize(("request_bytes", "status", "code"), [
    (b"NOT HTTP\r\n\r\n", 400, "bad_request"),
    (b"POST /v1/sten/games HTTP/1.1\r\nHost: x\r\nContent-Length: 70000\r\nConnection: close\r\n\r\n",
     413, "payload_too_large"),
    (b"GET /v1/games?" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "uri_too_long"),
    (b"GET /v1/games HTTP/1.1\r\nHost: x\r\nX-Long: " + b"a" * 9000 + b"\r\n\r\n", 431, "header_too_large"),
])
def test_nginx_answers_its_own_errors_as_problem_json(stack, request_bytes: bytes, status: int, code: str) -> None:
    url, _ = stack
    data, _ = _raw(url, request_bytes)
    got, _, body = _problem(data)
    assert (got, body["status"], body["code"]) == (status, status, code)
    assert body["type"] == f"urn:cardtable:problem:{code}" and body["title"] and body["detail"]


def test_when_gunicorn_is_down_nginx_answers_503_problem_json() -> None:
    proxy = nginx.Nginx(free_port())  # nothing listens there
    proxy.start()
    try:
        status, headers, body = _problem(_raw(proxy.url, b"GET /v1/games HTTP/1.1\r\nHost: x\r\n"
                                                         b"Connection: close\r\n\r\n")[0])
    finally:
        proxy.cleanup()
    assert (status, body["code"]) == (503, "service_unavailable") and int(headers["retry-after"]) >= 1


def test_the_service_answers_its_own_problems_through_nginx_unchanged(stack) -> None:
    url, upstream = stack
    direct = Client(upstream).get("/v1/sten/games/nosuchgame")
    proxied = Client(url).get("/v1/sten/games/nosuchgame")
    assert proxied.status == direct.status == 404
    assert proxied.content_type == "application/problem+json"
    assert proxied.json["code"] == direct.json["code"] == "game_not_found"


def test_a_forged_x_forwarded_for_does_not_make_a_new_client(stack) -> None:
    """nginx replaces the header with the client's address, which the service counts by."""
    url, _ = stack
    port = int(url.rsplit(":", 1)[1])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=("127.0.0.4", 0))
    statuses = []
    try:
        for n in _paced(RATE + 1):
            conn.request("GET", "/v1/games", headers={"X-Forwarded-For": f"10.9.{n // 250}.{n % 250}"})
            answer = conn.getresponse()
            answer.read()
            statuses.append(answer.status)
    finally:
        conn.close()
    assert statuses == [200] * RATE + [429]


def test_a_flood_from_one_address_is_refused_by_nginx_before_gunicorn_sees_it(stack) -> None:
    """Past its burst, one address gets nginx's rate: the rest of a flood sent at once is answered
    429 rate_limited by nginx itself (no X-Request-Id: the service never saw it), as problem+json
    with Retry-After; gunicorn counts only what nginx let through; another address is not affected."""
    url, upstream = stack
    rate, _, burst = _request_rate()
    flood = 2 * burst
    before = _requests_seen(upstream, "GET")
    started = time.monotonic()
    socks = [_connect(url, "127.0.0.6") for _ in range(flood)]
    try:
        for sock in socks:  # all in flight at once
            sock.sendall(b"GET /v1/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        answers = [_read_answers(sock, 1)[0] for sock in socks]
    finally:
        for sock in socks:
            sock.close()
    elapsed = time.monotonic() - started
    other, _ = _raw(url, b"GET /v1/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "127.0.0.7")
    # the service answers carry its X-Request-Id; nginx's own refusals do not
    refused = [(headers, json.loads(body)) for status, headers, body in answers
               if status == 429 and "x-request-id" not in headers]
    for headers, problem in refused:
        assert headers["content-type"] == "application/problem+json" and int(headers["retry-after"]) >= 1
        # past the burst the rate refuses; within it, on a slow machine the delayed requests can
        # also reach the limit of requests in progress, which refuses the same way
        assert problem["status"] == 429 and problem["code"] in ("rate_limited", "too_many_connections")
    over_rate = [problem for _, problem in refused if problem["code"] == "rate_limited"]
    assert len(over_rate) >= flood - burst - rate * elapsed - 1
    assert all(f"{rate} requests a second" in problem["detail"] for problem in over_rate)
    seen = _requests_seen(upstream, "GET") - before
    assert seen <= burst + rate * elapsed + 3, f"gunicorn saw {seen} of the flood"  # + the scrape, the other
    assert other.startswith(b"HTTP/1.1 200 "), "another address is not affected"


def test_a_client_that_asks_again_at_once_is_slowed_to_the_rate_not_answered_faster(stack) -> None:
    """A client that sends its next request as soon as one is answered (a closed loop, as most
    scripts are) gets the requests over the rate delayed, not refused: it ends up at nginx's rate,
    costing nothing while it waits, where refusals would be answered as fast as it asks."""
    url, _ = stack
    rate, at_once, burst = _request_rate()
    connections, seconds = 8, 3.0
    assert connections < burst - at_once, "never more in flight than nginx delays"
    statuses: list[int] = []
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def loop() -> None:
        with _connect(url, "127.0.0.8") as sock:
            while time.monotonic() < deadline:
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")  # exempt from the service's limit
                ((status, _, _),) = _read_answers(sock, 1)
                with lock:
                    statuses.append(status)

    threads = [threading.Thread(target=loop) for _ in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 30)
    assert set(statuses) == {200}, "delayed, never refused"
    # at most: the first request and `at_once` more at once (nginx's bucket starts empty), `rate` a
    # second after them, and on each connection one request sent before the deadline and answered after
    assert at_once < len(statuses) <= 1 + at_once + rate * seconds + connections, len(statuses)


def test_nginx_rate_is_well_above_the_service_rate_per_seat() -> None:
    """Seats behind one address (a NAT) each have the service's rate; nginx's per address must leave
    them room, and bound what one address sends in all."""
    from service.ratelimit import Rate

    shipped = re.search(r'setdefault\("CARDTABLE_RATE_LIMIT", "([^"]+)"\)',
                        (nginx.NGINX.parent / "gunicorn.conf.py").read_text())
    assert shipped
    per_seat = Rate.parse(shipped.group(1))
    rate, at_once, burst = _request_rate()
    assert rate >= 2 * per_seat.limit / per_seat.window and burst > at_once >= rate
