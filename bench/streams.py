"""Event streams under load: delivery latency, memory per idle stream, and what idle streams cost.

``python -m bench.streams [--subscribers 1000] [--games 200] [--workers W] [--seconds 8] [--rate 40]``

One run starts one redis-server and gunicorn with the real app (``-c deploy/gunicorn.conf.py``:
gevent workers) on spare loopback ports, creates ``--games`` games of Sten (2 players, seeded), and
then measures:

1. **Delivery latency.** ``--subscribers`` streams (``GET .../events``, spread evenly over the
   games, as spectators and seats), held by one asyncio subscriber process. The main process posts
   legal moves (precomputed by replaying each game locally) to random games at ``--rate`` moves/s
   for ``--seconds``; the latency of one delivery is the time from the move's answer arriving at
   the poster to the entry arriving at one subscriber (``CLOCK_MONOTONIC``, shared by the processes;
   it can be negative: the entry is published before the answer is written). p50/p99/max over every
   (move, subscriber) pair, and any entry missing or delivered twice.
2. **Memory per idle stream.** The workers' proportional set size (PSS, ``/proc/<pid>/smaps_rollup``)
   before and after the streams are opened, divided by the number of streams.
3. **Throughput with idle streams.** Closed-loop view and move load (bench.http's clients), without
   and then with the streams attached to other games (idle: nothing happens in their games),
   alternated ``--rounds`` times; the ratio with/without per endpoint (target >= 0.9).

Everything is bounded: fixed durations, socket timeouts, every process stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing
import os
import random
import socket
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from multiprocessing import get_context
from typing import Any

from bench.http import SOCKET_TIMEOUT, api, gunicorn, pct_ms, play_locally, raw_request, redis_server, run_phase

GAME = "sten"
PLAYERS = 2
#: Games per throughput phase: more moves than a phase can post (a 2-player Sten game has ~50).
LOAD_GAMES = 400


def pss_kib(master_pid: int) -> int:
    """Proportional set size (KiB) of gunicorn's workers (the children of ``master_pid``)."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            if ppid != master_pid:
                continue
            with open(f"/proc/{entry}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
        except OSError:
            continue
    return total


# --- the subscriber process --------------------------------------------------------------------


async def _subscribe(port: int, index: int, path: str, token: str | None, arrivals: list[tuple[int, int, float]],
                     connected: asyncio.Event, counter: list[int], total: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Accept: text/event-stream"]
    if token:
        head.append(f"Authorization: Bearer {token}")
    writer.write(("\r\n".join(head) + "\r\n\r\n").encode())
    await writer.drain()
    try:
        while True:
            line = await reader.readline()
            if not line:
                return
            if line.startswith(b": connected"):
                counter[0] += 1
                if counter[0] == total:
                    connected.set()
            elif line.startswith(b"id: "):
                arrivals.append((index, int(line[4:]), time.monotonic()))
    finally:
        writer.close()


def subscribers(port: int, streams: Sequence[tuple[str, str | None]], pipe: Any, stop_after: float) -> None:
    """Hold every stream; tell the parent when all are connected; send back the arrivals."""

    async def main() -> None:
        arrivals: list[tuple[int, int, float]] = []
        connected = asyncio.Event()
        counter = [0]
        tasks = []
        for i, (path, token) in enumerate(streams):
            tasks.append(asyncio.create_task(
                _subscribe(port, i, path, token, arrivals, connected, counter, len(streams))))
            if i % 50 == 49:
                await asyncio.sleep(0.01)  # do not flood the accept queue
        await asyncio.wait_for(connected.wait(), 60)
        pipe.send("connected")
        loop = asyncio.get_running_loop()
        deadline = time.monotonic() + stop_after
        while time.monotonic() < deadline:
            if await loop.run_in_executor(None, pipe.poll, 0.2):
                break
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        pipe.send(arrivals)

    asyncio.run(main())


# --- phases ------------------------------------------------------------------------------------


class Game:
    def __init__(self, game_id: str, tokens: list[str], moves: list[tuple[int, str]]) -> None:
        self.game_id, self.tokens, self.moves = game_id, tokens, moves
        self.next = 0


def create_games(port: int, count: int, prefix: str) -> list[Game]:
    from engines import REGISTRY

    engine = REGISTRY[GAME]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=SOCKET_TIMEOUT)
    games = []
    for i in range(count):
        seed = f"{prefix}-{i}"
        created = api(conn, "POST", f"/v1/{GAME}/games", {"players": PLAYERS, "seed": seed})
        games.append(Game(created["game_id"], [s["token"] for s in created["seats"]],
                          play_locally(engine, PLAYERS, seed)))
    return games


def open_streams(port: int, games: Sequence[Game], count: int) -> tuple[Any, Any, list[int]]:
    """``count`` streams over ``games`` (round robin: spectator, seat 0, seat 1, ...) in a subscriber
    process; returns (process, pipe, game index of each stream) once all are connected."""
    streams, owner = [], []
    for i in range(count):
        g = games[i % len(games)]
        viewer = (i // len(games)) % (PLAYERS + 1)
        streams.append((f"/v1/{GAME}/games/{g.game_id}/events", None if viewer == 0 else g.tokens[viewer - 1]))
        owner.append(i % len(games))
    parent, child = multiprocessing.Pipe()
    proc = multiprocessing.Process(target=subscribers, args=(port, streams, child, 600.0), daemon=True)
    proc.start()
    if not parent.poll(90) or parent.recv() != "connected":
        proc.kill()
        raise SystemExit("the subscribers did not connect")
    return proc, parent, owner


def post_moves(port: int, games: list[Game], rate: float, seconds: float,
               rng: random.Random) -> dict[tuple[int, int], float]:
    """Legal moves to random games at ``rate``/s; (game index, version) -> when the answer arrived."""
    answered: dict[tuple[int, int], float] = {}
    interval = 1.0 / rate
    end = time.monotonic() + seconds
    due = time.monotonic()
    while time.monotonic() < end:
        live = [i for i, g in enumerate(games) if g.next < len(g.moves)]
        if not live:
            break
        i = rng.choice(live)
        g = games[i]
        seat, body = g.moves[g.next]
        # One send of the whole request (http.client sends the body apart, and Nagle's algorithm
        # then holds it for the server's delayed ACK: milliseconds that are the client's, not ours).
        request = raw_request("POST", f"/v1/{GAME}/games/{g.game_id}/moves", port, g.tokens[seat], body.encode())
        with socket.create_connection(("127.0.0.1", port), timeout=SOCKET_TIMEOUT) as conn:
            conn.sendall(request)
            answer = b""
            while chunk := conn.recv(65536):
                answer += chunk
        at = time.monotonic()
        head, _, payload = answer.partition(b"\r\n\r\n")
        if head[9:12] != b"200":
            raise SystemExit(f"a move was refused: {head[:12]!r} {payload[:200]!r}")
        g.next += 1
        answered[(i, json.loads(payload)["version"])] = at
        due += interval
        time.sleep(max(0.0, due - time.monotonic()))
    return answered


def throughput(pool: ProcessPoolExecutor, port: int, master: Any, redis: Any, games: list[Game], clients: int,
               seconds: float) -> dict[str, float]:
    """Requests/s of views and of moves (closed loop, ``clients`` processes)."""
    out = {}
    views = [(i, raw_request("GET", f"/v1/{GAME}/games/{g.game_id}", port, t)) for i, g in enumerate(games)
             for t in g.tokens]
    per = [views[k::clients] for k in range(clients)]
    phase = run_phase(pool, "view", "real", port, master, redis, per, [0] * clients, True, 0.5, seconds)
    out["view"] = phase.rps
    # Each client plays whole games in order (fresh ones per phase: a game's moves apply once).
    per = [[(i, raw_request("POST", f"/v1/{GAME}/games/{g.game_id}/moves", port, g.tokens[seat], body.encode()))
            for i, g in enumerate(games) if i % clients == k for seat, body in g.moves]
           for k in range(clients)]
    phase = run_phase(pool, "move", "real", port, master, redis, per, [0] * clients, False, 0.5, seconds)
    out["move"] = phase.rps
    if phase.errors:
        print(f"  (move statuses {dict(phase.statuses)})")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--subscribers", type=int, default=1000)
    parser.add_argument("--games", type=int, default=200, help="games the subscribers watch")
    parser.add_argument("--workers", type=int, default=multiprocessing.cpu_count() * 2 + 1)
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each timed phase")
    parser.add_argument("--rate", type=float, default=40.0, help="moves per second in the latency phase")
    parser.add_argument("--clients", type=int, default=4, help="load processes of the throughput phases")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    rng = random.Random("bench.streams")
    with ExitStack() as stack:
        redis_url, redis = stack.enter_context(redis_server())
        port, master = stack.enter_context(gunicorn("service.app:create_app()", redis_url, args.workers, "warning"))
        watched = create_games(port, args.games, "watched")
        print(f"{args.games} games, {args.subscribers} streams, {args.workers} gevent workers, "
              f"{os.cpu_count()} cores\n")

        # 1 and 2: memory per idle stream, then delivery latency.
        before = pss_kib(master.pid)
        proc, pipe, owner = open_streams(port, watched, args.subscribers)
        time.sleep(1.0)
        after = pss_kib(master.pid)
        print(f"memory: workers' PSS {before / 1024:.1f} MiB without streams, {after / 1024:.1f} MiB with "
              f"{args.subscribers}: {(after - before) / args.subscribers:.1f} KiB per idle stream")
        answered = post_moves(port, watched, args.rate, args.seconds, rng)
        time.sleep(1.0)  # the last entries arrive
        pipe.send("stop")
        arrivals = pipe.recv()
        proc.join(10)
        got: dict[tuple[int, int], list[float]] = {}
        for stream, version, at in arrivals:
            got.setdefault((stream, version), []).append(at)
        latencies, missing, repeated = [], 0, 0
        for (game, version), at_answer in answered.items():
            for stream, g in enumerate(owner):
                if g != game:
                    continue
                seen = got.get((stream, version), [])
                missing += not seen
                repeated += len(seen) > 1
                if seen:
                    latencies.append(int((seen[0] - at_answer) * 1e9))
        print(f"delivery: {len(answered)} moves at {args.rate:.0f}/s, {len(latencies)} deliveries; latency from "
              f"the move's answer to each subscriber p50 {pct_ms(latencies, 50)} ms, p99 {pct_ms(latencies, 99)} "
              f"ms, max {max(latencies) / 1e6:.2f} ms; missing {missing}, repeated {repeated}")

        # 3: throughput with and without idle streams on other games.
        idle_games = create_games(port, args.games, "idle")
        ctx = get_context("fork")
        with ProcessPoolExecutor(args.clients, mp_context=ctx) as pool:
            ratios = []
            for r in range(args.rounds):
                plain = throughput(pool, port, master, redis, create_games(port, LOAD_GAMES, f"plain-{r}"),
                                   args.clients, args.seconds)
                fresh = create_games(port, LOAD_GAMES, f"streamed-{r}")
                proc, pipe, _ = open_streams(port, idle_games, args.subscribers)
                streamed = throughput(pool, port, master, redis, fresh, args.clients, args.seconds)
                pipe.send("stop")
                pipe.recv()
                proc.join(10)
                ratios.append((plain, streamed))
        print(f"\nthroughput with {args.subscribers} idle streams attached against without ({args.clients} "
              f"closed-loop clients, {args.seconds:.0f} s per phase):")
        for endpoint in ("view", "move"):
            plain = sum(p[endpoint] for p, _ in ratios) / len(ratios)
            streamed = sum(s[endpoint] for _, s in ratios) / len(ratios)
            print(f"  {endpoint:<5} {plain:8.0f} req/s without, {streamed:8.0f} with: ratio {streamed / plain:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
