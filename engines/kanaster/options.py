"""The player counts and house-rule options of Kanaster, and the resolved options a match keeps
(seeds/kanaster.md section 12: every option with what its values do)."""

from __future__ import annotations

from dataclasses import dataclass

from engines import snapshot
from engines.core import Option

PLAYERS = range(2, 6)

#: Default of option ``hand_cap`` (seeds/kanaster.md section 10): matches to 10,000 took at
#: most 32 hands in measurement (random and greedy play, 2 to 5 players).
HAND_CAP = 500

OPTIONS: tuple[Option, ...] = (
    Option("target", "int", 5000, "Match target: the match ends after the hand in which a total reaches it "
           "(the original rules play to 5,000 or 10,000).", minimum=1, maximum=100_000),
    Option("max_hands", "int", None, "End the match after this many hands (highest total wins); null = play "
           "to the target only.", minimum=1, maximum=1000, nullable=True),
    Option("hand_cap", "int", HAND_CAP, "Safety cap: a match still running after this many hands ends as aborted "
           "(no winner). Every hand ends (the talon runs out), but totals can fall, so players who never meld "
           "could play for ever: only hand_cap and max_turns both null (and no max_hands) make an endless match "
           "possible. The default 500 is over ten times the longest match measured (32 hands to 10,000, "
           "5 players).",
           minimum=1, maximum=1000, nullable=True),
    Option("max_turns", "int", None, "Optional cap on turns in the whole match: after this many it ends as "
           "aborted; null = none (default: a hand cannot stall, hand_cap bounds the match).", minimum=1,
           maximum=1_000_000, nullable=True),
    Option("decks", "int", None, "Number of 52-card packs (each with its jokers); null = the rule of thumb, "
           "2 packs for 2-3 players and 3 for 4-5.", minimum=2, maximum=4, nullable=True),
    Option("jokers_per_deck", "int", 2, "Jokers in each pack.", minimum=0, maximum=4),
    Option("cards_per_player", "int", 13, "Cards dealt to each player.", minimum=7, maximum=15),
    Option("cut_bonus", "bool", True, "The cutter keeps the 2s and jokers at the cut face (and is dealt "
           "that many fewer cards); false = he keeps none."),
    Option("sperr_scope", "choice", "any", "Whose canasta makes its rank a blocking card (Sperrkarte: "
           "while one is on top, the pile may not be taken): any player's (any), or only the mover's own "
           "(own).", choices=("any", "own")),
    Option("tuck_scope", "choice", "any_canasta", "Under whose canasta the player who took the pile may "
           "tuck the blocking cards that came with it: any player's (any_canasta) or only his own "
           "(own_canasta).", choices=("any_canasta", "own_canasta")),
    Option("tuck_points", "choice", "zero", "What tucked blocking cards score: nothing (zero), or their "
           "card points for the canasta's owner (card_points).", choices=("zero", "card_points")),
    Option("wild_discard_freezes_pile", "bool", False, "Standard frozen pile: while a wild card is in the "
           "pile it can only be taken with two natural cards of the top card's rank; false = a wild card "
           "blocks the pile only while it is on top."),
    Option("black3_meld_on_going_out", "bool", True, "Black 3s may be melded (three or more, no wild cards) "
           "in the move that leaves the last card for going out; false = never."),
    Option("concealed_exempt_from_minimum", "bool", False, "A first meld from the hand that leaves only the "
           "final discard needs no minimum count (standard canasta); false = it needs the minimum like any "
           "first meld."),
    Option("negative_score_minimum", "int", 50, "Minimum count of a first meld while the player's total is "
           "negative (standard canasta: 15).", minimum=0, maximum=10_000),
    Option("red3_all_bonus", "bool", False, "All red 3s of the game with one player count 200 each instead "
           "of 100."),
    Option("stock_exhausted", "choice", "end_hand", "Talon empty: the player to move takes the pile or the "
           "hand ends (end_hand); forced_lay_off = he must take it when its top card fits one of his melds.",
           choices=("end_hand", "forced_lay_off")),
    Option("meld_after_taking_pile", "bool", True, "After taking the pile the player may still meld and lay "
           "off before his discard; false = only tuck and discard (the strict reading of the original rules' "
           "warning that no more may be melded once the pile is taken)."),
    Option("natural_canasta_bonus", "int", 500, "Bonus of a natural canasta (no wild card).", minimum=0,
           maximum=10_000),
    Option("mixed_canasta_bonus", "int", 300, "Bonus of a mixed canasta.", minimum=0, maximum=10_000),
)


@snapshot.kept(64)  # the same in every state of a match
@dataclass(frozen=True)
class Rules:
    """The resolved options (seeds/kanaster.md section 12); ``decks`` resolved to a number."""

    target: int
    max_hands: int | None
    hand_cap: int | None
    max_turns: int | None
    decks: int
    jokers_per_deck: int
    cards_per_player: int
    cut_bonus: bool
    sperr_scope: str
    tuck_scope: str
    tuck_points: str
    wild_discard_freezes_pile: bool
    black3_meld_on_going_out: bool
    concealed_exempt_from_minimum: bool
    negative_score_minimum: int
    red3_all_bonus: bool
    stock_exhausted: str
    meld_after_taking_pile: bool
    natural_canasta_bonus: int
    mixed_canasta_bonus: int
