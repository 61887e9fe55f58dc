"""The player counts and house-rule options of Sten ("Stein"), and the resolved options a game keeps.

Every option with what its values do: seeds/sten.md section 8.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.core import Option

PLAYERS = range(2, 9)  # 2 to 8 players: the original rules name no count (seeds/sten.md section 1)

OPTIONS: tuple[Option, ...] = (
    Option(
        "remainder_policy",
        "choice",
        "open",
        "What happens to the 52 mod N cards an equal deal leaves over: 'open' = every hand gets 52 // N "
        "cards and the rest lies face up beside the layout, anyone may play it on his turn; 'uneven' = deal "
        "all cards, the first seats get one more; 'dead' = the rest lies face down out of play (a suit may "
        "then be blocked for good: the game ends as stalled, the fewest cards win); 'restrict' = only 2 or 4 "
        "players.",
        choices=("open", "uneven", "dead", "restrict"),
    ),
    Option(
        "allow_voluntary_stein",
        "bool",
        False,
        "May a player say 'Stein' (and take the stone) although a card fits? Off: only when none fits. On, "
        "a game can go on for ever (players keep saying 'Stein' instead of placing cards); max_turns then "
        "aborts it with no winner.",
    ),
    Option(
        "play_all_validation",
        "choice",
        "submitted_order",
        "How a play-all declaration is judged: 'submitted_order' = every card must fit in the order "
        "submitted; 'any_order' = it succeeds when some order of the same cards fits.",
        choices=("submitted_order", "any_order"),
    ),
    Option(
        "play_all_may_use_remainder",
        "bool",
        False,
        "May a play-all declaration also name open-remainder cards, to bridge gaps? Off: it names exactly "
        "the hand cards.",
    ),
    Option(
        "failed_play_all_ends_turn",
        "bool",
        True,
        "Does a failed play-all declaration end the turn? Either way the declarer takes the stone. True: "
        "the turn passes. False: he then plays one card or says 'Stein' as on an ordinary turn (no second "
        "declaration).",
    ),
    Option(
        "stone_winner_conflict",
        "choice",
        "previous_holder",
        "Who loses when the winner holds the stone: 'previous_holder' = whoever held it before the "
        "winner took it (nobody if nobody did); 'none' = nobody; 'both' = the winner is also the loser.",
        choices=("previous_holder", "none", "both"),
    ),
    Option(
        "max_turns",
        "int",
        2000,
        "Safety cap: the game is aborted (no winner, no loser) after this many turns. With forced play a "
        "game ends within 52 x players turns; only voluntary 'Stein' (option allow_voluntary_stein) or "
        "failing play-all declarations made again and again can make a game endless.",
        minimum=1,
        maximum=100_000,
    ),
)


@dataclass(frozen=True)
class StenOptions:
    """The resolved house-rule options (seeds/sten.md section 8)."""

    remainder_policy: str = "open"
    allow_voluntary_stein: bool = False
    play_all_validation: str = "submitted_order"
    play_all_may_use_remainder: bool = False
    failed_play_all_ends_turn: bool = True
    stone_winner_conflict: str = "previous_holder"
    max_turns: int = 2000
