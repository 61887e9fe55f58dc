"""Request rate limits: per verified seat, else per address (CARDTABLE_RATE_LIMIT, e.g. ``20/s``),
and creates per address (CARDTABLE_CREATE_LIMIT, e.g. ``30/m,300/h``).

Only a seat earns its own count. A request on one game's routes (``/v1/<game>/games/<id>...``)
that carries a bearer token is counted once the handler has checked the token against that game:
for its seat (``seat_verified``) when it is one, else for its address (``seat_refused``, before
the 401). Every other request, a bearer token or not, is counted for its address before it runs;
so is a game-route request that ends before its token was checked (a 404, a malformed query).
A made-up token therefore never opens a fresh count: it costs its address like no token at all.
Creates are counted a second time, per address, against the create limit: it caps how much one
address can store (games live CARDTABLE_GAME_TTL after their last write).

A fixed window, counted in the store so that the limit holds across gunicorn's workers and
across machines: one Lua step ``INCR`` + ``PEXPIRE`` (on the window's first request) on
``cardtable:rate:{<who>}:<window ms>``, where ``<who>`` is ``seat:<SHA-256 of the token>`` (never
the token itself), ``addr:<client address>`` or ``create:addr:<client address>``. The hash tag
keeps the key on one cluster slot. A fixed window admits up to twice the rate across a window
boundary; that is the price of one round trip and one key per client and window.

The address is ``request.remote_addr``: behind a proxy every client would share the proxy's,
so CARDTABLE_TRUSTED_PROXIES (the number of proxies in front) makes werkzeug's ProxyFix take
it from X-Forwarded-For; with 0 (the default) that header is ignored, as anyone can forge it.

Replays cost what they send: a request pays for up to ``REPLAY_PAGE`` (500) log entries, and each
further page an event stream catches up on, or the log route answers, costs one request more. A
seat's pages are charged to its address as well (the first page included), so the entries one
address has the service replay a second are bounded by the address's rate, however many seats
(of however many games) it holds. Over either count the log route answers 429 ``rate_limited``;
an event stream closes instead (with ``retry:``, and a comment), and the client resumes with
Last-Event-ID, missing nothing. A stream's live entries, as moves are made, cost nothing.

Not counted:

- ``/healthz``, ``/readyz`` and ``/metrics``: probes and scrapers must see the truth;
- the web table and the docs (``/play``, ``/play/...``, ``/docs``, ``/docs/...``,
  ``/openapi.json``): static files, a dozen per page load, none of them touching a game; and
  ``/favicon.ico``, which browsers ask for on their own (a 404);
- CORS preflights (``OPTIONS`` with ``Access-Control-Request-Method``): the browser asking leave
  for the call that follows, which is counted.

When the store cannot be reached the limiter fails open (the request goes on, and answers 503
itself if it needs the store). Its count goes through the store's pool and circuit breaker
(``service.guard``): while the breaker is not closed the limiter does not ask the store at all
(nor probes it), so a request that does not need the store never waits for a hung one.
"""

from __future__ import annotations

import logging
import math
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from flask import Flask, Request, Response, current_app, g, request

from schemas.common import LOG_LIMIT
from service import auth
from service.errors import ApiError, problem
from service.store import RedisStore, Store, StoreUnavailable
from service.wire import current_request

log = logging.getLogger("cardtable")

EXEMPT = frozenset({"/healthz", "/readyz", "/metrics", "/play", "/docs", "/openapi.json", "/favicon.ico"})
EXEMPT_PREFIXES = ("/play/", "/docs/")
_UNITS = {"s": 1.0, "sec": 1.0, "second": 1.0, "m": 60.0, "min": 60.0, "minute": 60.0, "h": 3600.0, "hour": 3600.0,
          "d": 86400.0, "day": 86400.0}
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([a-z]+)\s*$")
#: ``g`` keys: the request waits for its token to be checked before it is counted; the verified seat.
_DEFERRED = "cardtable_rate_deferred"
SEAT = "cardtable_seat"

# KEYS: the counter. ARGV: window in ms, what this hit costs. Returns the count in this window and
# the ms left in it.
_HIT = """
local n = redis.call('INCRBY', KEYS[1], ARGV[2])
if n == tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
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
    def parse(cls, text: str, setting: str = "CARDTABLE_RATE_LIMIT") -> Rate:
        """``20/s``, ``100/m``, ``1000/h``, ``50/10s``, ``500/d``; anything else is a ValueError (at startup)."""
        match = _RATE.match(text.lower())
        if not match or match.group(3) not in _UNITS or int(match.group(1)) < 1:
            raise ValueError(f"{setting}: {text!r} is not like 20/s, 100/m or 50/10s")
        count = int(match.group(2) or 1)
        if count < 1:
            raise ValueError(f"{setting}: {text!r} has an empty window")
        return cls(int(match.group(1)), count * _UNITS[match.group(3)])


def parse_rates(text: str, setting: str) -> tuple[Rate, ...]:
    """One rate or several, comma-separated (``30/m,300/h``): a request must be within all of them."""
    rates = tuple(Rate.parse(part, setting) for part in text.split(",") if part.strip())
    if not rates:
        raise ValueError(f"{setting}: {text!r} names no rate")
    return rates


def rate_key(who: str) -> str:
    return f"cardtable:rate:{{{who}}}"


class RedisCounter:
    """Counts in the store's Redis (a server, a Sentinel-managed primary or a cluster), through the
    store's pool and breaker; never as the breaker's probe."""

    def __init__(self, store: RedisStore) -> None:
        self._store = store
        self._hit = store.client.register_script(_HIT)

    def hit(self, who: str, window_ms: int, cost: int = 1) -> tuple[int, int]:
        count, left = self._store.script(self._hit, [f"{rate_key(who)}:{window_ms}"], [window_ms, cost], probe=False)
        return int(count), int(left)


class MemoryCounter:
    """Counts in this process: for the in-process store, which is one process anyway."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._lock = threading.Lock()
        self._windows: dict[tuple[str, int], tuple[int, float]] = {}
        self._clock = clock

    def hit(self, who: str, window_ms: int, cost: int = 1) -> tuple[int, int]:
        now = self._clock()
        with self._lock:
            if len(self._windows) > 100_000:  # bounded memory: drop the windows that are over
                self._windows = {k: v for k, v in self._windows.items() if v[1] > now}
            count, ends = self._windows.get((who, window_ms), (0, 0.0))
            if ends <= now:
                count, ends = 0, now + window_ms / 1000
            self._windows[(who, window_ms)] = (count + cost, ends)
            return count + cost, max(1, int((ends - now) * 1000))


class RateLimiter:
    """Decides per request; ``None`` to go on, else the seconds to wait (for Retry-After).
    Every rate is counted on each request; the wait is the longest of those exceeded.

    A client found over a rate is refused until that window ends, whatever it sends meanwhile: so
    the process remembers it (``_over``) and refuses it again without asking the store, which makes
    the refusals of a flood cheap. The store's count is then not raised by those refusals; it only
    decides anew once the window is over, as it would anyway (a fixed window starts from zero).
    """

    #: Clients remembered as over at most (bounded memory); beyond, the ended ones are dropped.
    REMEMBERED = 10_000

    def __init__(self, rates: Rate | Sequence[Rate], counter: RedisCounter | MemoryCounter,
                 errors: tuple[type[BaseException], ...], clock: Callable[[], float] = time.monotonic) -> None:
        self.rates = (rates,) if isinstance(rates, Rate) else tuple(rates)
        self.rate = self.rates[0]
        self.counter = counter
        self.errors = errors
        self._windows_ms = [max(1, int(rate.window * 1000)) for rate in self.rates]
        self._over: dict[str, float] = {}  # who -> when (``clock``) its refused window ends
        self._clock = clock

    def check(self, who: str, cost: int = 1) -> int | None:
        """Count ``cost`` requests for ``who`` (a page of replayed entries may cost more than one)."""
        if cost <= 0:
            return None
        now = self._clock()
        until = self._over.get(who)
        if until is not None:
            if until > now:
                return max(1, math.ceil(until - now))
            self._over.pop(who, None)
        left = None
        try:
            for rate, window_ms in zip(self.rates, self._windows_ms, strict=True):
                count, left_ms = self.counter.hit(who, window_ms, cost)
                if count > rate.limit:
                    left = max(left or 0, left_ms)
        except self.errors:
            return None  # fail open: the store's breaker logs the outage and keeps later calls fast
        if left is None:
            return None
        if len(self._over) >= self.REMEMBERED:
            self._over = {k: v for k, v in self._over.items() if v > now}
            if len(self._over) >= self.REMEMBERED:
                self._over.clear()
        self._over[who] = now + left / 1000
        return max(1, math.ceil(left / 1000))

    def describe(self, what: str) -> str:
        """``20 requests in 1 s`` (or several, joined by "or")."""
        return " or ".join(f"{rate.limit} {what} in {rate.window:g} s" for rate in self.rates)


def exempt(req: Request | None = None) -> bool:
    """This request is not counted (see the module's docstring). ``req``: the request, when the
    caller has it (each use of the ``request`` proxy looks the request up again)."""
    if req is None:
        req = current_request()
    path = req.path
    if path in EXEMPT or path.startswith(EXEMPT_PREFIXES):
        return True
    return req.method == "OPTIONS" and "HTTP_ACCESS_CONTROL_REQUEST_METHOD" in req.environ


def address() -> str:
    """The bucket of the request's client address."""
    return "addr:" + (request.remote_addr or "unknown")


def _on_game_route(req: Request) -> bool:
    """A route of one game (its view, moves, log, events), where a bearer token can be checked."""
    found = req.view_args
    return bool(found) and "game_id" in found  # type: ignore[operator]


def _limited(limiter: RateLimiter, wait: int, whom: str) -> ApiError:
    return ApiError(429, "rate_limited", f"More than {limiter.describe('requests')} from {whom}; retry after the delay "
                    "in Retry-After.", {"Retry-After": str(wait)})


def _settle(who: str, whom: str, here: Any = None) -> None:
    """Count a request that waited for its token to be checked, once; 429 above the limit. ``here``:
    the request's ``g`` when the caller has it already."""
    if not (g if here is None else here).pop(_DEFERRED, False):
        return
    limiter: RateLimiter = current_app.extensions["cardtable.rate_limiter"]
    wait = limiter.check(who)
    if wait is not None:
        raise _limited(limiter, wait, whom)


def seat_verified(token: str, digest: str | None = None) -> None:
    """The handler found ``token`` (``digest``: its hash, when already known) to be a seat of the game
    the URL names: count the request for that seat (429 ``rate_limited`` above the limit). Kept on
    ``g`` for the stream slots."""
    digest = digest or auth.token_hash(token)
    here = g._get_current_object()  # once: each use of the proxy looks the request up again
    here.setdefault(SEAT, digest)
    _settle("seat:" + digest, "this seat", here)


def seat_refused() -> None:
    """The request's token is no seat of the game the URL names: count it for its address, as
    if it had no token (429 ``rate_limited`` above the limit, else the handler's 401)."""
    _settle(address(), "this address")


#: Log entries a request pays for; each further page of a replay costs one request more. A page of
#: the log as clients read it by default (``LOG_LIMIT``) costs one request, as it always did.
REPLAY_PAGE = LOG_LIMIT


def replay_meter() -> Callable[[int, bool], int | None]:
    """What replaying log entries costs this request's caller, usable after the request (a stream's
    body runs outside it): ``charge(entries, first)`` counts the ``REPLAY_PAGE`` pages of
    ``entries`` against the caller's seat (else its address), less the first page, which the request
    itself paid when ``first``, and for a seat against its address too; it answers the seconds to
    wait when either is over, else None. Call it after the handler has checked the token."""
    limiter: RateLimiter | None = current_app.extensions.get("cardtable.rate_limiter")
    if limiter is None:
        return lambda entries, first: None
    seat, addr = g.get(SEAT), address()

    def charge(entries: int, first: bool) -> int | None:
        pages = max(1, math.ceil(entries / REPLAY_PAGE))
        if seat is None:
            waits = [limiter.check(addr, pages - first)]
        else:
            waits = [limiter.check("seat:" + seat, pages - first), limiter.check(addr, pages)]
        over = [w for w in waits if w is not None]
        return max(over) if over else None

    return charge


def replaying(entries: int, fewer: str = "ask for fewer (limit), or ") -> None:
    """The log route (or an export, or the positions of a finished game) is about to answer, or play
    again, ``entries`` entries: charge them (``replay_meter``), 429 ``rate_limited`` when the caller's
    seat or address is over. ``fewer`` says how to ask for fewer ("" where one cannot)."""
    if entries <= 0:
        return
    wait = replay_meter()(entries, True)
    if wait is not None:
        limiter: RateLimiter = current_app.extensions["cardtable.rate_limiter"]
        raise ApiError(429, "rate_limited", f"More than {limiter.describe('requests')} from this seat or its "
                       f"address, counting a request for every {REPLAY_PAGE} log entries; {fewer}retry after "
                       "the delay in Retry-After.", {"Retry-After": str(wait)})


def creating() -> None:
    """A create: counted for its address against CARDTABLE_CREATE_LIMIT (429 ``rate_limited`` above)."""
    limiter: RateLimiter | None = current_app.extensions.get("cardtable.create_limiter")
    if limiter is None:
        return
    wait = limiter.check("create:" + address())
    if wait is not None:
        raise ApiError(429, "rate_limited", f"More than {limiter.describe('games created')} from this address; "
                       "retry after the delay in Retry-After.", {"Retry-After": str(wait)})


def install(app: Flask, rate_text: str | None, store: Store, trusted_proxies: int = 0,
            create_text: str | None = None) -> RateLimiter | None:
    """Wire the limits into ``app`` (a before-request and an after-request hook) when configured."""
    if trusted_proxies > 0:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=trusted_proxies)  # type: ignore[method-assign]
    if isinstance(store, RedisStore):
        counter: RedisCounter | MemoryCounter = RedisCounter(store)
        errors: tuple[type[BaseException], ...] = (StoreUnavailable,)
    else:
        counter, errors = MemoryCounter(), ()
    if create_text:
        app.extensions["cardtable.create_limiter"] = RateLimiter(
            parse_rates(create_text, "CARDTABLE_CREATE_LIMIT"), counter, errors)
    if not rate_text:
        return None
    limiter = RateLimiter(parse_rates(rate_text, "CARDTABLE_RATE_LIMIT"), counter, errors)

    @app.before_request
    def _limit() -> Response | None:
        req = current_request()  # once: each use of the proxy looks again
        if exempt(req):
            return None
        if _on_game_route(req) and auth.bearer(req.environ.get("HTTP_AUTHORIZATION")):
            g._get_current_object().setdefault(_DEFERRED, True)  # counted once the handler has checked the token
            return None
        wait = limiter.check(address())
        if wait is None:
            return None
        return _problem(_limited(limiter, wait, "this address"))

    @app.after_request
    def _unsettled(response: Response) -> Response:
        # a game-route request that ended before its token was checked counts for its address
        if g._get_current_object().pop(_DEFERRED, False):
            wait = limiter.check(address())
            if wait is not None:
                return _problem(_limited(limiter, wait, "this address"))
        return response

    app.extensions["cardtable.rate_limiter"] = limiter
    return limiter


def _problem(exc: ApiError) -> Response:
    return problem(exc.status, exc.code, exc.detail, exc.headers)
