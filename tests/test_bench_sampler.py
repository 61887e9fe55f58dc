"""bench.sampler, the CPU-time sampler of ``bench.http --sample``: what it records and how a phase's
worker CPU per request is shared out over the functions sampled."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from bench import sampler

ROOT = Path(__file__).resolve().parents[1]


def test_a_function_is_counted_once_per_sample_however_deep_it_recurses() -> None:
    samples = [(40, ["a.py:outer", "b.py:walk", "b.py:walk", "b.py:leaf"], 3), (41, ["a.py:outer"], 1)]
    per, total = sampler.inclusive(samples, [sampler.Window(1, 9.9, 10.6, 100.0)])
    assert total == 4
    assert per == {"a.py:outer": 4, "b.py:walk": 3, "b.py:leaf": 3}


def test_only_buckets_wholly_inside_a_timed_window_count() -> None:
    # window 10.1-11.0 s: buckets of a quarter second 40 (10.00-10.25, partly before) and 44 (11.00-) are out
    samples = [(40, ["x.py:f"], 5), (41, ["x.py:f"], 1), (43, ["x.py:g"], 1), (44, ["x.py:g"], 7)]
    per, total = sampler.inclusive(samples, [sampler.Window(1, 10.1, 11.0, 100.0)])
    assert (dict(per), total) == ({"x.py:f": 1, "x.py:g": 1}, 2)


def test_a_functions_share_of_the_samples_is_its_share_of_the_measured_cpu_per_request() -> None:
    samples = [(41, ["w.py:handle", "app.py:move"], 3), (42, ["w.py:handle"], 1)]
    per = sampler.per_request(samples, [sampler.Window(1, 10.0, 11.0, 800.0)])
    assert per == {"w.py:handle": 800.0, "app.py:move": 600.0}
    assert sampler.per_request(samples, [sampler.Window(1, 20.0, 21.0, 800.0)]) == {}


def test_a_sampled_process_writes_the_stacks_it_spent_its_cpu_in(tmp_path: Path) -> None:
    # A child process, so that the itimer and the signal handler are its own.
    script = textwrap.dedent("""
        import sys, time
        from bench import sampler
        stop = sampler.start(sys.argv[1])
        def burn():
            end = time.process_time() + 0.3
            while time.process_time() < end:
                sum(range(1000))
        burn()
        stop()
    """)
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-2000:]
    (path,) = tmp_path.glob("samples-*.json")
    assert path.name == f"samples-{os.getpid()}-{path.name.split('-')[2]}"  # the parent's pid first
    samples = sampler.load(str(tmp_path), os.getpid())
    assert samples == [(b, s, n) for b, s, n in json.loads(path.read_text())]
    per, total = sampler.inclusive(samples, [sampler.Window(os.getpid(), started - 1, time.monotonic() + 1, 1.0)])
    assert total >= 10  # 0.3 s of CPU at the kernel's tick (1-10 ms)
    assert per["<string>:burn"] >= 0.8 * total


def test_the_sampled_settings_are_the_production_settings_with_the_sampling_hooks() -> None:
    probe = textwrap.dedent("""
        import json, os, runpy, shutil, sys
        deploy = runpy.run_path(sys.argv[1])
        sampled = runpy.run_path(sys.argv[2])
        plain = lambda conf: {k: v for k, v in conf.items() if not k.startswith("_") and not callable(v)
                              and not isinstance(v, type(os))}
        print(json.dumps({"same": plain(deploy) == plain(sampled),
                          "hooks": sorted(k for k in ("post_worker_init", "worker_exit") if k in sampled)}))
        shutil.rmtree(os.environ["CARDTABLE_GUNICORN_RUN_DIR"].partition(":")[2], ignore_errors=True)
    """)
    env = {k: v for k, v in os.environ.items() if k not in ("PROMETHEUS_MULTIPROC_DIR", "CARDTABLE_GUNICORN_RUN_DIR")}
    done = subprocess.run([sys.executable, "-c", probe, str(ROOT / "deploy" / "gunicorn.conf.py"),
                           str(ROOT / "bench" / "gunicorn_sampled.py")], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout) == {"same": True, "hooks": ["post_worker_init", "worker_exit"]}
