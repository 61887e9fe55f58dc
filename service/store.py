"""Where game snapshots and logs live: Redis in production, a dict in-process by default.

Both stores keep the same promises:
- ``create`` writes a new game only if its id is free;
- ``commit`` is one atomic compare-and-set on the snapshot's version that also appends
  the move log entries and (optionally) stores an idempotent response, so two
  concurrent moves can never both apply and nothing is ever half-written;
- every key carries a TTL, refreshed on each write.

Keys carry a hash tag on the game id (``cardtable:game:{<id>}``) so that one game's
keys live on one slot of a Redis Cluster and the Lua scripts stay single-slot.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol


class StoreUnavailable(Exception):
    """The store cannot be reached; the request changed nothing and may be retried."""


@dataclass(frozen=True)
class Loaded:
    version: int
    snapshot: bytes


class Store(Protocol):
    kind: str

    def ping(self) -> None: ...

    def create(self, game_id: str, snapshot: bytes, log: Sequence[bytes], ttl: int,
               idem: str | None = None, idem_value: bytes | None = None) -> bool:
        """Write a new game at version ``len(log)``; False if the id is taken."""
        ...

    def load(self, game_id: str) -> Loaded | None: ...

    def commit(self, game_id: str, expected: int, snapshot: bytes, log: Sequence[bytes], ttl: int,
               idem: str | None = None, idem_value: bytes | None = None) -> bool:
        """Replace the snapshot at version ``expected`` with ``snapshot`` at version
        ``expected + len(log)``, appending ``log``; False (and nothing written) if the
        stored version is not ``expected`` or the game is gone."""
        ...

    def log(self, game_id: str) -> list[bytes]: ...

    def idempotent(self, game_id: str, key: str) -> bytes | None:
        """The response stored under an Idempotency-Key for this game, if any."""
        ...


def game_key(game_id: str) -> str:
    return f"cardtable:game:{{{game_id}}}"


def log_key(game_id: str) -> str:
    return f"cardtable:log:{{{game_id}}}"


def idem_key(game_id: str, key: str) -> str:
    return f"cardtable:idem:{{{game_id}}}:{key}"


# KEYS: game, log, idem (optional). ARGV: expected, new version, snapshot, ttl, idem value, log entries...
_COMMIT = """
local cur = redis.call('HGET', KEYS[1], 'v')
if not cur or cur ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 's', ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[4])
for i = 6, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('EXPIRE', KEYS[2], ARGV[4]) end
if KEYS[3] and ARGV[5] ~= '' then redis.call('SET', KEYS[3], ARGV[5], 'EX', ARGV[4]) end
return 1
"""

# KEYS: game, log, idem (optional). ARGV: version, snapshot, ttl, idem value, log entries...
_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[1], 's', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('DEL', KEYS[2])
for i = 5, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('EXPIRE', KEYS[2], ARGV[3]) end
if KEYS[3] and ARGV[4] ~= '' then redis.call('SET', KEYS[3], ARGV[4], 'EX', ARGV[3]) end
return 1
"""


class RedisStore:
    """The production store on redis-py (a single server or a Redis Cluster)."""

    kind = "redis"

    def __init__(self, client: Any) -> None:
        import redis

        # Every failure of the store (unreachable, loading, read-only replica, out of memory,
        # cluster resharding) means the same to a client: nothing was written, retry later.
        self._errors = (redis.exceptions.RedisError,)
        self.client = client
        self._commit = client.register_script(_COMMIT)
        self._create = client.register_script(_CREATE)

    @classmethod
    def from_url(cls, url: str, timeout: float = 1.0, cluster: bool = False) -> RedisStore:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        kw: dict[str, Any] = {"socket_timeout": timeout, "socket_connect_timeout": timeout}
        if cluster:
            from redis.cluster import RedisCluster

            return cls(RedisCluster.from_url(url, **kw))
        # One quick retry on a dropped connection; more would hold the worker past the timeout.
        return cls(redis.Redis.from_url(url, retry=Retry(NoBackoff(), 1), **kw))

    def _call(self, fn: Any, *args: Any, **kw: Any) -> Any:
        try:
            return fn(*args, **kw)
        except self._errors as exc:
            raise StoreUnavailable(str(exc)) from None

    def ping(self) -> None:
        self._call(self.client.ping)

    def create(self, game_id: str, snapshot: bytes, log: Sequence[bytes], ttl: int,
               idem: str | None = None, idem_value: bytes | None = None) -> bool:
        keys = [game_key(game_id), log_key(game_id)] + ([idem_key(game_id, idem)] if idem else [])
        args = [len(log), snapshot, ttl, idem_value or b"", *log]
        return bool(self._call(self._create, keys=keys, args=args))

    def load(self, game_id: str) -> Loaded | None:
        got = self._call(self.client.hmget, game_key(game_id), ["v", "s"])
        if got[0] is None or got[1] is None:
            return None
        return Loaded(int(got[0]), got[1])

    def commit(self, game_id: str, expected: int, snapshot: bytes, log: Sequence[bytes], ttl: int,
               idem: str | None = None, idem_value: bytes | None = None) -> bool:
        keys = [game_key(game_id), log_key(game_id)] + ([idem_key(game_id, idem)] if idem else [])
        args = [expected, expected + len(log), snapshot, ttl, idem_value or b"", *log]
        return bool(self._call(self._commit, keys=keys, args=args))

    def log(self, game_id: str) -> list[bytes]:
        return list(self._call(self.client.lrange, log_key(game_id), 0, -1))

    def idempotent(self, game_id: str, key: str) -> bytes | None:
        value = self._call(self.client.get, idem_key(game_id, key))
        return None if value is None else bytes(value)


class MemoryStore:
    """The embedded store: the same semantics in one process, behind one lock.

    For ``cardtable serve`` without Redis and for engine-free service tests only: it
    is not shared between worker processes.
    """

    kind = "memory"

    def __init__(self, clock: Any = time.monotonic) -> None:
        self._lock = threading.Lock()
        self._games: dict[str, tuple[int, bytes, float]] = {}
        self._logs: dict[str, list[bytes]] = {}
        self._idem: dict[tuple[str, str], tuple[bytes, float]] = {}
        self._clock = clock

    def _alive(self, game_id: str) -> bool:
        got = self._games.get(game_id)
        if got is None:
            return False
        if got[2] <= self._clock():
            self._games.pop(game_id, None)
            self._logs.pop(game_id, None)
            return False
        return True

    def ping(self) -> None:
        return None

    def create(self, game_id: str, snapshot: bytes, log: Sequence[bytes], ttl: int,
               idem: str | None = None, idem_value: bytes | None = None) -> bool:
        with self._lock:
            if self._alive(game_id):
                return False
            expires = self._clock() + ttl
            self._games[game_id] = (len(log), snapshot, expires)
            self._logs[game_id] = list(log)
            if idem and idem_value:
                self._idem[(game_id, idem)] = (idem_value, expires)
            return True

    def load(self, game_id: str) -> Loaded | None:
        with self._lock:
            if not self._alive(game_id):
                return None
            version, snapshot, _ = self._games[game_id]
            return Loaded(version, snapshot)

    def commit(self, game_id: str, expected: int, snapshot: bytes, log: Sequence[bytes], ttl: int,
               idem: str | None = None, idem_value: bytes | None = None) -> bool:
        with self._lock:
            if not self._alive(game_id) or self._games[game_id][0] != expected:
                return False
            expires = self._clock() + ttl
            self._games[game_id] = (expected + len(log), snapshot, expires)
            self._logs.setdefault(game_id, []).extend(log)
            if idem and idem_value:
                self._idem[(game_id, idem)] = (idem_value, expires)
            return True

    def log(self, game_id: str) -> list[bytes]:
        with self._lock:
            return list(self._logs.get(game_id, [])) if self._alive(game_id) else []

    def idempotent(self, game_id: str, key: str) -> bytes | None:
        with self._lock:
            got = self._idem.get((game_id, key))
            if got is None or got[1] <= self._clock():
                return None
            return got[0]
