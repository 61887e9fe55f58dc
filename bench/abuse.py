"""What one hostile client costs a normal player: the player's latency without and with each attack.

``python -m bench.abuse [--attack all|NAME,NAME...] [--seconds 10] [--workers 2] [--connections 16] [--held N]
[--attacker-nice 10] [--streams 3000] [--rate 15] [--replay-entries 4000] [--build-seconds 30] [--no-nginx]
[--log-dir DIR]``

One run starts one redis-server and the service as deployed: ``gunicorn -c deploy/gunicorn.conf.py
'service.app:create_app()'`` (gevent workers, the rate limit as shipped, fixed deals off, every other
``CARDTABLE_*`` setting left at its default) on spare loopback ports, and deploy/nginx in front of it
as deploy/compose.yaml runs it: the shape production must run. ``--no-nginx`` measures gunicorn alone
(what the service's own limits do, behind a proxy that sets none). Three loopback addresses stand for
three machines: the normal player connects from 127.0.0.2, the hostile client from 127.0.0.3, and
this process (setup, ``/metrics`` scrapes) from 127.0.0.4, so per-address limits count each apart as
they would on a network. The hostile process runs at niceness ``--attacker-nice`` (10): on a network
its CPU would not be the server's, and on one 2-core machine its reconnect storms would otherwise
take the cores the servers need (its CPU seconds are printed all the same).

The normal player plays Sten against a bot (2 players, the bot at the default level) with its own
seat token: it reads its view, posts the first listed legal move with the version it read, reads the
view again, and starts a new game when one ends; at most ``--rate`` requests a second (under the
per-seat rate limit), one at a time on fresh connections, each request's latency measured from
connect to the last byte. It plays from start to end of the run. For each attack the run then has

1. a quiet window (``--seconds``): the player alone;
2. the attack: one hostile client process starts it, and after a ramp (up to 2 s, not counted) the
   attack window (``--seconds``) is measured; then the attacker stops and closes every connection;
3. a cool-down (up to 2 s, not counted).

The attacks, in the order ``all`` runs them (all from the one hostile address, each bounded in count
and time):

- ``tokens``: rate-limit dodging, a closed-loop burst (``--connections`` keep-alive connections) of
  catalogue reads and creates, each with a fresh random ``Authorization: Bearer`` token;
- ``slow-body``: held connections, requests announcing ``Content-Length: 60000`` whose body never
  comes (moves with the attacker's seat token and creates, alternately), up to ``--held`` at once,
  each reopened as soon as the server answers or closes it;
- ``methods``: metrics label spam, requests with random upper-case method names (``/metrics`` is
  read before and after: its size and its request series);
- ``replays``: ``GET .../events?since=0`` on a long game, over and over on ``--connections``
  connections, with the game's seat tokens in turn. The long game is built beforehand through the
  API: 8 human seats of the attacker saying "Stein" (``allow_voluntary_stein``) until it holds
  ``--replay-entries`` entries or ``--build-seconds`` have passed;
- ``creates``: a storage flood, 8-player games created with fresh random tokens (the Redis keys
  and memory are read before and after);
- ``malformed``: deeply nested JSON bodies (past the parser's depth and just under it) and
  malformed chunked bodies (bad sizes, a body cut short, a missing terminator), each on a fresh
  connection, on the attacker's game and on create;
- ``streams``: ``--streams`` event streams of one game opened and held from the one address (last:
  its slots outlive its connections until the server next writes to them).

A hung store is not an attack of this bench (tests/service cover it).

It prints per attack: the player's p50/p99 in the quiet window and in the attack window, the p99
ratio (goal: <= 2.0, PASS/FAIL), the player's requests and those answered with an error (anything
but 2xx and the expected 409s, a timeout included), and what the attacker achieved; below it the
player's slowest requests, the CPU seconds of each server and of the attacker, and gunicorn's worker
recycling (max_requests) per attack. A benchmark, not a test: it exits 0 whatever the figures.
Every process it starts is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing
import os
import random
import re
import resource
import shutil
import signal
import socket
import string
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from datetime import datetime
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from bench.engines import percentile
from bench.http import cpu_seconds, redis_server, stop
from tests.servers import free_port, wait_for_port

ROOT = Path(__file__).resolve().parent.parent
PLAYER = "127.0.0.2"
ATTACKER = "127.0.0.3"
OBSERVER = "127.0.0.4"
GAME = "sten"
#: Seconds one request may take before the client gives up (counted as an error, status -1).
SOCKET_TIMEOUT = 10.0
#: gunicorn's gevent worker serves at most this many connections at once (deploy/gunicorn.conf.py).
WORKER_CONNECTIONS = 4000
#: Event streams the attacker tries to open a second: 20/s for each of its long game's 8 seats
#: and its address, about what the shipped rate limit lets one client open.
STREAM_OPENS = 180
#: Seconds the malformed-input attacker waits for an answer before it moves on (a body that
#: announces more than it sends is held; holding is the slow-body attack's part).
MALFORMED_PATIENCE = 2.0
#: The p99 ratio (attack / quiet) the service should stay within.
GOAL = 2.0
#: In the order they run: ``streams`` last, since the stream slots it takes outlive its connections
#: by up to two keep-alive intervals (the server learns of a closed stream when a write fails), and
#: ``replays`` opens streams from the same address.
ATTACKS = ("tokens", "slow-body", "methods", "replays", "creates", "malformed", "streams")


# --- the service as deployed ---------------------------------------------------------------------


_LOGGED = rb"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4})\] \[\d+\] \[INFO\] "
#: gunicorn's log lines of a worker's recycling: it stops accepting (after max_requests), and a new
#: one boots once the old one has exited (its open connections done, or graceful_timeout over).
RECYCLING = re.compile(_LOGGED + rb"Autorestarting worker", re.M)
BOOTING = re.compile(_LOGGED + rb"Booting worker", re.M)


@dataclass
class Server:
    """The service's gunicorn: its port, its master process and the file its log goes to."""

    port: int
    proc: subprocess.Popen[bytes]
    log: Any

    def text(self) -> bytes:
        # pread: the offset is shared with gunicorn, which writes to the same open file
        return os.pread(self.log.fileno(), os.fstat(self.log.fileno()).st_size, 0)

    def logged(self, line: re.Pattern[bytes]) -> list[float]:
        """When gunicorn logged ``line`` (wall clock, whole seconds)."""
        return [datetime.strptime(m.group(1).decode(), "%Y-%m-%d %H:%M:%S %z").timestamp()
                for m in line.finditer(self.text())]


@contextmanager
def service(redis_url: str, workers: int, behind_proxy: bool, keep: Path | None = None) -> Iterator[Server]:
    """``gunicorn -c deploy/gunicorn.conf.py 'service.app:create_app()'`` on a spare port with every
    ``CARDTABLE_*`` setting at the deployment's default (the caller's environment is not passed on);
    only the store, the address and the worker count are set, and behind nginx
    ``CARDTABLE_TRUSTED_PROXIES=1`` as deploy/compose.yaml sets it. The log goes to a temporary file."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CARDTABLE_", "REDIS_", "PROMETHEUS_"))}
    env.update({"REDIS_URL": redis_url, "CARDTABLE_BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": str(workers)})
    if behind_proxy:
        env["CARDTABLE_TRUSTED_PROXIES"] = "1"
    errlog = tempfile.TemporaryFile()  # noqa: SIM115 -- closed below, after the server stops
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy" / "gunicorn.conf.py"),
                             "service.app:create_app()"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=errlog)
    server = Server(port, proc, errlog)
    try:
        wait_for_port(port, proc)
        yield server
    finally:
        # quick: the streams attack leaves streams open, and a graceful stop would wait for them
        stop(proc, signal.SIGINT)
        text = server.text().decode(errors="replace")
        errlog.close()
        if keep is not None:
            (keep / "gunicorn.log").write_text(text)
        tracebacks = text.count("Traceback")
        if tracebacks:
            first = text.index("Traceback")
            print(f"\ngunicorn logged {tracebacks} traceback(s); the first:\n{text[first:first + 2500]}",
                  file=sys.stderr)


@contextmanager
def proxy(upstream: int, keep: Path | None = None) -> Iterator[tuple[int, int]]:
    """deploy/nginx as shipped (tests/nginx.py replaces only its ports and paths) in front of the
    service; yields nginx's port and its master's pid."""
    from tests.nginx import Nginx, binary

    if binary() is None:
        raise SystemExit("nginx is not installed (apt-get install nginx), or run with --no-nginx")
    front = Nginx(upstream)
    front.start()
    try:
        assert front.proc is not None
        yield front.port, front.proc.pid
    finally:
        front.stop()
        if keep is not None and front.log.exists():
            shutil.copy(front.log, keep / "nginx-error.log")
        front.cleanup()


def raise_file_limit() -> int:
    """The soft limit of open files up to the hard one (held connections need thousands); the
    servers started after this inherit it. Returns the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        return hard
    return soft


# --- plain HTTP from one address -------------------------------------------------------------------


def request_bytes(method: str, path: str, port: int, token: str | None = None, body: bytes | None = None,
                  close: bool = True, extra: Sequence[str] = ()) -> bytes:
    head = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}"]
    if close:
        head.append("Connection: close")
    if token:
        head.append(f"Authorization: Bearer {token}")
    if body is not None:
        head += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    head += extra
    return ("\r\n".join(head) + "\r\n\r\n").encode() + (body or b"")


def call(port: int, source: str, method: str, path: str, token: str | None = None, body: Any = None,
         timeout: float = SOCKET_TIMEOUT) -> tuple[int, bytes]:
    """One request on a fresh connection from ``source``: (status, body); -1 when the connection
    failed or timed out, 0 when the answer was not HTTP."""
    payload = request_bytes(method, path, port, token, None if body is None else json.dumps(body).encode())
    chunks = []
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0)) as s:
            s.sendall(payload)
            while chunk := s.recv(65536):
                chunks.append(chunk)
    except OSError:
        return -1, b""
    raw = b"".join(chunks)
    if raw[:5] != b"HTTP/" or len(raw) < 12:
        return 0, b""
    return int(raw[9:12]), raw.partition(b"\r\n\r\n")[2]


def keepalive(port: int, source: str) -> http.client.HTTPConnection:
    return http.client.HTTPConnection("127.0.0.1", port, timeout=SOCKET_TIMEOUT, source_address=(source, 0))


def api(conn: http.client.HTTPConnection, method: str, path: str, token: str | None = None,
        body: Any = None) -> tuple[int, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    conn.request(method, path, body=data, headers=headers)
    resp = conn.getresponse()
    payload = resp.read()
    try:
        return resp.status, json.loads(payload) if payload else None
    except ValueError:
        return resp.status, None


# --- the normal player ---------------------------------------------------------------------------


def player(port: int, rate: float, stop_event: Any, out: Connection) -> None:
    """Play Sten against a bot until ``stop_event`` is set; send back every request as
    (start, seconds, status, kind)."""
    samples: list[tuple[float, float, int, str]] = []
    interval = 1.0 / rate
    game = token = None
    version = 0
    legal: list[Any] = []
    need_view = True
    last_start = -1e9
    deadline = time.monotonic() + 3600  # bound even if nobody stops it
    while not stop_event.is_set() and time.monotonic() < deadline:
        wait = last_start + interval - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        start = last_start = time.monotonic()
        if game is None:
            kind = "create"
            status, body = call(port, PLAYER, "POST", f"/v1/{GAME}/games", body={"players": 2, "bots": [1]})
            if status == 201:
                created = json.loads(body)
                game, token, need_view = created["game_id"], created["seats"][0]["token"], True
        elif need_view or not legal:
            kind = "view"
            status, body = call(port, PLAYER, "GET", f"/v1/{GAME}/games/{game}", token)
            if status == 200:
                view = json.loads(body)
                version, legal, need_view = view["version"], view["legal_moves"], False
                if view["status"] != "active" or not legal:
                    game = None
        else:
            kind = "move"
            status, body = call(port, PLAYER, "POST", f"/v1/{GAME}/games/{game}/moves", token,
                                {"version": version, "move": legal[0]})
            need_view = True
            if status == 200 and json.loads(body)["status"] != "active":
                game = None
        samples.append((start, time.monotonic() - start, status, kind))
    out.send(samples)
    out.close()


def is_error(status: int) -> bool:
    """An answer the player should not get: anything but 2xx and the expected 409s (a timeout too)."""
    return not (200 <= status < 300 or status == 409)


# --- the hostile client: async HTTP from its one address -----------------------------------------


@dataclass
class Tally:
    """What an attack did: answers by status (-1: no answer, timeout or reset) and named counts."""

    statuses: Counter[int] = field(default_factory=Counter)
    counts: Counter[str] = field(default_factory=Counter)
    cpu: float = 0.0  # CPU seconds of the attacker's process

    def total(self) -> int:
        return sum(self.statuses.values())


async def connect(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port, local_addr=(ATTACKER, 0)), 5.0)


def close_quietly(writer: asyncio.StreamWriter | None) -> None:
    if writer is not None:
        with suppress(Exception):
            writer.transport.abort()


_LENGTH = re.compile(rb"\r\ncontent-length:[ \t]*(\d+)")


async def read_answer(reader: asyncio.StreamReader) -> tuple[int, bool]:
    """One answer's status, its body read and dropped; True when the connection cannot be reused."""
    head = (await reader.readuntil(b"\r\n\r\n")).lower()
    status = int(head[9:12]) if head.startswith(b"http/") else 0
    match = _LENGTH.search(head)
    if match:
        await reader.readexactly(int(match.group(1)))
    elif b"transfer-encoding: chunked" in head:
        while True:
            size = int((await reader.readline()).split(b";")[0].strip() or b"0", 16)
            await reader.readexactly(size + 2)
            if size == 0:
                break
    elif status not in (204, 304):
        await reader.read()
        return status, True
    return status, b"connection: close" in head


async def until(deadline: float, step: Callable[[], Awaitable[None]], workers: int,
                gauge: Callable[[], int] | None = None, tally: Tally | None = None) -> None:
    """``workers`` loops of ``step`` until ``deadline``; then every loop is cancelled. With a
    ``gauge`` (connections held), its value just before the deadline is counted as "held at the end"."""

    async def loop() -> None:
        while time.monotonic() < deadline:
            await step()

    async def sample() -> None:
        await asyncio.sleep(max(0.0, deadline - 0.2 - time.monotonic()))
        if gauge is not None and tally is not None:
            tally.counts["held at the end"] = gauge()

    tasks = [asyncio.create_task(loop()) for _ in range(workers)]
    tasks.append(asyncio.create_task(sample()))
    with suppress(asyncio.TimeoutError):
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), max(0.0, deadline - time.monotonic()))
    for task in tasks:
        task.cancel()
    await asyncio.wait(tasks, timeout=5.0)  # bounded: a task that ignored its cancel is left behind


async def flood(port: int, make: Callable[[], bytes], workers: int, deadline: float, tally: Tally) -> None:
    """A closed-loop burst: ``workers`` keep-alive connections, each one request at a time."""

    async def worker() -> None:
        reader: asyncio.StreamReader | None = None
        writer: asyncio.StreamWriter | None = None
        try:
            while time.monotonic() < deadline:
                try:
                    if writer is None or reader is None:
                        reader, writer = await connect(port)
                    writer.write(make())
                    left = min(SOCKET_TIMEOUT, deadline - time.monotonic() + 0.5)
                    status, closed = await asyncio.wait_for(read_answer(reader), max(0.1, left))
                    tally.statuses[status] += 1
                    if closed:
                        close_quietly(writer)
                        reader = writer = None
                except (TimeoutError, OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
                    if time.monotonic() < deadline:
                        tally.statuses[-1] += 1
                    close_quietly(writer)
                    reader = writer = None
                    await asyncio.sleep(0.01)
        finally:
            close_quietly(writer)

    await until(deadline, worker, workers)


def random_token() -> str:
    return "".join(random.choices(string.ascii_letters + string.digits, k=22))


# --- the attacks -----------------------------------------------------------------------------------


@dataclass
class Target:
    """What the attacker set up before the run: its own game (seat 0 its, seat 1 a bot), and the
    long game (8 seats, all its) when ``replays`` runs."""

    port: int
    game_id: str
    token: str
    held: int
    streams: int
    connections: int
    long_id: str | None = None
    long_tokens: tuple[str, ...] = ()
    long_version: int = 0


async def attack_tokens(t: Target, deadline: float, tally: Tally) -> None:
    body = json.dumps({"players": 2}).encode()
    flip = [0]

    def make() -> bytes:
        flip[0] += 1
        if flip[0] % 2:
            return request_bytes("GET", "/v1/games", t.port, random_token(), close=False)
        return request_bytes("POST", f"/v1/{GAME}/games", t.port, random_token(), body, close=False)

    await flood(t.port, make, t.connections, deadline, tally)


async def attack_slow_body(t: Target, deadline: float, tally: Tally) -> None:
    """Up to ``t.held`` requests at once whose announced 60,000-byte body never comes (moves with the
    attacker's seat token and creates with a fresh random token, in turn). After an answer the
    connection is kept until the server closes it; then it is opened again."""
    body_headers = ["Content-Type: application/json", "Content-Length: 60000"]
    move = request_bytes("POST", f"/v1/{GAME}/games/{t.game_id}/moves", t.port, t.token, close=False,
                         extra=body_headers)
    opening = asyncio.Semaphore(200)  # connects in flight: the listen queue is not the point
    held = [0]
    counter = [0]

    async def hold() -> None:
        counter[0] += 1
        head = move if counter[0] % 2 else request_bytes("POST", f"/v1/{GAME}/games", t.port, random_token(),
                                                         close=False, extra=body_headers)
        writer = None
        try:
            async with opening:
                reader, writer = await connect(t.port)
                writer.write(head)
                await writer.drain()
            held[0] += 1
            tally.counts["opened"] += 1
            tally.counts["held at most"] = max(tally.counts["held at most"], held[0])
            try:  # cancelled at the deadline
                status, _ = await read_answer(reader)
                tally.statuses[status] += 1
                while await reader.read(4096):
                    pass
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
                tally.counts["closed without an answer"] += 1
            finally:
                held[0] -= 1
        except (TimeoutError, OSError):
            tally.counts["connect failed"] += 1
            await asyncio.sleep(0.1)
        finally:
            close_quietly(writer)

    await until(deadline, hold, t.held, gauge=lambda: held[0], tally=tally)


async def attack_streams(t: Target, deadline: float, tally: Tally) -> None:
    """``t.streams`` event streams of the long game, opened from the one address and held: each seat's
    token and the spectator's in turn, at most ``STREAM_OPENS`` attempts a second in all (what the
    per-seat rate limits of the game's eight seats let through). A refused attempt is tried again at
    that pace; a stream the server ends is opened again."""
    game = t.long_id or t.game_id
    viewers = (*t.long_tokens, None)
    heads = [request_bytes("GET", f"/v1/{GAME}/games/{game}/events", t.port, token, close=False,
                           extra=["Accept: text/event-stream"]) for token in viewers]
    held = [0]
    pace = [time.monotonic()]

    async def one() -> None:
        pace[0] = max(pace[0] + 1 / STREAM_OPENS, time.monotonic())
        await asyncio.sleep(pace[0] - time.monotonic())
        writer = None
        try:
            reader, writer = await connect(t.port)
            writer.write(heads[int(pace[0] * STREAM_OPENS) % len(heads)])
            line = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), SOCKET_TIMEOUT)
            status = int(line[9:12]) if line.startswith(b"HTTP/") else 0
            tally.statuses[status] += 1
            if status != 200:
                return
            tally.counts["opened"] += 1
            held[0] += 1
            tally.counts["held at most"] = max(tally.counts["held at most"], held[0])
            try:
                while await reader.read(4096):  # cancelled at the deadline
                    pass
                tally.counts["ended by the server"] += 1
            finally:
                held[0] -= 1
        except (TimeoutError, OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            tally.statuses[-1] += 1
        finally:
            close_quietly(writer)

    await until(deadline, one, t.streams, gauge=lambda: held[0], tally=tally)


async def attack_methods(t: Target, deadline: float, tally: Tally) -> None:
    paths = ("/v1/games", f"/v1/{GAME}/games", "/healthz", f"/v1/{GAME}/games/{t.game_id}")

    def make() -> bytes:
        method = "".join(random.choices(string.ascii_uppercase, k=random.randint(5, 12)))
        return request_bytes(method, random.choice(paths), t.port, close=False)

    await flood(t.port, make, t.connections, deadline, tally)


async def attack_replays(t: Target, deadline: float, tally: Tally) -> None:
    """``GET .../events?since=0`` of the long game, read until the backlog is in (or the server ends
    the stream), then closed; again and again, with each seat's token and the spectator's in turn."""
    viewers = (*t.long_tokens, None)
    turn = [0]

    async def replay() -> None:
        turn[0] += 1
        token = viewers[turn[0] % len(viewers)]
        writer = None
        try:
            reader, writer = await connect(t.port)
            writer.write(request_bytes("GET", f"/v1/{GAME}/games/{t.long_id}/events?since=0", t.port, token,
                                       extra=["Accept: text/event-stream"]))
            left = max(0.1, min(SOCKET_TIMEOUT, deadline - time.monotonic()))
            entries = await asyncio.wait_for(read_replay(reader, t.long_version, tally), left)
            tally.counts["entries received"] += entries
        except TimeoutError:
            tally.counts["cut at the deadline"] += 1
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            tally.statuses[-1] += 1
            await asyncio.sleep(0.05)
        finally:
            close_quietly(writer)

    await until(deadline, replay, t.connections)


async def read_replay(reader: asyncio.StreamReader, version: int, tally: Tally) -> int:
    """Read an event stream's answer until ``version`` entries came, the game's end, or the server
    closed it; the entries read."""
    head = (await reader.readuntil(b"\r\n\r\n")).lower()
    status = int(head[9:12]) if head.startswith(b"http/") else 0
    tally.statuses[status] += 1
    if status != 200:
        return 0
    chunked = b"transfer-encoding: chunked" in head
    entries = 0
    while entries < version:
        if chunked:  # gunicorn sends each event as one chunk
            size = int((await reader.readline()).split(b";")[0].strip() or b"0", 16)
            data = await reader.readexactly(size + 2)
            if size == 0:
                break
        else:
            data = await reader.read(65536)
            if not data:
                break
        entries += data.count(b"event: entry")
        if b"event: end" in data:
            break
    tally.counts["replays"] += 1
    if entries < version:
        tally.counts["replays cut short by the server"] += 1
    return entries


async def attack_creates(t: Target, deadline: float, tally: Tally) -> None:
    body = json.dumps({"players": 8}).encode()
    await flood(t.port, lambda: request_bytes("POST", f"/v1/{GAME}/games", t.port, random_token(), body, close=False),
                t.connections, deadline, tally)


def malformed_requests(t: Target) -> list[tuple[str, Callable[[], bytes], bool]]:
    """(name, maker of the request's bytes, half-close after sending) of each malformed request: each
    body on the attacker's game (its seat token) and on create (a fresh random token each time)."""
    moves = f"/v1/{GAME}/games/{t.game_id}/moves"
    create = f"/v1/{GAME}/games"
    deep = 1000  # just under the JSON parser's depth limit
    json_bodies = (
        ("nested 30,000 deep", b'{"players":2,"move":' + b"[" * 30000 + b"]" * 30000 + b"}"),
        ("nested in a move", b'{"move":{"type":"play","card":' + b'{"a":' * deep + b"1" + b"}" * deep + b"}}"),
        ("nested in options", b'{"players":2,"options":{"max_turns":' + b"[" * deep + b"]" * deep + b"}}"),
        ("nested in bots", b'{"players":2,"bots":[' + b"[" * deep + b"]" * deep + b"]}"),
    )
    chunked_bodies = (
        ("chunk size not hex", b"zz\r\n{}\r\n0\r\n\r\n", False),
        ("chunk size negative", b"-5\r\n{}\r\n0\r\n\r\n", False),
        ("chunk size huge", b"ffffffffffffffffffff\r\n{}\r\n0\r\n\r\n", False),
        ("chunk without its CRLF", b"2\r\n{}XX0\r\n\r\n", False),
        ("chunked body cut short", b'ffff\r\n{"move":', True),
        ("no last chunk", b"2\r\n{}\r\n", True),
    )
    chunked = ["Content-Type: application/json", "Transfer-Encoding: chunked"]
    out: list[tuple[str, Callable[[], bytes], bool]] = []
    for name, body in json_bodies:
        out.append((name, lambda body=body: request_bytes("POST", moves, t.port, t.token, body), False))
        out.append((name, lambda body=body: request_bytes("POST", create, t.port, random_token(), body), False))
    for name, body, half_close in chunked_bodies:
        for path, token in ((moves, t.token), (create, None)):
            out.append((name, lambda path=path, token=token, body=body: request_bytes(
                "POST", path, t.port, token or random_token(), extra=chunked) + body, half_close))
    return out


async def attack_malformed(t: Target, deadline: float, tally: Tally) -> None:
    requests = malformed_requests(t)
    turn = [0]

    async def send() -> None:
        turn[0] += 1
        name, make, half_close = requests[turn[0] % len(requests)]
        writer = None
        try:
            reader, writer = await connect(t.port)
            writer.write(make())
            if half_close:
                writer.write_eof()
            left = max(0.1, min(MALFORMED_PATIENCE, deadline - time.monotonic()))
            status, _ = await asyncio.wait_for(read_answer(reader), left)
            tally.statuses[status] += 1
            if status >= 500:
                tally.counts[f"5xx: {name}"] += 1
        except TimeoutError:
            tally.counts[f"no answer within {MALFORMED_PATIENCE:g} s: {name}"] += 1
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            tally.statuses[-1] += 1
            tally.counts[f"closed without an answer: {name}"] += 1
        finally:
            close_quietly(writer)

    await until(deadline, send, t.connections)


RUN: dict[str, Callable[[Target, float, Tally], Awaitable[None]]] = {
    "tokens": attack_tokens, "slow-body": attack_slow_body, "streams": attack_streams, "methods": attack_methods,
    "replays": attack_replays, "creates": attack_creates, "malformed": attack_malformed,
}


def attacker(name: str, target: Target, deadline: float, out: Connection, nice: int = 0) -> None:
    """The hostile client's process: run one attack until ``deadline``, send back its tally; at
    niceness ``nice``, so that the servers come first on the shared cores."""
    os.nice(nice)
    random.seed(f"bench.abuse/{name}/{os.getpid()}")
    tally = Tally()
    cpu = time.process_time()

    async def run() -> None:
        try:
            await RUN[name](target, deadline, tally)
        finally:
            tally.cpu = time.process_time() - cpu
            out.send(tally)  # before the loop's teardown, which closes thousands of connections
            out.close()

    asyncio.run(run())


# --- setup of the attacker's games ------------------------------------------------------------------


def create_target(port: int, held: int, streams: int, connections: int) -> Target:
    conn = keepalive(port, ATTACKER)
    status, created = api(conn, "POST", f"/v1/{GAME}/games", body={"players": 2, "bots": [1]})
    conn.close()
    if status != 201:
        raise SystemExit(f"the attacker's game could not be created: {status} {created}")
    return Target(port, created["game_id"], created["seats"][0]["token"], held, streams, connections)


def build_long_game(target: Target, want: int, seconds: float) -> None:
    """An 8-seat game of the attacker's with ``want`` log entries (or as many as ``seconds`` allow):
    every seat says "Stein" (a voluntary one, allowed by the option) or, in the opening, plays
    the one card it must."""
    conn = keepalive(target.port, ATTACKER)
    options = {"allow_voluntary_stein": True, "max_turns": 100_000}
    status, created = api(conn, "POST", f"/v1/{GAME}/games", body={"players": 8, "options": options})
    if status != 201:
        raise SystemExit(f"the long game could not be created: {status} {created}")
    game = created["game_id"]
    tokens = [s["token"] for s in created["seats"]]
    path = f"/v1/{GAME}/games/{game}"
    status, view = api(conn, "GET", path, tokens[0])
    version, to_move = view["version"], view["to_move"]
    end = time.monotonic() + seconds
    while version < want and time.monotonic() < end and to_move:
        seat = to_move[0]
        status, view = api(conn, "POST", f"{path}/moves", tokens[seat], {"move": {"type": "stein"}})
        if status == 422:  # the opening: the one card that must be played
            _, mine = api(conn, "GET", path, tokens[seat])
            status, view = api(conn, "POST", f"{path}/moves", tokens[seat], {"move": mine["legal_moves"][0]})
        if status == 429:
            time.sleep(0.05)
            continue
        if status != 200:
            raise SystemExit(f"the long game stopped at version {version}: {status} {view}")
        version, to_move = view["version"], view["to_move"]
    conn.close()
    target.long_id, target.long_tokens, target.long_version = game, tuple(tokens), version


# --- what the observer reads around an attack --------------------------------------------------------


def observe(name: str, port: int, redis_client: Any) -> dict[str, float]:
    """Figures read before and after an attack: /metrics for ``methods``, the store for ``creates``."""
    if name == "methods":
        status, body = call(port, OBSERVER, "GET", "/metrics", timeout=30)
        series = sum(1 for line in body.splitlines() if line.startswith(b"cardtable_requests_total{"))
        return {"metrics_kib": len(body) / 1024, "series": series, "status": status}
    if name == "creates":
        return {"keys": redis_client.dbsize(), "mib": redis_client.info("memory")["used_memory"] / 2**20}
    return {}


def achieved(name: str, tally: Tally, before: dict[str, float], after: dict[str, float], target: Target) -> str:
    st, c = tally.statuses, tally.counts
    n = tally.total()
    ok = sum(v for s, v in st.items() if 200 <= s < 300)
    if name == "tokens":
        return f"{n} requests: {ok} answered 2xx, {st[429]} refused 429"
    if name == "slow-body":
        return (f"{c['held at most']} held at most, {c['held at the end']} at the end; "
                f"408 x{st[408]}, 429 x{st[429]}, closed unanswered x{c['closed without an answer']}")
    if name == "streams":
        return (f"{c['opened']} opened, {c['held at most']} held at most, {c['held at the end']} at the end; "
                f"{st[429]} refused 429")
    if name == "methods":
        return (f"{n} requests; /metrics {before.get('metrics_kib', 0):.0f} -> {after.get('metrics_kib', 0):.0f} KiB, "
                f"{before.get('series', 0):.0f} -> {after.get('series', 0):.0f} request series")
    if name == "replays":
        return (f"{c['replays']} replays of {target.long_version} entries, {c['entries received']} entries sent; "
                f"{st[429]} refused 429")
    if name == "creates":
        mib = after.get("mib", 0) - before.get("mib", 0)
        keys = after.get("keys", 0) - before.get("keys", 0)
        return f"{st[201]} games stored of {n} tries ({st[429]} refused 429); Redis +{mib:.1f} MiB, +{keys:.0f} keys"
    if name == "malformed":
        bad = sum(v for s, v in st.items() if s >= 500)
        shown = ", ".join(f"{s} x{v}" for s, v in sorted(st.items()))
        return f"{n} requests ({shown}); {bad} answered 5xx"
    return ""


# --- the run ---------------------------------------------------------------------------------------


@dataclass
class Window:
    attack: str
    quiet: tuple[float, float]
    attacked: tuple[float, float]
    tally: Tally
    before: dict[str, float]
    after: dict[str, float]
    span: tuple[float, float] = (0.0, 0.0)  # wall clock, from the quiet window to the cool-down's end
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds per process group while attacked
    attack_seconds: float = 0.0  # how long the attack ran, its ramp included


def in_window(samples: Sequence[tuple[float, float, int, str]], window: tuple[float, float]
              ) -> list[tuple[float, float, int, str]]:
    return [s for s in samples if window[0] <= s[0] < window[1]]


def ms(values: Sequence[float], q: float) -> float:
    return percentile(values, q) * 1000


def report(windows: Sequence[Window], samples: Sequence[tuple[float, float, int, str]], target: Target,
           recycled: tuple[Sequence[float], Sequence[float]]) -> None:
    quiet_all = [s[1] for w in windows for s in in_window(samples, w.quiet)]
    print(f"\nnormal player, all quiet windows: {len(quiet_all)} requests, p50 {ms(quiet_all, 50):.1f} ms, "
          f"p99 {ms(quiet_all, 99):.1f} ms")
    print(f"goal: the player's p99 with the attacker <= {GOAL:g} x its p99 in the quiet window before\n")
    print(f"{'attack':<10} {'quiet p50':>9} {'p99':>7} {'attack p50':>11} {'p99':>8} {'ratio':>6} {'player':>7} "
          f"{'errors':>7}  {'goal':<5} attacker")
    details = []
    for w in windows:
        quiet, attacked = in_window(samples, w.quiet), in_window(samples, w.attacked)
        q = [s[1] for s in quiet]
        a = [s[1] for s in attacked]
        ratio = ms(a, 99) / ms(q, 99) if q and a else float("inf")
        errors = Counter(s[2] for s in attacked if is_error(s[2]))
        verdict = "PASS" if ratio <= GOAL else "FAIL"
        print(f"{w.attack:<10} {ms(q, 50):7.1f}ms {ms(q, 99):5.1f}ms {ms(a, 50):9.1f}ms {ms(a, 99):6.1f}ms "
              f"{ratio:6.2f} {len(a):>7} {sum(errors.values()):>7}  {verdict:<5} "
              f"{achieved(w.attack, w.tally, w.before, w.after, target)}")
        quiet_errors = Counter(s[2] for s in quiet if is_error(s[2]))
        if errors or quiet_errors:
            details.append(f"  {w.attack}: player errors, attack window {dict(errors)}, quiet {dict(quiet_errors)} "
                           "(-1: no answer within 10 s or the connection failed)")
        slowest = sorted(attacked, key=lambda s: -s[1])[:3]
        if slowest:
            details.append(f"  {w.attack}: the player's slowest while attacked: "
                           + ", ".join(f"{kind} {status} {sec * 1000:.0f} ms" for _, sec, status, kind in slowest))
        stopped, booted = (sum(1 for t in times if w.span[0] - 1 <= t < w.span[1]) for times in recycled)
        if stopped or booted:
            details.append(f"  {w.attack}: gunicorn workers that stopped accepting to recycle (max_requests): "
                           f"{stopped}; booted anew: {booted} (from its quiet window to its cool-down)")
        if w.cpu:
            details.append(f"  {w.attack}: CPU seconds in the {w.attack_seconds:g} s of the attack (ramp included, "
                           f"{os.cpu_count()} cores): " + ", ".join(f"{k} {v:.1f}" for k, v in w.cpu.items()))
        extra = {k: v for k, v in w.tally.counts.items() if v}
        details.append(f"  {w.attack}: attacker answers {dict(sorted(w.tally.statuses.items()))}"
                       + (f"; {extra}" if extra else ""))
    print("\n" + "\n".join(details))
    print(f"\ngunicorn workers recycled during the run (max_requests, as deployed): {len(recycled[0])} stopped "
          f"accepting, {len(recycled[1])} booted anew; a recycling worker accepts nothing until its open "
          "connections end (graceful_timeout at most)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.abuse", description=__doc__.split("\n\n")[0])
    parser.add_argument("--attack", default="all",
                        help=f"all (default), or attacks separated by commas, run in that order: {', '.join(ATTACKS)}")
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="length of each quiet and each attack window (default 10)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2, one per core)")
    parser.add_argument("--connections", type=int, default=16,
                        help="the attacker's concurrent connections in the request floods (default 16)")
    parser.add_argument("--held", type=int, default=0,
                        help="slow-body: requests held at once (default: workers x 4000 + 1000, more than the "
                             "workers' connection slots)")
    parser.add_argument("--streams", type=int, default=3000, help="streams: streams opened (default 3000)")
    parser.add_argument("--rate", type=float, default=15.0,
                        help="the player's requests a second at most (default 15, under the per-seat limit)")
    parser.add_argument("--replay-entries", type=int, default=4000,
                        help="replays: entries of the long game (default 4000)")
    parser.add_argument("--build-seconds", type=float, default=30.0,
                        help="replays: at most this long to build the long game (default 30)")
    parser.add_argument("--log-dir", type=Path, help="keep gunicorn's log (and nginx's error log) in this directory")
    parser.add_argument("--attacker-nice", type=int, default=10,
                        help="the hostile process's niceness (default 10; 0: the same priority as the servers). "
                             "On a network the attacker's CPU is not the server's; on this one machine a "
                             "reconnect storm would otherwise take the cores the servers need and measure the "
                             "bench, not the service")
    parser.add_argument("--nginx", action=argparse.BooleanOptionalAction, default=True,
                        help="deploy/nginx in front, as deploy/compose.yaml runs it: production's shape (the "
                             "default); --no-nginx: player and attacker talk to gunicorn itself")
    args = parser.parse_args(argv)
    held = args.held or args.workers * WORKER_CONNECTIONS + 1000
    if not (0 < args.seconds <= 120 and 0 < args.workers <= 16 and 0 < args.connections <= 256
            and 0 < held <= 15000 and 0 < args.streams <= 10000 and 0 < args.rate <= 50
            and 0 < args.replay_entries <= 50_000 and 0 < args.build_seconds <= 120
            and 0 <= args.attacker_nice <= 19):
        parser.error("keep it bounded: seconds <= 120, workers <= 16, connections <= 256, held <= 15000, "
                     "streams <= 10000, rate <= 50, replay-entries <= 50000, build-seconds <= 120, "
                     "attacker-nice 0-19")
    attacks = ATTACKS if args.attack == "all" else tuple(a.strip() for a in args.attack.split(",") if a.strip())
    if not attacks or any(a not in ATTACKS for a in attacks):
        parser.error(f"--attack: all, or some of {', '.join(ATTACKS)}")
    files = raise_file_limit()
    if files < held + 1000:
        held = max(100, files - 1000)
    ramp = cool = min(2.0, args.seconds)
    t_run = time.monotonic()
    print(f"bench.abuse: {', '.join(attacks)}; gunicorn -c deploy/gunicorn.conf.py, {args.workers} gevent workers, "
          f"settings as shipped, {'behind deploy/nginx' if args.nginx else 'without nginx'}; player at {PLAYER} "
          f"(<= {args.rate:g} req/s), attacker at {ATTACKER} "
          f"({args.connections} connections per flood, {held} held bodies, {args.streams} streams, "
          f"nice {args.attacker_nice}); "
          f"{args.seconds:g} s quiet + {args.seconds:g} s attacked per attack; {os.cpu_count()} CPUs")

    ctx = multiprocessing.get_context("fork")
    with ExitStack() as stack:
        redis_url, redis_proc = stack.enter_context(redis_server())
        if args.log_dir:
            args.log_dir.mkdir(parents=True, exist_ok=True)
        server = stack.enter_context(service(redis_url, args.workers, args.nginx, args.log_dir))
        upstream = server.port
        port, nginx_pid = stack.enter_context(proxy(upstream, args.log_dir)) if args.nginx else (upstream, 0)
        pids = {"gunicorn": server.proc.pid, "redis": redis_proc.pid, **({"nginx": nginx_pid} if nginx_pid else {})}
        import redis

        rds = redis.Redis.from_url(redis_url)
        stack.callback(rds.close)
        target = create_target(port, held, args.streams, args.connections)
        if "replays" in attacks or "streams" in attacks:
            t0 = time.monotonic()
            build_long_game(target, args.replay_entries if "replays" in attacks else 0, args.build_seconds)
            print(f"long game: {target.long_version} entries built in {time.monotonic() - t0:.1f} s")
        stop_player = ctx.Event()
        player_out, player_in = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=player, args=(port, args.rate, stop_player, player_in), daemon=True)
        proc.start()
        stack.callback(lambda: proc.is_alive() and proc.kill())
        time.sleep(min(2.0, args.seconds))  # warm-up: the first game, the workers' first requests
        windows = []
        for name in attacks:
            wall = time.time()
            q0 = time.monotonic()
            time.sleep(args.seconds)
            quiet = (q0, time.monotonic())
            before = observe(name, upstream, rds)
            out, inp = ctx.Pipe(duplex=False)
            start = time.monotonic()
            deadline = start + ramp + args.seconds
            hostile = ctx.Process(target=attacker, args=(name, target, deadline, inp, args.attacker_nice),
                                  daemon=True)
            cpu0 = {k: cpu_seconds(pid) for k, pid in pids.items()}
            hostile.start()
            inp.close()
            time.sleep(max(0.0, deadline - time.monotonic()))
            cpu = {k: cpu_seconds(pid) - cpu0[k] for k, pid in pids.items()}
            tally = Tally()
            try:
                if out.poll(deadline - time.monotonic() + 30):
                    tally = out.recv()
                else:
                    print(f"  {name}: the attacker did not report within 30 s of its deadline", file=sys.stderr)
            except EOFError:
                print(f"  {name}: the attacker died without reporting", file=sys.stderr)
            hostile.join(10)
            if hostile.is_alive():
                hostile.kill()
                hostile.join()
            attacked = (start + ramp, deadline)
            time.sleep(cool)
            after = observe(name, upstream, rds)
            windows.append(Window(name, quiet, attacked, tally, before, after, (wall, time.time()),
                                  {**cpu, "attacker": tally.cpu}, deadline - start))
            print(f"  {name}: done ({tally.total()} attacker requests answered)", flush=True)
        stop_player.set()
        samples = player_out.recv() if player_out.poll(SOCKET_TIMEOUT + 10) else []
        proc.join(10)
        recycled = (server.logged(RECYCLING), server.logged(BOOTING)[args.workers:])
    report(windows, samples, target, recycled)
    print(f"\n(total run {time.monotonic() - t_run:.0f} s)")
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)
    raise SystemExit(main())
