"""Request rate limits (CARDTABLE_RATE_LIMIT, e.g. ``20/s``): per seat token, else per address.

A fixed window, counted in the store so that the limit holds across gunicorn's workers and
across machines: one Lua step ``INCR`` + ``PEXPIRE`` (on the window's first request) on
``cardtable:rate:{<who>}``, where ``<who>`` is ``seat:<SHA-256 of the token>`` (never the
token itself) or ``addr:<client address>``. The hash tag keeps the key on one cluster slot.
A fixed window admits up to twice the rate across a window boundary; that is the price of one
round trip and one key per client.

The address is ``request.remote_addr``: behind a proxy every client would share the proxy's,
so CARDTABLE_TRUSTED_PROXIES (the number of proxies in front) makes werkzeug's ProxyFix take
it from X-Forwarded-For; with 0 (the default) that header is ignored, as anyone can forge it.

``/healthz``, ``/readyz`` and ``/metrics`` are never limited: probes and scrapers must see the
truth. When the store cannot be reached the limiter fails open (the request goes on, and
answers 503 itself if it needs the store). Its count goes through the store's pool and circuit
breaker (``service.guard``): while the breaker is not closed the limiter does not ask the store
at all (nor probes it), so a request that does not need the store never waits for a hung one.
"""

from __future__ import annotations

import logging
import math
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from flask import Flask, Response, request

from service import auth
from service.errors import problem
from service.store import RedisStore, Store, StoreUnavailable

log = logging.getLogger("cardtable")

EXEMPT = frozenset({"/healthz", "/readyz", "/metrics"})
_UNITS = {"s": 1.0, "sec": 1.0, "second": 1.0, "m": 60.0, "min": 60.0, "minute": 60.0, "h": 3600.0, "hour": 3600.0}
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([a-z]+)\s*$")

# KEYS: the counter. ARGV: window in ms. Returns the count in this window and the ms left in it.
_HIT = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local left = redis.call('PTTL', KEYS[1])
if left < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); left = tonumber(ARGV[1]) end
return {n, left}
"""


@dataclass(frozen=True)
class Rate:
    """``limit`` requests per ``window`` seconds."""

    limit: int
    window: float

    @classmethod
    def parse(cls, text: str) -> Rate:
        """``20/s``, ``100/m``, ``1000/h``, ``50/10s``; anything else is a ValueError (at startup)."""
        match = _RATE.match(text.lower())
        if not match or match.group(3) not in _UNITS or int(match.group(1)) < 1:
            raise ValueError(f"CARDTABLE_RATE_LIMIT: {text!r} is not like 20/s, 100/m or 50/10s")
        count = int(match.group(2) or 1)
        if count < 1:
            raise ValueError(f"CARDTABLE_RATE_LIMIT: {text!r} has an empty window")
        return cls(int(match.group(1)), count * _UNITS[match.group(3)])


def rate_key(who: str) -> str:
    return f"cardtable:rate:{{{who}}}"


class RedisCounter:
    """Counts in the store's Redis (a server, a Sentinel-managed primary or a cluster), through the
    store's pool and breaker; never as the breaker's probe."""

    def __init__(self, store: RedisStore) -> None:
        self._store = store
        self._hit = store.client.register_script(_HIT)

    def hit(self, who: str, window_ms: int) -> tuple[int, int]:
        count, left = self._store.script(self._hit, [rate_key(who)], [window_ms], probe=False)
        return int(count), int(left)


class MemoryCounter:
    """Counts in this process: for the in-process store, which is one process anyway."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._lock = threading.Lock()
        self._windows: dict[str, tuple[int, float]] = {}
        self._clock = clock

    def hit(self, who: str, window_ms: int) -> tuple[int, int]:
        now = self._clock()
        with self._lock:
            if len(self._windows) > 100_000:  # bounded memory: drop the windows that are over
                self._windows = {k: v for k, v in self._windows.items() if v[1] > now}
            count, ends = self._windows.get(who, (0, 0.0))
            if ends <= now:
                count, ends = 0, now + window_ms / 1000
            self._windows[who] = (count + 1, ends)
            return count + 1, max(1, int((ends - now) * 1000))


class RateLimiter:
    """Decides per request; ``None`` to go on, else the seconds to wait (for Retry-After)."""

    def __init__(self, rate: Rate, counter: RedisCounter | MemoryCounter, errors: tuple[type[BaseException], ...]
                 ) -> None:
        self.rate = rate
        self.counter = counter
        self.errors = errors
        self._window_ms = max(1, int(rate.window * 1000))

    def check(self, who: str) -> int | None:
        try:
            count, left_ms = self.counter.hit(who, self._window_ms)
        except self.errors:
            return None  # fail open: the store's breaker logs the outage and keeps later calls fast
        if count <= self.rate.limit:
            return None
        return max(1, math.ceil(left_ms / 1000))


def client_id() -> str:
    """Whom a request is counted for: its seat token's hash, else its address."""
    token = auth.bearer(request.headers.get("Authorization"))
    if token:
        return "seat:" + auth.token_hash(token)
    return "addr:" + (request.remote_addr or "unknown")


def install(app: Flask, rate_text: str | None, store: Store, trusted_proxies: int = 0) -> RateLimiter | None:
    """Wire the limit into ``app`` (one before-request hook) when one is configured."""
    if trusted_proxies > 0:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=trusted_proxies)  # type: ignore[method-assign]
    if not rate_text:
        return None
    rate = Rate.parse(rate_text)
    if isinstance(store, RedisStore):
        limiter = RateLimiter(rate, RedisCounter(store), (StoreUnavailable,))
    else:
        limiter = RateLimiter(rate, MemoryCounter(), ())

    @app.before_request
    def _limit() -> Response | None:
        if request.path in EXEMPT:
            return None
        wait = limiter.check(client_id())
        if wait is None:
            return None
        return problem(429, "rate_limited", f"More than {rate.limit} requests in {rate.window:g} s from this "
                       "seat token or address; retry after the delay in Retry-After.", {"Retry-After": str(wait)})

    app.extensions["cardtable.rate_limiter"] = limiter
    return limiter
