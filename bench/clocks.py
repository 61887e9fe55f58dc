"""What clocks cost: the deadline sweeper with many games on time, and the move path with a clock.

``python -m bench.clocks [--games 10000] [--idle-seconds 15] [--rate 20] [--window 20] [--seconds 8] [--rounds 4]``

One run, on one redis-server on a spare loopback port and gunicorn as deployed
(``-c deploy/gunicorn.conf.py``, 2 gevent workers), the same settings as bench.http (its limits off):

1. creates ``--games`` games (``--game``, at its usual table, every seat a person) with a
   correspondence clock of a day (``per_move`` 86,400 s) through the real API, on a server whose
   sweeper is off (``CARDTABLE_SWEEP_SECONDS=0``); nothing of them falls due during the run;
2. nothing due: the workers' CPU (``/proc/<pid>/task/*/schedstat``, ns) and Redis's (``INFO cpu``) per
   second for ``--idle-seconds``, first on that server (sweeper off), then on a server started in its
   place on the same Redis with the deployed sweeper (``CARDTABLE_SWEEP_SECONDS`` and
   ``CARDTABLE_SWEEP_BATCH`` at their defaults); the difference is what the sweeper costs with the
   due set holding every game and none due;
3. deadlines due at a steady rate: ``--rate`` games a second are created for ``--window`` seconds with a
   ``per_move`` clock of ``--window`` + 5 s, so their first deadlines (read off each stored record)
   fall ``--rate`` a second, after the last create. Nobody asks for them: the sweeper applies each
   one (``timed_out``, then a bot of the default level plays the seat's turn). Measured from the first
   deadline to 3 s after the last: the delay from each deadline to the ``at`` of its ``timed_out``
   log entry (p50/p90/p99/max; a deadline not applied by then is awaited up to 30 s more), timeouts
   missing or applied twice, the workers' and Redis's CPU per timeout inside the window (as measured,
   and less the idle cost of step 2) and how long the workers waited for a core. Each timing game
   leaves the due set once it timed out (its next turn would time out later);
4. the move path, clock on against off: bench.http's closed loop (its client, imported) of legal moves
   on games created with a ``fischer`` clock of an hour (none runs out during the run) against games
   created without, alternating rounds (on, off, off, on, ...); the throughput ratio (target: clocks
   on >= 0.95 of off) and the worker CPU per move.

Prints one summary table at the end. Asserts nothing; every loop is bounded in count and time, and
every process started here is stopped at the end.
"""

from __future__ import annotations

import argparse
import http.client
import math
import os
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from datetime import datetime
from multiprocessing import get_context
from typing import Any

import orjson
import redis

from bench import engines as engine_bench
from bench import http as hb
from engines import REGISTRY
from service import clocks
from service.config import Settings
from service.store import DEADLINES_KEY

#: The background games' clock: a turn of a day, so nothing of them falls due during a run.
DAY_CLOCK = {"kind": "per_move", "seconds": 86_400}
#: The move phase's clock: a bank of an hour with an increment, more than a run lasts.
MOVE_CLOCK = {"kind": "fischer", "initial_seconds": 3_600, "increment_seconds": 5}
#: Seconds between the last timing game's create and its deadline: the creates' own cost stays out of
#: the timed window, and no second timeout of a game falls inside it.
GAP = 5
#: How long after the last deadline the timed window goes on (the sweep interval is 0.5 s).
GRACE = 3.0
#: How long after the window a deadline not applied yet is awaited.
LATE = 30.0
#: What the move phase sizes its prepared moves by (moves a second the real side could take at most).
MAX_MOVE_RATE = 2_500
#: Upper bound on creating the background games.
CREATE_SECONDS = 600.0
TARGET = 0.95
#: The deployed sweep interval (CARDTABLE_SWEEP_SECONDS's default), in ms: a delay above it waited longer
#: than a sweep.
SWEEP_MS = int(Settings.sweep_seconds * 1000)


# --- measuring -------------------------------------------------------------------------------


def _task_ns(pid: int | str, column: int = 0) -> int:
    """CPU time (ns) of every thread of ``pid`` (schedstat's first column; the second: the time its
    threads were ready to run and waited for a core)."""
    total = 0
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                total += int(f.read().split()[column])
        except OSError:
            continue
    return total


def worker_pids(master: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                if int(f.read().rsplit(")", 1)[1].split()[1]) == master:
                    out.append(int(entry))
        except (OSError, ValueError, IndexError):
            continue
    return out


def workers_cpu(master: int) -> float:
    """CPU seconds of the gunicorn workers (the master's children), ns-precise."""
    return sum(_task_ns(p) for p in worker_pids(master)) / 1e9


def workers_waited(master: int) -> float:
    """Seconds the workers were ready to run and waited for a core (another process had it)."""
    return sum(_task_ns(p, 1) for p in worker_pids(master)) / 1e9


def redis_cpu(rds: redis.Redis) -> float:
    info = rds.info("cpu")
    return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])


def evalsha_calls(rds: redis.Redis) -> int:
    stats = rds.info("commandstats")
    return sum(int(v["calls"]) for k, v in stats.items() if k in ("cmdstat_evalsha", "cmdstat_eval"))


def window(master: int, rds: redis.Redis, seconds: float) -> tuple[float, float, int]:
    """Sleep ``seconds``; the workers' and Redis's CPU seconds and the scripts Redis ran meanwhile."""
    w0, r0, e0 = workers_cpu(master), redis_cpu(rds), evalsha_calls(rds)
    time.sleep(seconds)
    # INFO itself is one command; its cost is the same in every window
    return workers_cpu(master) - w0, redis_cpu(rds) - r0, evalsha_calls(rds) - e0


def machine() -> str:
    """The machine's load and CPU pressure (the share of the last minute some task waited for a core):
    other work on the shared cores moves every figure here."""
    try:
        with open("/proc/pressure/cpu") as f:
            some = f.readline().split()
        pressure = f", CPU pressure {some[2].split('=')[1]}% (60 s)"
    except (OSError, IndexError):
        pressure = ""
    return f"load {os.getloadavg()[0]:.1f}{pressure}"


def at_ms(text: str) -> int:
    return int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)


def pct(values: Sequence[float], q: float) -> float:
    return engine_bench.percentile(sorted(values), q) if values else float("nan")


# --- servers ---------------------------------------------------------------------------------


@contextmanager
def service(redis_url: str, workers: int, log_level: str, sweep: bool) -> Iterator[tuple[int, Any]]:
    """bench.http's gunicorn of the real service, with the sweeper on (the deployed defaults) or off."""
    saved = {k: os.environ.pop(k, None) for k in ("CARDTABLE_SWEEP_SECONDS", "CARDTABLE_SWEEP_BATCH")}
    if not sweep:
        os.environ["CARDTABLE_SWEEP_SECONDS"] = "0"
    try:
        with hb.gunicorn("service.app:create_app()", redis_url, workers, log_level) as (port, master):
            wait_healthy(port)
            yield port, master
    finally:
        os.environ.pop("CARDTABLE_SWEEP_SECONDS", None)
        os.environ.update({k: v for k, v in saved.items() if v is not None})


def wait_healthy(port: int, seconds: float = 60.0) -> None:
    """Until a worker answers /healthz (the master listens before its workers are up)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                conn.close()
                return
            conn.close()
        except OSError:
            pass
        time.sleep(0.1)
    raise SystemExit("the service did not answer /healthz")


# --- games -----------------------------------------------------------------------------------


def create(conn: http.client.HTTPConnection, game: str, body: dict[str, Any], tries: int = 5) -> Any:
    """One create through the API; a 503 (the store did not answer in time: the machine is shared) is
    tried again after a short pause, ``tries`` times at most."""
    for attempt in range(tries):
        try:
            return hb.api(conn, "POST", f"/v1/{game}/games", body)
        except RuntimeError as exc:
            if "-> 503" not in str(exc) or attempt == tries - 1:
                raise
            time.sleep(0.5)
    raise AssertionError("unreachable")


def create_many(port: int, game: str, players: int, count: int, clock: dict[str, Any], end: float) -> int:
    """Create ``count`` games (one at a time) until monotonic ``end``; how many were created."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=hb.SOCKET_TIMEOUT)
    made = 0
    for _ in range(count):
        if time.monotonic() > end:
            break
        create(conn, game, {"players": players, "clock": clock})
        made += 1
    return made


def create_background(port: int, game: str, players: int, count: int, clients: int) -> tuple[int, float]:
    t0 = time.monotonic()
    shares = [count // clients + (1 if i < count % clients else 0) for i in range(clients)]
    with ProcessPoolExecutor(clients, mp_context=get_context("fork")) as pool:
        futures = [pool.submit(create_many, port, game, players, n, DAY_CLOCK, t0 + CREATE_SECONDS) for n in shares]
        made = sum(f.result(timeout=CREATE_SECONDS + 60) for f in futures)
    return made, time.monotonic() - t0


def stored_record(rds: redis.Redis, game_id: str) -> dict[str, Any]:
    raw = rds.hget(f"cardtable:game:{{{game_id}}}", "s")
    if raw is None:
        raise RuntimeError(f"game {game_id} is not in Redis under the expected key")
    return orjson.loads(raw)


def create_paced(port: int, rds: redis.Redis, game: str, players: int, rate: float, seconds: float,
                 clock: dict[str, Any]) -> tuple[list[tuple[str, int]], float]:
    """Create ``rate`` games a second for ``seconds``, each at its slot (a late create goes at once), from
    one client thread per 20 a second; each game's id and its first deadline (epoch ms, read off the
    stored record); the seconds the creates fell behind their slots at most."""
    n = max(1, round(rate * seconds))
    threads = max(1, math.ceil(rate / 20))
    t0 = time.monotonic() + 0.2

    def client(first: int) -> tuple[list[tuple[str, int]], float]:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=hb.SOCKET_TIMEOUT)
        out, late = [], 0.0
        for i in range(first, n, threads):
            pause = t0 + i / rate - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            else:
                late = max(late, -pause)
            created = create(conn, game, {"players": players, "clock": clock})
            at = clocks.deadline(stored_record(rds, created["game_id"]))
            if at is not None:
                out.append((created["game_id"], at))
        return out, late

    with ThreadPoolExecutor(threads) as pool:
        got = list(pool.map(client, range(threads), timeout=seconds + n * hb.SOCKET_TIMEOUT))
    return [g for made, _ in got for g in made], max(late for _, late in got)


def first_timeouts(rds: redis.Redis, game_id: str) -> list[int]:
    """The ``at`` (epoch ms) of every ``timed_out`` entry in the game's log, in the log's order."""
    out = []
    for raw in rds.lrange(f"cardtable:log:{{{game_id}}}", 0, -1):
        entry = orjson.loads(raw)
        if any(e.get("type") == "timed_out" for e in entry.get("events", ())):
            out.append(at_ms(entry["at"]))
    return out


def prepare_moves(port: int, game: str, players: int, want_moves: int, prefix: str, clock: dict[str, Any] | None,
                  want_games: int) -> list[hb.Game]:
    """bench.http's prepare without the floor: seeded games (with ``clock`` or none) and every legal
    move of each, replayed locally."""
    engine = REGISTRY[game]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=hb.SOCKET_TIMEOUT)
    games: list[hb.Game] = []
    total = 0
    while (total < want_moves or len(games) < want_games) and len(games) < 20_000:
        seed = f"{prefix}-{len(games)}"
        body: dict[str, Any] = {"players": players, "seed": seed}
        if clock is not None:
            body["clock"] = clock
        created = create(conn, game, body)
        moves = hb.play_locally(engine, players, seed)
        games.append(hb.Game(created["game_id"], "", [s["token"] for s in created["seats"]], moves))
        total += len(moves)
    return games


# --- phases ----------------------------------------------------------------------------------


def idle(master: int, rds: redis.Redis, seconds: float) -> dict[str, float]:
    w, r, e = window(master, rds, seconds)
    return {"worker_ms_s": w / seconds * 1e3, "redis_ms_s": r / seconds * 1e3, "scripts_s": e / seconds}


def steady(args: argparse.Namespace, port: int, master: int, rds: redis.Redis, players: int,
           idle_on: dict[str, float]) -> dict[str, Any]:
    clock = {"kind": "per_move", "seconds": math.ceil(args.window) + GAP}
    print(f"\n--- deadlines due at {args.rate:g}/s: creating {round(args.rate * args.window)} games over "
          f"{args.window:g} s, per_move {clock['seconds']} s; {machine()}")
    games, late = create_paced(port, rds, args.game, players, args.rate, args.window, clock)
    deadlines = sorted(at for _, at in games)
    first, last = deadlines[0], deadlines[-1]
    print(f"created {len(games)} (the creates fell behind their slots by {late:.2f} s at most); deadlines "
          f"over {(last - first) / 1000:.1f} s")
    pause = first / 1000 - time.time()
    if pause > 0:
        time.sleep(pause)
    seconds = (last - first) / 1000 + GRACE
    q0 = workers_waited(master)
    w, r, e = window(master, rds, seconds)
    waited = (workers_waited(master) - q0) / seconds * 1e3
    window_end = clocks.now_ms()
    # A game timed out by now has its next deadline a turn (more than GRACE) after its timeout: it leaves
    # the due set now, so that the next turns of none of them time out while the late ones are awaited
    # (at most LATE seconds; their delays count, their CPU fell after the window) and in the move phase.
    pending = dict(games)
    delays: list[int] = []
    twice, again, in_window = 0, 0, 0
    turn_ms = clock["seconds"] * 1000
    late_end = time.monotonic() + LATE
    while pending:
        found = []
        for game_id, deadline in pending.items():
            got = first_timeouts(rds, game_id)
            if got:
                found.append(game_id)
                gaps = [b - a for a, b in zip(got, got[1:], strict=False)]
                twice += any(g < turn_ms / 2 for g in gaps)  # one turn's deadline applied twice
                again += any(g >= turn_ms / 2 for g in gaps)  # its next turn's ran out too, before it left the set
                in_window += got[0] <= window_end
                delays.append(got[0] - deadline)
        if found:
            rds.zrem(DEADLINES_KEY, *found)
            for game_id in found:
                del pending[game_id]
        if not pending or time.monotonic() > late_end:
            break
        time.sleep(0.5)
    missing = len(pending)
    rds.zrem(DEADLINES_KEY, *[g for g, _ in games])
    n = max(1, in_window)
    out = {"rate": args.rate, "timeouts": len(delays), "in_window": in_window, "missing": missing, "twice": twice,
           "again": again, "seconds": seconds,
           "p50": pct(delays, 50), "p90": pct(delays, 90), "p99": pct(delays, 99),
           "over": sum(d > SWEEP_MS for d in delays), "max": max(delays, default=float("nan")),
           "min": min(delays, default=float("nan")), "late_creates": late,
           "worker_ms": w / n * 1e3, "worker_net_ms": (w - idle_on["worker_ms_s"] / 1e3 * seconds) / n * 1e3,
           "redis_ms": r / n * 1e3, "redis_net_ms": (r - idle_on["redis_ms_s"] / 1e3 * seconds) / n * 1e3,
           "worker_ms_s": w / seconds * 1e3, "scripts": e, "waited_ms_s": waited}
    print(f"timed out {len(delays)} of {len(games)} ({in_window} in the window of {seconds:.1f} s, {missing} "
          f"missing {LATE:.0f} s after it, {twice} applied twice, {again} whose next turn timed out too); "
          f"delay deadline -> timed_out at: "
          f"p50 {out['p50']:.0f} ms, p90 {out['p90']:.0f} ms, p99 {out['p99']:.0f} ms, max {out['max']:.0f} ms "
          f"(min {out['min']:.0f}; {out['over']} over the sweep "
          f"interval); workers {out['worker_ms_s']:.1f} ms CPU/s, {out['worker_ms']:.2f} ms per timeout "
          f"({out['worker_net_ms']:.2f} less idle); Redis {out['redis_ms']:.3f} ms per timeout "
          f"({out['redis_net_ms']:.3f} less idle); {e} scripts; the workers waited for a core {waited:.1f} ms/s")
    return out


def moves(args: argparse.Namespace, port: int, master: Any, redis_proc: Any, players: int) -> dict[str, hb.Phase]:
    want = int(MAX_MOVE_RATE * (args.seconds + args.warmup) * args.rounds)
    t0 = time.monotonic()
    sides = {"clock": MOVE_CLOCK, "none": None}
    prepared = {side: prepare_moves(port, args.game, players, want, f"clk{os.getpid()}-{side}", c, args.clients)
                for side, c in sides.items()}
    made = ", ".join(f"{len(g)} games ({sum(len(x.moves) for x in g)} moves) {s}" for s, g in prepared.items())
    print(f"\n--- moves, clock on vs off: prepared {made} in {time.monotonic() - t0:.1f} s; {machine()}")
    reqs = {s: [hb.move_requests(share, args.game, port, False) for share in hb.split_moves(g, args.clients)]
            for s, g in prepared.items()}
    positions = {s: [0] * args.clients for s in sides}
    phases = {s: hb.Phase("move", s) for s in sides}
    with ProcessPoolExecutor(args.clients, mp_context=get_context("fork")) as pool:
        list(pool.map(abs, range(args.clients), timeout=60))  # every client process is up before round 1
        for i in range(args.rounds):
            for side in ("clock", "none") if i % 2 == 0 else ("none", "clock"):
                got = hb.run_phase(pool, "move", side, port, master, redis_proc, reqs[side], positions[side],
                                   cycle=False, warmup=args.warmup, seconds=args.seconds)
                phases[side].add(got)
                phases[side].rounds.append(got.rps)
                print(f"round {i + 1} {side:<6}{got.rps:>8.0f} moves/s  p50 {hb.pct_ms(got.latencies, 50)} ms  "
                      f"p99 {hb.pct_ms(got.latencies, 99)} ms  worker {got.cpu_per_request:.0f} us/move  "
                      f"errors {got.errors}{'  (ran out of moves)' if got.exhausted else ''}")
    return phases


# --- report ----------------------------------------------------------------------------------


def summary(args: argparse.Namespace, players: int, made: int, off: dict[str, float], on: dict[str, float],
            due: dict[str, Any], phases: dict[str, hb.Phase]) -> None:
    on_p, off_p = phases["clock"], phases["none"]
    ratio = on_p.rps / off_p.rps if off_p.rps else 0.0
    per_round = [a / b for a, b in zip(on_p.rounds, off_p.rounds, strict=False) if b]
    rounds = ", ".join(f"{r:.2f}" for r in per_round)
    mid = statistics.median(per_round) if per_round else 0.0
    cpu_ratio = off_p.cpu_per_request / on_p.cpu_per_request if on_p.cpu_per_request else 0.0
    print(f"\nsummary: {args.game} ({players} players), {made} games holding a clock, gunicorn "
          f"-c deploy/gunicorn.conf.py with {args.workers} workers, {os.cpu_count()} CPUs")
    print("| measure | figure |")
    print("|---|---|")
    print(f"| nothing due, sweeper off: workers / Redis CPU | {off['worker_ms_s']:.2f} / {off['redis_ms_s']:.2f} "
          "ms/s |")
    print(f"| nothing due, sweeper on: workers / Redis CPU | {on['worker_ms_s']:.2f} / {on['redis_ms_s']:.2f} ms/s "
          f"({on['scripts_s']:.1f} scripts/s) |")
    print(f"| the sweeper's cost, nothing due | workers {on['worker_ms_s'] - off['worker_ms_s']:+.2f} ms/s, Redis "
          f"{on['redis_ms_s'] - off['redis_ms_s']:+.2f} ms/s |")
    print(f"| {due['rate']:g} timeouts/s ({due['in_window']} in {due['seconds']:.0f} s, {due['timeouts']} in all; "
          f"missing {due['missing']}, twice {due['twice']}, next turn too {due['again']}): "
          f"deadline -> timed_out p50 / p90 / p99 / max | {due['p50']:.0f} / "
          f"{due['p90']:.0f} / {due['p99']:.0f} / {due['max']:.0f} ms ({due['over']} over {SWEEP_MS} ms; workers "
          f"waited for a core {due['waited_ms_s']:.1f} ms/s) |")
    print(f"| worker CPU per timeout (less the idle cost) | {due['worker_ms']:.2f} ms ({due['worker_net_ms']:.2f} "
          "ms) |")
    print(f"| Redis CPU per timeout (less the idle cost) | {due['redis_ms']:.3f} ms ({due['redis_net_ms']:.3f} ms) |")
    print(f"| moves/s, clock on vs off | {on_p.rps:.0f} vs {off_p.rps:.0f}: {ratio:.2f} (target >= {TARGET}: "
          f"{'ok' if ratio >= TARGET else 'below'}; rounds {rounds}, median {mid:.2f}) |")
    print(f"| worker CPU per move, clock on vs off | {on_p.cpu_per_request:.0f} vs {off_p.cpu_per_request:.0f} us "
          f"(off/on {cpu_ratio:.2f}) |")
    print(f"| Redis CPU per move, clock on vs off | {on_p.redis_cpu / max(1, on_p.count) * 1e6:.0f} vs "
          f"{off_p.redis_cpu / max(1, off_p.count) * 1e6:.0f} us |")
    print(f"| move latency p50 / p99, clock on vs off | {hb.pct_ms(on_p.latencies, 50)} / "
          f"{hb.pct_ms(on_p.latencies, 99)} vs {hb.pct_ms(off_p.latencies, 50)} / "
          f"{hb.pct_ms(off_p.latencies, 99)} ms |")
    errors = on_p.errors + off_p.errors + on_p.exhausted + off_p.exhausted
    if errors:
        print(f"move errors or clients out of moves: clock {dict(on_p.statuses)} {on_p.exhausted}, "
              f"none {dict(off_p.statuses)} {off_p.exhausted}")


def main(argv: Sequence[str] | None = None) -> int:
    first = next(iter(REGISTRY))
    parser = argparse.ArgumentParser(prog="python -m bench.clocks", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default=first, help=f"the game (default {first})")
    parser.add_argument("--players", type=int, default=None, help=f"players per game (default {hb.USUAL_PLAYERS}, "
                                                                  "clamped to the game's range)")
    parser.add_argument("--games", type=int, default=10_000, help="background games holding a clock (default 10000)")
    parser.add_argument("--idle-seconds", type=float, default=15.0, help="each idle window (default 15)")
    parser.add_argument("--rate", type=float, default=20.0, help="deadlines due a second (default 20)")
    parser.add_argument("--window", type=float, default=20.0, help="seconds deadlines fall due (default 20)")
    parser.add_argument("--seconds", type=float, default=8.0, help="timed seconds per move round (default 8)")
    parser.add_argument("--warmup", type=float, default=1.0, help="untimed seconds before each round (default 1)")
    parser.add_argument("--rounds", type=int, default=4, help="move rounds per side, alternating (default 4)")
    parser.add_argument("--clients", type=int, default=4, help="closed-loop client processes (default 4)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2)")
    parser.add_argument("--log-level", default="info", help="CARDTABLE_LOG_LEVEL (default info, production's)")
    args = parser.parse_args(argv)
    if args.game not in REGISTRY:
        parser.error(f"unknown game {args.game!r}; registered: {list(REGISTRY)}")
    if not (0 < args.games <= 100_000 and 0 < args.idle_seconds <= 120 and 0 < args.rate <= 500
            and 0 < args.window <= 120 and 0 < args.seconds <= 30 and 0 < args.rounds <= 10
            and 0 < args.clients <= 32 and 0 < args.workers <= 16):
        parser.error("keep it bounded: games <= 100000, idle-seconds <= 120, rate <= 500, window <= 120, "
                     "seconds <= 30, rounds <= 10, clients <= 32, workers <= 16")
    players = hb.table_size(REGISTRY[args.game], args.players)
    t_run = time.monotonic()
    print(f"bench.clocks: {args.game} ({players} players); gunicorn -c deploy/gunicorn.conf.py, {args.workers} "
          f"workers (gevent unless CARDTABLE_WORKER_CLASS says otherwise); {os.cpu_count()} CPUs; {machine()}")
    with ExitStack() as stack:
        redis_url, redis_proc = stack.enter_context(hb.redis_server())
        rds = redis.Redis.from_url(redis_url)
        stack.callback(rds.close)
        with service(redis_url, args.workers, args.log_level, sweep=False) as (port, master):
            made, took = create_background(port, args.game, players, args.games, args.clients)
            print(f"created {made} games with a clock (per_move {DAY_CLOCK['seconds']} s) in {took:.1f} s; "
                  f"{rds.zcard(DEADLINES_KEY)} in the due set, none due")
            time.sleep(1.0)
            off = idle(master.pid, rds, args.idle_seconds)
            print(f"nothing due, sweeper off: workers {off['worker_ms_s']:.2f} ms CPU/s, Redis "
                  f"{off['redis_ms_s']:.2f} ms CPU/s, {off['scripts_s']:.1f} scripts/s")
        port, master = stack.enter_context(service(redis_url, args.workers, args.log_level, sweep=True))
        time.sleep(1.0)
        on = idle(master.pid, rds, args.idle_seconds)
        print(f"nothing due, sweeper on:  workers {on['worker_ms_s']:.2f} ms CPU/s, Redis "
              f"{on['redis_ms_s']:.2f} ms CPU/s, {on['scripts_s']:.1f} scripts/s")
        due = steady(args, port, master.pid, rds, players, on)
        phases = moves(args, port, master, redis_proc, players)
    summary(args, players, made, off, on, due, phases)
    print(f"\n(total run {time.monotonic() - t_run:.0f} s; {machine()})")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
