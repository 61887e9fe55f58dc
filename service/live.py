"""Live updates: wake a waiting request (a stream, a long poll) the moment its game has a new version.

Every write of a game tells its new version on the game's pub/sub channel in the same Lua script
that commits it (``service.store``), so no commit goes untold. Each worker process keeps one hub:

- ``LocalHub``: waiters per game in this process; the in-process store (``cardtable serve``) calls
  ``notify`` after each write.
- ``RedisHub``: one background thread and one pub/sub connection per worker, subscribed to the
  channels of the games this worker's requests wait on (sharded subscriptions on a Redis Cluster: a
  game's channel lives on its slot's node). It dispatches each message to this worker's waiters.

A waiter is only a doorbell: whoever waits re-reads the log (or the version) from the store after
each wake and after each timeout, so a lost message (a store restart, a failover) costs at most one
keep-alive interval, never an entry. On a broken connection the hub rings every waiter (they
re-read, and end with 503/close if the store is down), then reconnects with a bounded backoff. The
thread stops when no waiter is left for ``IDLE_STOP`` seconds and starts again on demand.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from typing import Any

log = logging.getLogger("cardtable.live")

#: Seconds without any waiter after which a hub's thread stops (it starts again on demand).
IDLE_STOP = 60.0
#: The longest pause between reconnect attempts after the store was lost.
BACKOFF_MAX = 2.0
#: How long one poll of the pub/sub connection blocks (also how soon a new subscription starts).
POLL = 0.05
CHANNEL_PREFIX = "cardtable:events:{"


def game_of(channel: bytes | str) -> str:
    """``cardtable:events:{<id>}`` -> ``<id>``."""
    name = channel.decode() if isinstance(channel, bytes) else channel
    return name[len(CHANNEL_PREFIX):-1]


class Waiter:
    """A doorbell for one waiting request on one game: ``wait`` returns True once rung."""

    def __init__(self, hub: LocalHub, game_id: str) -> None:
        self.hub = hub
        self.game_id = game_id
        self._rung = threading.Event()

    def ring(self) -> None:
        self._rung.set()

    def wait(self, timeout: float) -> bool:
        """Block up to ``timeout`` seconds; True if rung since the last wait."""
        rung = self._rung.wait(max(0.0, timeout))
        self._rung.clear()
        return rung

    def close(self) -> None:
        self.hub.unsubscribe(self)

    def __enter__(self) -> Waiter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class LocalHub:
    """Waiters per game in this process, and the ringing of them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiters: dict[str, set[Waiter]] = {}

    def subscribe(self, game_id: str) -> Waiter:
        """A waiter of ``game_id``, listening from now on (before the caller reads the store)."""
        waiter = Waiter(self, game_id)
        with self._lock:
            self._waiters.setdefault(game_id, set()).add(waiter)
        return waiter

    def unsubscribe(self, waiter: Waiter) -> None:
        with self._lock:
            group = self._waiters.get(waiter.game_id)
            if group is not None:
                group.discard(waiter)
                if not group:
                    del self._waiters[waiter.game_id]

    def notify(self, game_id: str) -> None:
        with self._lock:
            group = list(self._waiters.get(game_id, ()))
        for waiter in group:
            waiter.ring()

    def notify_all(self) -> None:
        with self._lock:
            everyone = [w for group in self._waiters.values() for w in group]
        for waiter in everyone:
            waiter.ring()

    def watched(self) -> set[str]:
        with self._lock:
            return set(self._waiters)

    @property
    def waiting(self) -> int:
        with self._lock:
            return sum(len(g) for g in self._waiters.values())


class RedisHub(LocalHub):
    """The worker's one pub/sub connection to Redis, read by one background thread.

    It subscribes to the channels of the games this worker has waiters for, and only those (a
    sharded subscription on a cluster): a worker is never woken by moves in games nobody here
    watches, so idle streams cost nothing per move elsewhere (bench/streams.py measures it)."""

    def __init__(self, client: Any, cluster: bool, ready_timeout: float = 1.0) -> None:
        super().__init__()
        self.client = client
        self.cluster = cluster
        self.ready_timeout = ready_timeout
        self._thread: threading.Thread | None = None
        self._subscribed: set[str] = set()  # games with a subscription on the current connection
        self._confirmed: dict[str, threading.Event] = {}  # the subscription of a game is confirmed

    def subscribe(self, game_id: str) -> Waiter:
        waiter = super().subscribe(game_id)
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="cardtable-live", daemon=True)
                self._thread.start()
            confirmed = self._confirmed.setdefault(game_id, threading.Event())
        # Listening before the caller reads the store: a version written after its read rings it.
        # If the store is down this gives up after ready_timeout; the caller's periodic re-read covers it.
        confirmed.wait(self.ready_timeout)
        return waiter

    def _run(self) -> None:
        """Read the pub/sub connection until no waiter is left for IDLE_STOP seconds."""
        failures = 0
        while True:
            try:
                self._listen()  # returns once idle
                failures = 0
            except Exception as exc:  # noqa: BLE001 -- any failure of the store: ring, back off, reconnect
                failures += 1
                log.warning("live updates lost the store (%s); reconnecting", exc.__class__.__name__)
                with self._lock:
                    self._subscribed.clear()
                    for event in self._confirmed.values():
                        event.clear()
                self.notify_all()
                time.sleep(min(BACKOFF_MAX, 0.05 * 2 ** min(failures, 6)))
                continue
            with self._lock:
                if not self._waiters:
                    self._thread = None
                    self._subscribed.clear()
                    self._confirmed.clear()
                    return

    def _listen(self) -> None:
        """One connection's life: follow the watched games, dispatch messages until idle or an error."""
        pubsub = self.client.pubsub()
        read = pubsub.get_sharded_message if self.cluster else pubsub.get_message
        try:
            idle_since: float | None = None
            while True:
                self._sync_subscriptions(pubsub)
                message = read(timeout=POLL)
                if message is not None:
                    kind = message["type"]
                    if kind in ("message", "smessage"):
                        self.notify(game_of(message["channel"]))
                    elif kind in ("subscribe", "ssubscribe"):
                        game = game_of(message["channel"])
                        with self._lock:
                            event = self._confirmed.get(game)
                        if event is not None:
                            event.set()
                        self.notify(game)  # anything written while we were not yet listening: re-read
                with self._lock:
                    empty = not self._waiters
                if empty:
                    idle_since = idle_since or time.monotonic()
                    if time.monotonic() - idle_since > IDLE_STOP:
                        return
                else:
                    idle_since = None
        finally:
            with contextlib.suppress(Exception):  # closing a broken connection may fail too
                pubsub.close()

    def _sync_subscriptions(self, pubsub: Any) -> None:
        """The subscriptions follow the watched games (sharded ones on a cluster)."""
        watched = self.watched()
        with self._lock:
            new = watched - self._subscribed
            gone = self._subscribed - watched
            self._subscribed |= new
            self._subscribed -= gone
            for game in gone:
                self._confirmed.pop(game, None)
        if new:
            channels = [f"{CHANNEL_PREFIX}{game}}}" for game in new]
            if self.cluster:
                for channel in channels:  # each on its own slot's node
                    pubsub.ssubscribe(channel)
            else:
                pubsub.subscribe(*channels)
        if gone:
            channels = [f"{CHANNEL_PREFIX}{game}}}" for game in gone]
            if self.cluster:
                for channel in channels:
                    pubsub.sunsubscribe(channel)
            else:
                pubsub.unsubscribe(*channels)
