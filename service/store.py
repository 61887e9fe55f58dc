"""Where game snapshots and logs live: Redis in production, a dict in-process by default.

Both stores keep the same promises:
- ``create`` writes a new game only if its id is free;
- ``commit`` is one atomic compare-and-set on the snapshot's version that also appends
  the move log entries and (optionally) stores an idempotent response, so two
  concurrent moves can never both apply and nothing is ever half-written;
- every key carries a TTL, refreshed on each write.

Keys carry a hash tag on the game id (``cardtable:game:{<id>}``) so that one game's
keys live on one slot of a Redis Cluster and the Lua scripts stay single-slot.

The lobby of each kind of game (``cardtable:lobby:{<game>}``, ``service.lobby``) is a sorted set of
the listed waiting games, one member per game (``<inverted creation µs>:<id>``, all scored 0, so
that the members' order, lexical, is newest first and a page goes on from a member). On one server
(or Sentinel's primary) the create that lists a game and the commit that ends its wait change the
lobby in their own Lua script, in the same atomic step; on a Cluster the lobby lives on another slot,
so the member is added just before the game is written and removed just after, and the lobby's
reader checks each member against its game (``service.lobby``).

With ``min_acks`` > 0 (CARDTABLE_MIN_REPLICA_ACKS) a create or commit is followed, on the
same connection, by ``WAIT min_acks``: a write is only acknowledged to the client once that
many replicas hold it, so a failover to one of them cannot lose it. When too few replicas
answer in time the write may have applied on the primary alone: ``NotReplicated`` (a 503),
and the retry with the same Idempotency-Key replays the stored answer, after waiting for
the replicas in turn.

Every call to Redis goes through ``service.guard``: at most ``pool_size`` at once per worker
(CARDTABLE_REDIS_POOL; the others wait their turn for up to the store timeout), refused at once while
the circuit breaker is open (CARDTABLE_BREAKER_SECONDS after the store failed to answer; on a cluster
one breaker per node, so a lost master pauses only its own games), and never retried after a
timeout: a hung Redis costs a request at most one CARDTABLE_STORE_TIMEOUT. Identical reads at once
(the streams of one game re-reading its log after a move) share one round trip.

``secret()`` is the server secret that keyed creates derive their game id and seat tokens from
(``service.create``): CARDTABLE_SECRET when set, else a random one kept in Redis (``cardtable:secret``,
written once with SET NX, so every worker and restart shares it), else, in process, one per process.
"""

from __future__ import annotations

import logging
import os
import secrets
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import orjson

from service.guard import Breaker, Gate, Late, Shared
from service.live import LocalHub, RedisHub

log_ = logging.getLogger("cardtable")

#: Connections to Redis per worker (CARDTABLE_REDIS_POOL) unless configured.
POOL_SIZE = 32
#: Seconds the breaker refuses calls after the store failed to answer (CARDTABLE_BREAKER_SECONDS).
BREAKER_SECONDS = 1.0
#: Where the server secret is kept when CARDTABLE_SECRET is not set.
SECRET_KEY = "cardtable:secret"


class StoreUnavailable(Exception):
    """The store cannot be reached; the request changed nothing and may be retried."""


class NotReplicated(StoreUnavailable):
    """A write reached the primary but too few replicas acknowledged it in time.

    It may survive or be lost in a failover, so it is not acknowledged: the client retries
    with the same Idempotency-Key and gets the stored answer once the replicas have it."""


@dataclass(frozen=True)
class Loaded:
    version: int
    snapshot: bytes


@dataclass(frozen=True)
class Opened:
    """A game read together with who is at its table (``Store.open``): the game (None when there is
    none), every seat marked with the ms until its mark ends, and whether the seat asked to be marked
    was (its hash was in the game)."""

    loaded: Loaded | None
    marked: dict[int, int]
    seat_marked: bool


@dataclass(frozen=True)
class Listed:
    """A game's member of its kind's lobby (``service.lobby``): which lobby, the member, and, when it
    is added, how long the lobby lives and which members are too old to stay (greater than ``oldest``)."""

    game: str
    member: str
    ttl: int = 0
    oldest: str = ""


class Store(Protocol):
    kind: str
    #: The lobby changes in the very write of its game (else, a Cluster's: just before or after it).
    atomic_lobby: bool
    hub: LocalHub  # rings this worker's waiters of a game when it has a new version (service.live)

    def ping(self) -> None: ...

    def create(self, game_id: str, snapshot: bytes, log: Sequence[bytes], ttl: int,
               idem: str | None = None, idem_value: bytes | None = None, listed: Listed | None = None,
               due: int | None = None) -> bool:
        """Write a new game at version ``len(log)``, put it in ``listed``'s lobby and, when ``due``
        (epoch ms) is given, among the due games; False if the id is taken."""
        ...

    def load(self, game_id: str) -> Loaded | None: ...

    def open(self, game_id: str, seat: int | None, seat_hash: str | None, ttl_ms: int, share: bool = False) -> Opened:
        """``load`` and ``presence`` in one round trip: the game, and who is at its table once ``seat``
        (when one is given) is marked for ``ttl_ms`` -- only if the game's seat ``seat`` holds the token
        hash ``seat_hash`` (the caller's guess of its seat, checked against the game it reads). Marking
        nobody it is a plain read (on Redis one HMGET, no script); ``share``: the identical ones in
        flight share one round trip."""
        ...

    def load_many(self, game_ids: Sequence[str]) -> list[Loaded | None]:
        """``load`` of each game, in one round trip."""
        ...

    def commit(self, game_id: str, expected: int, snapshot: bytes, log: Sequence[bytes], ttl: int,
               idem: str | None = None, idem_value: bytes | None = None, unlisted: Listed | None = None,
               due: int | None = None, mark: tuple[int, int] | None = None) -> bool:
        """Replace the snapshot at version ``expected`` with ``snapshot`` at version
        ``expected + len(log)``, appending ``log``, take ``unlisted`` out of its lobby, set the
        game's due time to ``due`` (epoch ms; None: not due) and mark ``mark``'s seat at the table for
        its ms (``presence``; the new version tells the waiters); False (and nothing written) if the
        stored version is not ``expected`` or the game is gone."""
        ...

    def claim(self, now: int, lease_ms: int, count: int) -> list[tuple[str, int]]:
        """Up to ``count`` games due by ``now`` (epoch ms), each one's due time pushed ``lease_ms``
        ahead in the same atomic step; answers each id with the time set."""
        ...

    def reschedule(self, game_id: str, claimed: int, due: int | None) -> bool:
        """Set a claimed game's due time to ``due`` (None: not due), unless something else changed it
        since the claim set it to ``claimed``."""
        ...

    def schedule(self, game_id: str, due: int) -> None:
        """Make a game due at ``due`` at the latest (added, or moved earlier)."""
        ...

    def presence(self, game_id: str, seat: int | None, ttl_ms: int) -> tuple[dict[int, int], int]:
        """Mark ``seat`` (when one is given) at the table for ``ttl_ms`` from now, telling the game's
        waiters when it was not; answer every seat marked, with the ms until its mark ends, and the
        ms until the first mark ends (``service.presence``)."""
        ...

    def lobby(self, game: str, after: str | None, count: int, oldest: str) -> list[str]:
        """Up to ``count`` members of ``game``'s lobby after ``after`` (from the first when None),
        in order, once every member greater than ``oldest`` (a day old) is dropped."""
        ...

    def unlist(self, listed: Listed) -> None:
        """Take a member out of its lobby (a reader found it stale)."""
        ...

    def log(self, game_id: str, start: int = 0, count: int | None = None) -> list[bytes]:
        """The log entries from index ``start`` (the entry of version ``start + 1``), at most
        ``count`` of them (all when None)."""
        ...

    def idempotent(self, game_id: str, key: str) -> bytes | None:
        """The response stored under an Idempotency-Key for this game, if any."""
        ...

    def secret(self) -> bytes:
        """The server secret (CARDTABLE_SECRET, else one the store keeps for every worker)."""
        ...


def _marks(text: bytes | str | None, now_ms: int = 0) -> dict[int, int]:
    """The seats marked and the ms each has left at ``now_ms``, from ``"<seat> <ends> ..."``: a game's
    ``p`` field as a plain read gets it (ends in epoch ms), or, with ``now_ms`` 0, what the presence
    scripts answer (each mark's ms left, the ended ones left out already)."""
    if not text:
        return {}
    numbers = text.split()
    marked = {}
    for i in range(0, len(numbers), 2):
        left = int(numbers[i + 1]) - now_ms
        if left > 0:
            marked[int(numbers[i])] = left
    return marked


def _pack(args: Sequence[Any]) -> bytes:
    """One command in Redis's wire form (RESP: an array of bulk strings) from bytes, text (UTF-8, as
    redis-py encodes it) and whole numbers: what redis-py's ``pack_command`` writes for them, without
    its checks for every other type and its buffering for large values (``RedisStore._send``)."""
    parts = [b"*%d\r\n" % len(args)]
    for arg in args:
        if isinstance(arg, str):
            arg = arg.encode()
        elif not isinstance(arg, bytes):
            if type(arg) is not int:
                raise TypeError(f"a store command takes bytes, text and whole numbers, not {type(arg).__name__}")
            arg = b"%d" % arg
        parts.append(b"$%d\r\n%s\r\n" % (len(arg), arg))
    return b"".join(parts)


def game_key(game_id: str) -> str:
    return f"cardtable:game:{{{game_id}}}"


def log_key(game_id: str) -> str:
    return f"cardtable:log:{{{game_id}}}"


def idem_key(game_id: str, key: str) -> str:
    return f"cardtable:idem:{{{game_id}}}:{key}"


def lobby_key(game: str) -> str:
    """The lobby of one kind of game: its listed waiting games."""
    return f"cardtable:lobby:{{{game}}}"


#: The games the service must act on by itself (a clock runs out, a game idles too long): a sorted set,
#: member the game's id, score when (epoch ms); a hint, re-checked against the game (``service.sweeper``).
DEADLINES_KEY = "cardtable:deadlines"


def events_channel(game_id: str) -> str:
    """The pub/sub channel told each new version of a game (hash-tagged: its slot's shard)."""
    return f"cardtable:events:{{{game_id}}}"


# What the presence scripts share. Who is at a game's table is the field ``p`` of the game's own hash:
# ``"<seat> <ends> ..."``, each seat marked with when its mark ends (epoch ms, the store's clock). Kept
# there, a plain HMGET reads it with the game. ``clock``: the store's clock in ms; ``mark``: a seat's
# mark in ``text`` (the field as read) moved on to ``now + ttl`` ms, never back, the marks that ended
# dropped, and written only while the game is there (answers whether the seat was marked already,
# and the field as it is now); ``marks``: the seats still marked in ``text`` and the ms each has
# left, appended as one text to ``out``.
_PRESENCE_LIB = """
local function clock()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function mark(key, seat, ttl, now, text)
  if redis.call('EXISTS', key) == 0 then return true, text end  -- no game: nobody to mark, nothing to tell
  local was = false
  local ends = now + ttl
  local kept = {}
  for s, e in string.gmatch(text or '', '(%d+) (%d+)') do
    local at = tonumber(e)
    if s == seat then
      was = at > now
      if at > ends then ends = at end
    elseif at > now then
      kept[#kept + 1] = s .. ' ' .. e
    end
  end
  kept[#kept + 1] = seat .. ' ' .. string.format('%d', ends)
  text = table.concat(kept, ' ')
  redis.call('HSET', key, 'p', text)
  return was, text
end
local function marks(text, now, out)
  local flat = {}
  for s, e in string.gmatch(text or '', '(%d+) (%d+)') do
    local left = tonumber(e) - now
    if left > 0 then
      flat[#flat + 1] = s
      flat[#flat + 1] = string.format('%d', left)
    end
  end
  out[#out + 1] = table.concat(flat, ' ')
  return out
end
"""

# KEYS: game, log, idem (the game's key when there is none), lobby (the game's key when the lobby is
# not changed here), the due games (the game's key when they are not changed here). ARGV: expected,
# new version, snapshot, ttl, idem value, publish command (PUBLISH, or SPUBLISH on a cluster), channel,
# the lobby member to remove (''), the game's id, its due time ('' when not changed here, '-' for
# none), the seat to mark at the table ('' for none), its mark's ms, log entries... The new version
# is published in the same script, so no commit is ever left untold (and the waiters that look again
# see the mover marked).
_COMMIT = _PRESENCE_LIB + """
local cur = redis.call('HGET', KEYS[1], 'v')
if not cur or cur ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 's', ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[4])
for i = 13, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('EXPIRE', KEYS[2], ARGV[4]) end
if ARGV[5] ~= '' then redis.call('SET', KEYS[3], ARGV[5], 'EX', ARGV[4]) end
if ARGV[8] ~= '' then redis.call('ZREM', KEYS[4], ARGV[8]) end
if ARGV[10] == '-' then redis.call('ZREM', KEYS[5], ARGV[9])
elseif ARGV[10] ~= '' then redis.call('ZADD', KEYS[5], ARGV[10], ARGV[9]) end
if ARGV[11] ~= '' then mark(KEYS[1], ARGV[11], tonumber(ARGV[12]), clock(), redis.call('HGET', KEYS[1], 'p')) end
redis.call(ARGV[6], ARGV[7], ARGV[2])
return 1
"""

# KEYS: idem. Returns the stored answer and, when there is one, re-sets its expiry to what it
# is: a write that reaches the replication stream after the answer's own write, so that a WAIT
# behind it on the same connection proves the replicas hold the answer (WAIT counts the
# replication offset of the connection's last propagated write, and a GET propagates nothing).
_GET_REPLICATED = """
local v = redis.call('GET', KEYS[1])
if v then
  local t = redis.call('PTTL', KEYS[1])
  if t > 0 then redis.call('PEXPIRE', KEYS[1], t) end
end
return v
"""

# KEYS: game, log, idem (the game's key when there is none), lobby (the game's key when the lobby is
# not changed here), the due games (likewise). ARGV: version, snapshot, ttl, idem value, publish
# command, channel, the lobby member to add (''), the lobby's ttl, the oldest member it keeps, the
# game's id, its due time ('' for none, or when not changed here), log entries...
_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[1], 's', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('DEL', KEYS[2])
for i = 12, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
if ARGV[11] ~= '' then redis.call('ZADD', KEYS[5], ARGV[11], ARGV[10]) end
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('EXPIRE', KEYS[2], ARGV[3]) end
if ARGV[4] ~= '' then redis.call('SET', KEYS[3], ARGV[4], 'EX', ARGV[3]) end
if ARGV[7] ~= '' then
  redis.call('ZADD', KEYS[4], 0, ARGV[7])
  redis.call('ZREMRANGEBYLEX', KEYS[4], '(' .. ARGV[9], '+')
  redis.call('EXPIRE', KEYS[4], ARGV[8])
end
redis.call(ARGV[5], ARGV[6], ARGV[1])
return 1
"""

# KEYS: the game. ARGV: the seat to mark ('' for none), ttl ms, publish command, channel. Returns the
# seats still marked and the ms each has left (``_marks``). A seat that was not marked tells the game's
# channel, so that its long polls and streams look again (their ETags name who is there).
_PRESENCE = _PRESENCE_LIB + """
local now = clock()
local text = redis.call('HGET', KEYS[1], 'p')
if ARGV[1] ~= '' then
  local was
  was, text = mark(KEYS[1], ARGV[1], tonumber(ARGV[2]), now, text)
  if not was then redis.call(ARGV[3], ARGV[4], 'presence') end
end
return marks(text, now, {})
"""

# KEYS: the game. ARGV: the seat to mark, that seat as the game's snapshot holds it
# ('{"hash":"<hex>"'), ttl ms, publish command, channel. A read of the game and ``_PRESENCE`` in one
# step: the seat is marked only when the snapshot's seat of that number holds that hash (a record's
# seats are its first objects that begin with ``{"hash":``, one per seat, and no text in JSON holds
# those bytes: a quote inside a string is escaped). Returns the version, the snapshot (false when the
# game is not there), 1 when the seat was marked, then the seats still marked and the ms each has
# left, as one text (``_marks``). A read that marks nobody needs no script: ``RedisStore.open`` reads
# the same fields with a plain HMGET.
_OPEN = _PRESENCE_LIB + """
local got = redis.call('HMGET', KEYS[1], 'v', 's', 'p')
local now = clock()
local text = got[3]
local marked = 0
if got[2] then
  local at = string.find(got[2], ARGV[2], 1, true)
  local before, from = 0, 1
  while at do
    local seat = string.find(got[2], '{"hash":', from, true)
    if not seat or seat >= at then break end
    before, from = before + 1, seat + 8
  end
  if at and before == tonumber(ARGV[1]) then
    local was
    was, text = mark(KEYS[1], ARGV[1], tonumber(ARGV[3]), now, text)
    if not was then redis.call(ARGV[4], ARGV[5], 'presence') end
    marked = 1
  end
end
return marks(text, now, {got[1], got[2], marked})
"""

# KEYS: the due games. ARGV: now (epoch ms), the lease (ms), how many at most. Takes the games due
# by now, first due first, and pushes each one's time a lease ahead: a claimer that dies on the way
# only delays the game; another claims it once the lease is over. Returns the ids and the times set.
_CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
local out = {}
local until_ = tonumber(ARGV[1]) + tonumber(ARGV[2])
for _, id in ipairs(due) do
  redis.call('ZADD', KEYS[1], until_, id)
  out[#out + 1] = id
  out[#out + 1] = until_
end
return out
"""

# KEYS: the due games. ARGV: a game's id, the time its claim set, its real due time ('-' for none).
# Changes the game's time only if nothing else did since the claim (a commit's own time stands).
_RESCHEDULE = """
local cur = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not cur or tonumber(cur) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '-' then redis.call('ZREM', KEYS[1], ARGV[1]) else redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1]) end
return 1
"""

# KEYS: a lobby. ARGV: the oldest member it keeps, where to start (a bound of ZRANGEBYLEX), count.
_LOBBY = """
redis.call('ZREMRANGEBYLEX', KEYS[1], '(' .. ARGV[1], '+')
return redis.call('ZRANGEBYLEX', KEYS[1], ARGV[2], '+', 'LIMIT', 0, tonumber(ARGV[3]))
"""

# KEYS: a lobby. ARGV: a member, the lobby's ttl, the oldest member it keeps. (A cluster's add.)
_LIST = """
redis.call('ZADD', KEYS[1], 0, ARGV[1])
redis.call('ZREMRANGEBYLEX', KEYS[1], '(' .. ARGV[3], '+')
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1
"""


class RedisStore:
    """The production store on redis-py (a single server, a Sentinel-managed primary or a Redis Cluster)."""

    kind = "redis"

    def __init__(self, client: Any, min_acks: int = 0, timeout: float = 1.0, pool_size: int = POOL_SIZE,
                 breaker_seconds: float = BREAKER_SECONDS, secret: str | None = None) -> None:
        import redis
        from redis.cluster import RedisCluster

        # Every failure of the store (unreachable, loading, read-only replica, out of memory,
        # cluster resharding) means the same to a client: nothing was written, retry later.
        self._errors = (redis.exceptions.RedisError,)
        # Of those, the ones where the store did not answer at all: they open the breaker (a full
        # client-side pool is this worker's own affair and never does).
        self._unanswered = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
        self._own_limit = redis.exceptions.MaxConnectionsError
        self._no_script = redis.exceptions.NoScriptError
        self.client = client
        self.cluster = isinstance(client, RedisCluster)
        # Sharded pub/sub on a cluster: a game's channel lives on its slot's node, like its keys.
        self.publish = "SPUBLISH" if self.cluster else "PUBLISH"
        self.atomic_lobby = not self.cluster
        self.min_acks = min_acks
        self.timeout = timeout
        # WAIT's own limit, in ms; kept below the socket timeout so WAIT answers first.
        self.wait_ms = max(1, int(timeout * 500))
        self.gate = Gate(pool_size)
        self.breaker_seconds = breaker_seconds
        # A probe is bounded by its wait for the gate and its round trip; past that it was lost.
        self._probe_seconds = 2 * timeout + 1.0
        self._breakers: dict[str, Breaker] = {}
        self._shared = Shared()
        self._secret = secret.encode() if secret else None
        self.hub: LocalHub = RedisHub(client, self.cluster, ready_timeout=timeout)
        # One command, answered: packed here and sent on a pooled connection (``_send``), or on a
        # cluster through the client, which routes it to the node of its key's slot.
        self._command: Any = client.execute_command if self.cluster else self._send
        self._broken = redis.exceptions.ConnectionError
        self._answered = redis.exceptions.ResponseError
        # The connections ``_send`` uses, idle ones last in, of this process only (``_connection``).
        self._idle: list[Any] = []
        self._pid = os.getpid()
        self._commit = client.register_script(_COMMIT)
        self._create = client.register_script(_CREATE)
        self._lobby = client.register_script(_LOBBY)
        self._presence = client.register_script(_PRESENCE)
        self._open = client.register_script(_OPEN)
        self._list = client.register_script(_LIST)
        self._get_replicated = client.register_script(_GET_REPLICATED)
        self._claim = client.register_script(_CLAIM)
        self._reschedule = client.register_script(_RESCHEDULE)

    @staticmethod
    def _options(timeout: float, pool_size: int) -> dict[str, Any]:
        # redis-py's own pool may hold a few more connections than the gate lets calls use at once:
        # the live updates' pub/sub connection, and one being replaced after an error.
        return {"socket_timeout": timeout, "socket_connect_timeout": timeout, "max_connections": pool_size + 4}

    @staticmethod
    def _retry() -> Any:
        """One immediate retry, and only when the connection itself broke (a pooled connection the
        server closed, a refused connect): those fail at once. A timeout is never retried, so a hung
        Redis costs one timeout, not two."""
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        return Retry(NoBackoff(), 1, supported_errors=(redis.exceptions.ConnectionError,))

    @classmethod
    def from_url(cls, url: str, timeout: float = 1.0, cluster: bool = False, min_acks: int = 0,
                 pool_size: int = POOL_SIZE, breaker_seconds: float = BREAKER_SECONDS,
                 secret: str | None = None) -> RedisStore:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        kw = cls._options(timeout, pool_size)
        if cluster:
            # One quick retry after the cluster's topology changed (a failed master replaced); the
            # default (ten, with backoff) holds a worker for seconds where a 503 lets the client decide.
            client: Any = _cluster_class().from_url(url, retry=Retry(NoBackoff(), 1), **kw)
        else:
            client = redis.Redis.from_url(url, retry=cls._retry(), **kw)
        return cls(client, min_acks, timeout, pool_size, breaker_seconds, secret)

    @classmethod
    def from_sentinels(cls, sentinels: Sequence[tuple[str, int]], master: str, timeout: float = 1.0,
                       min_acks: int = 1, pool_size: int = POOL_SIZE, breaker_seconds: float = BREAKER_SECONDS,
                       secret: str | None = None) -> RedisStore:
        """The primary of ``master`` as the Sentinels name it: every new connection asks them,
        and a connection to a demoted primary (READONLY) is dropped, so the store follows a
        failover by itself; until it completes, requests answer 503."""
        from redis.sentinel import Sentinel

        kw = cls._options(timeout, pool_size)
        manager = Sentinel(list(sentinels), sentinel_kwargs={"socket_timeout": timeout,
                                                              "socket_connect_timeout": timeout}, **kw)
        client = manager.master_for(master, retry=cls._retry())
        return cls(client, min_acks, timeout, pool_size, breaker_seconds, secret)

    # --- every call to Redis --------------------------------------------------------------------

    def breaker(self, key: str | None = None) -> Breaker:
        """The breaker of the node that serves ``key``: one per node on a cluster, else one."""
        name = ""
        if self.cluster and key is not None:
            try:
                node = self.client.get_node_from_key(key)
                name = node.name if node is not None else ""
            except Exception:  # noqa: BLE001 -- a slot not covered right now: the cluster-wide breaker
                name = ""
        found = self._breakers.get(name)
        if found is None:
            if len(self._breakers) > 256:  # nodes come and go over a cluster's life: stay bounded
                self._breakers.clear()
            found = self._breakers.setdefault(name, Breaker(self.breaker_seconds, self._probe_seconds))
        return found

    def _call(self, fn: Any, *args: Any, route: str | None = None, probe: bool = True, **kw: Any) -> Any:
        """``fn(*args, **kw)`` against Redis: through the gate, past the breaker of ``route``'s node
        (``probe=False``: never as the probe of a half-open breaker, the rate limiter's case).
        Every failure is StoreUnavailable; only an unanswered call (timeout, connection) opens
        the breaker."""
        breaker = self.breaker(route)
        if breaker.refuses(probe):
            raise StoreUnavailable("the store failed to answer a moment ago; not asked again yet")
        if not self.gate.enter(self.timeout):
            raise StoreUnavailable(f"no connection to the store came free within {self.timeout:g} s")
        try:
            if not breaker.admit(probe):
                raise StoreUnavailable("the store failed to answer a moment ago; not asked again yet")
            started = time.monotonic()
            try:
                result = fn(*args, **kw)
            except self._unanswered as exc:
                if not isinstance(exc, self._own_limit) and breaker.failed(started):
                    log_.warning("store did not answer (%s): refusing store calls for %g s",
                                exc.__class__.__name__, self.breaker_seconds)
                raise StoreUnavailable(str(exc)) from None
            except self._errors as exc:
                breaker.answered()
                raise StoreUnavailable(str(exc)) from None
            breaker.answered()
            return result
        finally:
            self.gate.leave()

    def _shared_read(self, key: tuple[Any, ...], read: Any) -> Any:
        """``read()`` shared with the identical reads in flight (``service.guard.Shared``)."""
        try:
            # A follower waits for the read ahead of its own and then its own: each bounded by the
            # gate's wait and one round trip.
            return self._shared.run(key, read, 4 * self.timeout)
        except Late as exc:
            raise StoreUnavailable(str(exc)) from None

    def _replicated(self, script: Any, keys: list[str], args: list[Any]) -> tuple[Any, int]:
        """Run ``script`` and then ``WAIT`` on one connection (a pipeline, one round trip):
        its result and how many replicas acknowledged it. On a cluster the pipeline goes to
        the node that serves the game's slot (redis-py's cluster client sends a bare WAIT to
        every primary, not to the one that took the write)."""
        if self.cluster:
            node = self.client.get_node_from_key(keys[0])
            if node is None:
                raise StoreUnavailable(f"no node serves the slot of {keys[0]}")
            conn = self.client.get_redis_connection(node)
        else:
            conn = self.client
        for attempt in range(2):
            pipe = conn.pipeline(transaction=False)
            pipe.evalsha(script.sha, len(keys), *keys, *args)
            pipe.wait(self.min_acks, self.wait_ms)
            try:
                result, acks = pipe.execute()
            except self._no_script:
                # A primary promoted by a failover, or restarted, has no cached scripts yet.
                if attempt:
                    raise
                conn.script_load(script.script)
                continue
            return result, int(acks)
        raise AssertionError("unreachable")

    def _run(self, script: Any, keys: list[str], args: list[Any]) -> Any:
        """``script(keys, args)`` as redis-py's Script runs it (EVALSHA; loaded again when the
        server lost it: a restart, a failover), less its own layers: a request runs two or three."""
        try:
            return self._command("EVALSHA", script.sha, len(keys), *keys, *args)
        except self._no_script:
            script.sha = self.client.script_load(script.script)
            return self._command("EVALSHA", script.sha, len(keys), *keys, *args)

    def _send(self, *args: Any) -> Any:
        """One command, as ``execute_command`` sends it, less its generic layers: packed by ``_pack``
        (about a fifth of redis-py's cost for a commit's arguments) and sent on a connection of this
        store's own (``_connection``), the answer as read, with no response callback (the commands
        sent this way, EVALSHA and HMGET, have none). Like the client's ``Retry``, a connection that
        broke (one the server closed while it was idle: a restart, a failover) is tried once more at
        once, on a new connection, and the idle ones are let go with it (they went to the same
        server); a timeout is never tried again. A connection that failed is closed (redis-py closes
        it itself on any failure), so none is used again with an answer unread."""
        packed = [_pack(args)]
        for attempt in (0, 1):
            conn = self._connection(new=attempt > 0)
            try:
                conn.send_packed_command(packed, check_health=False)
                answer = conn.read_response()
            except self._answered:  # an error answer: the connection goes on
                self._idle.append(conn)
                raise
            except self._broken:
                conn.disconnect()
                idle, self._idle = self._idle, []
                for other in idle:
                    other.disconnect()
                if attempt:
                    raise
                continue
            except BaseException:
                conn.disconnect()
                raise
            self._idle.append(conn)
            return answer
        raise AssertionError("unreachable")

    def _connection(self, new: bool = False) -> Any:
        """An idle connection of this store's (unless ``new``), or a new one, made and connected as
        the client's pool makes them (the same class and settings: on Sentinel, one that asks the
        Sentinels for the primary). They are the store's own, not the pool's: redis-py's pool checks
        each connection for unread data with a system call and records metrics every time one is
        taken and given back, which costs about as much as parsing a round trip's answer. At most
        ``CARDTABLE_REDIS_POOL`` are in use at once (the calls are gated, ``service.guard.Gate``), so
        at most as many are kept. A forked process starts with none of its parent's."""
        if self._pid != os.getpid():
            self._idle, self._pid = [], os.getpid()
        if self._idle and not new:
            return self._idle.pop()
        pool = self.client.connection_pool
        conn = pool.connection_class(**pool.connection_kwargs)
        conn.connect()
        return conn

    def _write(self, script: Any, keys: list[str], args: list[Any]) -> bool:
        """Run a write script; with ``min_acks``, acknowledged only once replicated."""
        if not self.min_acks:
            return bool(self._call(self._run, script, keys, args, route=keys[0]))
        applied, acks = self._call(self._replicated, script, keys, args, route=keys[0])
        if applied and acks < self.min_acks:
            raise NotReplicated(f"{acks} of {self.min_acks} replicas acknowledged the write")
        return bool(applied)

    def script(self, script: Any, keys: list[str], args: list[Any], probe: bool = True) -> Any:
        """Run a Lua script registered on ``client`` through the gate and the breaker (the rate
        limiter's counter runs with ``probe=False``: it fails open rather than wait for a store
        that has just failed)."""
        return self._call(script, keys=keys, args=args, route=keys[0], probe=probe)

    # --- the Store interface ----------------------------------------------------------------------

    def ping(self) -> None:
        self._call(self.client.ping)

    def create(self, game_id: str, snapshot: bytes, log: Sequence[bytes], ttl: int,
               idem: str | None = None, idem_value: bytes | None = None, listed: Listed | None = None,
               due: int | None = None) -> bool:
        game = game_key(game_id)
        keys = [game, log_key(game_id), idem_key(game_id, idem) if idem else game, game, game]
        when: Any = b""
        if due is not None:
            if self.cluster:
                self.schedule(game_id, due)  # another slot: just before (a member early is only re-checked)
            else:
                keys[4], when = DEADLINES_KEY, due
        member = b""
        if listed is not None:
            if self.cluster:
                # Another slot: listed first, so that the game is never written unlisted; until the game
                # is there (or if it never is) the lobby's reader passes the member over.
                self._call(self._list, keys=[lobby_key(listed.game)], args=[listed.member, listed.ttl, listed.oldest],
                           route=lobby_key(listed.game))
            else:
                keys[3], member = lobby_key(listed.game), listed.member.encode()
        # Without an idem key, KEYS[3] is the game's own key: no idempotent answer may be written to it.
        args = [len(log), snapshot, ttl, (idem_value or b"") if idem else b"", self.publish, events_channel(game_id),
                member,
                listed.ttl if listed else 0, listed.oldest if listed else "", game_id, when, *log]
        return self._write(self._create, keys, args)

    def load(self, game_id: str) -> Loaded | None:
        key = game_key(game_id)
        got = self._shared_read(("load", game_id), lambda: self._call(self._command, "HMGET", key, "v", "s", route=key))
        if got[0] is None or got[1] is None:
            return None
        return Loaded(int(got[0]), got[1])

    def open(self, game_id: str, seat: int | None, seat_hash: str | None, ttl_ms: int, share: bool = False) -> Opened:
        key = game_key(game_id)
        if seat is None:
            # Marking nobody, it is a plain read of the game's fields, like ``load`` (shared with the
            # identical ones in flight when ``share``); the marks' ends are read against this
            # worker's clock, which the hosts keep in step with the store's (as the deadlines need).
            def plain() -> Any:
                return self._call(self._command, "HMGET", key, "v", "s", "p", route=key)

            got = self._shared_read(("open", game_id), plain) if share else plain()
            loaded = None if got[0] is None or got[1] is None else Loaded(int(got[0]), got[1])
            return Opened(loaded, _marks(got[2], int(time.time() * 1000)), False)
        args = [seat, f'{{"hash":"{seat_hash}"', ttl_ms, self.publish, events_channel(game_id)]
        got = self._call(self._run, self._open, [key], args, route=key)
        loaded = None if got[0] is None or got[1] is None else Loaded(int(got[0]), got[1])
        return Opened(loaded, _marks(got[3]), bool(got[2]))

    def load_many(self, game_ids: Sequence[str]) -> list[Loaded | None]:
        if not game_ids:
            return []

        def read() -> list[Any]:
            pipe = self.client.pipeline(transaction=False)
            for game_id in game_ids:
                pipe.hmget(game_key(game_id), ["v", "s"])
            return list(pipe.execute())

        got = self._call(read, route=game_key(game_ids[0]))
        return [None if v is None or snap is None else Loaded(int(v), snap) for v, snap in got]

    def commit(self, game_id: str, expected: int, snapshot: bytes, log: Sequence[bytes], ttl: int,
               idem: str | None = None, idem_value: bytes | None = None, unlisted: Listed | None = None,
               due: int | None = None, mark: tuple[int, int] | None = None) -> bool:
        game = game_key(game_id)
        keys = [game, log_key(game_id), idem_key(game_id, idem) if idem else game, game, game]
        member = b""
        if unlisted is not None and not self.cluster:
            keys[3], member = lobby_key(unlisted.game), unlisted.member.encode()
        when: Any = b""
        if not self.cluster:
            keys[4], when = DEADLINES_KEY, b"-" if due is None else due
        elif due is not None:
            # Another slot: moved earlier just before and just after (never later: a member early is
            # only re-checked, a member late would be a deadline missed); the sweeper that finds it
            # early sets it right, or takes a finished game's out.
            self.schedule(game_id, due)
        args = [expected, expected + len(log), snapshot, ttl, (idem_value or b"") if idem else b"", self.publish,
                events_channel(game_id), member, game_id, when, "" if mark is None else mark[0],
                0 if mark is None else mark[1], *log]
        written = self._write(self._commit, keys, args)
        if written and due is not None and self.cluster:
            try:
                self.schedule(game_id, due)
            except StoreUnavailable:
                log_.warning("a due game was left at its earlier time; the sweeper sets it right")
        if written and unlisted is not None and self.cluster:
            # Another slot: taken out just after; if this fails the lobby's reader drops the member.
            try:
                self.unlist(unlisted)
            except StoreUnavailable:
                log_.warning("a lobby member was left behind; the lobby's reader drops it")
        return written

    def presence(self, game_id: str, seat: int | None, ttl_ms: int) -> tuple[dict[int, int], int]:
        key = game_key(game_id)
        got = self._call(self._run, self._presence, [key],
                         ["" if seat is None else seat, ttl_ms, self.publish, events_channel(game_id)], route=key)
        marked = _marks(got[0])
        return marked, min(marked.values(), default=0)

    def lobby(self, game: str, after: str | None, count: int, oldest: str) -> list[str]:
        key = lobby_key(game)
        start = "-" if after is None else f"({after}"
        got = self._call(self._lobby, keys=[key], args=[oldest, start, count], route=key)
        return [m.decode() if isinstance(m, bytes) else m for m in got]

    def unlist(self, listed: Listed) -> None:
        key = lobby_key(listed.game)
        self._call(self.client.zrem, key, listed.member, route=key)

    def log(self, game_id: str, start: int = 0, count: int | None = None) -> list[bytes]:
        key = log_key(game_id)
        stop = -1 if count is None else start + count - 1
        got = self._shared_read(("log", game_id, start, stop),
                                lambda: self._call(self.client.lrange, key, start, stop, route=key))
        return list(got)

    def idempotent(self, game_id: str, key: str) -> bytes | None:
        name = idem_key(game_id, key)
        if not self.min_acks:
            value = self._call(self.client.get, name, route=name)
            return None if value is None else bytes(value)
        # The answer may be on the primary alone (its first request got NotReplicated): replay
        # it only once the replicas hold it, or the replay would acknowledge a losable move.
        value, acks = self._call(self._replicated, self._get_replicated, [name], [], route=name)
        if value is not None and acks < self.min_acks:
            raise NotReplicated(f"{acks} of {self.min_acks} replicas acknowledged the stored answer")
        return None if value is None else bytes(value)

    def schedule(self, game_id: str, due: int) -> None:
        """Move a game's due time earlier (or add it): ZADD LT."""
        self._call(self.client.zadd, DEADLINES_KEY, {game_id: due}, lt=True, route=DEADLINES_KEY)

    def claim(self, now: int, lease_ms: int, count: int) -> list[tuple[str, int]]:
        got = self._call(self._claim, keys=[DEADLINES_KEY], args=[now, lease_ms, count], route=DEADLINES_KEY)
        return [((got[i].decode() if isinstance(got[i], bytes) else got[i]), int(got[i + 1]))
                for i in range(0, len(got), 2)]

    def reschedule(self, game_id: str, claimed: int, due: int | None) -> bool:
        return bool(self._call(self._reschedule, keys=[DEADLINES_KEY], args=[game_id, claimed, "-" if due is None
                                                                            else due], route=DEADLINES_KEY))

    def secret(self) -> bytes:
        if self._secret is None:
            # Written once for the whole deployment (SET NX): the first worker's random value wins,
            # and every worker, now and after restarts, reads that one.
            self._call(self.client.set, SECRET_KEY, secrets.token_urlsafe(32), nx=True, route=SECRET_KEY)
            kept = self._call(self.client.get, SECRET_KEY, route=SECRET_KEY)
            if kept is None:  # deleted between the two calls: nothing to derive from yet
                raise StoreUnavailable("the server secret could not be kept in the store")
            self._secret = bytes(kept)
        return self._secret


def _cluster_class() -> Any:
    from redis.cluster import RedisCluster
    from redis.exceptions import ClusterDownError, ConnectionError, SlotNotCoveredError

    class Cluster(RedisCluster):
        """redis-py's cluster client, minus its retry after a timeout (a hung node would cost two
        timeouts): a broken connection or a cluster still electing is retried once, as before."""

        ERRORS_ALLOW_RETRY = (ConnectionError, ClusterDownError, SlotNotCoveredError)  # type: ignore[assignment]

    return Cluster


class MemoryStore:
    """The embedded store: the same semantics in one process, behind one lock.

    For ``cardtable serve`` without Redis and for engine-free service tests only: it
    is not shared between worker processes.
    """

    kind = "memory"
    atomic_lobby = True

    def __init__(self, clock: Any = time.monotonic, secret: str | None = None) -> None:
        self._lock = threading.Lock()
        # One process is the whole deployment here: a random secret per process is shared by all.
        self._secret = secret.encode() if secret else secrets.token_bytes(32)
        self._games: dict[str, tuple[int, bytes, float]] = {}
        self._logs: dict[str, list[bytes]] = {}
        self._idem: dict[tuple[str, str], tuple[bytes, float]] = {}
        self._lobbies: dict[str, set[str]] = {}  # game -> its lobby's members (lexical order: newest first)
        self._present: dict[str, dict[int, float]] = {}  # game id -> seat -> when its mark ends (clock)
        self._due: dict[str, int] = {}  # game id -> when the service must act on it (epoch ms)
        self._clock = clock
        self.hub = LocalHub()

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
               idem: str | None = None, idem_value: bytes | None = None, listed: Listed | None = None,
               due: int | None = None) -> bool:
        with self._lock:
            if self._alive(game_id):
                return False
            if due is not None:
                self._due[game_id] = due
            expires = self._clock() + ttl
            self._games[game_id] = (len(log), snapshot, expires)
            self._logs[game_id] = list(log)
            if idem and idem_value:
                self._idem[(game_id, idem)] = (idem_value, expires)
            if listed is not None:
                members = self._lobbies.setdefault(listed.game, set())
                members.add(listed.member)
                members -= {m for m in members if m > listed.oldest}
        self.hub.notify(game_id)
        return True

    def load(self, game_id: str) -> Loaded | None:
        with self._lock:
            if not self._alive(game_id):
                return None
            version, snapshot, _ = self._games[game_id]
            return Loaded(version, snapshot)

    def open(self, game_id: str, seat: int | None, seat_hash: str | None, ttl_ms: int, share: bool = False) -> Opened:
        loaded = self.load(game_id)
        holds = False
        if loaded is not None and seat is not None:
            seats = orjson.loads(loaded.snapshot).get("seats") or []
            holds = 0 <= seat < len(seats) and isinstance(seats[seat], dict) and seats[seat].get("hash") == seat_hash
        marked, _ = self.presence(game_id, seat if holds else None, ttl_ms)
        return Opened(loaded, marked, holds)

    def load_many(self, game_ids: Sequence[str]) -> list[Loaded | None]:
        return [self.load(game_id) for game_id in game_ids]

    def commit(self, game_id: str, expected: int, snapshot: bytes, log: Sequence[bytes], ttl: int,
               idem: str | None = None, idem_value: bytes | None = None, unlisted: Listed | None = None,
               due: int | None = None, mark: tuple[int, int] | None = None) -> bool:
        written = self._commit(game_id, expected, snapshot, log, ttl, idem, idem_value, unlisted, due)
        if written and mark is not None:
            self._mark(game_id, *mark, self._clock())
        if written:
            self.hub.notify(game_id)
        return written

    def _commit(self, game_id: str, expected: int, snapshot: bytes, log: Sequence[bytes], ttl: int,
                idem: str | None, idem_value: bytes | None, unlisted: Listed | None, due: int | None) -> bool:
        with self._lock:
            if not self._alive(game_id) or self._games[game_id][0] != expected:
                return False
            if due is None:
                self._due.pop(game_id, None)
            else:
                self._due[game_id] = due
            expires = self._clock() + ttl
            self._games[game_id] = (expected + len(log), snapshot, expires)
            self._logs.setdefault(game_id, []).extend(log)
            if idem and idem_value:
                self._idem[(game_id, idem)] = (idem_value, expires)
            if unlisted is not None:
                self._lobbies.get(unlisted.game, set()).discard(unlisted.member)
        return True

    def log(self, game_id: str, start: int = 0, count: int | None = None) -> list[bytes]:
        with self._lock:
            if not self._alive(game_id):
                return []
            entries = self._logs.get(game_id, [])
            return list(entries[start:] if count is None else entries[start:start + count])

    def idempotent(self, game_id: str, key: str) -> bytes | None:
        with self._lock:
            got = self._idem.get((game_id, key))
            if got is None or got[1] <= self._clock():
                return None
            return got[0]

    def presence(self, game_id: str, seat: int | None, ttl_ms: int) -> tuple[dict[int, int], int]:
        now = self._clock()
        with self._lock:
            alive = self._alive(game_id)
        new, marks = self._mark(game_id, seat if alive else None, ttl_ms, now)  # no game: nobody to mark
        if new:
            self.hub.notify(game_id)
        marked = {s: max(1, int((end - now) * 1000)) for s, end in marks.items()}
        return marked, min(marked.values(), default=0)

    def _mark(self, game_id: str, seat: int | None, ttl_ms: int, now: float) -> tuple[bool, dict[int, float]]:
        """Mark ``seat`` (when one is given) at ``now``: whether it was not marked, and every mark still on."""
        with self._lock:
            marks = {s: end for s, end in self._present.get(game_id, {}).items() if end > now}
            new = seat is not None and seat not in marks
            if seat is not None:
                marks[seat] = max(marks.get(seat, 0.0), now + ttl_ms / 1000)
            if marks:
                self._present[game_id] = marks
            else:
                self._present.pop(game_id, None)
            if len(self._present) > 100_000:  # bounded: forget the games nobody is at
                self._present = {g: m for g, m in self._present.items() if max(m.values()) > now}
        return new, marks

    def lobby(self, game: str, after: str | None, count: int, oldest: str) -> list[str]:
        with self._lock:
            members = self._lobbies.get(game, set())
            members -= {m for m in members if m > oldest}
            return sorted(m for m in members if after is None or m > after)[:count]

    def unlist(self, listed: Listed) -> None:
        with self._lock:
            self._lobbies.get(listed.game, set()).discard(listed.member)

    def claim(self, now: int, lease_ms: int, count: int) -> list[tuple[str, int]]:
        with self._lock:
            due = sorted((at, game_id) for game_id, at in self._due.items() if at <= now)[:count]
            for _, game_id in due:
                self._due[game_id] = now + lease_ms
            return [(game_id, now + lease_ms) for _, game_id in due]

    def reschedule(self, game_id: str, claimed: int, due: int | None) -> bool:
        with self._lock:
            if self._due.get(game_id) != claimed:
                return False
            if due is None:
                self._due.pop(game_id, None)
            else:
                self._due[game_id] = due
            return True

    def schedule(self, game_id: str, due: int) -> None:
        with self._lock:
            self._due[game_id] = min(due, self._due.get(game_id, due))

    def secret(self) -> bytes:
        return self._secret
