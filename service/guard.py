"""What stands between one worker's requests and Redis: a bounded pool, a circuit breaker, shared reads.

- ``Gate``: at most ``size`` store calls at once per worker (CARDTABLE_REDIS_POOL); the others wait
  in arrival order, up to the store timeout. A burst (a thousand streams opening, a view storm) waits
  its turn instead of failing, and Redis never sees more connections from a worker than the gate lets
  through (plus the worker's one pub/sub connection).
- ``Breaker``: after the store failed to answer (a timeout, a refused or broken connection), every
  call that needs it fails at once for ``open_seconds`` (CARDTABLE_BREAKER_SECONDS); then one call
  goes through as a probe, and its answer closes the breaker or its failure opens it again. A hung
  Redis so costs one timeout per worker and breaker period, not one (or several) per request. A wait
  for the gate that runs out is not a failure of the store: a burst must not trip it.
- ``Shared``: identical reads at the same time (every stream of a game re-reading the log after a
  move) share one round trip, and each caller's answer comes from a read that began after it asked,
  so that sharing never hides a write from anyone.

Everything here is bounded: waits have timeouts, a probe that never reports is replaced, and the
tables hold only calls in flight.
"""

from __future__ import annotations

import copy
import math
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable
from typing import Any


class Gate:
    """At most ``size`` holders at once; the others wait in arrival order (a freed place goes to the
    longest waiter, never to a newcomer that arrives just as it frees)."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("a pool needs at least one connection")
        self.size = size
        self._lock = threading.Lock()
        self._free = size
        self._queue: deque[threading.Event] = deque()

    def enter(self, wait: float) -> bool:
        """Take a place, waiting up to ``wait`` seconds; False if none came free in time."""
        with self._lock:
            if self._free and not self._queue:
                self._free -= 1
                return True
            ticket = threading.Event()
            self._queue.append(ticket)
        try:
            if ticket.wait(max(0.0, wait)):
                return True
        except BaseException:
            # The waiter itself was stopped (its greenlet killed): never leave its place behind.
            with self._lock:
                handed = ticket.is_set()
                if not handed:
                    self._queue.remove(ticket)
            if handed:
                self.leave()
            raise
        with self._lock:
            if ticket.is_set():  # handed over just as the wait ran out: it is ours
                return True
            self._queue.remove(ticket)
            return False

    def leave(self) -> None:
        """Give the place back: to the longest waiter if there is one."""
        with self._lock:
            if self._queue:
                self._queue.popleft().set()
            else:
                self._free += 1

    @property
    def waiting(self) -> int:
        with self._lock:
            return len(self._queue)


class Breaker:
    """Closed, open (every call refused) for ``open_seconds`` after a failure, then half-open: one
    probe may go, the others are refused until it reports. A probe that has not reported after
    ``probe_seconds`` is taken as lost, and another may go."""

    def __init__(self, open_seconds: float, probe_seconds: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.open_seconds = open_seconds
        self.probe_seconds = probe_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._open_until = 0.0  # 0: closed
        self._probe_at: float | None = None  # when the outstanding probe was let through
        self._answered_at = -math.inf  # when the store last answered a call

    @property
    def closed(self) -> bool:
        return self._open_until == 0.0

    def refuses(self, probe: bool = True) -> bool:
        """Whether a call would be refused now (without taking the probe's place): while open, and
        while half-open for a caller that may not probe or when a probe is out."""
        if self._open_until == 0.0:
            return False
        now = self._clock()
        with self._lock:
            if self._open_until == 0.0:
                return False
            if now < self._open_until or not probe:
                return True
            return self._probe_at is not None and now - self._probe_at < self.probe_seconds

    def admit(self, probe: bool = True) -> bool:
        """May a call go to the store now? Closed: yes. Half-open: the first caller that may probe
        goes, as the probe. Otherwise no."""
        if self._open_until == 0.0:
            return True
        now = self._clock()
        with self._lock:
            if self._open_until == 0.0:
                return True
            if now < self._open_until or not probe:
                return False
            if self._probe_at is not None and now - self._probe_at < self.probe_seconds:
                return False
            self._probe_at = now
            return True

    def answered(self) -> None:
        """The store answered a call (any reply, an error reply too): it is alive; close."""
        now = self._clock()
        self._answered_at = now
        if self._open_until or self._probe_at is not None:
            with self._lock:
                self._open_until = 0.0
                self._probe_at = None

    def failed(self, started: float) -> bool:
        """A call begun at ``started`` got no answer: open, unless the store answered another call
        since that one began (then the store is alive, and this worker was slow, e.g. busy on CPU
        while the reply waited). True if the breaker opened."""
        now = self._clock()
        with self._lock:
            if self._answered_at > started:
                return False
            self._open_until = now + self.open_seconds
            self._probe_at = None
            return True


class Late(Exception):
    """A shared read did not finish within the follower's wait."""


class _Flight:
    """One shared read: its callers wait for ``over``; its ``event`` is made only once a caller
    has to wait (most reads have nobody to share with, and an event is not free under gevent)."""

    __slots__ = ("event", "over", "ok", "value", "error")

    def __init__(self) -> None:
        self.event: threading.Event | None = None
        self.over = False  # the read returned or failed
        self.ok = False  # ... and returned ``value``
        self.value: Any = None
        self.error: Exception | None = None

    def waiter(self) -> threading.Event | None:
        """The event to wait on, None when the read is over (called under ``Shared._lock``)."""
        if self.over:
            return None
        if self.event is None:
            self.event = threading.Event()
        return self.event


class Shared:
    """Identical reads at once share one round trip.

    Per key there is at most one read running and one waiting to start. A caller joins the waiting
    one (or becomes its leader): its leader starts it only after the running read has finished, so
    every caller's answer comes from a read that began after the caller asked. A burst of N equal
    reads so costs at most two round trips, and nobody gets an answer older than its question."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: dict[Hashable, _Flight] = {}
        self._running: dict[Hashable, _Flight] = {}

    def run(self, key: Hashable, read: Callable[[], Any], wait: float) -> Any:
        """``read()``'s value, or its exception, shared with the callers of the same ``key``;
        ``Late`` when the shared read took longer than ``wait`` seconds (it is bounded itself)."""
        ahead: threading.Event | None = None
        done: threading.Event | None = None
        with self._lock:
            flight = self._waiting.get(key)
            follower = flight is not None
            if flight is not None:  # a read waits to start: share it
                done = flight.waiter()
            elif (running := self._running.get(key)) is None:  # nothing in flight: read now
                flight = self._running[key] = _Flight()
            else:  # lead the next read, once the running one is over
                flight = self._waiting[key] = _Flight()
                ahead = running.waiter()
        if follower:
            return self._shared(key, flight, done, wait)
        return self._lead(key, flight, read, ahead, wait)

    @staticmethod
    def _shared(key: Hashable, flight: _Flight, done: threading.Event | None, wait: float) -> Any:
        """A follower's answer: the leader's value or exception, once its read is over."""
        if done is not None and not done.wait(wait):
            raise Late(f"a shared read of {key!r} took over {wait:g} s")
        if flight.error is not None:
            raise copy.copy(flight.error).with_traceback(None)
        if not flight.ok:  # its leader stopped half-way
            raise Late(f"the shared read of {key!r} was abandoned")
        return flight.value

    def _lead(self, key: Hashable, flight: _Flight, read: Callable[[], Any], ahead: threading.Event | None,
              wait: float) -> Any:
        """Run the read for ``flight`` (after the one ahead of it, if any) and hand it to its followers."""
        try:
            if ahead is not None:
                ahead.wait(wait)  # bounded: a running read ends within its own timeouts
                with self._lock:
                    del self._waiting[key]
                    self._running[key] = flight
            flight.value = read()
            flight.ok = True
            return flight.value
        except Exception as exc:
            flight.error = exc
            raise
        finally:
            with self._lock:
                if self._waiting.get(key) is flight:
                    del self._waiting[key]
                if self._running.get(key) is flight:
                    del self._running[key]
                flight.over = True
                done = flight.event
            if done is not None:
                done.set()
