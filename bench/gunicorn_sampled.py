"""gunicorn settings of ``bench.http --sample``: ``deploy/gunicorn.conf.py`` as it is, and every worker
sampled on its CPU time (``bench.sampler``) into ``$CARDTABLE_BENCH_SAMPLES`` from its start to its exit.
Both servers, the real one and the floor, run with it."""

import os
from pathlib import Path

_DEPLOY = Path(__file__).resolve().parent.parent / "deploy" / "gunicorn.conf.py"
exec(compile(_DEPLOY.read_text(), str(_DEPLOY), "exec"))  # noqa: S102 -- the production settings, verbatim

_deploy_post_worker_init = post_worker_init  # noqa: F821 -- defined by the settings just run


def post_worker_init(worker):
    _deploy_post_worker_init(worker)
    from bench import sampler

    worker.cardtable_stop_sampling = sampler.start(os.environ["CARDTABLE_BENCH_SAMPLES"])


def worker_exit(server, worker):  # noqa: ARG001 -- gunicorn's hook signature
    stop = getattr(worker, "cardtable_stop_sampling", None)
    if stop is not None:
        stop()
