"""HTTP throughput and latency of the real service next to the "floor" (bench/floor_app.py).

``python -m bench.http [--seconds 8] [--rounds 2] [--clients 4] [--workers 2] [--game ID|all] [--players N]
[--sample]``

One run: starts one redis-server on a spare loopback port, gunicorn with the real app and
gunicorn with the floor app (both ``-c deploy/gunicorn.conf.py``, the same worker count),
creates games through the real API, seeds the floor's keys with copies of the very same
snapshots, then drives a bounded closed-loop load (``--clients`` processes, each one
request at a time) against the endpoints below. ``--game all`` does it for every registered
game in turn on the same servers and ends with one table of every game. Each game is played at
its usual table (``--players``, default 4, clamped to the game's range: Conquian seats 2)

- (a) GET a seat's view: real ``GET /v1/<game>/games/<id>`` with a seat token vs floor
  ``GET /floor/<id>`` (one HMGET + json round trip of the snapshot);
- (b) POST a move: real ``POST /v1/<game>/games/<id>/moves`` vs floor ``POST /floor/<id>/moves``
  (HMGET + json + the service's compare-and-set script).

Every move posted to the real service is legal: games are created with a seed (the same seeds in
every run, ``bench-<game>-<n>``: two runs play the same deals, so they differ by the code and the
machine only), replayed locally with the same engine before the timed section, and each request
is the first listed legal move of the seat to move (no ``version``), precomputed, so no game is
created and no engine runs in the client while the clock runs. The floor gets the same request
bytes. ``--sample`` also says, per game, where a move's worker CPU went, function by function,
real next to floor (``bench.sampler``).

Prints requests/second, latency p50/p95/p99, errors, and the CPU time per request of the
gunicorn workers and of redis-server (from /proc), the real/floor throughput ratio per
endpoint (targets: view >= 0.9, move >= 0.8), and the engine work of one move request
(bench.engines) next to the floor's per-request time. The service's shipped limits that the
floor does not have are switched off (the rate and create limits, the stream caps, the body
deadline): the load comes from one address, and the floor pays for none of them. Everything is
bounded: fixed duration, fixed request lists, socket timeouts; all processes started here are
stopped at the end.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from bench import engines as engine_bench
from bench.floor_app import make_client, seed_game
from engines import REGISTRY
from engines.core import Engine
from tests.servers import free_port, wait_for_port

ROOT = Path(__file__).resolve().parent.parent
TICK = os.sysconf("SC_CLK_TCK")
SOCKET_TIMEOUT = 10.0
#: Upper bound of the real service's move rate used to size the pre-played move lists; a
#: client that runs out of moves stops early and the report says so.
MAX_MOVE_RATE = 3000  # moves/s the real side could at most consume; more are prepared than it can use
#: The usual table: this many players, or the game's nearest allowed count (Conquian seats 2).
USUAL_PLAYERS = 4
#: The targets of real/floor throughput.
TARGETS = {"view": 0.9, "move": 0.8}


# --- servers ---------------------------------------------------------------------------------


def stop(proc: subprocess.Popen[bytes], how: signal.Signals = signal.SIGTERM) -> None:
    """Stop a server started here: ``how`` (SIGTERM: gunicorn's graceful stop, which waits for
    open requests and streams up to its graceful_timeout; SIGINT: its quick stop), killed after 20 s."""
    if proc.poll() is None:
        proc.send_signal(how)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextmanager
def redis_server() -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("redis-server is not installed (apt-get install redis-server)")
    port = free_port()
    workdir = tempfile.mkdtemp(prefix="cardtable-bench-redis-")
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", workdir, "--save", "",
                             "--appendonly", "no", "--protected-mode", "yes"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port, proc)
        yield f"redis://127.0.0.1:{port}/0", proc
    finally:
        stop(proc)
        shutil.rmtree(workdir, ignore_errors=True)


@contextmanager
def gunicorn(app: str, redis_url: str, workers: int, log_level: str,
             samples: str | None = None) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """gunicorn -c deploy/gunicorn.conf.py APP on a spare port; yields (port, master process).

    Worker recycling is turned off (``--max-requests 0``) so that no worker restarts inside
    a timed window; every other setting is deploy/gunicorn.conf.py's. ``samples``: a directory the
    workers write their CPU-time samples to (``bench.sampler``, through ``bench/gunicorn_sampled.py``)."""
    port = free_port()
    env = dict(os.environ)
    env.update({"REDIS_URL": redis_url, "CARDTABLE_BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": str(workers),
                "CARDTABLE_ALLOW_FIXED_DEALS": "1", "CARDTABLE_LOG_LEVEL": log_level,
                # the load comes from one address: the production rate limit would measure itself;
                # and the floor has no limits at all: neither the create limit, the stream caps nor
                # the deadline for a request's body (a timer per request with a body)
                "CARDTABLE_RATE_LIMIT": "off", "CARDTABLE_CREATE_LIMIT": "off",
                "CARDTABLE_STREAMS_PER_SEAT": "0", "CARDTABLE_STREAMS_PER_ADDRESS": "0",
                "CARDTABLE_BODY_TIMEOUT": env.get("CARDTABLE_BODY_TIMEOUT", "0")})
    config = ROOT / "deploy" / "gunicorn.conf.py"
    if samples is not None:
        env["CARDTABLE_BENCH_SAMPLES"] = samples
        config = ROOT / "bench" / "gunicorn_sampled.py"
    errlog = tempfile.TemporaryFile()  # noqa: SIM115 -- closed below, after the server stops
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", str(config),
                             "--max-requests", "0", app],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=errlog)
    try:
        wait_for_port(port, proc)
        yield port, proc
    finally:
        stop(proc)
        errlog.seek(0)
        tail = errlog.read()[-3000:].decode(errors="replace")
        errlog.close()
        if "Traceback" in tail:
            print(f"gunicorn {app} stderr:\n{tail}", file=sys.stderr)


def cpu_seconds(pid: int) -> float:
    """CPU time of ``pid``, its live children and its reaped children (workers that exited)."""
    def fields(p: int | str) -> list[str]:
        with open(f"/proc/{p}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()

    own = fields(pid)  # fields[0] is state; utime=11, stime=12, cutime=13, cstime=14 (0-based after ')')
    ticks = sum(int(own[i]) for i in (11, 12, 13, 14))
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            f = fields(entry)
        except OSError:
            continue
        if int(f[1]) == pid:
            ticks += int(f[11]) + int(f[12])
    return ticks / TICK


# --- the load client (runs in separate processes) ---------------------------------------------


def raw_request(method: str, path: str, port: int, token: str | None, body: bytes | None = None) -> bytes:
    # Connection: close, since the client reads each answer to the end of its connection (gunicorn's
    # gevent workers would otherwise keep it open for the keep-alive time).
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Accept: application/json",
             "Connection: close"]
    if token:
        lines.append(f"Authorization: Bearer {token}")
    if body is not None:
        lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b"")


def exchange(port: int, payload: bytes) -> int:
    """One request on a fresh connection (``Connection: close``); reads the whole answer and
    returns its status."""
    with socket.create_connection(("127.0.0.1", port), timeout=SOCKET_TIMEOUT) as s:
        s.sendall(payload)
        chunks = []
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    data = b"".join(chunks)
    return int(data[9:12]) if data[:5] == b"HTTP/" else 0


@dataclass
class ClientResult:
    latencies: list[int] = field(default_factory=list)  # ns, of requests completed in the window
    statuses: Counter[int] = field(default_factory=Counter)
    next_pos: int = 0
    exhausted: bool = False
    cpu: float = 0.0


def run_client(port: int, requests: Sequence[tuple[int, bytes]], pos: int, cycle: bool,
               t_start: float, t_end: float, t_begin: float) -> ClientResult:
    """Closed loop: send ``requests`` from ``pos`` one at a time from ``t_begin`` until ``t_end``.

    Requests carry a group (a game); when one fails and ``cycle`` is off (moves), the rest of
    its group is skipped, since its later moves no longer fit the game. Only requests that
    complete inside [t_start, t_end] are counted."""
    out = ClientResult()
    ru0 = resource.getrusage(resource.RUSAGE_SELF)
    while time.monotonic() < t_begin:
        time.sleep(0.001)
    n = len(requests)
    while True:
        if pos >= n:
            if not cycle:
                out.exhausted = True
                break
            pos = 0
        group, payload = requests[pos]
        t0 = time.perf_counter_ns()
        try:
            status = exchange(port, payload)
        except OSError:
            status = -1
        t1 = time.perf_counter_ns()
        now = time.monotonic()
        if now > t_end:
            break
        pos += 1
        if now >= t_start:
            out.latencies.append(t1 - t0)
            out.statuses[status] += 1
        if status != 200 and not cycle:
            while pos < n and requests[pos][0] == group:
                pos += 1
    ru1 = resource.getrusage(resource.RUSAGE_SELF)
    out.cpu = (ru1.ru_utime + ru1.ru_stime) - (ru0.ru_utime + ru0.ru_stime)
    out.next_pos = pos
    return out


# --- preparation -----------------------------------------------------------------------------


@dataclass
class Game:
    game_id: str
    floor_id: str
    tokens: list[str]
    moves: list[tuple[int, str]]  # (seat, JSON body) of every move until the game ends


def api(conn: http.client.HTTPConnection, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"} if data is not None else {}
    conn.request(method, path, body=data, headers=headers)
    resp = conn.getresponse()
    payload = resp.read()
    conn.close()
    if resp.status >= 300:
        raise RuntimeError(f"{method} {path} -> {resp.status}: {payload[:300]!r}")
    return json.loads(payload)


def play_locally(engine: Engine, players: int, seed: str, cap: int = 5_000) -> list[tuple[int, str]]:
    """The moves of the game the service deals for ``seed``: always the first listed legal
    move of the (first) seat to move, until the game ends."""
    state = engine.new_game(players, {}, seed)
    moves = []
    for _ in range(cap):
        if engine.result(state) is not None:
            break
        seat = engine.to_move(state)[0]
        move = engine.legal_moves(state, seat)[0]
        moves.append((seat, json.dumps({"move": move.to_json()})))
        state = engine.apply(state, seat, move)
    return moves


def prepare(port: int, redis_url: str, game: str, players: int, want_moves: int, prefix: str,
            clients: int = 1) -> list[Game]:
    """Create real games until each of ``clients`` holds ``want_moves / clients`` moves, the games
    handed out as ``split_moves`` hands them (a game of Kanaster holds thousands of moves: the total
    alone left one client short), and a floor copy of each."""
    engine = REGISTRY[game]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=SOCKET_TIMEOUT)
    rds = make_client(redis_url)
    games: list[Game] = []
    counts = [0] * clients  # the moves each client gets, as split_moves hands the games out
    while min(counts) < want_moves / clients:
        seed = f"{prefix}-{len(games)}"
        created = api(conn, "POST", f"/v1/{game}/games", {"players": players, "seed": seed})
        moves = play_locally(engine, players, seed)
        floor_id = f"floor-{prefix}-{len(games)}"
        snapshot = rds.hget(f"cardtable:game:{{{created['game_id']}}}", "s")
        if snapshot is None:
            raise RuntimeError("the created game is not in Redis under the expected key")
        seed_game(rds, floor_id, snapshot)
        games.append(Game(created["game_id"], floor_id, [s["token"] for s in created["seats"]], moves))
        counts[counts.index(min(counts))] += len(moves)
    rds.close()
    return games


# --- phases ----------------------------------------------------------------------------------


@dataclass
class Phase:
    endpoint: str
    side: str
    seconds: float = 0.0
    latencies: list[int] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    worker_cpu: float = 0.0
    redis_cpu: float = 0.0
    client_cpu: float = 0.0
    exhausted: int = 0
    rounds: list[float] = field(default_factory=list)  # requests/second of each round
    windows: list[tuple[int, float, float]] = field(default_factory=list)  # (master pid, start, end) timed

    def add(self, other: Phase) -> None:
        self.seconds += other.seconds
        self.latencies += other.latencies
        self.statuses += other.statuses
        self.worker_cpu += other.worker_cpu
        self.redis_cpu += other.redis_cpu
        self.client_cpu += other.client_cpu
        self.exhausted += other.exhausted
        self.windows += other.windows

    @property
    def count(self) -> int:
        return len(self.latencies)

    @property
    def rps(self) -> float:
        return self.count / self.seconds if self.seconds else 0.0

    @property
    def errors(self) -> int:
        return sum(n for s, n in self.statuses.items() if s != 200)

    @property
    def cpu_per_request(self) -> float:
        """Worker CPU microseconds per request."""
        return self.worker_cpu / max(1, self.count) * 1e6


def run_phase(pool: ProcessPoolExecutor, endpoint: str, side: str, port: int, master: subprocess.Popen[bytes],
              redis: subprocess.Popen[bytes], per_client: list[list[tuple[int, bytes]]], positions: list[int],
              cycle: bool, warmup: float, seconds: float) -> Phase:
    t_begin = time.monotonic() + 0.5  # every client process is up and waiting by then
    t_start = t_begin + warmup
    t_end = t_start + seconds
    futures = [pool.submit(run_client, port, reqs, positions[i], cycle, t_start, t_end, t_begin)
               for i, reqs in enumerate(per_client)]
    time.sleep(max(0.0, t_start - time.monotonic()))
    w0, r0 = cpu_seconds(master.pid), cpu_seconds(redis.pid)
    time.sleep(max(0.0, t_end - time.monotonic()))
    w1, r1 = cpu_seconds(master.pid), cpu_seconds(redis.pid)
    phase = Phase(endpoint, side, seconds, worker_cpu=w1 - w0, redis_cpu=r1 - r0,
                  windows=[(master.pid, t_start, t_end)])
    for i, fut in enumerate(futures):
        res = fut.result(timeout=seconds + warmup + 2 * SOCKET_TIMEOUT + 30)
        phase.latencies += res.latencies
        phase.statuses += res.statuses
        phase.client_cpu += res.cpu
        phase.exhausted += res.exhausted
        positions[i] = res.next_pos
    return phase


def view_requests(games: Sequence[Game], game: str, port: int, floor: bool) -> list[tuple[int, bytes]]:
    out = []
    for i, g in enumerate(games):
        for token in g.tokens:
            path = f"/floor/{g.floor_id}" if floor else f"/v1/{game}/games/{g.game_id}"
            out.append((i, raw_request("GET", path, port, token)))
    return out


def move_requests(games: Sequence[Game], game: str, port: int, floor: bool) -> list[tuple[int, bytes]]:
    out = []
    for i, g in enumerate(games):
        path = f"/floor/{g.floor_id}/moves" if floor else f"/v1/{game}/games/{g.game_id}/moves"
        for seat, body in g.moves:
            out.append((i, raw_request("POST", path, port, g.tokens[seat], body.encode())))
    return out


def split(games: Sequence[Game], clients: int) -> list[list[Game]]:
    return [list(games[i::clients]) for i in range(clients)]


def split_moves(games: Sequence[Game], clients: int) -> list[list[Game]]:
    """Whole games per client, each game to the client with the fewest moves so far: games differ
    in length, and a client that runs out of moves stops early."""
    shares: list[list[Game]] = [[] for _ in range(clients)]
    counts = [0] * clients
    for g in games:
        i = counts.index(min(counts))
        shares[i].append(g)
        counts[i] += len(g.moves)
    return shares


# --- report ----------------------------------------------------------------------------------


def pct_ms(values: Sequence[int], q: float) -> str:
    return f"{engine_bench.percentile(values, q) / 1e6:.2f}"


def report(phases: dict[tuple[str, str], Phase], work: tuple[float, float], game: str) -> Row:
    """The detailed figures of one game; returns its row of the summary."""
    print(f"{'endpoint':<9}{'side':<7}{'req/s':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'requests':>10}"
          f"{'errors':>8}{'worker CPU us/req':>19}{'redis us/req':>14}{'client us/req':>15}")
    for (endpoint, side), p in phases.items():
        n = max(1, p.count)
        print(f"{endpoint:<9}{side:<7}{p.rps:>8.0f}{pct_ms(p.latencies, 50):>9}{pct_ms(p.latencies, 95):>9}"
              f"{pct_ms(p.latencies, 99):>9}{p.count:>10}{p.errors:>8}{p.worker_cpu / n * 1e6:>19.0f}"
              f"{p.redis_cpu / n * 1e6:>14.0f}{p.client_cpu / n * 1e6:>15.0f}")
        if p.errors:
            print(f"{'':<16}statuses: {dict(p.statuses)}")
        if p.exhausted:
            print(f"{'':<16}WARNING: {p.exhausted} client(s) ran out of prepared moves before the end")
    print()
    row = Row(game, 0)
    for endpoint in ("view", "move"):
        real, floor = phases[(endpoint, "real")], phases[(endpoint, "floor")]
        ratio = real.rps / floor.rps if floor.rps else 0.0
        cpu = (real.cpu_per_request, floor.cpu_per_request)
        cpu_ratio = cpu[1] / cpu[0] if cpu[0] else 0.0
        target = TARGETS[endpoint]
        verdict = "ok" if ratio >= target else "BELOW TARGET"
        per_round = ", ".join(f"{r / f:.2f}" for r, f in zip(real.rounds, floor.rounds, strict=False) if f)
        print(f"throughput real/floor, {endpoint}: {ratio:.2f}  (target >= {target}: {verdict}; rounds {per_round}); "
              f"worker CPU per request floor/real: {cpu_ratio:.2f}")
        row.ratios[endpoint] = ratio
        row.cpu[endpoint] = cpu
        row.errors += real.errors + floor.errors + real.exhausted + floor.exhausted
    floor = phases[("move", "floor")]
    floor_cpu = floor.cpu_per_request
    floor_p50 = engine_bench.percentile(floor.latencies, 50) / 1000
    med, p95 = work
    print()
    print(f"engine work of one {game} move request (decode + apply + encode + view + legal_moves, bench.engines): "
          f"median {med:.0f} us, p95 {p95:.0f} us")
    print(f"floor move request: worker CPU {floor_cpu:.0f} us/req, latency p50 {floor_p50:.0f} us")
    print(f"engine work / floor per-request: {med / floor_cpu:.2f} of the floor's worker CPU, "
          f"{med / floor_p50:.2f} of its p50 latency")
    row.engine_us = med
    return row


@dataclass
class Row:
    """One game's line of the summary."""

    game: str
    players: int
    ratios: dict[str, float] = field(default_factory=dict)  # endpoint -> real/floor throughput
    cpu: dict[str, tuple[float, float]] = field(default_factory=dict)  # endpoint -> worker us/req (real, floor)
    engine_us: float = 0.0
    errors: int = 0


def summary(rows: Sequence[Row]) -> None:
    """Every game in one table: throughput real/floor and worker CPU per request."""
    print(f"\nsummary (targets: view >= {TARGETS['view']}, move >= {TARGETS['move']} of the floor)")
    print("| game (players) | view real/floor | move real/floor | worker CPU per view, real vs floor "
          "| worker CPU per move, real vs floor | engine work of a move (median) |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        marks = {e: "" if r.ratios[e] >= TARGETS[e] else " (below)" for e in TARGETS}
        print(f"| {r.game} ({r.players}) | {r.ratios['view']:.2f}{marks['view']} | {r.ratios['move']:.2f}"
              f"{marks['move']} | {r.cpu['view'][0]:.0f} vs {r.cpu['view'][1]:.0f} us "
              f"| {r.cpu['move'][0]:.0f} vs {r.cpu['move'][1]:.0f} us | {r.engine_us:.0f} us |")
    if any(r.errors for r in rows):
        print("errors or exhausted clients: " + ", ".join(f"{r.game} {r.errors}" for r in rows if r.errors))


# --- main ------------------------------------------------------------------------------------


def table_size(engine: Engine, players: int | None) -> int:
    """``players`` (the usual table when None) clamped to what the game seats."""
    wanted = USUAL_PLAYERS if players is None else players
    return min(max(wanted, engine.players.start), engine.players.stop - 1)


def run_game(args: argparse.Namespace, game: str, redis: tuple[str, subprocess.Popen[bytes]],
             real: tuple[int, subprocess.Popen[bytes]], floor: tuple[int, subprocess.Popen[bytes]]
             ) -> tuple[Row, dict[tuple[str, str], Phase]]:
    """Prepare ``game``'s games, run its view and move phases on both sides, report them; returns the
    summary's row and the phases."""
    engine = REGISTRY[game]
    players = table_size(engine, args.players)
    print(f"\n=== {game}, {players} players")
    work = engine_bench.measure(engine, seconds=2.0, max_moves=2_000)
    work_fig = (engine_bench.percentile(work.request, 50) / 1000, engine_bench.percentile(work.request, 95) / 1000)
    redis_url, redis_proc = redis
    (real_port, real_master), (floor_port, floor_master) = real, floor
    t0 = time.monotonic()
    want = int(MAX_MOVE_RATE * args.seconds * args.rounds + MAX_MOVE_RATE * args.warmup * args.rounds)
    games = prepare(real_port, redis_url, game, players, want, prefix=f"bench-{game}",
                    clients=args.clients)
    print(f"prepared {len(games)} games ({sum(len(g.moves) for g in games)} legal moves) and their floor "
          f"copies in {time.monotonic() - t0:.1f} s")
    shares = split_moves(games, args.clients)
    view_games = games[: max(args.clients, 200)]
    view_shares = split(view_games, args.clients)
    reqs = {
        ("view", "real"): [view_requests(s, game, real_port, False) for s in view_shares],
        ("view", "floor"): [view_requests(s, game, floor_port, True) for s in view_shares],
        ("move", "real"): [move_requests(s, game, real_port, False) for s in shares],
        ("move", "floor"): [move_requests(s, game, floor_port, True) for s in shares],
    }
    ports = {"real": (real_port, real_master), "floor": (floor_port, floor_master)}
    positions = {k: [0] * args.clients for k in reqs}
    phases: dict[tuple[str, str], Phase] = {k: Phase(*k) for k in reqs}
    with ProcessPoolExecutor(args.clients, mp_context=get_context("fork")) as pool:
        for endpoint in ("view", "move"):
            for i in range(args.rounds):
                # real, floor, then floor, real: a steady drift of the machine's load hits both alike
                for side in ("real", "floor") if i % 2 == 0 else ("floor", "real"):
                    key = (endpoint, side)
                    port, master = ports[side]
                    cycle = endpoint == "view" or side == "floor"  # the floor takes any move again
                    got = run_phase(pool, endpoint, side, port, master, redis_proc, reqs[key], positions[key],
                                    cycle=cycle, warmup=args.warmup, seconds=args.seconds)
                    phases[key].add(got)
                    phases[key].rounds.append(got.rps)
    print()
    row = report(phases, work_fig, game)
    row.players = players
    return row, phases


def sampled(game: str, phases: dict[tuple[str, str], Phase], directory: str) -> None:
    """Where the workers' CPU time went in ``game``'s move phases, real next to floor (``bench.sampler``;
    the workers wrote their samples when the servers stopped)."""
    from bench import sampler

    per = {}
    for side in ("real", "floor"):
        phase = phases[("move", side)]
        windows = [sampler.Window(pid, t0, t1, phase.cpu_per_request) for pid, t0, t1 in phase.windows]
        per[side] = sampler.per_request(sampler.load(directory, windows[0].master), windows)
    sampler.report(f"{game}, POST a move", per["real"], per["floor"])


def main(argv: Sequence[str] | None = None) -> int:
    first = next(iter(REGISTRY))
    parser = argparse.ArgumentParser(prog="python -m bench.http", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="timed seconds per phase and round (default 8)")
    parser.add_argument("--warmup", type=float, default=1.0, help="untimed seconds before each phase (default 1)")
    parser.add_argument("--rounds", type=int, default=2, help="real/floor alternations per endpoint (default 2)")
    parser.add_argument("--clients", type=int, default=4, help="closed-loop client processes (default 4)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers, each side (default 2)")
    parser.add_argument("--game", default=first,
                        help=f"game to play, or `all` for every game in turn (default: the first registered, {first})")
    parser.add_argument("--players", type=int, default=None,
                        help=f"players per game, clamped to the game's range (default {USUAL_PLAYERS})")
    parser.add_argument("--sample", action="store_true",
                        help="sample the workers of both servers on their CPU time (bench.sampler) and print, per "
                             "game, where a move's worker CPU went, real next to floor (costs both some CPU)")
    parser.add_argument("--log-level", default="info",
                        help="CARDTABLE_LOG_LEVEL of both servers (default info, production's: one JSON access-log "
                             "line per request from the real service, written to a temporary file)")
    args = parser.parse_args(argv)
    if args.game != "all" and args.game not in REGISTRY:
        parser.error(f"unknown game {args.game!r}; registered: {list(REGISTRY)} or all")
    if not (0 < args.seconds <= 30 and 0 < args.rounds <= 5 and 0 < args.clients <= 32 and 0 < args.workers <= 16):
        parser.error("keep it bounded: seconds <= 30, rounds <= 5, clients <= 32, workers <= 16")
    games = list(REGISTRY) if args.game == "all" else [args.game]
    t_run = time.monotonic()
    print(f"bench.http: {', '.join(f'{g} ({table_size(REGISTRY[g], args.players)})' for g in games)}; "
          f"gunicorn -c deploy/gunicorn.conf.py, {args.workers} workers each side (gevent unless "
          f"CARDTABLE_WORKER_CLASS says otherwise); {args.clients} closed-loop client processes; "
          f"{args.rounds} round(s) x {args.seconds:g} s per endpoint and side (+{args.warmup:g} s warm-up); "
          f"{os.cpu_count()} CPUs")
    rows = []
    played = []
    with ExitStack() as stack:
        samples = stack.enter_context(tempfile.TemporaryDirectory(prefix="cardtable-bench-samples-")) \
            if args.sample else None
        redis = stack.enter_context(redis_server())
        real = stack.enter_context(gunicorn("service.app:create_app()", redis[0], args.workers, args.log_level,
                                            samples))
        floor = stack.enter_context(gunicorn("bench.floor_app:create_app()", redis[0], args.workers,
                                             args.log_level, samples))
        for game in games:
            row, phases = run_game(args, game, redis, real, floor)
            rows.append(row)
            played.append((game, phases))
        if samples is not None:
            # the workers write their samples as they exit: stop both servers first
            stop(real[1])
            stop(floor[1])
            for game, phases in played:
                sampled(game, phases, samples)
    summary(rows)
    print(f"\n(total run {time.monotonic() - t_run:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
