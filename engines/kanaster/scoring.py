"""Scoring of Kanaster: the first-meld minimum and the count at the end of a hand
(seeds/kanaster.md sections 8 and 9).

"Der Gewinner zählt alle Kartenpunkte gemäss obiger Tabelle. Dazu kommen Kanasterpunkte, rote
3er und das Fertigmachen. Bei den Verlierern wird alles, was auf dem Tisch liegt positiv und was
in den Händen ist, negativ gewertet. Liegt ein Kanaster auf dem Tisch, so geben rote 3er
Pluspunkte. Wenn nicht, werden pro rote 3 100 Punkte abgezogen."
"""

from __future__ import annotations

from collections.abc import Sequence

from .melds import RED_THREE_VALUE, RED_THREES, card_points, is_canasta, is_natural, points
from .options import Rules
from .state import Meld, SeatScore

#: Going-out bonus: in the turn of the first meld ("das Erstemal rauslegen und gleich fertig
#: machen"), otherwise ("einige Runden später").
CONCEALED_BONUS = 200
GOING_OUT_BONUS = 100


def minimum_meld(score: int, rules: Rules) -> int:
    """Minimum count of a player's first meld of a hand, from his total written before the hand:
    50; 90 from 1,500; 120 from 3,000 ("ab" = inclusive); negative totals by option (section 8)."""
    if score < 0:
        return rules.negative_score_minimum
    if score >= 3000:
        return 120
    if score >= 1500:
        return 90
    return 50


def canasta_bonus(meld: Meld, rules: Rules) -> int:
    if not is_canasta(meld):
        return 0
    return rules.natural_canasta_bonus if is_natural(meld) else rules.mixed_canasta_bonus


def score_hand(
    players: int,
    melds: Sequence[Meld],
    hands: Sequence[Sequence[str]],
    red_threes: Sequence[Sequence[str]],
    went_out: int | None,
    concealed: bool,
    rules: Rules,
) -> tuple[SeatScore, ...]:
    """Each seat's score for the hand (section 9).

    Every seat scores its table (melded cards, tucked cards by option) and its canasta
    bonuses, minus the cards left in its hand. Red 3s count +100 each for the player who went
    out and for any player with a canasta of his own on the table, else -100 each. The player
    who went out adds 200 (first meld in the same turn) or 100.
    """
    total_red = sum(len(r) for r in red_threes)
    out: list[SeatScore] = []
    for seat in range(players):
        own = [m for m in melds if m.owner == seat]
        table = sum(points(m.cards) for m in own)
        if rules.tuck_points == "card_points":
            table += sum(points(m.tucked) for m in own)
        canastas = sum(canasta_bonus(m, rules) for m in own)
        hand_cards = tuple(hands[seat])
        assert not any(c in RED_THREES for c in hand_cards), "red 3s are laid out before the count"
        hand = -sum(card_points(c) for c in hand_cards)
        reds = len(red_threes[seat])
        each = RED_THREE_VALUE
        if rules.red3_all_bonus and reds and reds == total_red == 2 * rules.decks:
            each = 2 * RED_THREE_VALUE
        positive = seat == went_out or any(is_canasta(m) for m in own)
        red = reds * each * (1 if positive else -1)
        going_out = 0
        if seat == went_out:
            going_out = CONCEALED_BONUS if concealed else GOING_OUT_BONUS
        total = table + canastas + red + hand + going_out
        out.append(SeatScore(table, canastas, red, hand, going_out, total, hand_cards))
    return tuple(out)
