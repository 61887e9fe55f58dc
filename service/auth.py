"""Seat tokens: 128+ bits from ``secrets`` (or, for a create with an Idempotency-Key, derived from the
server secret), stored only as SHA-256, compared in constant time."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Sequence

TOKEN_BYTES = 24  # 192 bits


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def derived(secret: bytes, purpose: str, *parts: str, size: int = TOKEN_BYTES) -> str:
    """A value that only the holder of ``secret`` can compute from ``parts``: HMAC-SHA256 of them
    (NUL-separated: none of them may hold a NUL), the first ``size`` bytes, base64url. With the
    default size it is as long and as strong as ``new_token``."""
    message = "\0".join((purpose, *parts)).encode("utf-8", "surrogatepass")
    digest = hmac.new(secret, message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:size]).decode().rstrip("=")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header; '' when malformed."""
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return ""
    return token.strip()


def seat_of(token: str, hashes: Sequence[str | None]) -> int | None:
    """The seat whose stored hash matches ``token``; every seat is compared, so the time
    taken does not depend on which seat (if any) matches."""
    digest = token_hash(token)
    found = None
    for seat, stored in enumerate(hashes):
        if stored is not None and hmac.compare_digest(digest, stored):
            found = seat
    return found
