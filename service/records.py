"""The stored snapshot of one game: engine state plus the service's own facts, and its formats.

A record is JSON: ``{"schema": 4, "format": n, "game", "game_id", "players", "options", "seed",
"deck", "seats": [{"hash", "bot", "level", "name", "open", "reserved"}], "state", "created_at",
"updated_at", "listed", "invite", "lobby", "ended", "next_game_id", "clock", "clocks", "running",
"idle_at", "due"}``. A seat is a person's
(``hash``, the SHA-256 of its token), a bot's (``bot`` true, ``level``; a bot seat without one,
written before levels existed, plays ``random``) or open (``open`` true, no hash yet; ``reserved`` for
the person of a rematch's finished game); ``name`` only when one was given. ``listed``: the game shows
in the lobby while it waits, as the lobby's member ``lobby``; ``invite``: the SHA-256 of the invite
that claims its open seats (null when it had none); ``ended``: ``{"termination": "aborted", "at"}``
once a waiting game was called off; ``next_game_id``: its rematch. A seat a bot took over keeps its
hash (its token still reads) and has ``bot`` true, its ``level``, ``replaced`` (``resigned`` or
``timed_out``) and, when it gave the game up, ``forfeited``. ``ended`` also says how a game ended
before it was played out
(``resignation`` or ``timeout`` of ``seat``, ``abandoned``). ``clock``: the game's clock (null
without), ``clocks`` each seat's bank and timeouts in a row, ``running`` the absolute deadlines (epoch
ms) of the persons to move, ``idle_at`` when it counts as abandoned, ``due`` the first of those
(``service.clocks``). The times are RFC 3339 UTC
strings (``timestamp``). ``schema`` versions this envelope (the service's part); ``format``
versions the game's ``state`` (the engine's ``format``). A log entry is ``{"format": n, "version",
"seat", "bot", "move", "redacted", "events", "at"}`` (release 1 wrote neither ``format`` nor
``events``; ``at``, the time the move was applied, is missing from entries written before times
were kept, and reads as None).

Every format a release ever wrote stays readable: the envelope is migrated here, the state and log
entries through the engine's pure steps (``engines.core.migrate``), on load; the next commit writes
the current formats. A format newer than this code (a rollback met a game written by a newer
release) is refused with ``UnknownSnapshot``, never misread. The store keeps the game's version
beside the record. Key names (``service.store``) are part of the stored format as well.
"""

from __future__ import annotations

import enum
import hashlib
import time
from collections.abc import Mapping
from typing import Any

import orjson

from engines.core import Engine, Migration, NewerFormat, migrate
from engines.memo import ShownArray, ShownObject

#: The envelope format this release writes. 1: the first release (no ``format``; every game's state
#: in its format 1). 2: ``format`` names the state's format. 3: ``created_at`` and ``updated_at``.
#: 4: the people at the table (named and open seats, ``listed``, ``invite``, ``lobby``, ``ended``,
#: ``next_game_id``). 5: time and leaving (``clock``, ``clocks``, ``running``, ``idle_at``, ``due``).
SCHEMA_VERSION = 5


class UnknownSnapshot(Exception):
    """The stored record or log entry has a format this service does not know (a newer release's)."""


def dumps(data: Any) -> bytes:
    """Compact JSON (orjson: about eight times faster than the json module on snapshots). A part
    kept as shown (``engines.memo.ShownObject``, ``ShownArray``: a view's finished hand, a table's
    melds) is written once and its text copied after (``_written_once``): the same bytes."""
    return orjson.dumps(data, default=_written_once, option=orjson.OPT_PASSTHROUGH_SUBCLASS)


def _written_once(value: Any) -> Any:
    """What ``dumps`` writes for a subclass of dict, list, str or int (orjson hands them here): a kept
    part's text, written the first time (as the dict or list it is); anything else as orjson writes
    it by itself (an enum by its value, the rest as its base type)."""
    cls = value.__class__
    if cls is ShownObject or cls is ShownArray:
        text = getattr(value, "written", None)
        if text is None:
            text = value.written = orjson.dumps(value)
        return orjson.Fragment(text)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, list):
        return list(value)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return int.__int__(value)
    raise TypeError(f"Type is not JSON serializable: {cls.__name__}")


def fingerprint(data: Any) -> str:
    """A stable digest of a JSON value, whatever its key order."""
    return hashlib.sha256(orjson.dumps(data, option=orjson.OPT_SORT_KEYS)).hexdigest()


loads = orjson.loads


#: The last second ``timestamp`` wrote, and how: a move request writes three times within a
#: millisecond or two, and formatting the date is most of the cost.
_second: tuple[int, str] = (-1, "")
#: The end of a ``timestamp`` for each millisecond, ``.000Z`` to ``.999Z``: written once, not per call.
_MILLIS = tuple(f".{ms:03d}Z" for ms in range(1000))


def timestamp(at: float | None = None) -> str:
    """``at`` (default: now), in seconds since the epoch, as RFC 3339 in UTC with milliseconds:
    ``2026-11-25T14:18:10.123Z``. Every time the service stores or answers is written so."""
    global _second
    seconds, millis = divmod(int((time.time() if at is None else at) * 1000), 1000)
    last = _second
    if last[0] != seconds:
        last = _second = (seconds, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)))
    return last[1] + _MILLIS[millis]


def _envelope_1_to_2(record: dict[str, Any]) -> dict[str, Any]:
    """Release 1 wrote no ``format``: every game's state was in its format 1."""
    return {**record, "schema": 2, "format": 1}


def _envelope_2_to_3(record: dict[str, Any]) -> dict[str, Any]:
    """Games written before the service kept times: when they were created or last moved is not
    known (None, shown as null)."""
    return {**record, "schema": 3, "created_at": None, "updated_at": None}


def _envelope_3_to_4(record: dict[str, Any]) -> dict[str, Any]:
    """Games written before people could name themselves, leave seats open or play again: every seat
    was taken when the game was created and is unnamed; the game was never listed, has no invite, was
    not called off and has no rematch."""
    return {**record, "schema": 4, "listed": False, "invite": None, "lobby": None, "ended": None,
            "next_game_id": None}


def _envelope_4_to_5(record: dict[str, Any]) -> dict[str, Any]:
    """Games written before clocks: played without one, nothing running, and no idle deadline until
    their next write sets one."""
    return {**record, "schema": 5, "clock": None, "clocks": None, "running": {}, "idle_at": None, "due": None}


ENVELOPE_MIGRATIONS: Mapping[int, Migration] = {1: _envelope_1_to_2, 2: _envelope_2_to_3, 3: _envelope_3_to_4,
                                                4: _envelope_4_to_5}


def loads_record(raw: bytes, engine: Engine) -> dict[str, Any]:
    """The stored record in this release's formats, its state migrated by ``engine``'s steps.

    A record of another game is returned as it is (the caller answers 404 for it)."""
    record = orjson.loads(raw)
    if not isinstance(record, dict):
        raise UnknownSnapshot("the stored snapshot is not an object")
    try:
        written: Any = record.get("schema")  # ``migrate`` refuses a missing or malformed number
        record = migrate(record, written, SCHEMA_VERSION, ENVELOPE_MIGRATIONS, "snapshot envelope")
        if record.get("game") != engine.id:
            return record
        if record["format"] != engine.format:
            record["state"] = migrate(record["state"], record["format"], engine.format, engine.migrations,
                                      f"{engine.id} state")
            record["format"] = engine.format
    except NewerFormat as exc:
        raise UnknownSnapshot(str(exc)) from None
    return record


def loads_entry(raw: bytes, engine: Engine) -> dict[str, Any]:
    """One stored log entry in this release's format (entries of release 1 carry no ``format``)."""
    entry: dict[str, Any] = orjson.loads(raw)
    entry.setdefault("events", [])  # release 1 reported no events
    entry.setdefault("at", None)  # written before entries carried their time
    written = entry.get("format", 1)
    if written != engine.format:
        # A format step that changed only the state leaves the log entries as they were.
        steps = {f: engine.entry_migrations.get(f, dict) for f in range(1, engine.format)}
        try:
            entry = migrate(entry, written, engine.format, steps, f"{engine.id} log entry")
        except NewerFormat as exc:
            raise UnknownSnapshot(str(exc)) from None
        entry["format"] = engine.format
    return entry
