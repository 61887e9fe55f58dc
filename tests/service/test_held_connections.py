"""One client cannot hold the service's connections: a request must arrive in time, and event
streams and long polls are capped per seat and per address (counted in Redis across workers).

A hostile client on loopback against gunicorn (deploy/gunicorn.conf.py, gevent workers) on a real
Redis. The service trusts one proxy here, so each test names its own client address in
X-Forwarded-For (as deploy/nginx does) and starts with no slot held.
"""

from __future__ import annotations

import hashlib
import os
import signal
import socket
import threading
import time
import uuid
from collections.abc import Iterator

import pytest

from service.app import create_app
from service.config import Settings
from service.store import MemoryStore
from tests.http import Client, Reply
from tests.servers import gunicorn
from tests.sse import EventStream

KEEPALIVE = 0.5  # seconds between keep-alives, and so between a stream's slot renewals
PER_SEAT, PER_ADDRESS = 3, 5
ENV = {"CARDTABLE_STREAM_KEEPALIVE": str(KEEPALIVE), "CARDTABLE_STREAMS_PER_SEAT": str(PER_SEAT),
       "CARDTABLE_STREAMS_PER_ADDRESS": str(PER_ADDRESS), "CARDTABLE_BODY_TIMEOUT": "1",
       "CARDTABLE_TRUSTED_PROXIES": "1"}


@pytest.fixture(scope="module")
def url(redis_server) -> Iterator[str]:
    with gunicorn(redis_server.url, workers=2, extra_env=ENV) as base:
        yield base


def _address() -> dict[str, str]:
    n = uuid.uuid4().int
    return {"X-Forwarded-For": f"10.{n % 250}.{n // 250 % 250}.{n // 62500 % 250}"}


def _game(url: str) -> tuple[str, list[str]]:
    created = Client(url).post("/v1/sten/games", {"players": 2}, headers=_address()).json
    return created["game_id"], [s["token"] for s in created["seats"]]


def _connect(url: str) -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=20)
    return sock


def _read_until_closed(sock: socket.socket, limit: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection, and the seconds that took."""
    started, data = time.monotonic(), b""
    sock.settimeout(limit)
    while True:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            raise AssertionError(f"the connection was still open after {limit} s; got {data[:200]!r}") from None
        if not chunk:
            return data, time.monotonic() - started
        data += chunk


# --- reading a request ---------------------------------------------------------------------------

@pytest.mark.slow  # closed within 6 s of a 1 s deadline
@pytest.mark.parametrize("framing", ["Content-Length: 60000\r\n\r\n{\"move\":",
                                     "Transfer-Encoding: chunked\r\n\r\n8\r\n{\"move\":\r\n"])
def test_a_body_that_never_arrives_gets_408_and_the_connection_is_closed(url: str, framing: str) -> None:
    gid, tokens = _game(url)
    with _connect(url) as sock:
        sock.sendall(f"POST /v1/sten/games/{gid}/moves HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {tokens[0]}\r\n"
                     f"Content-Type: application/json\r\n{framing}".encode())
        data, took = _read_until_closed(sock, limit=10)
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 "), head
    assert b"content-type: application/problem+json" in head.lower()
    assert b'"code": "request_timeout"' in body
    assert took < 6, f"closed {took:.1f} s after the 1 s deadline"


@pytest.mark.slow  # cut within 6 s of a 1 s deadline
def test_a_trickled_body_is_cut_at_one_deadline_for_the_whole_body(url: str) -> None:
    with _connect(url) as sock:
        answer, ended, started = _trickle(sock)
    assert ended, "the trickle was still being read after 10 s"
    assert time.monotonic() - started < 6
    assert answer == b"" or answer.startswith(b"HTTP/1.1 408 "), answer[:200]


def _trickle(sock: socket.socket) -> tuple[bytes, bool, float]:
    sock.sendall(b"POST /v1/sten/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 60000\r\n\r\n")
    started, answer, ended = time.monotonic(), b"", False
    sock.settimeout(0.2)
    while time.monotonic() - started < 10 and not ended:
        try:
            sock.sendall(b" ")  # a byte every 0.2 s: each read is quick, the whole body never ends
            chunk = sock.recv(65536)
            answer, ended = answer + chunk, not chunk
        except TimeoutError:
            continue
        except OSError:  # the server closed while bytes were still coming: a reset may swallow its 408
            ended = True
    return answer, ended, started


@pytest.mark.slow  # cut within 10 s, after the 5 s keep-alive
def test_headers_that_never_end_are_cut(url: str) -> None:
    """gunicorn's gevent worker reads a request's line and headers within its keep-alive (5 s)."""
    with _connect(url) as sock:
        sock.sendall(b"GET /v1/games HTTP/1.1\r\nHost: x\r\n")
        data, took = _read_until_closed(sock, limit=15)
    assert data == b"" and took < 10


@pytest.mark.slow  # answered and closed within 10 s of a 1 s deadline
def test_every_one_of_many_stalled_bodies_is_answered_and_closed(url: str) -> None:
    """Bodies that never arrive once stayed open for more than 45 s, ~170 bytes each. Meanwhile the
    service answers others: a worker that read the 50 bodies one after the other would answer after
    25 s, far beyond the 15 s a loaded machine may take here."""
    stalled = []
    for _ in range(50):
        sock = _connect(url)
        sock.sendall(b"POST /v1/sten/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 60000\r\n\r\n")
        stalled.append(sock)
    started = time.monotonic()
    try:
        assert Client(url, timeout=15).get("/healthz").status == 200
        answers = [_read_until_closed(sock, limit=15)[0] for sock in stalled]
    finally:
        for sock in stalled:
            sock.close()
    assert all(a.startswith(b"HTTP/1.1 408 ") for a in answers)
    assert time.monotonic() - started < 10


# --- streams and long polls --------------------------------------------------------------------

def _stream(url: str, gid: str, token: str | None, address: dict[str, str]) -> EventStream:
    return EventStream(url, f"/v1/sten/games/{gid}/events", token=token, headers=address)


def _refused(stream: EventStream) -> None:
    assert stream.status == 429, stream.status
    assert stream.response_headers["content-type"] == "application/problem+json"
    body = stream.response.read()
    assert b'"code": "too_many_streams"' in body
    assert int(stream.response_headers["retry-after"]) >= 1
    stream.close()


def _opens_within(url: str, gid: str, token: str | None, address: dict[str, str], limit: float) -> float:
    """Seconds until a stream opens (a refused one is retried every 0.1 s), at most ``limit``."""
    started = time.monotonic()
    while time.monotonic() - started < limit:
        stream = _stream(url, gid, token, address)
        if stream.status == 200:
            stream.close()
            return time.monotonic() - started
        _refused(stream)
        time.sleep(0.1)
    raise AssertionError(f"no slot came free within {limit} s")


def test_a_seat_holds_at_most_its_cap_of_streams_and_closing_one_frees_a_slot(url: str, redis_server) -> None:
    gid, tokens = _game(url)
    address = _address()
    streams = [_stream(url, gid, tokens[0], address) for _ in range(PER_SEAT)]
    assert [s.status for s in streams] == [200] * PER_SEAT
    _refused(_stream(url, gid, tokens[0], address))
    other = _stream(url, gid, tokens[1], address)  # the other seat has its own slots
    assert other.status == 200
    other.close()
    key = f"cardtable:held:{{seat:{hashlib.sha256(tokens[0].encode()).hexdigest()}}}"
    assert redis_server.cli("zcard", key).strip() == str(PER_SEAT)
    streams.pop().close()
    # Given back by the stream when it next writes (a keep-alive), not left to its lease's end: Redis
    # drops an ended lease only when a slot of the seat is next taken, and nothing takes one here, so
    # the seat's count falls only by the stream's own release (a wall-clock bound between one
    # keep-alive and a lease of three could not tell the two apart on a loaded machine).
    deadline = time.monotonic() + 10
    while redis_server.cli("zcard", key).strip() != str(PER_SEAT - 1):
        assert time.monotonic() < deadline, "the closed stream did not give its slot back"
        time.sleep(0.05)
    _opens_within(url, gid, tokens[0], address, limit=10)
    for stream in streams:
        stream.close()


def test_an_address_holds_at_most_its_cap_of_streams_made_up_tokens_included(url: str) -> None:
    gid, tokens = _game(url)
    address = _address()
    streams = [_stream(url, gid, None, address) for _ in range(PER_ADDRESS)]
    assert [s.status for s in streams] == [200] * PER_ADDRESS
    _refused(_stream(url, gid, None, address))
    _refused(_stream(url, gid, tokens[0], address))  # a real seat, but its address is full
    made_up = _stream(url, gid, "x" * 32, address)
    assert made_up.status == 401
    made_up.close()
    elsewhere = _stream(url, gid, None, _address())  # another address is not affected
    assert elsewhere.status == 200
    for stream in [*streams, elsewhere]:
        stream.close()


def test_long_polls_hold_the_same_slots_while_they_wait(url: str) -> None:
    gid, tokens = _game(url)
    address = _address()
    path = f"/v1/sten/games/{gid}"
    first = Client(url).get(path, token=tokens[0], headers=address)
    tag, mover = first.headers["etag"], tokens[first.json["to_move"][0]]
    answers: list[Reply] = []

    def poll() -> None:
        answers.append(Client(url).get(f"{path}?wait=20", token=tokens[0], headers={**address, "If-None-Match": tag}))

    polls = [threading.Thread(target=poll) for _ in range(PER_SEAT)]
    for thread in polls:
        thread.start()
    time.sleep(1)  # all three are waiting
    refused = Client(url).get(f"{path}?wait=20", token=tokens[0], headers={**address, "If-None-Match": tag})
    assert refused.status == 429 and refused.json["code"] == "too_many_streams"
    _refused(_stream(url, gid, tokens[0], address))
    # a plain view is no long poll: it holds nothing and goes on
    move = Client(url).get(path, token=mover, headers=address).json["legal_moves"][0]
    assert Client(url).post(f"{path}/moves", {"move": move}, token=mover, headers=address).status == 200
    for thread in polls:
        thread.join(20)
    assert sorted(a.status for a in answers) == [200] * PER_SEAT
    stream = _stream(url, gid, tokens[0], address)  # answered polls gave their slots back
    assert stream.status == 200
    stream.close()


@pytest.mark.slow  # leases of 6 s run out
def test_slots_of_a_killed_worker_come_free_when_their_leases_end(redis_server) -> None:
    keepalive = 2.0  # a lease of 6 s: long enough to see the slots outlive their worker
    env = {**ENV, "CARDTABLE_STREAM_KEEPALIVE": str(keepalive)}
    with gunicorn(redis_server.url, workers=1, extra_env=env) as url:
        gid, tokens = _game(url)
        address = _address()
        streams = [_stream(url, gid, tokens[0], address) for _ in range(PER_SEAT)]
        assert [s.status for s in streams] == [200] * PER_SEAT
        (worker,) = url.workers()  # type: ignore[attr-defined]
        killed = time.monotonic()
        os.kill(worker, signal.SIGKILL)
        key = f"cardtable:held:{{seat:{hashlib.sha256(tokens[0].encode()).hexdigest()}}}"
        assert redis_server.cli("zcard", key).strip() == str(PER_SEAT), "a killed worker gives nothing back"
        _opens_within(url, gid, tokens[0], address, limit=30)
        assert time.monotonic() - killed <= keepalive * 3 + 10, "the slots outlived their leases"
        for stream in streams:
            stream.close()


def test_the_in_process_store_counts_streams_in_the_process() -> None:
    """``cardtable serve`` without Redis: the same caps, counted in the one process."""
    app = create_app(Settings(streams_per_seat=2, streams_per_address=0, request_log=False), store=MemoryStore())
    client = app.test_client()
    created = client.post("/v1/sten/games", json={"players": 2}).json
    path = f"/v1/sten/games/{created['game_id']}/events"
    auth = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    streams = [client.get(path, headers=auth, buffered=False) for _ in range(2)]
    assert [s.status_code for s in streams] == [200, 200]
    refused = client.get(path, headers=auth, buffered=False)
    assert refused.status_code == 429 and refused.json["code"] == "too_many_streams"
    streams.pop().close()  # a closed stream gives its slot back at once
    again = client.get(path, headers=auth, buffered=False)
    assert again.status_code == 200
    for stream in (*streams, again, refused):
        stream.close()


def test_a_head_request_on_a_stream_holds_nothing_after_it() -> None:
    """A HEAD is answered without its body: the stream's generator never starts, and what the
    request took (its slots, its subscription to the game) must be given back all the same."""
    app = create_app(Settings(streams_per_seat=1, streams_per_address=0, request_log=False), store=MemoryStore())
    client = app.test_client()
    created = client.post("/v1/sten/games", json={"players": 2}).json
    path = f"/v1/sten/games/{created['game_id']}/events"
    auth = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    for _ in range(3):
        head = client.head(path, headers=auth)
        assert head.status_code == 200
        head.close()
    assert app.extensions["cardtable"].store.hub.waiting == 0
    stream = client.get(path, headers=auth, buffered=False)  # the seat's one slot is free
    assert stream.status_code == 200
    stream.close()
