"""What a worker keeps of the game versions it has just read or written: each one's record, its
decoded state and the views it rendered, so that the work is done once per version.

A worker keeps one version per game, the last it read or wrote, and uses it again only for the very
same number and stored bytes (a game that expired and was created again under its id has other
bytes), so nothing kept is ever out of date: a new move is a new version. A move's answer keeps the
version it wrote, with the state it computed and the mover's view, so that the next request of the
game (the next player's move, a view) starts from there instead of decoding again. An older version
of a game is never asked for again once a newer one is read, so keeping it would only hold memory
(and give the garbage collector a larger heap to walk). The number of games kept is bounded (the
least recently used go first); a record kept is never changed (a move writes a new one).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from engines.core import Engine

#: Games whose last version a worker keeps: the ones its last few hundred requests read or wrote,
#: which the next requests of those games (the seats' views after a move, the next move) ask for
#: again. A version kept takes about 13 KiB (Sten) to 52 KiB (Kanaster, its decoded state and two
#: views), so a worker keeps at most some 3-13 MiB.
KEPT = 256
#: Views kept per version: one per viewer and presence (who is at the table).
VIEWS_KEPT = 32
#: Seats known per worker by their token's hash (``Versions.seat_guess``): each about 300 bytes.
SEATS_KNOWN = 4096


class Stored:
    """One version of a game as the store holds it: its number, its stored bytes, its record
    (``service.records``), its state (decoded on first use, once) and the views rendered of it.
    Once the state is decoded the record lets its encoded ``state`` go (a new dict: a record
    handed out is never changed)."""

    __slots__ = ("version", "snapshot", "record", "engine", "_state", "views")

    def __init__(self, version: int, snapshot: bytes, record: dict[str, Any], engine: Engine,
                 state: Any = None) -> None:
        self.version = version
        self.snapshot = snapshot
        self.engine = engine
        self._state = state
        self.record = record if state is None else {**record, "state": None}
        #: (seat (None: the spectator), who is present) -> the encoded view
        self.views: dict[Any, bytes] = {}

    @property
    def state(self) -> Any:
        if self._state is None:
            self._state = self.engine.decode(self.record["state"])
            self.record = {**self.record, "state": None}  # kept decoded, not twice
        return self._state

    def view(self, key: Any, render: Callable[[], bytes]) -> bytes:
        """The encoded view named by ``key`` (the viewer and who is present): rendered once."""
        kept = self.views.get(key)
        if kept is None:
            if len(self.views) >= VIEWS_KEPT:  # presence comes and goes: a version keeps a few views only
                self.views.clear()
            kept = self.views[key] = render()
        return kept


class Versions:
    """The versions one worker keeps, at most ``size``, the least recently used dropped first."""

    def __init__(self, size: int = KEPT) -> None:
        self.size = size
        self._kept: OrderedDict[str, Stored] = OrderedDict()  # game id -> its last version, in order of last use
        # (game, id, token hash) -> the seat, and until when its mark is fresh
        self._seats: OrderedDict[tuple[str, str, str], tuple[int, float]] = OrderedDict()

    def seat_guess(self, game: str, game_id: str, token_hash: str) -> tuple[int, float] | None:
        """The seat a token's hash proved at this game on this worker before, if it did, and until
        when (``time.monotonic()``) its mark is known to need no renewing (``service.presence.fresh``):
        a guess that the store checks (``Store.open`` marks it only if that seat of the game it reads
        holds the hash), and the request checks again against the game read."""
        return self._seats.get((game, game_id, token_hash))

    def learn_seat(self, game: str, game_id: str, token_hash: str, seat: int, fresh_until: float) -> None:
        key = (game, game_id, token_hash)
        if key not in self._seats:
            while len(self._seats) >= SEATS_KNOWN:  # bounded: the first learned go first
                try:
                    self._seats.popitem(last=False)
                except KeyError:  # emptied by another thread meanwhile
                    break
        self._seats[key] = (seat, fresh_until)

    def get(self, game_id: str, version: int, snapshot: bytes, engine: Engine) -> Stored | None:
        """The version kept of ``game_id`` if it is this very one (number and stored bytes), else None."""
        stored = self._kept.get(game_id)
        if stored is None or stored.version != version:
            return None  # none kept, or another version (the one kept goes when this one is kept)
        if stored.snapshot != snapshot or stored.engine is not engine:
            self._kept.pop(game_id, None)  # other bytes under this id and number: forgotten
            return None
        try:  # noqa: SIM105 -- contextlib.suppress makes an object on every call, and every request makes it
            self._kept.move_to_end(game_id)  # the most recently used now
        except KeyError:  # (dropped by another thread meanwhile)
            pass
        return stored

    def keep(self, game_id: str, stored: Stored) -> None:
        """Keep ``stored`` as the game's version, in place of the one kept before (an older one, or
        a newer one that a request racing with its move read first: then the next read decodes)."""
        if self.size <= 0:
            return
        self._kept[game_id] = stored
        self._kept.move_to_end(game_id)
        while len(self._kept) > self.size:
            try:
                self._kept.popitem(last=False)
            except KeyError:  # emptied by another thread meanwhile
                break

    def clear(self) -> None:
        self._kept.clear()
        self._seats.clear()

    def __len__(self) -> int:
        return len(self._kept)
