"""Seat tokens: 128+ bits from ``secrets``, stored only as SHA-256, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

TOKEN_BYTES = 24  # 192 bits


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


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
