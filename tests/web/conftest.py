"""Fixtures of the browser tests: the app in-process on a spare loopback port (werkzeug in a
thread, the in-process store, fixed deals allowed), and Debian's chromium driven by Playwright.

Playwright's own browser download cannot work here: chromium is launched by ``executable_path``
(``apt-get install chromium``; tests/run.sh installs it). Every request of every page is routed:
one whose host is not 127.0.0.1 or localhost is aborted and fails the test. Page errors and
console errors fail the test too. Screenshots go to build/screenshots/.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from werkzeug.serving import make_server

from service import sweeper as deadline_sweeper
from service.app import create_app
from service.config import Settings
from service.store import MemoryStore

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "build" / "screenshots"
CHROMIUM = os.environ.get("CARDTABLE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LOCAL_HOSTS = {"127.0.0.1", "localhost"}


@pytest.fixture(scope="session")
def base_url() -> Iterator[str]:
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    app = create_app(Settings(allow_fixed_deals=True, request_log=False), store=MemoryStore())
    sweeper = deadline_sweeper.start(app)  # deadlines fire with nobody asking, as under `cardtable serve`
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(5)
    if sweeper is not None:
        sweeper.stop()


@dataclass
class Watch:
    """What the pages did that a test must not allow: requests off the machine, script errors."""

    outside: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    def check(self) -> None:
        assert not self.outside, f"requests left the machine: {self.outside}"
        assert not self.errors, f"JavaScript errors: {self.errors}"
        assert not self.failed, f"requests failed: {self.failed}"


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """Debian's chromium, once per session: each browser context of it is a browser of its own to the
    pages (its own storage and cache), as two people's browsers are."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"CI is set and {CHROMIUM} is missing (apt-get install chromium)")
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


def new_context(chromium: Any) -> Any:
    """A fresh browser context at desktop size: its own storage, cache and cookies."""
    context = chromium.new_context(viewport={"width": 1200, "height": 900}, service_workers="block")
    context.set_default_timeout(15_000)
    return context


@pytest.fixture(scope="session")
def browser_context(chromium: Any) -> Iterator[Any]:
    context = new_context(chromium)
    yield context
    context.close()


@pytest.fixture()
def watch(browser_context: Any) -> Iterator[Watch]:
    w = Watch()

    def route(r: Any) -> None:
        host = urlsplit(r.request.url).hostname
        if r.request.url.startswith(("data:", "blob:")) or host in LOCAL_HOSTS:
            r.continue_()
        else:
            w.outside.append(r.request.url)
            r.abort()

    browser_context.route("**/*", route)
    yield w
    browser_context.unroute("**/*")
    w.check()


@pytest.fixture()
def new_page(browser_context: Any, watch: Watch) -> Iterator[Any]:
    pages: list[Any] = []

    def make() -> Any:
        page = browser_context.new_page()
        page.on("pageerror", lambda exc: watch.errors.append(f"{page.url}: {exc}"))

        def console(msg: Any) -> None:
            # a non-2xx answer is logged by the browser as "Failed to load resource"; answers are judged
            # by `response` below (a refused composed move is a 422 the test asked for)
            if msg.type == "error" and not msg.text.startswith("Failed to load resource"):
                watch.errors.append(f"{page.url}: {msg.text}")

        def response(res: Any) -> None:
            # a refused composed move is the 422 of moves/check the test asked for; nothing else fails
            if res.status >= 400 and not (res.status == 422 and res.url.endswith("/moves/check")):
                watch.failed.append(f"{res.status} {res.request.method} {res.url}")

        page.on("console", console)
        page.on("response", response)
        pages.append(page)
        return page

    yield make
    for page in pages:
        page.close()


def shot(page: Any, name: str, full_page: bool = True) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path
