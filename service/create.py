"""``POST .../games``: start a game, its seat tokens once in the answer (the store keeps their
hashes only), its bot seats' opening moves played at once.

With an Idempotency-Key the game id and the seat tokens are derived from the key, the caller and
the server secret, so that a retry lands on the same game and gets the same answer, tokens
included, although no token is stored.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from flask import Response, request, url_for

from engines.core import InvalidOptions
from service import auth, clocks, lobby, observability, ratelimit, seats, table
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
    return auth.naming(game_id, auth.derived(secret, "seat", game_id, str(seat), nonce, key))


def invite_of(secret: bytes, key: str, game_id: str, nonce: str) -> str:
    """The invite of a game created with an Idempotency-Key: derived like its seat tokens, so that a
    replay shows it again though only its hash is stored."""
    return auth.derived(secret, "invite", game_id, nonce, key)


def _bot_seats(body: dict[str, Any]) -> dict[int, str]:
    """The bot seats asked for with ``bots``, seat -> level: 422 ``validation_error`` for repeated
    seats, seats outside the table, or no human left."""
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


def seat_plan(body: dict[str, Any]) -> list[dict[str, Any]]:
    """Who sits where, one ``{"kind", "name", "level"}`` per seat (``schemas.people.SeatSpecField``),
    from ``seats`` or else ``bots``: 422 ``validation_error`` when ``seats`` has another length than
    ``players``, comes beside ``bots``, or leaves no seat to a person."""
    players = body["players"]
    if "seats" not in body:
        bots = _bot_seats(body)
        return [{"kind": "bot", "name": None, "level": bots[i]} if i in bots
                else {"kind": "human", "name": None, "level": None} for i in range(players)]
    problems: dict[str, list[str]] = {}
    if body["bots"]:
        problems["bots"] = ["give `seats` or `bots`, not both"]
    plan: list[dict[str, Any]] = body["seats"]
    if len(plan) != players:
        problems["seats"] = [f"must list one entry per player: {players}"]
    elif all(s["kind"] == "bot" for s in plan):
        problems["seats"] = ["at least one seat must be a person's or open"]
    if problems:
        raise ApiError(422, "validation_error", "The request body does not match the schema.", errors=problems)
    return plan


def stored_seat(planned: dict[str, Any], token: str | None) -> dict[str, Any]:
    """A seat of the record (``service.records``) as planned, with the hash of its token."""
    if planned["kind"] == "bot":
        seat: dict[str, Any] = {"hash": None, "bot": True, "level": planned["level"]}
    elif planned["kind"] == "open":
        seat = {"hash": None, "bot": False, "open": True}
    else:
        seat = {"hash": auth.token_hash(token) if token else None, "bot": False}
    if planned.get("name"):
        seat["name"] = planned["name"]
    return seat


def create(game: Game) -> Response:
    ratelimit.creating()  # CARDTABLE_CREATE_LIMIT per address, before anything is read
    rt = runtime()
    engine = game.engine
    body = load_body(game.create_request)
    if ("seed" in body or "deck" in body) and not rt.allow_fixed_deals:
        raise ApiError(403, "fixed_deal_disabled", "This server does not accept `seed` or `deck`.")
    players = body["players"]
    plan = seat_plan(body)
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
    now = time.time()
    nonce = secrets.token_urlsafe(12)
    invite = None
    if any(p["kind"] == "open" for p in plan):
        invite = auth.new_token() if key is None else invite_of(secret, key, game_id, nonce)
    tokens = [None if p["kind"] != "human" else auth.new_token(game_id) if key is None
              else seat_token(secret, key, game_id, i, nonce) for i, p in enumerate(plan)]
    record: dict[str, Any] = {
        "schema": SCHEMA_VERSION,
        "format": engine.format,
        "game": engine.id,
        "game_id": game_id,
        "players": players,
        "options": body.get("options") or {},
        "seed": seed,
        "deck": deck,
        "seats": [stored_seat(p, t) for p, t in zip(plan, tokens, strict=True)],
        "state": None,
        "created_at": timestamp(now),
        "updated_at": None,
        "listed": body.get("listed", False),
        "invite": None if invite is None else auth.token_hash(invite),
        "lobby": None,
        "ended": None,
        "next_game_id": None,
        "clock": None if body.get("clock") is None else clocks.spec(body["clock"]),
        "running": {},
        "idle_at": None,
        "due": None,
    }
    record["clocks"] = clocks.fresh(record["clock"], players)
    listed = None
    if record["listed"] and table.waiting(record):
        listed = lobby.listing(engine.id, game_id, now)
        record["lobby"] = listed.member
    entries: list[bytes] = []
    if not table.waiting(record):  # a waiting game's bots wait for its start too
        state, entries = play_bots(game, record, state, 0)
        check_log_room(0, len(entries))
    # after the bots' opening moves, if any; a game that starts: its clocks run
    record = clocks.written(engine, record, state, entries, rt.idle_ms)
    created = {
        "game_id": game_id,
        "game": engine.id,
        "version": len(entries),
        "players": players,
        "status": table.status(record, engine.result(state)),
        "invite": invite,
        "seats": [{"seat": i, "token": t, "bot": p["kind"] == "bot", "level": p["level"],
                   "name": seats.name(i, record["seats"][i]), "kind": p["kind"]}
                  for i, (p, t) in enumerate(zip(plan, tokens, strict=True))],
    }
    location = url_for(f"{engine.id}.view", game_id=game_id)
    # The stored answer keeps no token: the seats without theirs, and the nonce to derive them again.
    idem_value = None if key is None else dumps({
        "fingerprint": body_print, "nonce": nonce, "location": location, "named": True,
        "created": {**created, "invite": invite is not None,  # no secret kept: derived again on a replay
                    "seats": [{k: v for k, v in s.items() if k != "token"} for s in created["seats"]]},
    })
    over = engine.result(state) is not None
    if not rt.store.create(game_id, dumps(record), entries, table.ttl(record, rt.game_ttl, rt.finished_ttl, over),
                           "create" if key else None, idem_value, listed, record["due"]):
        if key is None:
            raise AssertionError("a fresh random game id was taken")  # 2**96 ids: a broken generator
        stored = rt.store.idempotent(game_id, "create")  # a concurrent retry won the race
        if stored is None:
            raise ApiError(422, "idempotency_conflict", "This Idempotency-Key was already used.")
        return _created_again(stored, body_print, secret, key)
    observability.game_created(engine.id, engine.result(state) is not None)
    return json_response(created, 201, {"Location": location})


def _created_again(stored: bytes, body_print: str, secret: bytes, key: str) -> Response:
    """The first answer to a create again, its seat tokens derived anew (they are not stored). An answer
    kept by a release before seats had names and kinds gets the defaults they had then, and its tokens
    as they were then, without their game's id (``auth.naming``)."""
    first = replayed(stored, body_print)
    created = first["created"]
    game_id = created["game_id"]
    out = []
    for s in created["seats"]:
        kind = s.get("kind", "bot" if s["bot"] else "human")
        token = seat_token(secret, key, game_id, s["seat"], first["nonce"]) if kind == "human" else None
        if token is not None and not first.get("named"):  # kept before tokens named their game
            token = token.partition(".")[2]
        out.append({**s, "token": token, "kind": kind,
                    "name": s.get("name", seats.default_name(s["seat"], s["level"]))})
    invite = invite_of(secret, key, game_id, first["nonce"]) if created.get("invite") else None
    return json_response({**created, "status": created.get("status", "active"), "invite": invite, "seats": out}, 201,
                         {"Location": first["location"], "Idempotent-Replayed": "true"})
