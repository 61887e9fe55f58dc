"""The soak: steady Locust load with a Redis failover and a worker kill in the middle.

Run through ``deploy/soak.sh``. Everything runs on loopback ports of this machine and is bounded
in time: a Redis primary, its replica and three Sentinels (``tests/servers.py``), the service under
gunicorn on them (WAIT for one replica, rate limit on), and ``deploy/loadtest.sh`` for
``SOAK_DURATION`` seconds. At 40 % of the run the primary is killed with SIGKILL (and restarted as
a replica once the Sentinels have promoted the other); at 70 % one gunicorn worker is killed with
SIGKILL. Afterwards every move the load acknowledged (answered 200) is looked up in its game's
whole log, read page after page (``logpages.read_log``, the reader the load test uses too: a long
game's log is longer than one page): the report gives the lost ones (must be 0), the time play
took to resume after the failover, the answers by status, and loadtest.sh's latency percentiles
and error rates.

Exit status: 0 when no acknowledged move was lost, play resumed within 30 s and every answer was
200, 201, 304, 409, 429, 503 or a dropped connection; 1 otherwise.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT), str(HERE)]  # the package and tests; logpages next to this file

from logpages import read_log  # noqa: E402 -- after the path is set

from tests.faults import call, longest_pause  # noqa: E402 -- after the path is set
from tests.servers import SentinelServers, gunicorn  # noqa: E402

DURATION = int(os.environ.get("SOAK_DURATION", "600"))
USERS = int(os.environ.get("SOAK_USERS", "8"))
THROUGHPUT = os.environ.get("SOAK_THROUGHPUT", "4")  # steps per second per user
WORKERS = int(os.environ.get("SOAK_WORKERS", "3"))
RATE_LIMIT = os.environ.get("SOAK_RATE_LIMIT", "100/s")
RESUME_LIMIT = 30.0
ALLOWED = {"0", "200", "201", "304", "409", "429", "503"}


def _at(fraction: float, started: float, stop: threading.Event) -> bool:
    """Sleep until ``fraction`` of the run; False when the run is stopping instead."""
    return not stop.wait(max(0.0, started + fraction * DURATION - time.monotonic()))


def faults(url, sentinels: SentinelServers, stop: threading.Event, started: float, out: dict) -> None:
    """The two faults, at 40 % and 70 % of the run."""
    if not _at(0.4, started, stop):
        return
    out["failover_at"] = time.time()
    out["promoted_s"] = sentinels.kill_primary_and_recover()
    print(f"soak: primary killed; Sentinels promoted the replica after {out['promoted_s']:.2f} s", file=sys.stderr)
    if not _at(0.7, started, stop):
        return
    workers = url.workers()
    if workers:
        os.kill(workers[0], signal.SIGKILL)
        out["worker_killed_at"] = time.time()
        print(f"soak: gunicorn worker {workers[0]} killed", file=sys.stderr)


def _get_retrying(url: str) -> Callable[[str], tuple[int, Any]]:
    """GET on ``url``, retried while the answer is neither 200 nor 404 (bounded: the service is up
    by now, but a retry costs nothing): ``(status, body)`` of the last attempt."""
    def get(path: str) -> tuple[int, Any]:
        got = call(url, "GET", path)
        for _ in range(49):
            if got.status in (200, 404):
                break
            time.sleep(0.2)
            got = call(url, "GET", path)
        return got.status, got.body
    return get


def check_acks(url: str, acks: list[list], limit: int | None = None) -> tuple[int, int]:
    """(acknowledged moves, lost ones): each must be in its game's log with its seat, and the
    game at least at its version. The whole log is read, page after page of ``limit`` entries
    (the service's default when None), as the spectator (moves may be redacted, versions and
    seats are not)."""
    by_game: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)
    for _, kind, gid, version, seat in acks:
        by_game[(kind, gid)].append((version, seat))
    get = _get_retrying(url)
    lost = 0
    for (kind, gid), moves in by_game.items():
        status, log = read_log(get, f"/v1/{kind}/games/{gid}/log", limit=limit)
        entries = {e["version"]: e for e in log["entries"]} if status == 200 else {}
        version = log["version"] if status == 200 else -1
        for v, seat in moves:
            entry = entries.get(v)
            if entry is None or entry["seat"] != seat or version < v:
                lost += 1
    return sum(len(m) for m in by_game.values()), lost


def main() -> int:
    work = Path(tempfile.mkdtemp(prefix="cardtable-soak-"))
    report_path = work / "locust.json"
    sentinels = SentinelServers()
    sentinels.start()
    env = {**sentinels.env, "CARDTABLE_STORE_TIMEOUT": "0.5", "CARDTABLE_RETRY_AFTER": "1",
           "CARDTABLE_RATE_LIMIT": RATE_LIMIT, "CARDTABLE_ALLOW_FIXED_DEALS": "0"}
    out: dict = {}
    try:
        with gunicorn("redis://127.0.0.1:1/0", workers=WORKERS, extra_env=env) as url:
            print(f"soak: {USERS} users x {THROUGHPUT} steps/s for {DURATION} s against {url} "
                  f"(Sentinel, WAIT 1 replica, rate limit {RATE_LIMIT})", file=sys.stderr)
            stop = threading.Event()
            started = time.monotonic()
            thread = threading.Thread(target=faults, args=(url, sentinels, stop, started, out), daemon=True)
            thread.start()
            load_env = {**os.environ, "LOAD_DURATION": f"{DURATION}s", "LOAD_USERS": str(USERS),
                        "LOCUST_THROUGHPUT": THROUGHPUT, "LOCUST_REPORT": str(report_path)}
            load = subprocess.run(["bash", str(ROOT / "deploy" / "loadtest.sh"), url], env=load_env,
                                  capture_output=True, text=True, timeout=DURATION + 300)
            stop.set()
            thread.join(60)
            print(load.stdout)
            if load.returncode == 2:
                print(load.stderr, file=sys.stderr)
                return 1
            data = json.loads(report_path.read_text())
            acked, lost = check_acks(url, data["acks"])
    finally:
        sentinels.cleanup()

    statuses = Counter({k: int(v) for k, v in data["statuses"].items()})
    total = sum(statuses.values())
    failover_at = out.get("failover_at")
    # the longest stretch without an acknowledged move from the kill on: how long play stood still
    resumed = longest_pause([t for t, *_ in data["acks"]], failover_at) if failover_at else float("inf")
    worker_at = out.get("worker_killed_at")
    print("soak report")
    print(f"  duration                     {DURATION} s, {USERS} users x {THROUGHPUT} steps/s")
    print(f"  acknowledged moves           {acked}")
    print(f"  lost acknowledged moves      {lost}")
    if failover_at:
        print(f"  failover: promoted after     {out['promoted_s']:.2f} s")
        print(f"  failover: play stood still   {resumed:.2f} s (longest pause in acknowledged moves)")
    else:
        print("  failover                     did not happen (run too short?)")
    print(f"  worker killed                {'yes' if worker_at else 'no'}")
    print("  answers by status (0 = no answer): "
          + ", ".join(f"{k}: {v} ({100 * v / max(total, 1):.2f}%)" for k, v in sorted(statuses.items())))
    unexpected = set(statuses) - ALLOWED
    ok = lost == 0 and failover_at is not None and resumed < RESUME_LIMIT and not unexpected
    print(f"  verdict                      {'PASS' if ok else 'FAIL'}"
          + (f" (unexpected statuses {sorted(unexpected)})" if unexpected else ""))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
