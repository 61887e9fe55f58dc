"""Who is at the table now: a seat's ``connected``, true while its person holds an event stream or a
long poll of the game, or made a request with the seat's token in the last ``PRESENCE_SECONDS``.

It lives outside the snapshot, in a short-lived sorted set per game (``cardtable:presence:{<id>}``:
each seat scored by when its mark ends, in the store's clock), so that coming and going never
changes the game's version or its record. Every request whose token proves a seat marks it; a stream
renews its mark with its keep-alives, a long poll marks it for as long as it waits. A view reads the
game and the set in one call to the store, and marks its seat in that very call when the worker has
seen its token at this game before (``service.runtime.Game.open``); a move reads them together and
marks its mover in the write of the move (or, when nothing is written, with a call of its own). A
seat that was not marked tells the game's pub/sub channel (a move's write tells it anyway), so
waiting long polls and streams look again.

A view's ETag names who is present (``mark``), so a client's cached view is never confirmed with a
304 after someone came or went; a long poll wakes when a seat comes, and when the first mark ends.
Presence fails open: when the store cannot be asked for it alone, nobody's presence is known
(``connected`` is null) and the request goes on (read with the game, it fails with the game).
"""

from __future__ import annotations

from dataclasses import dataclass

from service.store import Store, StoreUnavailable

#: A request marks its seat present for this many seconds.
PRESENCE_SECONDS = 30.0


@dataclass(frozen=True)
class Presence:
    """The seats marked present (None: not known), and the seconds until the first mark ends (None:
    no mark, or not known)."""

    present: frozenset[int] | None
    changes_in: float | None

    @property
    def mark(self) -> str:
        """What an ETag says of it: the present seats as a bit mask in hex (``?`` when not known)."""
        if self.present is None:
            return "?"
        return format(sum(1 << seat for seat in self.present), "x")


UNKNOWN = Presence(None, None)


def of(marked: dict[int, int]) -> Presence:
    """The presence of a store's answer: every seat marked, with the ms until its mark ends."""
    return Presence(frozenset(marked), min(marked.values()) / 1000 if marked else None)


def ttl_ms(seconds: float | None = None) -> int:
    """A mark's length in ms (default ``PRESENCE_SECONDS``), as the store takes it."""
    return max(1, int((PRESENCE_SECONDS if seconds is None else seconds) * 1000))


def with_seat(here: Presence, seat: int) -> Presence:
    """``here`` once ``seat`` is marked for ``PRESENCE_SECONDS`` (a move's mover, marked in its write)."""
    if here.present is None:
        return here
    ends = PRESENCE_SECONDS if here.changes_in is None else min(here.changes_in, PRESENCE_SECONDS)
    return Presence(here.present | {seat}, ends)


def touch(store: Store, game_id: str, seat: int | None, seconds: float | None = None) -> Presence:
    """Mark ``seat`` present for ``seconds`` (default ``PRESENCE_SECONDS``; ``seat`` None: mark nobody)
    and read the game's presence; fails open (``UNKNOWN``)."""
    try:
        marked, _ = store.presence(game_id, seat, ttl_ms(seconds))
    except StoreUnavailable:
        return UNKNOWN
    return of(marked)
