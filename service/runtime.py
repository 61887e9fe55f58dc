"""What every handler shares: the app's ``Runtime`` (its store and limits) and one game's ``Game``.

A ``Game`` is a hosted game as the handlers see it: its engine, its wire schemas, the reader of
its move bodies; it loads a stored game (``service.versions.Stored``: each version read, decoded
and viewed once per worker) and finds the caller's seat. The handlers live one job to a module:
``service.create``, ``service.view``, ``service.moves`` (submit and check), ``service.log`` and
``service.stream``; ``service.blueprint`` routes and documents them. Nothing here knows any
game's rules or names.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import current_app

from engines.core import Engine
from schemas.common import BuiltSchemas
from service import auth, clocks, presence, ratelimit
from service.bots import BotPolicy
from service.errors import ApiError
from service.move_reader import MoveReader
from service.presence import Presence
from service.records import UnknownSnapshot, loads_record
from service.store import Loaded, Store
from service.versions import Stored, Versions
from service.wire import environ

GAME_ID_MAX = 64
#: Entries one event stream sends at most (CARDTABLE_STREAM_MAX_ENTRIES); then it closes and the
#: client reconnects with Last-Event-ID, so that no request replays a long game's whole log.
STREAM_MAX_ENTRIES = 2000
#: Log entries one game may hold (CARDTABLE_MAX_LOG_ENTRIES): a move that would go past it is
#: refused with 409 ``log_full``. Far above any game people play (a Kanaster match of greedy bots
#: takes up to ~10,000 moves, a round of random Siebenschläfer play up to ~39,000); it bounds what
#: one game keeps in the store (about 250 bytes an entry).
MAX_LOG_ENTRIES = 100_000


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
    versions: Versions = field(default_factory=Versions)  # the game versions this worker has just used
    idle_ms: int = 6 * 24 * 3600 * 1000  # CARDTABLE_IDLE_DAYS: an active game unmoved this long is abandoned
    finished_ttl: int = 7 * 24 * 3600  # CARDTABLE_FINISHED_DAYS, in seconds: a finished game's keys' TTL
    games: dict[str, Game] = field(default_factory=dict)  # every hosted game by its id (the sweeper's)


def runtime() -> Runtime:
    """The app's ``Runtime``, the app asked of its proxy alone (``current_app.extensions`` would go
    through the proxy's attribute lookup, six times the cost: ``service.wire.environ``)."""
    rt: Runtime = current_app._get_current_object().extensions["cardtable"]  # type: ignore[attr-defined]
    return rt


def not_found() -> ApiError:
    return ApiError(404, "game_not_found", "No such game (it may have expired).")


def check_log_room(version: int, added: int, rt: Runtime | None = None) -> None:
    """409 ``log_full`` when ``added`` more entries would take a game at ``version`` past the log
    cap (``Runtime.max_log_entries``; ``rt``: the runtime, when the caller has it); nothing is written."""
    cap = (runtime() if rt is None else rt).max_log_entries
    if version + added > cap:
        raise ApiError(409, "log_full", f"The game's log holds its maximum of {cap} moves; it takes no more.",
                       current_version=version)


class Game:
    """One hosted game as every handler sees it: engine, wire schemas, move reader."""

    def __init__(self, engine: Engine, built: BuiltSchemas) -> None:
        self.engine = engine
        self.built = built
        self.create_request = built.create_request()
        self.moves = MoveReader(engine, built)

    def load(self, game_id: str) -> Stored:
        """``read``, with any deadline of the game that has passed applied first
        (``service.deadlines.enforce``): every request sees the game as it stands now."""
        return self._current(game_id, self.read(game_id))

    def _current(self, game_id: str, stored: Stored) -> Stored:
        """``stored`` with any deadline of the game that has passed applied (``load``)."""
        due = stored.record.get("due")
        if due is None or due > clocks.now_ms():
            return stored
        from service.deadlines import enforce  # it builds on this module (imported here, when a deadline passed)

        return enforce(self, game_id, stored)

    def read(self, game_id: str, loaded: Loaded | None = None) -> Stored:
        """The stored game ``game_id`` of this game (as kept, when this worker has just used the
        very same version): 404 ``game_not_found`` when there is none (or it is another game's),
        409 ``unknown_snapshot_version`` when it cannot be read. Its record is never changed.
        ``loaded``: what the store answered already, when the caller has read it."""
        if len(game_id) > GAME_ID_MAX:
            raise not_found()
        return self._stored(game_id, runtime().store.load(game_id) if loaded is None else loaded)

    def look(self, game_id: str) -> tuple[Stored, Presence]:
        """``load`` (its deadlines applied), and who is at the table, in one call to the store; nobody
        is marked."""
        if len(game_id) > GAME_ID_MAX:
            raise not_found()
        opened = runtime().store.open(game_id, None, None, 0, share=True)
        return self._current(game_id, self._stored(game_id, opened.loaded)), presence.of(opened.marked)

    def open(self, game_id: str, required: bool, mark: bool = True,
             rt: Runtime | None = None) -> tuple[Stored, int | None, Presence]:
        """``load``, then ``seat`` (the caller's, ``required`` or not), and who is at the table with
        the caller's seat marked (``mark``; else as read, the caller marks it itself), in one call to
        the store as a rule (``service.presence``): a plain read when this worker knows the caller's
        mark to be fresh or does not know the caller's token at this game yet, a read that marks the
        seat (``Versions.seat_guess``, checked by the store) when it knows the token and not that
        its mark is fresh. A seat proved whose mark the read shows in need of renewing is marked with
        a second call. ``rt``: the runtime, when the caller has it."""
        if len(game_id) > GAME_ID_MAX:
            raise not_found()
        if rt is None:
            rt = runtime()
        token = auth.bearer(environ().get("HTTP_AUTHORIZATION"))
        digest = auth.token_hash(token) if token else None
        known = None if digest is None or not mark else rt.versions.seat_guess(self.engine.id, game_id, digest)
        now = time.monotonic()
        guess = None if known is None or known[1] > now else known[0]
        opened = rt.store.open(game_id, guess, digest, presence.ttl_ms(), share=token is None)
        stored = self._current(game_id, self._stored(game_id, opened.loaded, rt))
        seat = self._seat(stored.record, token, digest, required)
        here = presence.of(opened.marked)
        if seat is None:
            return stored, None, here
        assert digest is not None
        left = opened.marked.get(seat)
        if mark and not (opened.seat_marked and guess == seat) and not presence.fresh(left):
            here = presence.touch(rt.store, game_id, seat)
            left = None if here.left is None else here.left.get(seat)
        # the mark keeps the seat for PRESENCE_SECONDS more until this long from now
        fresh_for = 0.0 if left is None else left / 1000 - presence.PRESENCE_SECONDS
        rt.versions.learn_seat(self.engine.id, game_id, digest, seat, now + fresh_for)
        return stored, seat, here

    def _stored(self, game_id: str, loaded: Loaded | None, rt: Runtime | None = None) -> Stored:
        """``load``'s answer for what the store read (``rt``: the runtime, when the caller has it)."""
        if loaded is None:
            raise not_found()
        if rt is None:
            rt = runtime()
        kept = rt.versions.get(game_id, loaded.version, loaded.snapshot, self.engine)
        if kept is not None:
            return kept
        try:
            record = loads_record(loaded.snapshot, self.engine)
        except UnknownSnapshot as exc:
            raise ApiError(409, "unknown_snapshot_version", f"The stored game cannot be read: {exc}.") from None
        if record["game"] != self.engine.id:
            raise not_found()
        stored = Stored(loaded.version, loaded.snapshot, record, self.engine)
        rt.versions.keep(game_id, stored)
        return stored

    @classmethod
    def seat(cls, record: Mapping[str, Any], required: bool, mark: bool = True) -> int | None:
        """The caller's seat by its bearer token; None for a spectator (no token) unless
        ``required``; 401 ``unauthorized`` for a token that is no seat of this game. A seat found
        is counted by the rate limit for that seat, a refused token for the caller's address, and,
        unless ``mark`` is false (the caller marks it itself), marked present at the table
        (``service.presence``)."""
        token = auth.bearer(environ().get("HTTP_AUTHORIZATION"))
        seat = cls._seat(record, token, auth.token_hash(token) if token else None, required)
        if mark and seat is not None:
            presence.touch(runtime().store, record["game_id"], seat)
        return seat

    @staticmethod
    def _seat(record: Mapping[str, Any], token: str | None, digest: str | None, required: bool) -> int | None:
        """``seat`` of a token (``digest``: its hash), without marking it."""
        if token is None:
            if required:
                raise ApiError(401, "unauthorized", "This request needs a seat token: Authorization: Bearer <token>.",
                               {"WWW-Authenticate": "Bearer"})
            return None
        seat = auth.seat_at(digest, [s["hash"] for s in record["seats"]]) if digest else None
        if seat is None:
            ratelimit.seat_refused()  # counted for the address: a made-up token earns no count of its own
            raise ApiError(401, "unauthorized", "The seat token is not valid for this game.",
                           {"WWW-Authenticate": "Bearer"})
        assert digest is not None
        ratelimit.seat_verified(token, digest)
        return seat
