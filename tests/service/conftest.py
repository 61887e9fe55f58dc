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


@pytest.fixture()
def app(redis_server: RedisServer) -> Flask:
    app = create_app(Settings(redis_url=redis_server.url, allow_fixed_deals=True))
    app.extensions["cardtable.access_log"].stream = io.StringIO()  # keep the test output readable
    return app


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture(scope="session")
def live_url(redis_server: RedisServer) -> Iterator[str]:
    """The service under gunicorn (3 workers) on the real Redis. Its event streams close, and its
    long polls answer, after a second (production: an hour, 30 s), so that a client fuzzing every
    operation gets to their end."""
    with gunicorn(redis_server.url, workers=3, extra_env={"CARDTABLE_STREAM_MAX_SECONDS": "1",
                                                          "CARDTABLE_LONG_POLL_MAX_SECONDS": "1"}) as url:
        yield url
