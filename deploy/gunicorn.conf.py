"""Production gunicorn settings: ``gunicorn -c deploy/gunicorn.conf.py 'service.app:create_app()'``.

Every value can be overridden by the environment (see the README's configuration table).
"""

import multiprocessing
import os

# Fixed deals (`seed`/`deck` on create) are for tests and tournaments: off in production
# unless the operator turns them on explicitly.
os.environ.setdefault("CARDTABLE_ALLOW_FIXED_DEALS", "0")

bind = os.environ.get("CARDTABLE_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_CONCURRENCY") or multiprocessing.cpu_count() * 2 + 1)
threads = int(os.environ.get("CARDTABLE_THREADS", "1"))
worker_class = "sync" if threads == 1 else "gthread"
timeout = int(os.environ.get("CARDTABLE_WORKER_TIMEOUT", "30"))
graceful_timeout = 20
keepalive = 5
max_requests = 10_000  # recycle workers now and then; jitter avoids all at once
max_requests_jitter = 1_000
accesslog = os.environ.get("CARDTABLE_ACCESS_LOG") or None
errorlog = "-"
loglevel = os.environ.get("CARDTABLE_LOG_LEVEL", "info")
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
