"""Keine lahme Agame: the immutable state of a game and the phases of a round.

The rules, and every ruling with its reason, are in ``seeds/keine-lahme-agame.md``. The cards are in
``cards``, the options in ``options``, the moves in ``moves``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines import snapshot
from engines.core import evolve

from .options import Config

#: Phases: who is to move and which move kinds are allowed (seeds §3).
LEAD = "lead"  # the leader may open a catching round (by catching) or must lead the trick
CATCHING = "catching"  # the catching round: each other player in turn may catch or pass
TRICK_LEAD = "trick_lead"  # after a catching round: the leader must lead the trick
TRICK = "trick"  # followers play to the trick in turn
PLACE = "place"  # option trick_placement=choose: the trick winner chooses what goes into his row
OVER = "over"  # the game has ended (finished or aborted)

PHASES = (LEAD, CATCHING, TRICK_LEAD, TRICK, PLACE, OVER)


@snapshot.row
@dataclass(frozen=True)
class Play:
    """One player's cards in the current trick, in the order given."""

    seat: int
    cards: tuple[str, ...]


@snapshot.row
@dataclass(frozen=True)
class Caught:
    """A card caught in the running catching round; it lies beside the catcher's row until
    the round ends ("vorerst separat neben die eigene Auslage")."""

    seat: int
    card: str
    from_seat: int | None  # None: from the discard pile


@snapshot.row
@dataclass(frozen=True)
class TrickRecord:
    """What happened to the last completed trick."""

    plays: tuple[Play, ...]
    winner: int
    placed: tuple[str, ...]  # into the winner's row
    rest: tuple[str, ...]  # the other won cards
    rest_to: str  # "hand" or "discard"


@snapshot.row
@dataclass(frozen=True)
class SectionRecord:
    """The end of one section ("Spielabschnitt") and its final table (seeds §7, "Events").

    ``hands``, ``rows`` and ``discard`` are the table as the section ended: the hands revealed, the
    scored rows and the pile. A section recorded before snapshot format 2 did not keep them (None).
    """

    section: int  # 0-based
    emptied: tuple[int, ...]  # seats whose hand was empty
    points: tuple[int, ...]
    complete: tuple[bool, ...]  # whose row was complete
    hands: tuple[tuple[str, ...], ...] | None = None
    rows: tuple[tuple[str, ...], ...] | None = None
    discard: tuple[str, ...] | None = None


@dataclass(frozen=True)
class State:
    """The whole match; a value, changed only by building a new one."""

    config: Config
    seed: str
    first_leader: int  # leader of section 0
    section: int  # 0-based
    phase: str
    leader: int
    current: int  # the seat to move (meaningless once OVER)
    hands: tuple[tuple[str, ...], ...]  # each in canonical order
    rows: tuple[tuple[str, ...], ...]  # displays ("Auslage"), each in canonical order
    discard: tuple[str, ...]  # bottom first; the last card is the top
    caught: tuple[Caught, ...]  # the running catching round's catches, in order
    trick: tuple[Play, ...]  # the running trick (or the won trick awaiting placement)
    scores: tuple[int, ...]
    history: tuple[tuple[int, ...], ...]  # points of each finished section
    last_trick: TrickRecord | None
    last_section: SectionRecord | None
    turn: int  # moves applied in the whole game
    aborted: bool

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def replace(self, **changes: Any) -> State:
        return evolve(self, **changes)
