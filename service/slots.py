"""How many event streams and long polls one client may hold open at once
(CARDTABLE_STREAMS_PER_SEAT, CARDTABLE_STREAMS_PER_ADDRESS).

Each open event stream and each waiting long poll holds a slot of its client address and, when it
came with a verified seat token, one of that seat. Over either cap the request answers 429
``too_many_streams`` with Retry-After, before it subscribes to anything.

A slot is a member of a sorted set per owner (``cardtable:held:{addr:<address>}``,
``cardtable:held:{seat:<SHA-256 of the token>}``), scored by the end of its lease in Redis's own
clock. Taking one is one Lua step on one key that first drops the leases that ended, so slots are
counted across workers and machines, and a worker that dies holding some frees them when their
leases end: a stream's lease is three keep-alive intervals (CARDTABLE_STREAM_KEEPALIVE), renewed as
its keep-alives and entries go out; a long poll's lasts its wait and one interval more. A stream
whose client hung up gives its slots back at its next renewal, one interval later at the most.
The in-process store counts in the process.

Slots are counted through the store's pool and circuit breaker, never as its probe. When the store
fails they are not counted (fail open, as the rate limiter does): the request goes on, and answers
503 itself if it needs the store.
"""

from __future__ import annotations

import math
import secrets
import select
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask, current_app, g, request

from service.errors import ApiError
from service.ratelimit import SEAT, address
from service.store import RedisStore, Store, StoreUnavailable

#: A stream's lease, in keep-alive intervals: one late renewal does not lose the slot.
LEASE_INTERVALS = 3
#: What ``Caps.call`` answers when the store failed.
FAILED = object()

# KEYS: the owner's slots. ARGV: slot id, cap, lease ms. 1 if taken, 0 if the owner is at its cap.
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1
"""

# KEYS: the owner's slots. ARGV: slot id, lease ms. The slot's lease ends a lease from now.
_RENEW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1
"""

# KEYS: the owner's slots. ARGV: slot id. The slot is given back.
_DROP = """
return redis.call('ZREM', KEYS[1], ARGV[1])
"""


def slots_key(owner: str) -> str:
    return f"cardtable:held:{{{owner}}}"


class RedisSlots:
    """Slots in the store's Redis, shared by every worker and machine."""

    def __init__(self, store: RedisStore) -> None:
        self._store = store
        self._take = store.client.register_script(_TAKE)
        self._renew = store.client.register_script(_RENEW)
        self._drop = store.client.register_script(_DROP)

    def take(self, owner: str, slot: str, cap: int, lease_ms: int) -> bool:
        return bool(self._store.script(self._take, [slots_key(owner)], [slot, cap, lease_ms], probe=False))

    def renew(self, owner: str, slot: str, lease_ms: int) -> None:
        self._store.script(self._renew, [slots_key(owner)], [slot, lease_ms], probe=False)

    def drop(self, owner: str, slot: str) -> None:
        self._store.script(self._drop, [slots_key(owner)], [slot], probe=False)


class MemorySlots:
    """Slots in this process: for the in-process store, which is one process anyway."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._lock = threading.Lock()
        self._owners: dict[str, dict[str, float]] = {}
        self._clock = clock

    def take(self, owner: str, slot: str, cap: int, lease_ms: int) -> bool:
        now = self._clock()
        with self._lock:
            held = {s: end for s, end in self._owners.get(owner, {}).items() if end > now}
            if len(held) >= cap:
                self._owners[owner] = held
                return False
            held[slot] = now + lease_ms / 1000
            self._owners[owner] = held
            return True

    def renew(self, owner: str, slot: str, lease_ms: int) -> None:
        with self._lock:
            self._owners.setdefault(owner, {})[slot] = self._clock() + lease_ms / 1000

    def drop(self, owner: str, slot: str) -> None:
        with self._lock:
            held = self._owners.get(owner)
            if held is not None:
                held.pop(slot, None)
                if not held:
                    del self._owners[owner]


class Held:
    """The slots one stream or long poll holds: renewed while it is open, given back once."""

    def __init__(self, caps: Caps | None, slot: str = "", lease_ms: int = 0) -> None:
        self._caps, self._slot, self._lease_ms = caps, slot, lease_ms
        self.owners: list[str] = []

    def renew(self) -> None:
        for owner in self.owners:
            if self._caps is None or self._caps.call(self._caps.slots.renew, owner, self._slot,
                                                     self._lease_ms) is FAILED:
                return

    def release(self) -> None:
        owners, self.owners = self.owners, []
        for owner in owners:
            if self._caps is not None:
                self._caps.call(self._caps.slots.drop, owner, self._slot)

    def streaming(self, body: Iterator[bytes], on_close: Callable[[], None] | None = None) -> Iterator[bytes]:
        """``body`` holding these slots until it ends, is closed, or its client hangs up; then
        ``on_close`` too (what the stream subscribed to before its body started)."""
        interval = self._caps.interval if self._caps is not None else math.inf
        return Streaming(self, body, interval, request.environ.get("gunicorn.socket"), on_close)


def hung_up(sock: Any) -> bool:
    """Whether the client of ``sock`` closed its side: it reads as ended (peeked, nothing consumed)."""
    if sock is None:
        return False
    try:
        readable, _, _ = select.select([sock], [], [], 0)
        return bool(readable) and sock.recv(1, socket.MSG_PEEK) == b""
    except ValueError:  # a descriptor plain select() cannot watch (over 1024, without gevent): no answer
        return False
    except OSError:  # reset or closed
        return True


class Caps:
    """The caps of one app and where their slots are counted."""

    def __init__(self, per_seat: int, per_address: int, interval: float, slots: RedisSlots | MemorySlots,
                 errors: tuple[type[BaseException], ...]) -> None:
        self.per_seat, self.per_address = per_seat, per_address
        self.interval = interval  # seconds between a stream's renewals (its keep-alive interval)
        self.slots, self.errors = slots, errors

    def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)``; ``FAILED`` when the store fails (its breaker logs an outage)."""
        try:
            return fn(*args)
        except self.errors:
            return FAILED

    def take(self, seat: str | None, addr: str, lease: float) -> Held:
        """A slot of ``addr`` and one of ``seat`` (if any) for ``lease`` seconds; 429
        ``too_many_streams`` when either is at its cap (and nothing is held then)."""
        slot = secrets.token_urlsafe(9)
        lease_ms = max(1, math.ceil(lease * 1000))
        held = Held(self, slot, lease_ms)
        wanted = [(addr, self.per_address, "this address")]
        if seat is not None:
            wanted.append(("seat:" + seat, self.per_seat, "this seat"))
        for owner, cap, whom in wanted:
            if cap <= 0:
                continue
            taken = self.call(self.slots.take, owner, slot, cap, lease_ms)
            if taken is FAILED:
                continue  # fail open: not counted
            if not taken:
                held.release()
                raise ApiError(429, "too_many_streams", f"{cap} event streams and long polls are already open for "
                               f"{whom}; close one, or retry after the delay in Retry-After.",
                               {"Retry-After": str(max(1, math.ceil(self.interval)))})
            held.owners.append(owner)
        return held


class Streaming:
    """A stream's body that holds its slots: renewed every ``interval`` seconds while chunks go out,
    given back when it ends or is closed, even if it never started (WSGI servers call ``close``; a
    generator closed before its first step runs no ``finally``, so a HEAD request, answered without
    a body, would otherwise leave what ``on_close`` gives back behind).

    At each renewal it also looks whether the client has hung up (its socket reads as ended), and
    then ends the stream at once: a write to a closed connection only fails at the second attempt,
    so without the look a slot would stay held for two keep-alive intervals."""

    def __init__(self, held: Held, body: Iterator[bytes], interval: float, sock: Any = None,
                 on_close: Callable[[], None] | None = None) -> None:
        self._held, self._body, self._interval, self._sock = held, body, interval, sock
        self._on_close = on_close
        self._due = time.monotonic() + interval

    def __iter__(self) -> Streaming:
        return self

    def __next__(self) -> bytes:
        if time.monotonic() >= self._due:
            if hung_up(self._sock):
                self.close()
                raise StopIteration
            self._held.renew()
            self._due = time.monotonic() + self._interval
        try:
            return next(self._body)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        on_close, self._on_close = self._on_close, None
        try:
            close = getattr(self._body, "close", None)
            if close is not None:
                close()
        finally:
            try:
                if on_close is not None:
                    on_close()
            finally:
                self._held.release()


def _caps() -> Caps | None:
    caps: Caps | None = current_app.extensions.get("cardtable.stream_caps")
    return caps


def hold_stream() -> Held:
    """The request's slots for an event stream: 429 ``too_many_streams`` over a cap. Take them
    before subscribing to anything; ``Held.streaming`` gives them back when the stream ends."""
    caps = _caps()
    if caps is None:
        return Held(None)
    return caps.take(g.get(SEAT), address(), caps.interval * LEASE_INTERVALS)


@contextmanager
def long_poll(wait: float) -> Iterator[None]:
    """Hold the request's slots while a long poll waits up to ``wait`` seconds (429
    ``too_many_streams`` over a cap)."""
    caps = _caps()
    if caps is None:
        yield
        return
    held = caps.take(g.get(SEAT), address(), wait + caps.interval)
    try:
        yield
    finally:
        held.release()


def install(app: Flask, store: Store, per_seat: int, per_address: int, interval: float) -> Caps | None:
    """Count streams and long polls per seat and per address when either cap is set."""
    if per_seat <= 0 and per_address <= 0:
        return None
    if isinstance(store, RedisStore):
        caps = Caps(per_seat, per_address, interval, RedisSlots(store), (StoreUnavailable,))
    else:
        caps = Caps(per_seat, per_address, interval, MemorySlots(), ())
    app.extensions["cardtable.stream_caps"] = caps
    return caps
