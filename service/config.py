"""Settings, read once from the environment (the only way to configure a deployment)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


def _flag(value: str | None, default: bool) -> bool:
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


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
            "cors_origins": tuple(o.strip() for o in (env.get("CARDTABLE_CORS_ORIGINS") or "").split(",") if o.strip()),
        }
        values.update(overrides)
        return cls(**values)  # type: ignore[arg-type]
