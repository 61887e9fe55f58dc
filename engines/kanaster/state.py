"""The state of a match of Kanaster (Swiss canasta), and its options.

Rules as implemented: seeds/kanaster.md. The state is a value: frozen dataclasses of tuples,
ints, strs and bools, changed only by building a new one (``dataclasses.replace``). The game
resource is the whole match: hand after hand until the target score (section 10).
"""

from __future__ import annotations

from dataclasses import dataclass

from engines import snapshot

from .options import Rules

#: Turn phases (seeds/kanaster.md section 5): the mover has to draw (talon or pile), or has
#: drawn and may meld, lay off, tuck and must discard. OVER = the match has ended.
DRAW = "draw"
PLAY = "play"
FINISHED = "finished"
ABORTED = "aborted"


@snapshot.row
@snapshot.shared(1024)
@dataclass(frozen=True)
class Meld:
    """A meld on the table: its owner, its rank ("3" for black 3s), its cards and the blocking
    cards tucked under it (which count neither for its size nor for natural/mixed)."""

    owner: int
    rank: str
    cards: tuple[str, ...]
    tucked: tuple[str, ...] = ()


@snapshot.row
@dataclass(frozen=True)
class SeatScore:
    """One seat's score for one hand (seeds/kanaster.md section 9)."""

    table: int  # card points of the melded (and, by option, tucked) cards
    canastas: int  # canasta bonuses
    red_threes: int  # +100 / -100 each (200 with red3_all_bonus)
    hand: int  # minus the card points still in hand
    going_out: int  # 200 / 100 for the player who went out
    total: int
    hand_cards: tuple[str, ...]  # the cards shown from the hand at the count


@dataclass(frozen=True)
class HandTable:
    """The table as a finished hand left it (section 9): the melds, every seat's red 3s (those
    laid out for the count included), the pile with the final discard on top, the talon's size."""

    melds: tuple[Meld, ...]
    red_threes: tuple[tuple[str, ...], ...]
    pile: tuple[str, ...]
    talon_count: int


@snapshot.kept(256)  # the same from the end of one hand to the end of the next
@dataclass(frozen=True)
class HandRecord:
    """The summary of a finished hand: its count, the totals after it and its final table (None
    for a hand finished before snapshot format 3, which did not keep it; section 17)."""

    number: int  # 1-based
    went_out: int | None  # seat that went out; None = the talon ran out
    concealed: bool  # went out in the turn of the first meld (200)
    seats: tuple[SeatScore, ...]
    totals: tuple[int, ...]  # cumulative totals written after this hand
    table: HandTable | None


@dataclass(frozen=True)
class KanasterState:
    """One match of Kanaster.

    ``talon`` is top card first; ``pile`` is bottom card first (its last card is the top).
    ``melds`` is every meld of the hand in the order laid; a meld's id is its index.
    ``started[s]``: seat ``s`` has had its first turn of the hand (its red 3s are laid out).
    ``pile_taken``: the cards the mover took with the pile this turn (tucking, section 7).
    """

    players: int
    rules: Rules
    seed: str
    hand_number: int  # 1-based number of the hand being played (or the last one, once over)
    dealer: int
    cut: tuple[str, ...]  # wild cards the cutter kept at the cut (public)
    scores: tuple[int, ...]  # cumulative totals written before this hand
    hands: tuple[tuple[str, ...], ...]  # per seat, sorted (melds.hand_order)
    talon: tuple[str, ...]
    pile: tuple[str, ...]
    melds: tuple[Meld, ...]
    red_threes: tuple[tuple[str, ...], ...]  # laid-out red 3s per seat
    started: tuple[bool, ...]
    current: int
    phase: str  # DRAW | PLAY | FINISHED | ABORTED
    took_pile: bool
    pile_taken: tuple[str, ...]
    first_meld_turn: bool  # the mover made his first meld of the hand in this turn
    turns: int  # completed turns in the match (option max_turns)
    history: tuple[tuple[int, ...], ...]  # per finished hand, each seat's hand total
    last_hand: HandRecord | None

    @property
    def over(self) -> bool:
        return self.phase in (FINISHED, ABORTED)

    @property
    def cutter(self) -> int:
        """The player before the dealer cuts (seeds/kanaster.md section 3)."""
        return (self.dealer - 1) % self.players
