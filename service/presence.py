"""Who is at the table now: a seat's ``connected``, true while its person holds an event stream or a
long poll of the game, or made a request with the seat's token in the last ``PRESENCE_SECONDS``.

It lives outside the snapshot, beside it in the game's own hash (the field ``p``: each seat with when
its mark ends, in the store's clock), so that coming and going never changes the game's version or
its record, and one plain read fetches the game with who is at its table. Every request whose token
proves a seat keeps it marked: a mark lasts ``mark_seconds()`` (35 s) and a request renews it only once
less than ``PRESENCE_SECONDS`` (30 s) of it are left, so a seat is at the table for 30 to 35 s after
its last request and its mark is written at most once every 5 s, not on every request. A stream
renews its mark with its keep-alives, a long poll marks it for as long as it waits.

A view reads the game and who is there in one call to the store. When the worker does not know the
caller's mark to be fresh but has seen its token at this game before, that call is a script that
marks the seat too (``service.runtime.Game.open``); otherwise it is a plain read, and a seat whose
mark turns out to need renewing is marked with a second call. A move reads the game the plain way and
renews its mover's mark in the write of the move (or, when nothing is written, with a call of its
own). A seat that was not marked tells the game's pub/sub channel (a move's write tells it anyway),
so waiting long polls and streams look again.

A view's ETag names who is present (``mark``), so a client's cached view is never confirmed with a
304 after someone came or went; a long poll wakes when a seat comes, and when the first mark ends.
Presence fails open: when the store cannot be asked for it alone, nobody's presence is known
(``connected`` is null) and the request goes on (read with the game, it fails with the game).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from service.store import Store, StoreUnavailable

#: A seat is at the table for at least this many seconds after its last request.
PRESENCE_SECONDS = 30.0
#: ... and at most this much more: a mark is renewed once less than ``PRESENCE_SECONDS`` of it are
#: left, so a seat that keeps making requests writes its mark once per this share of it.
RENEW_SHARE = 1 / 6


@dataclass(frozen=True)
class Presence:
    """Every seat marked present, with the ms its mark has left (None: not known); who is present
    and when the first mark ends follow from it."""

    left: Mapping[int, int] | None

    @property
    def present(self) -> frozenset[int] | None:
        """The seats marked present (None: not known)."""
        return None if self.left is None else frozenset(self.left)

    @property
    def changes_in(self) -> float | None:
        """The seconds until the first mark ends (None: no mark, or not known)."""
        return min(self.left.values()) / 1000 if self.left else None

    @property
    def mark(self) -> str:
        """What an ETag says of it: the present seats as a bit mask in hex (``?`` when not known)."""
        if self.left is None:
            return "?"
        bits = 0
        for seat in self.left:  # a loop: a generator costs twice as much, and every view asks
            bits |= 1 << seat
        return format(bits, "x")


UNKNOWN = Presence(None)


def of(marked: dict[int, int]) -> Presence:
    """The presence of a store's answer: every seat marked, with the ms until its mark ends."""
    return Presence(marked)


def mark_seconds() -> float:
    """How long a request's mark lasts: ``PRESENCE_SECONDS`` and its renewal share (35 s)."""
    return PRESENCE_SECONDS * (1 + RENEW_SHARE)


def ttl_ms(seconds: float | None = None) -> int:
    """A mark's length in ms (default ``mark_seconds()``), as the store takes it."""
    return max(1, int((mark_seconds() if seconds is None else seconds) * 1000))


def fresh(left_ms: int | None) -> bool:
    """Whether a mark with ``left_ms`` left (None: no mark) needs no renewing by a request: it keeps
    the seat at the table for ``PRESENCE_SECONDS`` more."""
    return left_ms is not None and left_ms >= PRESENCE_SECONDS * 1000


def needs_mark(here: Presence, seat: int) -> bool:
    """Whether a request of ``seat`` must renew its mark, by what ``here`` read (yes when not known)."""
    return here.left is None or not fresh(here.left.get(seat))


def with_seat(here: Presence, seat: int) -> Presence:
    """``here`` once ``seat`` is marked for ``PRESENCE_SECONDS`` at least (a move's mover, its mark
    renewed in its write when it needed it)."""
    least = int(PRESENCE_SECONDS * 1000)
    if here.left is None or here.left.get(seat, 0) >= least:  # not known, or marked for as long already
        return here
    return Presence({**here.left, seat: least})


def touch(store: Store, game_id: str, seat: int | None, seconds: float | None = None) -> Presence:
    """Mark ``seat`` present for ``seconds`` (default ``mark_seconds()``; ``seat`` None: mark nobody)
    and read the game's presence; fails open (``UNKNOWN``)."""
    try:
        marked, _ = store.presence(game_id, seat, ttl_ms(seconds))
    except StoreUnavailable:
        return UNKNOWN
    return of(marked)
