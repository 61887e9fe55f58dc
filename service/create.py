"""``POST .../games``: start a game, its seat tokens once in the answer (the store keeps their
hashes only), its bot seats' opening moves played at once.

With an Idempotency-Key the game id and the seat tokens are derived from the key, the caller and
the server secret, so that a retry lands on the same game and gets the same answer, tokens
included, although no token is stored.
"""

from __future__ import annotations

import secrets
from typing import Any

from flask import Response, request, url_for

from engines.core import InvalidOptions
from service import auth, observability, ratelimit
from service.errors import ApiError
from service.moves import play_bots
from service.records import SCHEMA_VERSION, dumps, fingerprint, timestamp
from service.runtime import Game, check_log_room, runtime
from service.wire import idempotency_key, json_response, load_body, nested_errors, replayed


def caller() -> str:
    """Who sent a create, for the scope of its Idempotency-Key: the client address, as the rate limit
    sees it (X-Forwarded-For only behind CARDTABLE_TRUSTED_PROXIES)."""
    return request.remote_addr or "unknown"


def created_game_id(secret: bytes, key: str, who: str) -> str:
    """The game id a create with this Idempotency-Key from this caller gets: derived from both and
    the server secret, so that a retry (even one racing the first request) lands on the same game and
    its stored answer, the idempotency record shares the game's hash slot, and the same key from
    anyone else names another game: a key is worth nothing to anyone but its first caller, and
    squatting one blocks only the squatter."""
    return auth.derived(secret, "create", who, key, size=16)


def seat_token(secret: bytes, key: str, game_id: str, seat: int, nonce: str) -> str:
    """The token of ``seat`` in a game created with an Idempotency-Key: derived, so that the stored
    answer keeps no token and a replay computes them again. The key is never stored (only the caller
    holds it) and the nonce is new per game: neither the store nor the secret alone gives a token."""
    return auth.derived(secret, "seat", game_id, str(seat), nonce, key)


def _bot_seats(body: dict[str, Any]) -> dict[int, str]:
    """The bot seats asked for, seat -> level: 422 ``validation_error`` for repeated seats, seats
    outside the table, or no human left."""
    players = body["players"]
    bots = {b["seat"]: b["level"] for b in body["bots"]}
    bot_errors = []
    if len(bots) != len(body["bots"]):
        bot_errors.append("seats may not repeat")
    if any(b < 0 or b >= players for b in bots):
        bot_errors.append(f"seats must be between 0 and {players - 1}")
    if len(bots) >= players:
        bot_errors.append("at least one seat must be a human's")
    if bot_errors:
        raise ApiError(422, "validation_error", "The request body does not match the schema.",
                       errors={"bots": bot_errors})
    return bots


def create(game: Game) -> Response:
    ratelimit.creating()  # CARDTABLE_CREATE_LIMIT per address, before anything is read
    rt = runtime()
    engine = game.engine
    body = load_body(game.create_request)
    if ("seed" in body or "deck" in body) and not rt.allow_fixed_deals:
        raise ApiError(403, "fixed_deal_disabled", "This server does not accept `seed` or `deck`.")
    players = body["players"]
    bots = _bot_seats(body)
    key = idempotency_key()
    body_print = fingerprint(body)
    secret = b""
    if key is None:
        game_id = secrets.token_urlsafe(12)
    else:
        secret = rt.store.secret()
        game_id = created_game_id(secret, key, caller())
        stored = rt.store.idempotent(game_id, "create")
        if stored is not None:
            return _created_again(stored, body_print, secret, key)
    seed = body.get("seed") or secrets.token_hex(16)
    deck = body.get("deck")
    try:
        state = engine.new_game(players, body.get("options") or {}, seed, deck)
    except InvalidOptions as exc:
        raise ApiError(422, "validation_error", "The game cannot be set up as asked.",
                       errors=nested_errors(exc.errors)) from None
    nonce = secrets.token_urlsafe(12)
    tokens = [None if i in bots else auth.new_token() if key is None else seat_token(secret, key, game_id, i, nonce)
              for i in range(players)]
    record: dict[str, Any] = {
        "schema": SCHEMA_VERSION,
        "format": engine.format,
        "game": engine.id,
        "game_id": game_id,
        "players": players,
        "options": body.get("options") or {},
        "seed": seed,
        "deck": deck,
        "seats": [{"hash": auth.token_hash(t), "bot": False} if t is not None
                  else {"hash": None, "bot": True, "level": bots[i]} for i, t in enumerate(tokens)],
        "state": None,
        "created_at": timestamp(),
        "updated_at": None,
    }
    state, entries = play_bots(game, record, state, 0)
    check_log_room(0, len(entries))
    record["state"] = engine.encode(state)
    record["updated_at"] = timestamp()  # after the bots' opening moves, if any
    created = {
        "game_id": game_id,
        "game": engine.id,
        "version": len(entries),
        "players": players,
        "seats": [{"seat": i, "token": t, "bot": t is None, "level": bots.get(i)} for i, t in enumerate(tokens)],
    }
    location = url_for(f"{engine.id}.view", game_id=game_id)
    # The stored answer keeps no token: the seats without theirs, and the nonce to derive them again.
    idem_value = None if key is None else dumps({
        "fingerprint": body_print, "nonce": nonce, "location": location,
        "created": {**created, "seats": [{k: v for k, v in s.items() if k != "token"} for s in created["seats"]]},
    })
    if not rt.store.create(game_id, dumps(record), entries, rt.game_ttl, "create" if key else None, idem_value):
        if key is None:
            raise AssertionError("a fresh random game id was taken")  # 2**96 ids: a broken generator
        stored = rt.store.idempotent(game_id, "create")  # a concurrent retry won the race
        if stored is None:
            raise ApiError(422, "idempotency_conflict", "This Idempotency-Key was already used.")
        return _created_again(stored, body_print, secret, key)
    observability.game_created(engine.id, engine.result(state) is not None)
    return json_response(created, 201, {"Location": location})


def _created_again(stored: bytes, body_print: str, secret: bytes, key: str) -> Response:
    """The first answer to a create again, its seat tokens derived anew (they are not stored)."""
    first = replayed(stored, body_print)
    created = first["created"]
    seats = [{"seat": s["seat"],
              "token": None if s["bot"] else seat_token(secret, key, created["game_id"], s["seat"], first["nonce"]),
              "bot": s["bot"], "level": s["level"]} for s in created["seats"]]
    return json_response({**created, "seats": seats}, 201,
                         {"Location": first["location"], "Idempotent-Replayed": "true"})
