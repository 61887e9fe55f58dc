"""Settings, read once from the environment (the only way to configure a deployment)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


def _flag(value: str | None, default: bool) -> bool:
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def _off_or(value: str | None) -> str | None:
    """None for an unset or switched-off setting ("", "0", "off", "no", "false")."""
    if value is None or value.strip().lower() in {"", "0", "off", "no", "false", "none"}:
        return None
    return value.strip()


def parse_sentinels(value: str) -> tuple[tuple[str, int], ...]:
    """``"10.0.0.1:26379,10.0.0.2:26379"`` -> ``(("10.0.0.1", 26379), ("10.0.0.2", 26379))``;
    a bracketed IPv6 host (``[::1]:26379``) is allowed."""
    out = []
    for part in value.split(","):
        part = part.strip()
        if not part:
            continue
        host, sep, port = part.rpartition(":")
        if not sep or not host or not port.isdigit():
            raise ValueError(f"REDIS_SENTINELS: {part!r} is not host:port")
        out.append((host.strip("[]"), int(port)))
    return tuple(out)


@dataclass(frozen=True)
class Settings:
    """Everything a deployment can set; see the README's configuration table."""

    redis_url: str | None = None  # REDIS_URL; None = the in-process store
    redis_cluster: bool = False  # REDIS_CLUSTER: use redis-py's cluster client
    allow_fixed_deals: bool = False  # CARDTABLE_ALLOW_FIXED_DEALS: accept `seed`/`deck` on create
    game_ttl: int = 7 * 24 * 3600  # CARDTABLE_GAME_TTL seconds, refreshed on every write
    max_body: int = 64 * 1024  # CARDTABLE_MAX_BODY bytes; larger bodies get 413
    store_timeout: float = 1.0  # CARDTABLE_STORE_TIMEOUT seconds per store round trip
    retry_after: int = 2  # CARDTABLE_RETRY_AFTER seconds, sent with 503
    cors_origins: tuple[str, ...] = field(default=())  # CARDTABLE_CORS_ORIGINS, comma-separated
    request_log: bool = True  # CARDTABLE_REQUEST_LOG: one JSON line per request on stderr
    #: REDIS_SENTINELS: (host, port) of each Sentinel; when set, REDIS_URL is ignored
    redis_sentinels: tuple[tuple[str, int], ...] = field(default=())
    sentinel_master: str = "cardtable"  # REDIS_SENTINEL_MASTER: the name the Sentinels monitor
    #: CARDTABLE_MIN_REPLICA_ACKS: replicas that must acknowledge a create or a move before it is
    #: answered (WAIT); None = the default, 1 with Sentinel and 0 otherwise
    min_replica_acks: int | None = None
    rate_limit: str | None = None  # CARDTABLE_RATE_LIMIT, e.g. "20/s"; None = no limit
    trusted_proxies: int = 0  # CARDTABLE_TRUSTED_PROXIES: proxies whose X-Forwarded-For is believed
    #: CARDTABLE_CREATE_LIMIT, e.g. "30/m,300/h": creates per client address, on top of the rate limit
    create_limit: str | None = None
    body_timeout: float = 10.0  # CARDTABLE_BODY_TIMEOUT: seconds for a request's whole body (408 after); 0 = off
    streams_per_seat: int = 20  # CARDTABLE_STREAMS_PER_SEAT: event streams and long polls open at once; 0 = off
    streams_per_address: int = 100  # CARDTABLE_STREAMS_PER_ADDRESS: the same per client address; 0 = off
    stream_keepalive: float = 15.0  # CARDTABLE_STREAM_KEEPALIVE: seconds between keep-alive comments
    stream_max_seconds: float = 3600.0  # CARDTABLE_STREAM_MAX_SECONDS: a stream then closes (clients reconnect)
    stream_max_entries: int = 2000  # CARDTABLE_STREAM_MAX_ENTRIES: ... or once it has sent this many entries
    max_log_entries: int = 100_000  # CARDTABLE_MAX_LOG_ENTRIES: moves one game keeps; past it 409 log_full
    long_poll_max_seconds: float = 30.0  # CARDTABLE_LONG_POLL_MAX_SECONDS: a `?wait=` is cut to this
    bot_budget_ms: float = 50.0  # CARDTABLE_BOT_BUDGET_MS: CPU milliseconds per `strong` bot move
    bot_request_seconds: float = 0.25  # CARDTABLE_BOT_REQUEST_SECONDS: CPU seconds for all bot moves of a request
    redis_pool: int = 32  # CARDTABLE_REDIS_POOL: store calls at once per worker; more wait their turn
    breaker_seconds: float = 1.0  # CARDTABLE_BREAKER_SECONDS: store calls refused after the store failed to answer
    #: CARDTABLE_IDLE_DAYS: an active game nobody moved in for this many days ends `abandoned`; 0 = never
    idle_days: float = 6.0
    #: CARDTABLE_FINISHED_DAYS: how long a finished game is kept (its keys' TTL once it is over)
    finished_days: float = 7.0
    #: CARDTABLE_SWEEP_SECONDS: how often each worker looks for games whose deadline passed; 0 = never
    #: (deadlines are then applied only when a request loads the game)
    sweep_seconds: float = 0.5
    #: CARDTABLE_SWEEP_BATCH: due games one sweep takes at most
    sweep_batch: int = 50
    #: CARDTABLE_SECRET: what keyed creates derive their game id and seat tokens from; None = one kept in
    #: Redis (or, in process, one per process). Never shown (repr=False).
    secret: str | None = field(default=None, repr=False)

    @property
    def replica_acks(self) -> int:
        """The replicas a write waits for: the setting, else 1 with Sentinel (a failover must
        not lose an acknowledged move) and 0 on a single server (it has no replica to wait for)."""
        if self.min_replica_acks is not None:
            return self.min_replica_acks
        return 1 if self.redis_sentinels else 0

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, **overrides: object) -> Settings:
        env = dict(os.environ if env is None else env)
        values: dict[str, object] = {
            "redis_url": env.get("REDIS_URL") or None,
            "redis_cluster": _flag(env.get("REDIS_CLUSTER"), False),
            "allow_fixed_deals": _flag(env.get("CARDTABLE_ALLOW_FIXED_DEALS"), False),
            "game_ttl": int(env.get("CARDTABLE_GAME_TTL") or cls.game_ttl),
            "max_body": int(env.get("CARDTABLE_MAX_BODY") or cls.max_body),
            "store_timeout": float(env.get("CARDTABLE_STORE_TIMEOUT") or cls.store_timeout),
            "retry_after": int(env.get("CARDTABLE_RETRY_AFTER") or cls.retry_after),
            "request_log": _flag(env.get("CARDTABLE_REQUEST_LOG"), True),
            "stream_keepalive": float(env.get("CARDTABLE_STREAM_KEEPALIVE") or cls.stream_keepalive),
            "stream_max_seconds": float(env.get("CARDTABLE_STREAM_MAX_SECONDS") or cls.stream_max_seconds),
            "stream_max_entries": int(env.get("CARDTABLE_STREAM_MAX_ENTRIES") or cls.stream_max_entries),
            "max_log_entries": int(env.get("CARDTABLE_MAX_LOG_ENTRIES") or cls.max_log_entries),
            "long_poll_max_seconds": float(env.get("CARDTABLE_LONG_POLL_MAX_SECONDS") or cls.long_poll_max_seconds),
            "bot_budget_ms": float(env.get("CARDTABLE_BOT_BUDGET_MS") or cls.bot_budget_ms),
            "bot_request_seconds": float(env.get("CARDTABLE_BOT_REQUEST_SECONDS") or cls.bot_request_seconds),
            "cors_origins": tuple(o.strip() for o in (env.get("CARDTABLE_CORS_ORIGINS") or "").split(",") if o.strip()),
            "redis_sentinels": parse_sentinels(env.get("REDIS_SENTINELS") or ""),
            "sentinel_master": env.get("REDIS_SENTINEL_MASTER") or cls.sentinel_master,
            "min_replica_acks": int(acks) if (acks := env.get("CARDTABLE_MIN_REPLICA_ACKS")) else None,
            "rate_limit": _off_or(env.get("CARDTABLE_RATE_LIMIT")),
            "trusted_proxies": int(env.get("CARDTABLE_TRUSTED_PROXIES") or 0),
            "create_limit": _off_or(env.get("CARDTABLE_CREATE_LIMIT")),
            "body_timeout": float(env.get("CARDTABLE_BODY_TIMEOUT") or cls.body_timeout),
            "streams_per_seat": int(env.get("CARDTABLE_STREAMS_PER_SEAT") or cls.streams_per_seat),
            "streams_per_address": int(env.get("CARDTABLE_STREAMS_PER_ADDRESS") or cls.streams_per_address),
            "redis_pool": int(env.get("CARDTABLE_REDIS_POOL") or cls.redis_pool),
            "breaker_seconds": float(env.get("CARDTABLE_BREAKER_SECONDS") or cls.breaker_seconds),
            "secret": env.get("CARDTABLE_SECRET") or None,
            "idle_days": float(env.get("CARDTABLE_IDLE_DAYS") or cls.idle_days),
            "finished_days": float(env.get("CARDTABLE_FINISHED_DAYS") or cls.finished_days),
            "sweep_seconds": float(env.get("CARDTABLE_SWEEP_SECONDS") or cls.sweep_seconds),
            "sweep_batch": int(env.get("CARDTABLE_SWEEP_BATCH") or cls.sweep_batch),
        }
        values.update(overrides)
        settings = cls(**values)  # type: ignore[arg-type]
        settings.check()
        return settings

    def check(self) -> None:
        """Refuse, at startup, values that cannot work."""
        if self.redis_pool < 1:
            raise ValueError("CARDTABLE_REDIS_POOL must be at least 1")
        if self.breaker_seconds < 0:
            raise ValueError("CARDTABLE_BREAKER_SECONDS must not be negative")
        if self.idle_days < 0 or self.finished_days <= 0 or self.sweep_seconds < 0 or self.sweep_batch < 1:
            raise ValueError("CARDTABLE_IDLE_DAYS and CARDTABLE_SWEEP_SECONDS must not be negative, "
                             "CARDTABLE_FINISHED_DAYS must be above 0 and CARDTABLE_SWEEP_BATCH at least 1")
        if self.secret is not None and len(self.secret) < 16:
            raise ValueError("CARDTABLE_SECRET must be at least 16 characters (32 random bytes, base64, is good)")
