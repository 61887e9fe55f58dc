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
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None  # heartbeat files off slow disks
max_requests = 10_000  # recycle workers now and then; jitter avoids all at once
max_requests_jitter = 1_000
accesslog = None  # the app logs every request itself, as JSON with its request id
errorlog = "-"
loglevel = os.environ.get("CARDTABLE_LOG_LEVEL", "info")
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")

# Prometheus metrics are kept per worker in files under this directory and summed at
# /metrics; it is emptied when the server starts.
_metrics_dir = os.path.join(tempfile.gettempdir(), f"cardtable-metrics-{os.getpid()}")
os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", _metrics_dir)


def on_starting(server):  # noqa: ARG001 -- gunicorn's hook signature
    path = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path, exist_ok=True)


def on_exit(server):  # noqa: ARG001 -- the metrics files die with the server (on_starting empties them too)
    shutil.rmtree(os.environ["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)


def child_exit(server, worker):  # noqa: ARG001
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)
