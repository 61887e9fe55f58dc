"""The suite's order and its split over xdist workers; in CI (``CI`` set) a skipped test fails.

tests/run.sh runs each tier on two workers with ``--dist loadgroup --no-loadscope-reorder``: a group
of tests runs on one worker, every other test wherever a worker is free, in the order collected
here. A module whose tests share a server (a fixture broader than a test, other than the cheap ones
each worker builds for itself) is one group, so its servers start once. The longest modules go
first, then the other groups, then the tests that share nothing: those end the run, one at a time
on whichever worker is free, so that both workers finish together.

tests/run.sh installs everything the suite needs (redis-server, nginx, node and npm, chromium, the
test and load extras), so a test that skips in CI has checked nothing while the run reports success.
"""

from __future__ import annotations

import os

import pytest

#: The modules that take longest (``--durations``), started first: a long module that started last
#: would run on one worker while the other has nothing left. A module missing here only starts
#: later, which costs time, never a result.
LONGEST = (
    "tests/test_bench_abuse.py",
    "tests/service/test_schemathesis.py",
    "tests/test_move_coverage.py",
    "tests/web/test_browser.py",
)

#: Fixtures broader than one test that every worker builds for itself in a moment (a redis-server,
#: an app in the process): sharing them does not tie a module to one worker. Any other such fixture
#: of the suite (gunicorn, nginx, chromium, a cluster) makes its module one group.
CHEAP = frozenset({"redis_server", "shared_app", "sdk_redis", "sdk_app", "base_url"})


def _module(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


def _shares_a_server(item: pytest.Item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(defs[-1].scope != "function" and name not in CHEAP and defs[-1].baseid.startswith("tests")
               for name, defs in info.name2fixturedefs.items())


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    grouped = {_module(item) for item in items if _shares_a_server(item)}
    for item in items:
        if _module(item) in grouped:
            item.add_marker(pytest.mark.xdist_group(_module(item)))

    def rank(item: pytest.Item) -> tuple[int, int]:
        module = _module(item)
        first = LONGEST.index(module) if module in LONGEST else len(LONGEST)
        return first, 0 if module in grouped else 1

    items.sort(key=rank)  # stable: a module's tests stay together and in their order


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> object:
    outcome = yield
    report = outcome.get_result()
    if os.environ.get("CI") and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"CI is set and the test skipped: {report.longrepr}"
