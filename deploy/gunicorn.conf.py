"""Production gunicorn settings: ``gunicorn -c deploy/gunicorn.conf.py 'service.app:create_app()'``.

Every value can be overridden by the environment (see the README's configuration table).
"""

import multiprocessing
import os
import shutil
import tempfile

# Fixed deals (`seed`/`deck` on create) are for tests and tournaments: off in production
# unless the operator turns them on explicitly.
os.environ.setdefault("CARDTABLE_ALLOW_FIXED_DEALS", "0")
# Production answers 429 above 20 requests a second per seat token (or per address without one),
# counted in Redis across workers; set CARDTABLE_RATE_LIMIT=off to switch it off.
os.environ.setdefault("CARDTABLE_RATE_LIMIT", "20/s")
# And at most 30 creates a minute and 300 an hour per address (429 above): what one address can
# store is bounded (300 games an hour of ~3 KiB, kept CARDTABLE_GAME_TTL). `off` switches it off.
os.environ.setdefault("CARDTABLE_CREATE_LIMIT", "30/m,300/h")

bind = os.environ.get("CARDTABLE_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_CONCURRENCY") or multiprocessing.cpu_count() * 2 + 1)
# gevent: a worker serves thousands of idle event streams and long polls at once (each a
# greenlet waiting on its game's bell), and plain requests as fast as a sync worker does
# (bench/streams.py measures both). CARDTABLE_WORKER_CLASS=sync brings back one request per worker
# (then a stream holds a whole worker: do not use it with streaming clients).
worker_class = os.environ.get("CARDTABLE_WORKER_CLASS", "gevent")
worker_connections = int(os.environ.get("CARDTABLE_WORKER_CONNECTIONS", "4000"))
threads = int(os.environ.get("CARDTABLE_THREADS", "1"))
if worker_class == "sync" and threads > 1:
    worker_class = "gthread"
timeout = int(os.environ.get("CARDTABLE_WORKER_TIMEOUT", "30"))
graceful_timeout = 20
# The longest request line gunicorn accepts (its maximum; the default 4094 turned a long but
# well-formed `?since=` into gunicorn's own HTML 414 before the app could answer problem+json).
limit_request_line = 8190
# Idle keep-alive connections close after 5 s; under gevent this also bounds the wait for a
# request's line and headers (its body has CARDTABLE_BODY_TIMEOUT). Keep it above 0.
keepalive = 5
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None  # worker heartbeat files off slow disks
# Sync and gthread workers are recycled now and then (after max_requests, jitter avoids all at once).
# gevent workers are not (0): one that reaches max_requests stops accepting at once, but the master
# starts its replacement only when it has exited, that is when its open event streams and long polls
# have ended (graceful_timeout at most). Until then it serves nobody new, and under a flood every
# worker reaches the count within seconds of the others: the service stopped answering for up to
# graceful_timeout (bench/abuse.py saw it).
max_requests = 10_000 if worker_class in ("sync", "gthread") else 0
max_requests_jitter = 1_000
accesslog = None  # the app logs every request itself, as JSON with its request id
errorlog = "-"
loglevel = os.environ.get("CARDTABLE_LOG_LEVEL", "info")
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")

# One private directory per server: tempfile.mkdtemp makes it mode 0700 under a name nobody can
# guess or take first (a fixed or pid-based path in a shared /tmp can be). It holds the workers'
# Prometheus files and gunicorn's control socket, and goes when the server exits. The environment
# keeps it with the master's pid, so that this file read again on a reload (SIGHUP) finds the same
# one, while a value inherited from anywhere else is never used (nor removed).
_pid, _, _run_dir = os.environ.get("CARDTABLE_GUNICORN_RUN_DIR", "").partition(":")
if _pid != str(os.getpid()) or not os.path.isdir(_run_dir):
    _run_dir = tempfile.mkdtemp(prefix="cardtable-gunicorn-")
    os.environ["CARDTABLE_GUNICORN_RUN_DIR"] = f"{os.getpid()}:{_run_dir}"

# Prometheus metrics are kept per worker in files under this directory and summed at
# /metrics; it is emptied when the server starts.
os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", os.path.join(_run_dir, "metrics"))

# gunicorn (25.1 and later) opens a control socket for `gunicornc` (show workers, add or remove
# them, reload, shut down). Its default, $XDG_RUNTIME_DIR/gunicorn.ctl or ~/.gunicorn/gunicorn.ctl,
# is one path for every server of the user: a second server takes it over from the first. Each
# server has its own here, owner only; the log's "Control socket listening at" line names it.
control_socket = os.path.join(_run_dir, "gunicorn.ctl")
control_socket_mode = 0o600


def on_starting(server):  # noqa: ARG001 -- gunicorn's hook signature
    path = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path, exist_ok=True)


def on_exit(server):  # noqa: ARG001 -- the metrics files die with the server (on_starting empties them too)
    shutil.rmtree(os.environ["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)
    shutil.rmtree(_run_dir, ignore_errors=True)


def post_worker_init(worker):
    """Every worker sweeps the games whose deadline passed (service.sweeper): a greenlet under gevent,
    a daemon thread otherwise, every CARDTABLE_SWEEP_SECONDS (0: off). The workers share the work
    through the store's set of due games, each game claimed by one of them at a time.

    It also flushes its batched request, latency and move counts to its metrics files, and its
    buffered access lines to stderr, every second (``service.observability.Flusher``), so that a
    scrape another worker answers sees them that late at most, this worker idle or not (for the
    service only, as the sweeper).

    Then the worker freezes what it holds (``gc.freeze()``): the app, its spec and its modules live as
    long as the worker, and a full collection of the garbage collector walked them all again (tens of
    milliseconds each, under load every few hundred requests); frozen, it walks only what requests
    made since."""
    import gc

    from service.observability import start_flusher
    from service.sweeper import start

    start(worker.wsgi)
    start_flusher(worker.wsgi)
    gc.collect()
    gc.freeze()


def child_exit(server, worker):  # noqa: ARG001
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)
    archive_metrics(os.environ["PROMETHEUS_MULTIPROC_DIR"], worker.pid)


def archive_metrics(folder, pid):
    """Fold a dead worker's metrics files into one archive file per kind.

    prometheus_client keeps a dead worker's counters, histograms and summed gauges (totals must not
    go back), each in files of its own: with workers recycled every max_requests they would pile up
    without end in the in-memory /tmp, and every scrape would read them all. Folded, the folder holds
    the live workers' files and three archives, whatever the number of workers that came and went.
    A scrape that falls between the archive's write and the file's removal (an instant) sees that
    worker's counts twice, that once.
    """
    from prometheus_client.mmap_dict import MmapedDict

    for kind in ("counter", "histogram", "gauge_sum"):  # summed across processes: a sum can absorb them
        dead = os.path.join(folder, f"{kind}_{pid}.db")
        if not os.path.exists(dead):
            continue
        archive = MmapedDict(os.path.join(folder, f"{kind}_archive.db"))
        try:
            for key, value, timestamp, _ in MmapedDict.read_all_values_from_file(dead):
                before, _ = archive.read_value(key)
                archive.write_value(key, before + value, timestamp)
        finally:
            archive.close()
        os.remove(dead)
