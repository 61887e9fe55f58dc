"""The player counts and house-rule options of Keine lahme Agame, and the resolved options a game
keeps (seeds/keine-lahme-agame.md §8: every option, and why each provisional one reads as it does)."""

from __future__ import annotations

from dataclasses import dataclass

from engines.core import Option

from .cards import COLOURS, VALUES

PLAYERS = range(2, len(COLOURS) + 1)

OPTIONS: tuple[Option, ...] = (
    Option(
        "card_set",
        "choice",
        "H2",
        "cards per colour: H2 = 1,1,2,3,5,8,13,21 and the hat (the reference card is the tenth of a "
        "colour's 10 cards); H1 = the same plus a 34 (10 playing cards and a separate reference card)",
        choices=("H2", "H1"),
        provisional=True,
    ),
    Option(
        "first_leader",
        "choice",
        "seat0",
        "who leads the first round of the first section: seat 0 (seat0), or a seat drawn at random from "
        "the game's seed (random); later sections pass the first lead on clockwise",
        choices=("seat0", "random"),
        provisional=True,
    ),
    Option(
        "trick_capture",
        "choice",
        "row_then_hand",
        "the trick winner takes the trick; cards not put into his row go to his hand (row_then_hand) "
        "or onto the discard pile in play order (row_then_discard); with row_then_hand cards can "
        "circulate between hands forever, so a section need never end (the game is then aborted at max_turns); "
        "with row_then_discard every round shrinks the hands and each section ends",
        choices=("row_then_hand", "row_then_discard"),
        provisional=True,
    ),
    Option(
        "trick_placement",
        "choice",
        "auto",
        "which won cards go into the winner's row: every card that fits, earliest played first (auto), "
        "or the winner chooses (choose, a `place` move; with trick_capture=row_then_hand placing nothing "
        "returns the whole trick to his hand, so a section need never end; max_turns then aborts the game)",
        choices=("auto", "choose"),
        provisional=True,
    ),
    Option(
        "row_accepts_own_colour",
        "bool",
        True,
        "true: a card of any colour, the row owner's own included, fits his row when its value's position "
        "is free; false: only the other players' colours fit",
        provisional=True,
    ),
    Option(
        "hut_has_slot",
        "bool",
        False,
        "true: the row has a hat position, so a hat fits a row and can be caught; false: a hat never fits "
        "a row and cannot be caught",
        provisional=True,
    ),
    Option(
        "hut_payment",
        "choice",
        "infinite",
        "a hat paid for a catch counts as at least any value (infinite) or may not be paid (forbidden)",
        choices=("infinite", "forbidden"),
        provisional=True,
    ),
    Option(
        "section_scoring",
        "choice",
        "complete100_else_10_per_card",
        "points per row at a section's end: 100 for a complete row, else 10 per card "
        "(complete100_else_10_per_card) or 0 (complete100_only)",
        choices=("complete100_else_10_per_card", "complete100_only"),
        provisional=True,
    ),
    Option(
        "section_reset",
        "choice",
        "full",
        "at a new section every card returns to its owner's hand (full), or rows stay and every other "
        "card returns to its owner (rows_persist)",
        choices=("full", "rows_persist"),
        provisional=True,
    ),
    Option(
        "sections_per_game",
        "int",
        None,
        "sections in a game; null = one per player, the first leader rotating clockwise",
        minimum=1,
        maximum=50,
        nullable=True,
        provisional=True,
    ),
    Option(
        "max_turns",
        "int",
        2000,
        "safety cap: after this many moves in the whole game it ends as aborted (under "
        "trick_capture=row_then_hand, the default, a game could otherwise go on forever)",
        minimum=10,
        maximum=100000,
    ),
)

PROVISIONAL_RULES: tuple[str, ...] = tuple(o.name for o in OPTIONS if o.provisional)


@dataclass(frozen=True)
class Config:
    """The resolved options of one game (see ``seeds/keine-lahme-agame.md`` §8)."""

    players: int
    card_set: str
    first_leader: str
    trick_capture: str
    trick_placement: str
    row_accepts_own_colour: bool
    hut_has_slot: bool
    hut_payment: str
    section_scoring: str
    section_reset: str
    sections_per_game: int
    max_turns: int

    def slots(self) -> tuple[int | None, ...]:
        """The row's positions: one per number of the card set; None is a hat slot."""
        return VALUES[self.card_set] + ((None,) if self.hut_has_slot else ())
