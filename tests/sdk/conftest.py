"""Fixtures of the SDK checks: a real redis-server, the service under gunicorn on it, the Flask app on
it, and the Python client generated from the committed spec (all session-scoped)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from flask import Flask

from service.app import create_app
from service.config import Settings
from tests.sdk.tools import PACKAGE, generate_python_client
from tests.servers import RedisServer, gunicorn


@pytest.fixture(scope="session")
def sdk_redis() -> Iterator[RedisServer]:
    server = RedisServer()
    server.start()
    yield server
    server.cleanup()


@pytest.fixture(scope="session")
def sdk_live_url(sdk_redis: RedisServer) -> Iterator[str]:
    """The service under gunicorn (deploy/gunicorn.conf.py, 2 workers) on the real Redis."""
    with gunicorn(sdk_redis.url, workers=2) as url:
        yield url


@pytest.fixture(scope="session")
def sdk_app(sdk_redis: RedisServer) -> Flask:
    # 5 s per store call, as the service tests' app: on two busy cores 1 s is not a test of the store
    return create_app(Settings(redis_url=sdk_redis.url, allow_fixed_deals=True, request_log=False, store_timeout=5.0))


@pytest.fixture(scope="session")
def python_sdk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The package openapi-python-client generates from openapi/openapi.json, imported."""
    parent: Path = tmp_path_factory.mktemp("python-sdk")
    generate_python_client(parent)
    sys.path.insert(0, str(parent))
    try:
        importlib.invalidate_caches()
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(parent))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]
