"""Fixtures of the service tests: a real redis-server, the app on it, and gunicorn."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.app import create_app
from service.config import Settings
from tests.servers import RedisServer, gunicorn


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    server = RedisServer()
    server.start()
    yield server
    server.cleanup()


def _app(redis_server: RedisServer) -> Flask:
    # a store timeout of 5 s, not production's 1 s, as for gunicorn in tests/servers.py
    app = create_app(Settings(redis_url=redis_server.url, allow_fixed_deals=True, store_timeout=5.0))
    app.extensions["cardtable.access_log"].stream = io.StringIO()  # keep the test output readable
    return app


@pytest.fixture(scope="session")
def shared_app(redis_server: RedisServer) -> Flask:
    """One app for every test that only sends it requests. Its settings never change and every game
    lives in Redis, so a test cannot see another's app; building an app costs a fifth of a second,
    which over a few hundred tests was a minute."""
    return _app(redis_server)


@pytest.fixture()
def app(redis_server: RedisServer) -> Flask:
    """An app of the test's own, for a test that reads or changes the app itself (its access log)."""
    return _app(redis_server)


@pytest.fixture()
def client(request: pytest.FixtureRequest, shared_app: Flask) -> FlaskClient:
    """A client of the test's own ``app`` when the test asks for one, else of the shared app."""
    if "app" in request.fixturenames:
        return request.getfixturevalue("app").test_client()
    return shared_app.test_client()


@pytest.fixture(scope="session")
def live_url(redis_server: RedisServer) -> Iterator[str]:
    """The service under gunicorn (3 workers) on the real Redis. Its event streams close, and its
    long polls answer, after a twentieth of a second (production: an hour, 30 s), so that a client
    fuzzing every operation gets to their end at once: Schemathesis calls them about a hundred times,
    and at a second each it spent most of its run waiting."""
    with gunicorn(redis_server.url, workers=3, extra_env={"CARDTABLE_STREAM_MAX_SECONDS": "0.05",
                                                          "CARDTABLE_LONG_POLL_MAX_SECONDS": "0.05"}) as url:
        yield url
