"""Streams need no pool connection each, and a burst waits its turn for one instead of failing.

A worker holds thousands of connections (gevent) but only CARDTABLE_REDIS_POOL connections to Redis.
Streams and long polls wait on their game's doorbell without a connection and re-read the store only
briefly after each ring; the re-reads of one game's streams after a move share one round trip, and
every other store call queues for a connection (up to the store timeout) rather than failing. Proven
with hundreds of spectator streams of one game on one gunicorn gevent worker with a pool of 10.
"""

from __future__ import annotations

import selectors
import socket
import threading
import time
from collections import Counter
from urllib.parse import urlsplit

import pytest

from tests.faults import call
from tests.http import Client
from tests.servers import gunicorn

pytestmark = pytest.mark.slow  # hundreds of streams at once

STREAMS = 300
POOL = 10


class Streams:
    """Many raw event-stream connections read by one selector (no thread per stream)."""

    def __init__(self, base: str, path: str, count: int) -> None:
        parts = urlsplit(base)
        self.selector = selectors.DefaultSelector()
        self.buffers: dict[socket.socket, bytes] = {}
        self.closed: set[socket.socket] = set()
        request = (f"GET {path} HTTP/1.1\r\nHost: {parts.hostname}\r\nAccept: text/event-stream\r\n\r\n").encode()
        for _ in range(count):
            sock = socket.create_connection((parts.hostname, parts.port), timeout=10)
            sock.sendall(request)
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ)
            self.buffers[sock] = b""

    def read_until(self, done: bytes, seconds: float) -> None:
        """Read every stream until each holds ``done`` or has closed (bounded by ``seconds``)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            pending = [s for s, b in self.buffers.items() if done not in b and s not in self.closed]
            if not pending:
                return
            for key, _ in self.selector.select(timeout=0.2):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                try:
                    chunk = sock.recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b""
                if chunk:
                    self.buffers[sock] += chunk
                else:
                    self.closed.add(sock)
                    self.selector.unregister(sock)

    def count(self, part: bytes) -> int:
        return sum(part in b for b in self.buffers.values())

    def close(self) -> None:
        for sock in self.buffers:
            if sock not in self.closed:
                self.selector.unregister(sock)
            sock.close()
        self.selector.close()


def test_a_move_reaches_hundreds_of_streams_of_one_game_through_a_pool_of_ten(redis_server) -> None:
    # the caps on streams per seat and per address (tested on their own) off: this is the pool's test
    env = {"CARDTABLE_REDIS_POOL": str(POOL), "CARDTABLE_WORKER_CONNECTIONS": "2000",
           "CARDTABLE_STREAMS_PER_SEAT": "0", "CARDTABLE_STREAMS_PER_ADDRESS": "0",
           "CARDTABLE_STORE_TIMEOUT": "1"}  # production's wait for a pool connection, not the tests' 5 s
    with gunicorn(redis_server.url, workers=1, extra_env=env) as url:
        client = Client(url)
        created = client.post("/v1/sten/games", {"players": 2}).json
        gid, tokens = created["game_id"], [s["token"] for s in created["seats"]]
        path = f"/v1/sten/games/{gid}"
        token, view = next((t, v) for t in tokens if (v := client.get(path, token=t).json)["legal_moves"])
        other = client.post("/v1/sten/games", {"players": 2}).json
        other_path, other_token = f"/v1/sten/games/{other['game_id']}", other["seats"][0]["token"]

        # another player keeps viewing their own game the whole time
        stop = threading.Event()
        views: Counter[int] = Counter()

        def bystander() -> None:
            while not stop.is_set():
                views[call(url, "GET", other_path, token=other_token).status] += 1

        watcher = threading.Thread(target=bystander)
        watcher.start()
        streams = Streams(url, f"{path}/events", STREAMS)  # all at once: a burst of stream openings
        try:
            streams.read_until(b": connected", 60)
            assert streams.count(b"HTTP/1.1 200") == STREAMS, "a stream opening was refused"
            assert streams.count(b": connected") == STREAMS and not streams.closed
            moved = client.post(f"{path}/moves", {"version": view["version"], "move": view["legal_moves"][0]},
                                token=token)
            assert moved.status == 200
            entry = b"id: %d\nevent: entry" % (view["version"] + 1)
            streams.read_until(entry, 60)
            assert not streams.closed, f"{len(streams.closed)} streams closed after one move"
            assert streams.count(entry) == STREAMS
        finally:
            stop.set()
            watcher.join(30)
            streams.close()
        assert views[200] > 0 and set(views) == {200}, views
