"""Seat tokens: 128+ bits from ``secrets`` (or, for a create with an Idempotency-Key, derived from the
server secret), stored only as SHA-256, compared in constant time.

A token names its game: ``<game id>.<secret>``, so that ``POST /v1/games/lookup`` finds the game of
a token without any index (the game id is no secret; the part after the dot is). Tokens handed out
before tokens named their game are the secret alone: they play their seats as ever, and lookup does
not find them."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Sequence

TOKEN_BYTES = 24  # 192 bits


def new_token(game_id: str | None = None) -> str:
    """A fresh secret, as the token of a seat of ``game_id`` (``naming``) when one is given."""
    secret = secrets.token_urlsafe(TOKEN_BYTES)
    return secret if game_id is None else naming(game_id, secret)


def naming(game_id: str, secret: str) -> str:
    """The token of a seat of ``game_id`` whose secret part is ``secret``."""
    return f"{game_id}.{secret}"


def game_named(token: str) -> str | None:
    """The game id a token names (``naming``), or None for a token that names none."""
    game_id, dot, secret = token.partition(".")
    if not dot or not secret or not 0 < len(game_id) <= 64:
        return None
    if not all(c.isascii() and (c.isalnum() or c in "-_") for c in game_id):
        return None
    return game_id


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
    return seat_at(token_hash(token), hashes)


def seat_at(digest: str, hashes: Sequence[str | None]) -> int | None:
    """``seat_of`` the token whose hash is ``digest``."""
    found = None
    for seat, stored in enumerate(hashes):
        if stored is not None and hmac.compare_digest(digest, stored):
            found = seat
    return found
