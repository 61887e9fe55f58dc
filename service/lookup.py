"""``POST /v1/games/lookup``: a client's games without an account, from the seat tokens it keeps.

A token names its game (``service.auth.naming``), so a lookup reads the games of its tokens (one round
trip for all of them) and checks each token against its game's seats, as any request with a token
is checked: a token that is no seat of the game it names is no different from a made-up one (null).
The tokens travel in the body, never in a URL (URLs end up in logs). Looking up is not being at the
table: it marks no seat present.
"""

from __future__ import annotations

from typing import Any

from flask import Response

from engines import REGISTRY
from schemas.people import LookupRequest
from service import auth, clocks, table
from service.records import UnknownSnapshot, loads, loads_record, timestamp
from service.runtime import runtime
from service.store import Loaded
from service.versions import Stored
from service.wire import json_response, load_body

_REQUEST = LookupRequest()


def lookup() -> Response:
    tokens: list[str] = load_body(_REQUEST)["tokens"]
    named = [auth.game_named(t) for t in tokens]
    wanted = sorted({g for g in named if g is not None})
    rt = runtime()
    loaded = dict(zip(wanted, rt.store.load_many(wanted), strict=True))
    return json_response({"games": [None if g is None else _item(t, g, loaded.get(g))
                                    for t, g in zip(tokens, named, strict=True)]})


def _item(token: str, game_id: str, got: Loaded | None) -> dict[str, Any] | None:
    """The game and seat of ``token``, or None when it is no seat of the game it names."""
    if got is None:
        return None
    stored = _stored(game_id, got)
    if stored is None:
        return None
    record = stored.record
    seat = auth.seat_of(token, [s["hash"] for s in record["seats"]])
    if seat is None:
        return None
    engine = stored.engine
    state = stored.state
    status = table.status(record, engine.result(state))
    at = clocks.deadline(record, seat) if status == "active" else None
    return {"game": engine.id, "game_id": game_id, "seat": seat, "status": status,
            "your_turn": status == "active" and seat in engine.to_move(state),
            "deadline": None if at is None else timestamp(at / 1000)}


def _stored(game_id: str, got: Loaded) -> Stored | None:
    """The stored game, decoded once per version by this worker (``service.versions``); None when it
    cannot be read (a newer release's, or of no game hosted here)."""
    rt = runtime()
    peek = loads(got.snapshot)
    engine = REGISTRY.get(str(peek.get("game"))) if isinstance(peek, dict) else None
    if engine is None:
        return None
    kept = rt.versions.get(game_id, got.version, got.snapshot, engine)
    if kept is not None:
        return kept
    try:
        record = loads_record(got.snapshot, engine)
    except UnknownSnapshot:
        return None
    stored = Stored(got.version, got.snapshot, record, engine)
    rt.versions.keep(game_id, stored)
    return stored
