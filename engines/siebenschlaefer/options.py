"""The player counts and house-rule options of Siebenschläfer, and the resolved options a match keeps
(seeds/siebenschlaefer.md section 10: every option with what its values do)."""

from __future__ import annotations

from dataclasses import dataclass

from engines.core import Option

PLAYERS = range(2, 9)  # 2 to 8 players (section 1: 10 cards each leave a stock of 24 to 84)

OPTIONS: tuple[Option, ...] = (
    Option(
        "aa_rule",
        "choice",
        "always",
        "When a pair of aces may be laid; it always frees the table for the next player. "
        "'always' = on any value; 'value_22' = it counts 22 and must exceed the value like any pair; "
        "'value_2' = it counts 2, so only on a free table.",
        choices=("always", "value_22", "value_2"),
    ),
    Option(
        "allow_voluntary_pass",
        "bool",
        False,
        "May a player who could lay a pair draw two and pass instead? Off: a player who can lay must. "
        "On, a round can go on for ever (everybody draws and passes); max_turns then aborts it.",
    ),
    Option(
        "skip_counts_as_pass",
        "bool",
        False,
        "Does the turn a player misses after a single 7 count as a pass towards the all-passed reset? "
        "Off: a missed turn neither counts nor breaks a run of passes.",
    ),
    Option(
        "pass_reset_threshold",
        "choice",
        "all_players",
        "How many passes in a row flip a new start value: 'all_players' = one per player, "
        "'all_other_players' = one fewer.",
        choices=("all_players", "all_other_players"),
    ),
    Option(
        "reset_illegal_pair",
        "choice",
        "reflip",
        "A flipped start value that is no legal pair (two face cards, an ace with another card): "
        "'reflip' = leave it on the pile and flip two more; 'sum_count_values' = its value is the sum of "
        "the counting values (J/Q/K 12, A 11).",
        choices=("reflip", "sum_count_values"),
    ),
    Option(
        "apply_final_penalties",
        "bool",
        True,
        "When the winning pair holds a 7, do the others still draw before the hands are counted? Off: the "
        "round ends at once and the hands are counted without those draws.",
    ),
    Option(
        "rounds",
        "int",
        1,
        "Rounds in one match (a pub evening). Each round stands alone; the match adds up the counted hands "
        "and how often each player paid. The original rules describe one round.",
        minimum=1,
        maximum=50,
    ),
    Option(
        "max_turns",
        "int",
        100_000,
        "Last safety net: a round that has not ended after this many moves (play, draw, pass) aborts the match "
        "with no winner. A round that can never end is caught long before by stalled_round; only slow play "
        "(random bots needed up to ~39 000 moves with 2 to 4 players) comes anywhere near the cap.",
        minimum=1,
        maximum=1_000_000,
    ),
    Option(
        "stalled_round",
        "choice",
        "count_hands",
        "A round that can never end: every player holds exactly one ace (8 players), so no one can lay his last "
        "card. 'count_hands' = the round ends at once as in the pub: the hands are counted (J, Q, K 12, A 11, "
        "numbers at face value), the fewest points win, the most pay; 'abort' = play on until max_turns aborts "
        "the match with no winner.",
        choices=("count_hands", "abort"),
    ),
)


@dataclass(frozen=True)
class Settings:
    """The resolved house-rule options (section 10)."""

    aa_rule: str = "always"
    allow_voluntary_pass: bool = False
    skip_counts_as_pass: bool = False
    pass_reset_threshold: str = "all_players"
    reset_illegal_pair: str = "reflip"
    apply_final_penalties: bool = True
    rounds: int = 1
    max_turns: int = 100_000
    stalled_round: str = "count_hands"
