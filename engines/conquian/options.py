"""The player count and house-rule options of Conquian, and the resolved options a match keeps
(seeds/conquian.md 8: every option with what its values do)."""

from __future__ import annotations

from dataclasses import dataclass

from engines.core import Option

PLAYERS = range(2, 3)

OPTIONS: tuple[Option, ...] = (
    Option(
        "first_dealer",
        "choice",
        "low_card_draw",
        "Who deals the first deal: 'low_card_draw' = both players draw a card from a separately shuffled"
        " deck and the lower card deals (ties draw again); 'seat0' / 'seat1' = that seat deals.",
        choices=("low_card_draw", "seat0", "seat1"),
    ),
    Option(
        "dealer_rotation",
        "choice",
        "alternate",
        "Who deals the next deal: 'alternate' = the other player; 'loser_deals' / 'winner_deals' = the"
        " loser / the winner of the last deal (after a drawn deal the deal alternates in every mode).",
        choices=("alternate", "loser_deals", "winner_deals"),
    ),
    Option(
        "meld_from_hand_without_upcard",
        "bool",
        False,
        "The literal reading of the original rules: after turning a stock card a player may also meld or"
        " lay off hand cards without the turned card, and still reject it. Off (the classic game): hand"
        " cards are melded only together with the face-up card.",
    ),
    Option(
        "max_sequence_len",
        "int",
        None,
        "Longest allowed sequence: null = no limit (the original rules say three or more); 8 is the"
        " limit of pagat.com's rules.",
        minimum=3,
        maximum=10,
        nullable=True,
    ),
    Option(
        "forcing_enabled",
        "bool",
        True,
        "A player whose melds can take the offered or rejected card may be forced by the opponent to add"
        " it and discard.",
    ),
    Option(
        "force_fit_includes_rearrangement",
        "bool",
        False,
        "A card also counts as fitting (for forcing) when it can join the player's melds only by"
        " rearranging them. Off: it must extend one existing meld as it stands.",
    ),
    Option(
        "forced_may_meld_extra",
        "bool",
        False,
        "A forced player may meld further hand cards in the same move. Off: he adds the forced card (his"
        " melds may be rearranged) and discards.",
    ),
    Option(
        "draw_multiplier",
        "choice",
        "additive",
        "Stake of a deal after k drawn deals in a row: additive = 1 + k units (Foster's pool: each drawn"
        " deal adds one unit), exponential = 2^k units (the stake doubles with each drawn deal).",
        choices=("additive", "exponential"),
    ),
    Option(
        "target",
        "int",
        5,
        "Units a player needs to win the match (each won deal is worth its stake). Drawn deals score"
        " nothing, so without max_deals a match whose deals are all drawn never ends.",
        minimum=1,
        maximum=1000,
    ),
    Option(
        "max_deals",
        "int",
        None,
        "If set, the match also ends after this many deals (drawn deals count); the player with more units"
        " wins, equal units are a tie. Null (the default) sets no limit, and then a match can go on for ever:"
        " every deal can end drawn (a player may always turn and reject cards until the stock is empty).",
        minimum=1,
        maximum=1000,
        nullable=True,
    ),
)



@dataclass(frozen=True)
class Rules:
    """The resolved options (see OPTIONS and seeds/conquian.md 8)."""

    first_dealer: str = "low_card_draw"
    dealer_rotation: str = "alternate"
    meld_from_hand_without_upcard: bool = False
    max_sequence_len: int | None = None
    forcing_enabled: bool = True
    force_fit_includes_rearrangement: bool = False
    forced_may_meld_extra: bool = False
    draw_multiplier: str = "additive"
    target: int = 5
    max_deals: int | None = None
