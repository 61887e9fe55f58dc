"""``GET .../events``: the caller's log as Server-Sent Events, the live updates of a game.

A stream is the log, pushed: the same entries, the same redaction (``service.log.entry_for``),
the version as the event id, so that a client that reconnects with ``Last-Event-ID`` gets what it
missed and never rebuilds a state on its own. Every stream is bounded: in time, in entries, and in
the slots its caller may hold (``service.slots``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import Response, request

from service import presence, ratelimit, slots
from service.errors import ApiError
from service.log import PAGE, entry_for
from service.records import dumps
from service.runtime import Game, Runtime, runtime
from service.store import StoreUnavailable
from service.wire import last_event_id, query_int

#: Log entries read per store round trip while a stream catches up; the worker serves its other
#: requests between two such pages (``service.log.PAGE``).
STREAM_BATCH = PAGE
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
#: The events after which a game's log takes no more entries: it was played out, or called off.
ENDINGS = ("game_over", "game_aborted", "game_abandoned")


def ends(event: dict[str, Any]) -> bool:
    """The event ends the game: the rules' end, a waiting game called off, an idle one abandoned, or a
    two-player game lost by resigning or on time (``outcome`` ``lost``)."""
    return event["type"] in ENDINGS or event.get("outcome") == "lost"


def _over_rate(wait: int) -> bytes:
    """What a stream sends when catching up takes its caller over the rate limit, before it closes:
    a comment, and ``retry:`` (an EventSource reconnects after that many ms, with Last-Event-ID)."""
    return b": rate limit reached; reconnect with Last-Event-ID\nretry: %d\n\n" % (wait * 1000)


def events(game: Game, game_id: str) -> Response:
    """The caller's log as Server-Sent Events: entries after ``Last-Event-ID`` (or ``?since=``,
    else the current version), then each new one as it is committed; a keep-alive comment at
    least every ``stream_keepalive`` seconds; ``end`` after the game is over. Bounded by
    ``stream_max_seconds``; a store failure closes it, and the client resumes with
    ``Last-Event-ID``, missing nothing."""
    rt = runtime()
    last_event = request.headers.get("Last-Event-ID")
    since = query_int("since", -1, 0, None) if last_event is None else last_event_id(last_event)
    stored = game.load(game_id)
    seat = game.seat(stored.record, required=False)
    start = stored.version if since < 0 else since
    charge = ratelimit.replay_meter()  # a catch-up costs a request per page, this one the first
    behind = start < stored.version
    if behind and (wait := charge(ratelimit.REPLAY_PAGE, True)) is not None:
        return Response(_over_rate(wait), status=200, mimetype="text/event-stream", headers=HEADERS)
    held = slots.hold_stream()  # 429 over the caller's cap, before subscribing to anything
    bell = rt.store.hub.subscribe(game_id)  # before reading: a later commit rings it
    over = game.engine.result(stored.state) is not None or stored.record.get("ended") is not None
    over_at = stored.version if over else None
    body = held.streaming(_stream(game, game_id, seat, start, over_at, bell, rt, charge, behind),
                          bell.close)  # even unstarted
    return Response(body, status=200, mimetype="text/event-stream", headers=HEADERS)


def _stream(game: Game, game_id: str, seat: int | None, last: int, over_at: int | None, bell: Any,
            rt: Runtime, charge: Callable[[int, bool], int | None] | None = None,
            behind: bool = False) -> Iterator[bytes]:
    """The body of ``events``: pages of ``STREAM_BATCH`` entries, the worker's other requests
    served between two pages, at most ``rt.stream_max_entries`` entries in all. A catch-up
    (``behind`` the game at the start, or after a full page) is ``charge``d a request per
    ``ratelimit.REPLAY_PAGE`` entries, ``events`` having charged the first; over the rate limit
    the stream closes with ``retry:``."""
    deadline = time.monotonic() + rt.stream_max_seconds
    # A seat's stream keeps it at the table: its mark outlasts two keep-alives, renewed at each wake.
    hold = max(presence.PRESENCE_SECONDS, 2 * rt.stream_keepalive)
    renew_at = time.monotonic()
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
                entry = entry_for(game, raw, seat)
                last = entry["version"]
                frames.append(b"id: %d\nevent: entry\ndata: %s\n\n" % (last, dumps(entry)))
                if any(ends(e) for e in entry["events"]):
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
            if seat is not None and time.monotonic() >= renew_at:
                presence.touch(rt.store, game_id, seat, hold)
                renew_at = time.monotonic() + hold / 3
            if not bell.wait(min(rt.stream_keepalive, left)):
                yield b": keep-alive\n\n"
    except (StoreUnavailable, ApiError):
        # The store is gone (or the log unreadable): close; the client reconnects with
        # Last-Event-ID and gets what it missed from the log.
        yield b": store unavailable; reconnect with Last-Event-ID\n\n"
    finally:
        bell.close()
