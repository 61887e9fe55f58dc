"""One blueprint factory that serves every game: catalogue entry, create, view, moves, log.

Handlers are thin: load the snapshot, decode it, call the engine, encode, and write
back with one compare-and-set. Nothing here knows any game's rules or names.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from flask import Response, current_app, request, url_for
from flask_smorest import Blueprint
from marshmallow import Schema, ValidationError
from werkzeug.exceptions import HTTPException

from engines.core import Engine, Event, IllegalMove, InvalidOptions, Move, move_from_json
from schemas.common import LOG_LIMIT, LOG_LIMIT_MAX, BuiltSchemas, LogQuery, MoveCheck, Problem
from service import auth, observability, ratelimit, slots
from service.bots import MAX_BOT_MOVES, BotPolicy, RequestBots, seat_level
from service.errors import PROBLEM, ApiError
from service.records import SCHEMA_VERSION, UnknownSnapshot, dumps, fingerprint, loads, loads_entry, loads_record
from service.store import Loaded, Store, StoreUnavailable

GAME_ID_MAX = 64
#: ``?wait=`` of a long poll: at most this many seconds.
LONG_POLL_MAX = 30
#: Log entries read per store round trip while a stream catches up; the worker serves its other
#: requests between two such pages.
STREAM_BATCH = 200
#: Entries one event stream sends at most (CARDTABLE_STREAM_MAX_ENTRIES); then it closes and the
#: client reconnects with Last-Event-ID, so that no request replays a long game's whole log.
STREAM_MAX_ENTRIES = 2000
#: Log entries one game may hold (CARDTABLE_MAX_LOG_ENTRIES): a move that would go past it is
#: refused with 409 ``log_full``. Far above any game people play (a Kanaster match of greedy bots
#: takes up to ~10,000 moves, a round of random Siebenschläfer play up to ~39,000); it bounds what
#: one game keeps in the store (about 250 bytes an entry).
MAX_LOG_ENTRIES = 100_000
IDEMPOTENCY_KEY_MAX = 200
#: A commit that lost the race is tried again (only when the client sent no `version`).
COMMIT_ATTEMPTS = 3


@dataclass
class Runtime:
    """What the handlers share, kept in ``app.extensions["cardtable"]``."""

    store: Store
    allow_fixed_deals: bool
    game_ttl: int
    bot_policy: BotPolicy = BotPolicy()  # CARDTABLE_BOT_BUDGET_MS, CARDTABLE_BOT_REQUEST_SECONDS
    stream_keepalive: float = 15.0  # seconds between keep-alive comments of a stream
    stream_max_seconds: float = 3600.0  # a stream closes then; the client reconnects with Last-Event-ID
    stream_max_entries: int = STREAM_MAX_ENTRIES  # ... or once it has sent this many entries
    max_log_entries: int = MAX_LOG_ENTRIES  # a game's log holds at most this many entries
    long_poll_max_seconds: float = 30.0  # a long poll answers 304 by then at the latest, whatever it asked


def runtime() -> Runtime:
    return current_app.extensions["cardtable"]  # type: ignore[no-any-return]


def _json(body: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> Response:
    response = Response(dumps(body), status=status, mimetype="application/json")
    for k, v in (headers or {}).items():
        response.headers[k] = v
    return response


def _nested_errors(flat: Mapping[str, str]) -> dict[str, Any]:
    """``{"options.x": "msg"}`` -> ``{"options": {"x": ["msg"]}}``, the shape of schema errors."""
    out: dict[str, Any] = {}
    for key, msg in flat.items():
        node = out
        *path, last = key.split(".")
        for part in path:
            node = node.setdefault(part, {})
        node.setdefault(last, []).append(msg)
    return out


def idempotency_key() -> str | None:
    """The request's Idempotency-Key header, checked; None when absent."""
    key = request.headers.get("Idempotency-Key")
    if key is not None and not (0 < len(key) <= IDEMPOTENCY_KEY_MAX and key.isascii() and key.isprintable()):
        raise ApiError(422, "validation_error", "Idempotency-Key must be 1-200 printable ASCII characters.",
                       errors={"Idempotency-Key": ["must be 1-200 printable ASCII characters"]})
    return key


def query_int(name: str, default: int, minimum: int, maximum: int | None) -> int:
    """An integer query parameter, checked: 422 ``validation_error`` naming it when it is not one."""
    given = request.args.getlist(name)
    if not given:
        return default
    raw = given[0] if len(given) == 1 else ""  # a repeated parameter is as wrong as a malformed one
    value = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 12 else -1
    if value < minimum or (maximum is not None and value > maximum):
        bound = f"between {minimum} and {maximum}" if maximum is not None else f"at least {minimum}"
        raise ApiError(422, "validation_error", f"Query parameter `{name}` must be an integer {bound}.",
                       errors={"query": {name: [f"must be an integer {bound}"]}})
    return value


def _matches(tag: str) -> bool:
    return tag in request.if_none_match or request.if_none_match.contains_weak(tag.strip('"'))


def _last_event_id(value: str) -> int:
    """A stream's ``Last-Event-ID``: the version of the last entry the client got."""
    if not (value.isascii() and value.isdigit() and len(value) <= 12):
        raise ApiError(422, "validation_error", "Last-Event-ID must be a version number.",
                       errors={"headers": {"Last-Event-ID": ["must be a non-negative integer"]}})
    return int(value)


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


def _over_rate(wait: int) -> bytes:
    """What a stream sends when catching up takes its caller over the rate limit, before it closes:
    a comment, and ``retry:`` (an EventSource reconnects after that many ms, with Last-Event-ID)."""
    return b": rate limit reached; reconnect with Last-Event-ID\nretry: %d\n\n" % (wait * 1000)


def _not_found() -> ApiError:
    return ApiError(404, "game_not_found", "No such game (it may have expired).")


def etag(version: int, seat: int | None) -> str:
    """The ETag of a view: it names the game's version and the viewer (``s`` = spectator)."""
    return f'"{version}.{"s" if seat is None else seat}"'


def cache_headers(seat: int | None) -> dict[str, str]:
    """How caches may keep a view or a log: a seat's only in the caller's own cache (it shows the
    seat's hidden cards), the spectator's in any cache; both revalidated every time (the ETag
    makes that a 304). One URL answers each seat differently, so caches key on Authorization."""
    return {"Cache-Control": "public, no-cache" if seat is None else "private, no-cache", "Vary": "Authorization"}


def check_log_room(version: int, added: int) -> None:
    """409 ``log_full`` when ``added`` more entries would take a game at ``version`` past the log
    cap (``Runtime.max_log_entries``); nothing is written."""
    cap = runtime().max_log_entries
    if version + added > cap:
        raise ApiError(409, "log_full", f"The game's log holds its maximum of {cap} moves; it takes no more.",
                       current_version=version)


def replayed(stored: bytes, body_print: str) -> dict[str, Any]:
    """The first answer kept under an Idempotency-Key, if this request is the same one;
    422 ``idempotency_conflict`` when the key came with another body (or seat)."""
    first: dict[str, Any] = loads(stored)
    if first["fingerprint"] != body_print:
        raise ApiError(422, "idempotency_conflict", "This Idempotency-Key was used with a different request.")
    return first


class _Game:
    """The handlers of one game, closed over its engine."""

    def __init__(self, engine: Engine, built: BuiltSchemas) -> None:
        self.engine = engine
        self.built = built
        self.move_request = built.move_request()

    # --- loading and auth ---------------------------------------------------------------

    def load(self, game_id: str) -> tuple[Loaded, dict[str, Any]]:
        if len(game_id) > GAME_ID_MAX:
            raise _not_found()
        loaded = runtime().store.load(game_id)
        if loaded is None:
            raise _not_found()
        try:
            record = loads_record(loaded.snapshot, self.engine)
        except UnknownSnapshot as exc:
            raise ApiError(409, "unknown_snapshot_version", f"The stored game cannot be read: {exc}.") from None
        if record["game"] != self.engine.id:
            raise _not_found()
        return loaded, record

    @staticmethod
    def seat(record: Mapping[str, Any], required: bool) -> int | None:
        token = auth.bearer(request.headers.get("Authorization"))
        if token is None:
            if required:
                raise ApiError(401, "unauthorized", "This request needs a seat token: Authorization: Bearer <token>.",
                               {"WWW-Authenticate": "Bearer"})
            return None
        seat = auth.seat_of(token, [s["hash"] for s in record["seats"]]) if token else None
        if seat is None:
            ratelimit.seat_refused()  # counted for the address: a made-up token earns no count of its own
            raise ApiError(401, "unauthorized", "The seat token is not valid for this game.",
                           {"WWW-Authenticate": "Bearer"})
        ratelimit.seat_verified(token)
        return seat

    # --- bodies ---------------------------------------------------------------------------

    def view_body(self, record: Mapping[str, Any], version: int, state: Any, seat: int | None) -> dict[str, Any]:
        engine = self.engine
        result = engine.result(state)
        legal = [m.to_json() for m in engine.legal_moves(state, seat)] if seat is not None and result is None else []
        return {
            "game_id": record["game_id"],
            "game": engine.id,
            "version": version,
            "status": "finished" if result is not None else "active",
            "players": record["players"],
            "seat": seat,
            "to_move": list(engine.to_move(state)),
            "state": engine.view(state, seat),
            "legal_moves": legal,
            "result": None if result is None else result.to_json(),
            "provisional": engine.provisional,
        }

    def log_entry(self, before: Any, seat: int, move: Move, events: tuple[Event, ...], bot: bool, version: int,
                  players: int) -> bytes:
        """The stored log entry of one applied move: the move, its redactions per viewer where they
        differ, and its events with every viewer's part (``entry_for`` shows one viewer's)."""
        full = move.to_json()
        redacted = {}
        for viewer in (None, *range(players)):
            shown = self.engine.redact_move(before, seat, move, viewer)
            if shown != full:
                redacted["spectator" if viewer is None else str(viewer)] = shown
        return dumps({"format": self.engine.format, "version": version, "seat": seat, "bot": bot, "move": full,
                      "redacted": redacted, "events": [e.to_json() for e in events]})

    def entry_for(self, raw: bytes, seat: int | None) -> dict[str, Any]:
        """One stored log entry as ``seat`` (None: the spectator) may see it: the same for the log
        and the stream."""
        try:
            e = loads_entry(raw, self.engine)
        except UnknownSnapshot as exc:
            raise ApiError(409, "unknown_snapshot_version", f"The stored log cannot be read: {exc}.") from None
        viewer = "spectator" if seat is None else str(seat)
        return {"version": e["version"], "seat": e["seat"], "bot": e["bot"],
                "move": e["redacted"].get(viewer, e["move"]),
                "events": [Event.from_json(ev).for_viewer(seat) for ev in e["events"]]}

    def play_bots(self, record: Mapping[str, Any], state: Any, version: int) -> tuple[Any, list[bytes]]:
        """Let every bot seat that is to move play at its level, until a human is to move or the game
        ends; all of them within the request's bound (``service.bots.RequestBots``)."""
        levels = {i: level for i, s in enumerate(record["seats"]) if (level := seat_level(s)) is not None}
        request_bots = RequestBots(runtime().bot_policy)
        entries: list[bytes] = []
        for _ in range(MAX_BOT_MOVES):
            if self.engine.result(state) is not None:
                break
            movers = [s for s in self.engine.to_move(state) if s in levels]
            if not movers:
                break
            seat = movers[0]
            move = request_bots.choose(self.engine, state, seat, levels[seat], record["seed"], version + len(entries))
            after, events = self.engine.apply_events(state, seat, move)
            entries.append(self.log_entry(state, seat, move, events, True, version + len(entries) + 1,
                                          record["players"]))
            state = after
        if request_bots.fallbacks or request_bots.capped:
            current_app.logger.info("bots of %s: %d strong moves played greedy (request bound), %d searches capped",
                                    record["game_id"], request_bots.fallbacks, request_bots.capped)
        return state, entries

    # --- handlers ---------------------------------------------------------------------------

    def create(self, body: dict[str, Any]) -> Response:
        rt = runtime()
        engine = self.engine
        if ("seed" in body or "deck" in body) and not rt.allow_fixed_deals:
            raise ApiError(403, "fixed_deal_disabled", "This server does not accept `seed` or `deck`.")
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
                return self._created_again(stored, body_print, secret, key)
        seed = body.get("seed") or secrets.token_hex(16)
        deck = body.get("deck")
        try:
            state = engine.new_game(players, body.get("options") or {}, seed, deck)
        except InvalidOptions as exc:
            raise ApiError(422, "validation_error", "The game cannot be set up as asked.",
                           errors=_nested_errors(exc.errors)) from None
        nonce = secrets.token_urlsafe(12)
        tokens = [None if i in bots else auth.new_token() if key is None else seat_token(secret, key, game_id, i, nonce)
                  for i in range(players)]
        record = {
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
        }
        state, entries = self.play_bots(record, state, 0)
        check_log_room(0, len(entries))
        record["state"] = engine.encode(state)
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
            return self._created_again(stored, body_print, secret, key)
        observability.game_created(engine.id, engine.result(state) is not None)
        return _json(created, 201, {"Location": location})

    @staticmethod
    def _created_again(stored: bytes, body_print: str, secret: bytes, key: str) -> Response:
        """The first answer to a create again, its seat tokens derived anew (they are not stored)."""
        first = replayed(stored, body_print)
        created = first["created"]
        seats = [{"seat": s["seat"],
                  "token": None if s["bot"] else seat_token(secret, key, created["game_id"], s["seat"], first["nonce"]),
                  "bot": s["bot"], "level": s["level"]} for s in created["seats"]]
        return _json({**created, "seats": seats}, 201, {"Location": first["location"], "Idempotent-Replayed": "true"})

    def view(self, game_id: str) -> Response:
        wait = query_int("wait", 0, 0, LONG_POLL_MAX)
        loaded, record = self.load(game_id)
        seat = self.seat(record, required=False)
        tag = etag(loaded.version, seat)
        if _matches(tag):
            if not (wait and self.long_poll(game_id, loaded.version, min(wait, runtime().long_poll_max_seconds))):
                response = Response(status=304)
                response.headers.update({"ETag": tag, **cache_headers(seat)})
                return response
            loaded, record = self.load(game_id)
            tag = etag(loaded.version, seat)
        state = self.engine.decode(record["state"])
        return _json(self.view_body(record, loaded.version, state, seat), 200, {"ETag": tag, **cache_headers(seat)})

    def long_poll(self, game_id: str, seen: int, wait: float) -> bool:
        """``changed``, holding a stream slot of the caller while it waits (429 ``too_many_streams``)."""
        with slots.long_poll(wait):
            return self.changed(game_id, seen, wait)

    def changed(self, game_id: str, seen: int, wait: float) -> bool:
        """Long polling: whether the game's version moved on from ``seen`` within ``wait`` seconds
        (only the stored version is read while waiting; the caller reads the game once after)."""
        deadline = time.monotonic() + wait
        store = runtime().store
        with store.hub.subscribe(game_id) as bell:
            while True:
                loaded = store.load(game_id)  # after subscribing: no version slips between
                if loaded is None or loaded.version != seen:
                    return True
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                bell.wait(left)

    def events(self, game_id: str) -> Response:
        """The caller's log as Server-Sent Events (the live updates of a game): entries after
        ``Last-Event-ID`` (or ``?since=``, else the current version), then each new one as it is
        committed; a keep-alive comment at least every ``stream_keepalive`` seconds; ``end`` after
        the game is over. Bounded by ``stream_max_seconds``; a store failure closes it, and the
        client resumes with ``Last-Event-ID``, missing nothing."""
        rt = runtime()
        last_event = request.headers.get("Last-Event-ID")
        since = (query_int("since", -1, 0, None) if last_event is None
                 else _last_event_id(last_event))
        loaded, record = self.load(game_id)
        seat = self.seat(record, required=False)
        start = loaded.version if since < 0 else since
        charge = ratelimit.replay_meter()  # a catch-up costs a request per page, this one the first
        behind = start < loaded.version
        if behind and (wait := charge(ratelimit.REPLAY_PAGE, True)) is not None:
            return Response(_over_rate(wait), status=200, mimetype="text/event-stream",
                            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
        held = slots.hold_stream()  # 429 over the caller's cap, before subscribing to anything
        bell = rt.store.hub.subscribe(game_id)  # before reading: a later commit rings it
        over_at = loaded.version if self.engine.result(self.engine.decode(record["state"])) is not None else None
        body = held.streaming(self._stream(game_id, seat, start, over_at, bell, rt, charge, behind),
                              bell.close)  # even unstarted
        return Response(body, status=200,
                        mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    def _stream(self, game_id: str, seat: int | None, last: int, over_at: int | None, bell: Any,
                rt: Runtime, charge: Callable[[int, bool], int | None] | None = None,
                behind: bool = False) -> Iterator[bytes]:
        """The body of ``events``: pages of ``STREAM_BATCH`` entries, the worker's other requests
        served between two pages, at most ``rt.stream_max_entries`` entries in all. A catch-up
        (``behind`` the game at the start, or after a full page) is ``charge``d a request per
        ``ratelimit.REPLAY_PAGE`` entries, ``events`` having charged the first; over the rate limit
        the stream closes with ``retry:``."""
        deadline = time.monotonic() + rt.stream_max_seconds
        sent = 0
        replayed, paid = 0, ratelimit.REPLAY_PAGE if behind else 0  # entries caught up on, and paid for
        try:
            yield b": connected\n\n"
            while True:
                page = min(STREAM_BATCH, rt.stream_max_entries - sent)
                if behind and charge is not None and replayed >= paid:
                    if (wait := charge(ratelimit.REPLAY_PAGE, False)) is not None:
                        yield _over_rate(wait)
                        return
                    paid += ratelimit.REPLAY_PAGE
                raws = rt.store.log(game_id, last, page)
                replayed += len(raws) if behind else 0
                frames = []
                for raw in raws:
                    entry = self.entry_for(raw, seat)
                    last = entry["version"]
                    frames.append(b"id: %d\nevent: entry\ndata: %s\n\n" % (last, dumps(entry)))
                    if any(e["type"] == "game_over" for e in entry["events"]):
                        over_at = last
                if frames:
                    yield b"".join(frames)  # one write per page, not one per entry
                sent += len(raws)
                if over_at is not None and last >= over_at:
                    yield b"event: end\ndata: %s\n\n" % dumps({"version": last})
                    return
                if sent >= rt.stream_max_entries:
                    yield b": entry limit of this stream reached; reconnect with Last-Event-ID\n\n"
                    return
                behind = len(raws) == page
                if behind:
                    # A cooperative pause: gevent's monkey-patched sleep runs the worker's other
                    # greenlets before the next page (a no-op for a thread).
                    time.sleep(0)
                    continue
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                if not bell.wait(min(rt.stream_keepalive, left)):
                    yield b": keep-alive\n\n"
        except (StoreUnavailable, ApiError):
            # The store is gone (or the log unreadable): close; the client reconnects with
            # Last-Event-ID and gets what it missed from the log.
            yield b": store unavailable; reconnect with Last-Event-ID\n\n"
        finally:
            bell.close()

    def log(self, game_id: str) -> Response:
        since = query_int("since", 0, 0, None)
        limit = query_int("limit", LOG_LIMIT, 1, LOG_LIMIT_MAX)
        loaded, record = self.load(game_id)
        seat = self.seat(record, required=False)
        ratelimit.replaying(min(limit, loaded.version - since))  # a request per page of entries (429 over)
        # Entry of version v is the v-th: those after ``since`` start at index ``since``.
        raws = runtime().store.log(game_id, since, limit + 1) if since < loaded.version else []
        entries = [self.entry_for(raw, seat) for raw in raws[:limit]]
        more = len(raws) > limit
        return _json({"game_id": game_id, "version": loaded.version, "entries": entries,
                      "next_since": entries[-1]["version"] if more else None}, headers=cache_headers(seat))

    def judge(self, loaded: Loaded, record: Mapping[str, Any], seat: int,
              body: Mapping[str, Any]) -> tuple[Any, Move, Any, tuple[Event, ...]]:
        """The state, the move, the state after it and the move's events, if ``seat`` may make the move of ``body`` now:
        409 ``stale_version``/``game_over``/``not_your_turn`` or 422 ``illegal_move`` otherwise."""
        engine = self.engine
        version = body.get("version")
        if version is not None and version != loaded.version:
            raise ApiError(409, "stale_version", f"The game is at version {loaded.version}, not {version}.",
                           current_version=loaded.version)
        state = engine.decode(record["state"])
        if engine.result(state) is not None:
            raise ApiError(409, "game_over", "The game has finished.", current_version=loaded.version)
        check_log_room(loaded.version, 1)
        if seat not in engine.to_move(state):
            raise ApiError(409, "not_your_turn", f"Seat {seat} is not to move.", current_version=loaded.version)
        try:
            move = move_from_json(engine.move_types, body["move"])
            after, events = engine.apply_events(state, seat, move)
        except IllegalMove as exc:
            raise ApiError(422, "illegal_move", exc.message, reason=exc.reason) from None
        return state, move, after, events

    def check(self, game_id: str) -> Response:
        """Would the move be accepted now? The same answers as ``submit``, and nothing is written:
        the applied state is thrown away, so the answer says no more than "legal"."""
        loaded, record = self.load(game_id)
        seat = self.seat(record, required=True)
        assert seat is not None
        self.judge(loaded, record, seat, load_body(self.move_request))
        return _json({"legal": True})

    def submit(self, game_id: str) -> Response:
        rt = runtime()
        engine = self.engine
        key = idempotency_key()
        idem = None if key is None else f"move:{key}"
        body = None
        for _ in range(COMMIT_ATTEMPTS):
            loaded, record = self.load(game_id)
            seat = self.seat(record, required=True)
            assert seat is not None
            if body is None:  # after the game and the seat: a stranger learns nothing from 422s
                body = load_body(self.move_request)
            if idem is not None:
                body_print = fingerprint([seat, body])
                stored = rt.store.idempotent(game_id, idem)
                if stored is not None:
                    first = replayed(stored, body_print)
                    return _json(first["view"], 200, {"ETag": first["etag"], "Idempotent-Replayed": "true",
                                                      **cache_headers(seat)})
            version = body.get("version")
            state, move, after, events = self.judge(loaded, record, seat, body)
            entries = [self.log_entry(state, seat, move, events, False, loaded.version + 1, record["players"])]
            after, bot_entries = self.play_bots(record, after, loaded.version + 1)
            entries += bot_entries
            check_log_room(loaded.version, len(entries))
            new_version = loaded.version + len(entries)
            record["state"] = engine.encode(after)
            view = self.view_body(record, new_version, after, seat)
            tag = etag(new_version, seat)
            idem_value = None if idem is None else dumps({"fingerprint": body_print, "view": view, "etag": tag})
            if rt.store.commit(game_id, loaded.version, dumps(record), entries, rt.game_ttl, idem, idem_value):
                observability.moves_applied(engine.id, len(entries), view["status"] == "finished")
                return _json(view, 200, {"ETag": tag, **cache_headers(seat)})
            if version is not None:
                current = rt.store.load(game_id)
                now = current.version if current else loaded.version
                raise ApiError(409, "stale_version", f"Another move was applied first; the game is at version {now}.",
                               current_version=now)
        raise ApiError(409, "stale_version", "The game changed while the move was applied; fetch the view and retry.")



P400 = (400, "bad_request: the body is not JSON")
P401 = (401, "unauthorized: seat token missing, wrong, or of another game")
P403 = (403, "fixed_deal_disabled: `seed` or `deck` sent while fixed deals are off")
P404 = (404, "game_not_found: no such game, or it expired")
P409 = (409, "stale_version, not_your_turn, game_over or log_full (the game holds the most moves this server "
             "keeps); `current_version` says where the game is")
P409C = (409, "log_full: the bots' opening moves would exceed the most moves this server keeps of a game")
P413 = (413, "payload_too_large: the body is over the limit")
P422 = (422, "validation_error (`errors` says where), illegal_move (`reason` says which rule), "
             "or idempotency_conflict")
P422Q = (422, "validation_error: a query parameter is malformed or out of range (`errors` says which)")
P503 = (503, "store_unavailable: the store cannot be reached, or could not confirm that the write was "
             "replicated (then it may have applied: retry with the same Idempotency-Key); retry after `Retry-After`")
P408 = (408, "request_timeout: the body did not arrive whole within CARDTABLE_BODY_TIMEOUT seconds")
P429 = (429, "rate_limited: over CARDTABLE_RATE_LIMIT for the caller's seat (a token checked against the game it "
             "names), or else for its address; retry after `Retry-After`")
P429_CREATE = (429, "rate_limited: over CARDTABLE_RATE_LIMIT, or over CARDTABLE_CREATE_LIMIT games created, for "
                    "this address; retry after `Retry-After`")
P429_HELD = (429, "rate_limited (over CARDTABLE_RATE_LIMIT for the caller's seat, or else its address) or "
                  "too_many_streams (the caller's seat or address already holds as many event streams and long "
                  "polls as it may); retry after `Retry-After`")

P429_LOG = (429, "rate_limited: over CARDTABLE_RATE_LIMIT for the caller's seat, or else its address; the entries "
                 f"asked for count a request per {ratelimit.REPLAY_PAGE} (a seat's count against its address too); "
                 "ask for fewer (`limit`) or retry after `Retry-After`")

RETRY_AFTER = {"Retry-After": {"description": "seconds to wait before retrying", "schema": {"type": "integer"}}}
BEARER_OPTIONAL = [{}, {"seatToken": []}]
BEARER = [{"seatToken": []}]
IDEMPOTENCY = {
    "in": "header", "name": "Idempotency-Key", "required": False,
    "description": "makes a retry answer as the first request did and apply nothing twice; "
                   "a random value (e.g. a UUID) per intended move",
    "schema": {"type": "string", "minLength": 1, "maxLength": IDEMPOTENCY_KEY_MAX},
}
LAST_EVENT_ID = {"in": "header", "name": "Last-Event-ID", "required": False,
                 "description": "resume after this version (the `id` of the last event received)",
                 "schema": {"type": "string", "pattern": "^[0-9]{1,12}$"}}
SINCE = {"in": "query", "name": "since", "required": False,
         "description": "start after this version (without it and without Last-Event-ID: at the current one)",
         "schema": {"type": "integer", "minimum": 0}}
WAIT = {"in": "query", "name": "wait", "required": False,
        "description": f"long polling: with If-None-Match naming the current version, answer as soon as the "
                       f"version changes, or 304 after this many seconds (at most {LONG_POLL_MAX}; a server may "
                       "cut a wait shorter: poll again)",
        "schema": {"type": "integer", "minimum": 0, "maximum": LONG_POLL_MAX}}
STREAM_DESCRIPTION = (
    "`text/event-stream`: a comment line at once; then, per log entry after the start version, an event "
    "`id: <version>`, `event: entry`, `data: <the log entry as the caller sees it, as in get<Game>Log>`; a "
    "`: keep-alive` comment at least every 15 s; after the game is over, `event: end` with "
    "`data: {\"version\": V}`, and the stream closes. It also closes after an hour or "
    f"{STREAM_MAX_ENTRIES:,} entries (the server's defaults; a `:` comment says so), when the store is lost, "
    f"or when catching up takes the caller over its rate limit (every {ratelimit.REPLAY_PAGE} entries after the "
    "first cost a request; a `retry:` field gives the delay): reconnect with `Last-Event-ID`, nothing is missed or "
    "repeated.")
CACHED = {"Cache-Control": {"description": "`private, no-cache` for a seat (its hidden cards stay in the caller's "
                                           "own cache), `public, no-cache` for the spectator",
                            "schema": {"type": "string"}},
          "Vary": {"description": "`Authorization`: each seat sees its own answer", "schema": {"type": "string"}}}
IF_NONE_MATCH = {"in": "header", "name": "If-None-Match", "required": False,
                 "description": "an ETag from an earlier view: 304 if the view is unchanged",
                 "schema": {"type": "string"}}


def _alt(blp: Blueprint, *problems: tuple[int, str]) -> list[Any]:
    """The documented problem answers of an operation; every one can be rate limited (429: ``P429``
    unless the operation names its own)."""
    limited = () if any(status == 429 for status, _ in problems) else (P429,)
    return [blp.alt_response(status, schema=Problem, description=description, content_type=PROBLEM,
                             headers=RETRY_AFTER if status in (429, 503) else None)
            for status, description in (*problems, *limited)]


def _documented(*decorators: Any) -> Any:
    """Apply flask-smorest's decorators for the OpenAPI document only.

    The route gets the plain handler carrying the collected ``_apidoc``, so no request pays
    for ten wrapper layers and webargs; handlers load their body with ``load_body``."""

    def wrap(fn: Any) -> Any:
        documented = fn
        for decorator in reversed(decorators):
            documented = decorator(documented)
        fn._apidoc = documented._apidoc
        return fn

    return wrap


def load_body(schema: Schema) -> dict[str, Any]:
    """The JSON body loaded through ``schema``; 400 when it is not JSON, 422
    ``validation_error`` naming each field when it does not match."""
    if not request.is_json:
        raise ApiError(400, "bad_request", "The body must be JSON, sent as Content-Type: application/json.")
    try:
        request.get_data(cache=True)
    except HTTPException:
        raise  # werkzeug's own answers: 413 over the size limit, 400 for a client gone mid-body
    except Exception:  # noqa: BLE001 -- whatever the WSGI server raises for a body it cannot read
        # gunicorn raises its parser's errors (a bad chunk size, a missing chunk terminator, a body
        # cut short) from the input stream only when the app reads it: the client's fault, a 400.
        raise ApiError(400, "bad_request", "The request body could not be read (a malformed chunked "
                       "encoding or a body cut short).") from None
    try:
        return schema.load(request.get_json(cache=True))  # type: ignore[no-any-return]
    except ValidationError as exc:
        raise ApiError(422, "validation_error", "The request body does not match the schema.",
                       errors=exc.messages if isinstance(exc.messages, dict) else {"_schema": exc.messages}) from None


def make_blueprint(engine: Engine, built: BuiltSchemas) -> Blueprint:
    """All routes of one game under ``/v1/<game>``, documented with its own schemas."""
    game = _Game(engine, built)
    prefix = built.prefix
    blp = Blueprint(engine.id, engine.id, url_prefix=f"/v1/{engine.id}", description=engine.title)
    create_schema = built.create_request()

    @blp.route("/games", methods=["POST"], endpoint="create")
    @_documented(
        blp.arguments(built.create_request),
        blp.response(201, built.create_response, description="the new game",
                     headers={"Location": {"description": "URL of the game's view", "schema": {"type": "string"}}}),
        *_alt(blp, P400, P403, P408, P409C, P413, P422, P503, P429_CREATE),
        blp.doc(operationId=f"create{prefix}Game", summary=f"Start a game of {engine.title}",
                parameters=[IDEMPOTENCY]),
    )
    def create() -> Response:
        ratelimit.creating()  # CARDTABLE_CREATE_LIMIT per address, before anything is read
        return game.create(load_body(create_schema))

    @blp.route("/games/<string(maxlength=64):game_id>", methods=["GET"], endpoint="view")
    @_documented(
        blp.response(200, built.view, description="the caller's view",
                     headers={"ETag": {"description": "names the version and the seat",
                                       "schema": {"type": "string"}}, **CACHED}),
        blp.alt_response(304, description="not modified since the ETag in If-None-Match", headers=CACHED),
        *_alt(blp, P401, P404, P422Q, P503, P429_HELD),
        blp.doc(operationId=f"get{prefix}View", summary="A seat's view (with its token) or the spectator view",
                parameters=[IF_NONE_MATCH, WAIT], security=BEARER_OPTIONAL),
    )
    def view(game_id: str) -> Response:
        return game.view(game_id)

    @blp.route("/games/<string(maxlength=64):game_id>/moves", methods=["POST"], endpoint="submit")
    @_documented(
        blp.arguments(built.move_request),
        blp.response(200, built.view, description="the mover's new view, after any bot moves that followed"),
        *_alt(blp, P400, P401, P404, P408, P409, P413, P422, P503),
        blp.doc(operationId=f"submit{prefix}Move", summary="Submit one move for the caller's seat",
                parameters=[IDEMPOTENCY], security=BEARER),
    )
    def submit(game_id: str) -> Response:
        return game.submit(game_id)

    @blp.route("/games/<string(maxlength=64):game_id>/moves/check", methods=["POST"], endpoint="check")
    @_documented(
        blp.arguments(built.move_request),
        blp.response(200, MoveCheck, description="the move would be accepted now (a refusal is the 422 "
                                                 "`illegal_move` it would get); nothing changes"),
        *_alt(blp, P400, P401, P404, P408, P409, P413, P422, P503),
        blp.doc(operationId=f"check{prefix}Move", summary="Check a move without making it",
                description="Takes exactly the body of `submitMove` and answers as it would, but changes "
                            "nothing (the version, the log and idempotency records stay) and reveals "
                            "nothing hidden: checking a draw says only that drawing is legal.",
                security=BEARER),
    )
    def check(game_id: str) -> Response:
        return game.check(game_id)

    @blp.route("/games/<string(maxlength=64):game_id>/events", methods=["GET"], endpoint="events")
    @_documented(
        *_alt(blp, P401, P404, P422Q, P503, P429_HELD),
        blp.doc(operationId=f"stream{prefix}Events", summary="The caller's log as a live stream (Server-Sent Events)",
                parameters=[LAST_EVENT_ID, SINCE], security=BEARER_OPTIONAL,
                responses={"200": {
                    "description": STREAM_DESCRIPTION,
                    "content": {"text/event-stream": {"schema": {"type": "string"}}},
                    "headers": {"Cache-Control": {"description": "no-cache", "schema": {"type": "string"}},
                                "X-Accel-Buffering": {"description": "`no`: proxies must not buffer the stream",
                                                      "schema": {"type": "string"}}}}}),
    )
    def events(game_id: str) -> Response:
        return game.events(game_id)

    @blp.route("/games/<string(maxlength=64):game_id>/log", methods=["GET"], endpoint="log")
    @_documented(
        blp.arguments(LogQuery, location="query"),
        blp.response(200, built.log, description="the move log, redacted for the caller", headers=CACHED),
        *_alt(blp, P401, P404, P422Q, P503, P429_LOG),
        blp.doc(operationId=f"get{prefix}Log", summary="The move log, redacted for the caller",
                security=BEARER_OPTIONAL),
    )
    def log(game_id: str) -> Response:
        return game.log(game_id)

    return blp
