"""The suite's split over xdist workers and its order; in CI (``CI`` set) a skipped test fails.

tests/run.sh runs each tier on three workers with ``--dist loadscope --no-loadscope-reorder``, and
this file refines that split: a module of ``SERVERS`` (its tests share servers, a browser or
subprocesses) is one unit of work, run on one worker so that its servers start once; every other
test is a unit of its own, run by whichever worker is free. The units go out in the order collected
here: the longest modules first, then the modules of servers, then the tests that share nothing,
which end the run a test at a time on every worker so that they finish together.

tests/run.sh installs everything the suite needs (redis-server, nginx, node and npm, chromium, the
test and load extras), so a test that skips in CI has checked nothing while the run reports success.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

#: The modules that take longest (``--durations``), started first: a long module that started last
#: would run on one worker while the others had nothing left. A module missing here only starts later,
#: which costs time, never a result.
LONGEST = (
    "tests/test_bench_abuse.py",
    "tests/service/test_schemathesis.py",
    "tests/test_move_coverage.py",
    "tests/web/test_browser.py",
    "tests/service/test_captured_games.py",
    "tests/service/test_deadlines.py",
    "tests/web/test_people.py",
    "tests/deploy/test_nginx.py",
    "tests/service/test_held_connections.py",
    "tests/service/test_failover.py",
)

#: Where tests share what is slow to start: redis-servers, gunicorn, nginx, a Redis Cluster, chromium
#: (fixtures of module or session scope). The rest of the suite (engines, wire schemas, documents)
#: builds what a test needs in the test.
SERVERS = ("tests/service/", "tests/deploy/", "tests/web/", "tests/sdk/")


def _module(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def _unit(nodeid: str) -> str:
    """The unit of work a test belongs to: its module in ``SERVERS``, else the test itself."""
    module = _module(nodeid)
    return module if module.startswith(SERVERS) else nodeid


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> tuple[int, int]:
        module = _module(item.nodeid)
        first = LONGEST.index(module) if module in LONGEST else len(LONGEST)
        return first, 0 if module.startswith(SERVERS) else 1

    items.sort(key=rank)  # stable: a module's tests stay together and in their order


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadscope`` with the units of ``_unit``: xdist's ``loadgroup`` would do it from marks,
    but it no longer groups on pytest 9 (its group is written into the test's id, which pytest 9
    keeps elsewhere), silently."""
    if config.getoption("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class Units(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _unit(nodeid)

    return Units(config, log)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> object:
    outcome = yield
    report = outcome.get_result()
    if os.environ.get("CI") and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"CI is set and the test skipped: {report.longrepr}"
