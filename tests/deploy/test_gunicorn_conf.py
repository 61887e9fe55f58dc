"""deploy/gunicorn.conf.py as gunicorn reads it: which workers are recycled after max_requests, and
what a started worker freezes for the garbage collector.

A gevent worker that reaches max_requests stops accepting at once but is replaced only when it has
exited, after its open event streams end: under a flood every worker got there within seconds and the
service stopped answering. So only sync and gthread workers are recycled. The config is read by
gunicorn's own loader in a subprocess (it sets environment variables and makes a directory).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = textwrap.dedent("""
    import json, os, shutil, sys
    from gunicorn.app.base import Application

    class Probe(Application):
        def init(self, parser, opts, args):
            return None

        def load(self):
            return None

        def load_config(self):
            self.load_config_from_file(sys.argv[1])

    cfg = Probe().cfg
    print(json.dumps({"worker_class": cfg.worker_class_str, "max_requests": cfg.max_requests,
                      "jitter": cfg.max_requests_jitter, "graceful_timeout": cfg.graceful_timeout}))
    shutil.rmtree(os.environ["CARDTABLE_GUNICORN_RUN_DIR"].partition(":")[2], ignore_errors=True)
""")


def read_config(**env: str) -> dict[str, object]:
    drop = ("PROMETHEUS_MULTIPROC_DIR", "CARDTABLE_GUNICORN_RUN_DIR", "CARDTABLE_WORKER_CLASS", "CARDTABLE_THREADS")
    done = subprocess.run([sys.executable, "-c", PROBE, str(ROOT / "deploy" / "gunicorn.conf.py")], cwd=ROOT,
                          capture_output=True, text=True, timeout=60,
                          env={**{k: v for k, v in os.environ.items() if k not in drop}, **env})
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)  # type: ignore[no-any-return]


FREEZE_PROBE = textwrap.dedent("""
    import gc, json, os, runpy, shutil, sys
    from flask import Flask

    conf = runpy.run_path(sys.argv[1])

    class Worker:
        wsgi = Flask("not-the-service")  # no settings: no sweeper is started

    before = gc.get_freeze_count()
    conf["post_worker_init"](Worker())
    print(json.dumps({"before": before, "after": gc.get_freeze_count()}))
    shutil.rmtree(os.environ["CARDTABLE_GUNICORN_RUN_DIR"].partition(":")[2], ignore_errors=True)
""")


def test_a_started_worker_freezes_what_it_holds_for_the_garbage_collector() -> None:
    """What a worker holds once started lives as long as the worker: frozen, full collections no
    longer walk it."""
    drop = ("PROMETHEUS_MULTIPROC_DIR", "CARDTABLE_GUNICORN_RUN_DIR")
    done = subprocess.run([sys.executable, "-c", FREEZE_PROBE, str(ROOT / "deploy" / "gunicorn.conf.py")], cwd=ROOT,
                          capture_output=True, text=True, timeout=60,
                          env={k: v for k, v in os.environ.items() if k not in drop})
    assert done.returncode == 0, done.stderr[-3000:]
    counts = json.loads(done.stdout)
    assert counts["before"] == 0 and counts["after"] > 1000


def test_gevent_workers_as_shipped_are_never_recycled() -> None:
    config = read_config()
    assert config["worker_class"] == "gevent"
    assert config["max_requests"] == 0


@pytest.mark.parametrize(("env", "worker_class"), [
    ({"CARDTABLE_WORKER_CLASS": "sync"}, "sync"),
    ({"CARDTABLE_WORKER_CLASS": "sync", "CARDTABLE_THREADS": "4"}, "gthread"),
])
def test_sync_and_threaded_workers_are_still_recycled_with_jitter(env: dict[str, str], worker_class: str) -> None:
    config = read_config(**env)
    assert config["worker_class"] == worker_class
    assert config["max_requests"] == 10_000 and 0 < config["jitter"] < config["max_requests"]  # type: ignore[operator]

