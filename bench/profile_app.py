"""Where a request's time goes, in-process: the real app vs the floor app on one real Redis.

``python -m bench.profile_app [--game ID] [--players N] [--requests N] [--top N]``

Calls each app's WSGI callable directly (what a gunicorn worker does once it has parsed
the request; the WSGI environ is built before the clock starts) and reports the CPU time
of this thread per request (the waits for Redis and any time the process is descheduled
on a shared machine are left out; wall time is shown too). Variants peel the real move
request apart: without the JSON access log, without any observability hook, the handler alone
(``service.moves.submit`` in a pushed request context), and with no game version kept from one
request to the next (``service.versions``: every view and move reads and decodes its game anew,
as on a worker that has not seen the game's current version). All variants are measured
interleaved, request by request, so that they see the same machine load. Then each step of the
move handler on its own, over the positions of the games played (median and mean: a step's cost
moves with the position), and a cProfile (CPU clock) of real move requests: top functions by own
and by cumulative time, in microseconds per request (cProfile inflates small calls; read it for
shares, the timed rows for absolutes). The game is played at its usual table (``--players``,
as ``bench.http``). Bounded by ``--requests``; starts and stops its own redis-server.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
from werkzeug.test import EnvironBuilder

from bench.floor_app import seed_game
from bench.http import USUAL_PLAYERS, play_locally, redis_server, table_size
from engines import REGISTRY
from engines.core import move_from_json


def _environ(method: str, path: str, token: str | None, body: bytes | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    builder = EnvironBuilder(path=path, method=method, headers=headers, data=body,
                             content_type="application/json" if body is not None else None)
    try:
        return builder.get_environ()
    finally:
        builder.close()


def _call(app: Any, environ: dict[str, Any]) -> int:
    status: list[str] = []

    def start_response(s: str, headers: Any, exc_info: Any = None) -> Any:
        status.append(s)
        return lambda data: None

    body = app(environ, start_response)
    try:
        for _ in body:
            pass
    finally:
        if hasattr(body, "close"):
            body.close()
    return int(status[0][:3])


@dataclass
class Variant:
    """One way of serving the same kind of request; ``run(item)`` answers (cpu ns, wall ns)."""

    name: str
    items: list[Any]
    run: Callable[[Any], tuple[int, int]]
    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)

    @property
    def p50(self) -> float:
        return statistics.median(self.cpu)


def wsgi_runner(app: Any, forget: bool = False) -> Callable[[dict[str, Any]], tuple[int, int]]:
    """Times one request; ``forget``: the app keeps no game version from one request to the next."""
    versions = app.extensions["cardtable"].versions if forget else None

    def run(environ: dict[str, Any]) -> tuple[int, int]:
        if versions is not None:
            versions.clear()
        c0, t0 = time.thread_time_ns(), time.perf_counter_ns()
        status = _call(app, environ)
        c1, t1 = time.thread_time_ns(), time.perf_counter_ns()
        if status != 200:
            raise RuntimeError(f"{environ['REQUEST_METHOD']} {environ['PATH_INFO']} -> {status}")
        return c1 - c0, t1 - t0

    return run


def interleave(variants: Sequence[Variant]) -> None:
    """Run item i of every variant, then item i+1 ...: every variant sees the same load."""
    for i in range(min(len(v.items) for v in variants)):
        for v in variants:
            cpu, wall = v.run(v.items[i])
            v.cpu.append(cpu / 1000)
            v.wall.append(wall / 1000)


def table(title: str, variants: Sequence[Variant], base: Variant | None = None) -> None:
    print(f"\n{title}")
    width = max(len(v.name) for v in variants)
    print(f"  {'':<{width}} {'CPU p50':>8} {'CPU mean':>9} {'wall p50':>9}   (us per request)")
    for v in variants:
        extra = f"   floor/this = {base.p50 / v.p50:.2f}" if base is not None and v is not base else ""
        print(f"  {v.name:<{width}} {v.p50:>8.0f} {statistics.mean(v.cpu):>9.0f} "
              f"{statistics.median(v.wall):>9.0f}{extra}")


def steps(pairs: Sequence[tuple[str, Callable[[Any], Any]]], items: Sequence[Any]) -> None:
    """CPU time of each step on every item (a position), the steps interleaved item by item:
    median and mean per step, and the sum of the means."""
    times: dict[str, list[float]] = {name: [] for name, _ in pairs}
    for _, fn in pairs:
        fn(items[0])
    for item in items:
        for name, fn in pairs:
            t0 = time.thread_time_ns()
            fn(item)
            times[name].append((time.thread_time_ns() - t0) / 1000)
    print(f"  {'':<62} {'median':>7} {'mean':>7}   (us)")
    for name, _ in pairs:
        print(f"  {name:<62} {statistics.median(times[name]):7.1f} {statistics.mean(times[name]):7.1f}")


def _short(path: str) -> str:
    for marker in ("site-packages/", "/work/main/", "lib/python3"):
        if marker in path:
            return path.split(marker, 1)[1]
    return path


def profile(run: Callable[[], None], count: int, top: int) -> None:
    prof = cProfile.Profile(time.thread_time)  # CPU clock: waits for Redis are not counted
    prof.enable()
    run()
    prof.disable()
    stats = pstats.Stats(prof, stream=io.StringIO())
    for index, title in ((2, "own time"), (3, "cumulative time")):
        print(f"\ncProfile (CPU clock) of {count} real move requests, top {top} by {title}, per request:")
        rows = sorted(stats.stats.items(), key=lambda kv: kv[1][index], reverse=True)[:top]  # type: ignore[attr-defined]
        names = [f"{_short(f[0])}:{f[1]}({f[2]})" for f, _ in rows]
        width = max(len(n) for n in names)
        print(f"  {'function':<{width}} {'calls':>7} {'own us':>8} {'cum us':>8}")
        for name, (_, (_cc, nc, tt, ct, _callers)) in zip(names, rows, strict=True):
            print(f"  {name:<{width}} {nc / count:>7.1f} {tt / count * 1e6:>8.1f} {ct / count * 1e6:>8.1f}")


def main(argv: Sequence[str] | None = None) -> int:
    first = next(iter(REGISTRY))
    parser = argparse.ArgumentParser(prog="python -m bench.profile_app", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default=first, help=f"game to play (default {first})")
    parser.add_argument("--players", type=int, default=None,
                        help=f"players, clamped to the game's range (default {USUAL_PLAYERS})")
    parser.add_argument("--requests", type=int, default=1500, help="requests per variant (default 1500)")
    parser.add_argument("--top", type=int, default=25, help="functions listed by the profile (default 25)")
    args = parser.parse_args(argv)
    if args.game not in REGISTRY:
        parser.error(f"unknown game {args.game!r}; registered: {list(REGISTRY)}")
    engine = REGISTRY[args.game]
    players = table_size(engine, args.players)
    n = max(100, min(args.requests, 10_000))
    move_variants = 6  # slices of fresh legal moves: 5 move variants + the profile

    metrics_dir = tempfile.mkdtemp(prefix="cardtable-profile-metrics-")
    with redis_server() as (redis_url, _), open(os.devnull, "w") as sink:
        # As under gunicorn: Prometheus metrics in per-process files, and the JSON access
        # log at level info (written to /dev/null, so its formatting cost stays).
        os.environ["REDIS_URL"] = redis_url
        os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", metrics_dir)
        os.environ.setdefault("CARDTABLE_LOG_LEVEL", "info")

        from bench.floor_app import create_app as floor_app
        from bench.floor_app import make_client
        from schemas import SCHEMAS
        from schemas.common import build
        from service import auth, log, moves, view
        from service.app import create_app
        from service.config import Settings
        from service.records import dumps, loads_record
        from service.runtime import Game

        stderr, sys.stderr = sys.stderr, sink  # the log handler binds the stream it is made with
        try:
            real = create_app(Settings.from_env(redis_url=redis_url, allow_fixed_deals=True))
            no_log = create_app(Settings.from_env(redis_url=redis_url, allow_fixed_deals=True, request_log=False))
            forgetful = create_app(Settings.from_env(redis_url=redis_url, allow_fixed_deals=True))
            bare = create_app(Settings.from_env(redis_url=redis_url, allow_fixed_deals=True))
            floor = floor_app()
        finally:
            sys.stderr = stderr
        real.extensions["cardtable.access_log"].stream = sink  # access lines are written when due
        forgetful.extensions["cardtable.access_log"].stream = sink
        bare.wsgi_app = bare.wsgi_app.app  # unwrap the observability middleware
        game = Game(engine, build(engine, SCHEMAS[args.game]))  # as service.blueprint makes it
        rds = make_client(redis_url)
        client = real.test_client()

        # Games with their precomputed legal moves (first listed move of the seat to move).
        games = []
        total = 0
        while total < move_variants * (n + 300) or len(games) < move_variants:
            seed = f"profile-{len(games)}"
            created = client.post(f"/v1/{args.game}/games", json={"players": players, "seed": seed}).get_json()
            snapshot = rds.hget(f"cardtable:game:{{{created['game_id']}}}", "s")
            floor_id = f"floor-profile-{len(games)}"
            seed_game(rds, floor_id, snapshot)
            played = play_locally(engine, players, seed)
            games.append((created["game_id"], floor_id, [s["token"] for s in created["seats"]], played))
            total += len(played)
        # Whole games per variant (a game's moves must come in order): game i -> part i % 6.
        parts = [[(g, seat, body) for g in games[k::move_variants] for seat, body in g[3]]
                 for k in range(move_variants)]

        def view_envs(path: Callable[[Any], str]) -> list[dict[str, Any]]:
            return [_environ("GET", path(games[i % len(games)]), games[i % len(games)][2][i % players])
                    for i in range(n)]

        def move_envs(path: Callable[[Any], str], part: int) -> list[dict[str, Any]]:
            return [_environ("POST", path(g), g[2][seat], body.encode()) for g, seat, body in parts[part][:n]]

        real_path = f"/v1/{args.game}/games/{{}}"

        def handler_item(item: tuple[Any, int, str]) -> tuple[int, int]:
            g, seat, body = item
            with real.test_request_context(real_path.format(g[0]) + "/moves", method="POST", data=body,
                                           headers={"Authorization": f"Bearer {g[2][seat]}"},
                                           content_type="application/json"):
                c0, t0 = time.thread_time_ns(), time.perf_counter_ns()
                resp = moves.submit(game, g[0])
                c1, t1 = time.thread_time_ns(), time.perf_counter_ns()
            if resp.status_code != 200:
                raise RuntimeError(f"handler answered {resp.status_code}")
            return c1 - c0, t1 - t0

        print(f"in-process WSGI, {args.game} with {players} players, {n} requests per variant, variants "
              f"interleaved; one redis-server on loopback (Redis round trips included in wall time)")
        warm = [Variant("w", view_envs(lambda g: real_path.format(g[0]))[:200], wsgi_runner(real)),
                Variant("w", view_envs(lambda g: f"/floor/{g[1]}")[:200], wsgi_runner(floor))]
        interleave(warm)

        floor_view = Variant("floor view", view_envs(lambda g: f"/floor/{g[1]}"), wsgi_runner(floor))
        views = [
            Variant("real view", view_envs(lambda g: real_path.format(g[0])), wsgi_runner(real)),
            Variant("real view, no version kept (read, decoded, viewed anew)",
                    view_envs(lambda g: real_path.format(g[0])), wsgi_runner(forgetful, forget=True)),
            Variant("real view, no observability hooks", view_envs(lambda g: real_path.format(g[0])),
                    wsgi_runner(bare)),
            floor_view,
        ]
        interleave(views)
        table("GET a seat's view, CPU time of the worker thread:", views, floor_view)

        floor_move = Variant("floor move", move_envs(lambda g: f"/floor/{g[1]}/moves", 0), wsgi_runner(floor))
        moves_v = [
            Variant("real move", move_envs(lambda g: real_path.format(g[0]) + "/moves", 0), wsgi_runner(real)),
            Variant("- without the JSON access log", move_envs(lambda g: real_path.format(g[0]) + "/moves", 1),
                    wsgi_runner(no_log)),
            Variant("- without any observability hook", move_envs(lambda g: real_path.format(g[0]) + "/moves", 2),
                    wsgi_runner(bare)),
            Variant("- the handler alone (moves.submit in a pushed context)", parts[3][:n], handler_item),
            Variant("real move, no version kept (each read and decoded anew)",
                    move_envs(lambda g: real_path.format(g[0]) + "/moves", 4), wsgi_runner(forgetful, forget=True)),
            floor_move,
        ]
        interleave(moves_v)
        table("POST a move, CPU time of the worker thread:", moves_v, floor_move)
        p = [v.p50 for v in moves_v]
        print(f"  => JSON access log {p[0] - p[1]:.0f} us; request id + Prometheus {p[1] - p[2]:.0f} us; "
              f"Flask (request, routing, hooks) {p[2] - p[3]:.0f} us; handler {p[3]:.0f} us; floor {p[5]:.0f} us;\n"
              f"     the version the last move wrote, kept: {p[4] - p[0]:.0f} us saved")

        # Each step of the move handler on its own, over the positions of the first games.
        record0 = loads_record(rds.hget(f"cardtable:game:{{{games[0][0]}}}", "s"), engine)
        store = real.extensions["cardtable"].store
        positions = []
        for i, (gid, _, tokens, gmoves) in enumerate(games):
            state = engine.new_game(players, {}, f"profile-{i}")  # the seed it was created with
            for seat, body_text in gmoves:
                move = move_from_json(engine.move_types, json.loads(body_text)["move"])
                after, events = engine.apply_events(state, seat, move)
                record = {**record0, "game_id": gid, "state": engine.encode(state)}
                positions.append((gid, tokens[seat], dumps(record), record, state, seat, body_text.encode(),
                                  json.loads(body_text), move, after, events, view.body(game, record, 1, after, seat)))
                state = after
                if len(positions) >= n:
                    break
            if len(positions) >= n:
                break
        print(f"\nsteps of a real move request, CPU time over {len(positions)} positions of the games played:")
        steps([
            ("redis HMGET of the snapshot (store.load)", lambda x: store.load(x[0])),
            ("orjson.loads of the record (records.loads_record)", lambda x: loads_record(x[2], engine)),
            ("auth.seat_of (sha256 + compare per seat)",
             lambda x: auth.seat_of(x[1], [s["hash"] for s in x[3]["seats"]])),
            ("orjson.loads of the request body", lambda x: orjson.loads(x[6])),
            ("the move read (service.move_reader: checked, built)", lambda x: game.moves.read(x[7]).move()),
            ("  what it replaces: schema load + move_from_json",
             lambda x: move_from_json(engine.move_types, game.moves.schema.load(x[7])["move"])),
            ("engine.decode", lambda x: engine.decode(x[3]["state"])),
            ("engine.result + to_move", lambda x: (engine.result(x[4]), engine.to_move(x[4]))),
            ("engine.apply_events", lambda x: engine.apply_events(x[4], x[5], x[8])),
            (f"log.entry (shown_move per viewer where hidden, {players + 1} viewers)",
             lambda x: log.entry(game, x[5], x[8], x[10], False, 1, players)),
            ("engine.encode", lambda x: engine.encode(x[9])),
            ("view.body (result, to_move, legal_moves + to_json, view)",
             lambda x: view.body(game, x[3], 1, x[9], x[5])),
            ("  of which engine.legal_moves of the mover", lambda x: engine.legal_moves(x[9], x[5])),
            ("  of which engine.view of the mover", lambda x: engine.view(x[9], x[5])),
            ("dumps(record) (the snapshot written by the commit)", lambda x: dumps(x[3])),
            ("dumps(view) (the response body)", lambda x: dumps(x[11])),
        ], positions)

        envs = move_envs(lambda g: real_path.format(g[0]) + "/moves", 5)
        profile(lambda: [_call(real, e) for e in envs] and None, len(envs), args.top)
        rds.close()
        for app in (real, forgetful):  # the lines still buffered, while their sink is open
            app.extensions["cardtable.access_log"].flush()
    shutil.rmtree(metrics_dir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
