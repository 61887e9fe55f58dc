"""Conquian's state, options and moves: values only (seeds/conquian.md).

The state is one frozen dataclass holding the whole match: the current deal's cards (hands, melds,
stock, the offered card, the face-up card, the dead discards), the phase of the turn, and the match
score. A turn is split into phases so that ``to_move`` and ``legal_moves`` are exact in each of them
(seeds/conquian.md 4):

* ``choose``       -- ``turn`` takes the offered card by melding it, or turns the stock (``draw``);
                      with an empty stock he may ``pass`` instead, which draws the deal.
* ``turned``       -- ``turn`` melds the turned card (``face_up``) or rejects it.
* ``discard``      -- ``turn`` melded a card and now discards one hand card.
* ``force_offer``  -- the card just offered to ``turn`` fits one of his melds; his opponent decides
                      whether to force him to add it (force window F1).
* ``force_reject`` -- ``turn`` rejected a turned card that fits one of his melds; his opponent
                      decides whether to force him to add it after all (force window F2).
* ``forced``       -- ``turn`` was forced and must add ``face_up`` to his melds, then discard.
* ``over``         -- the match has ended.
"""

from __future__ import annotations

from dataclasses import dataclass

from .melds import Arrangement
from .options import Rules

CHOOSE = "choose"
TURNED = "turned"
DISCARD = "discard"
FORCE_OFFER = "force_offer"
FORCE_REJECT = "force_reject"
FORCED = "forced"
OVER = "over"
PHASES = (CHOOSE, TURNED, DISCARD, FORCE_OFFER, FORCE_REJECT, FORCED, OVER)

HAND_SIZE = 10
#: Melded cards that win a deal (the original rules: "genau 11 Karten zusammengelegt").
WINNING_MELD_COUNT = 11

@dataclass(frozen=True)
class DealSummary:
    """How the last finished deal ended: its final table and score (public facts only; the hands
    are never shown, seeds/conquian.md 6.4 and 7)."""

    deal: int  # 1-based number of the deal
    dealer: int
    outcome: str  # "won" | "drawn"
    winner: int | None
    stake: int  # units the deal was worth (won by the winner, carried over when drawn)
    melds: tuple[Arrangement, Arrangement]
    stock_left: int
    hand_counts: tuple[int, int]  # cards left in each hand (the winner's is 0)
    dead: tuple[str, ...] | None  # the buried discards at the end; None for deals ended before format 2
    discard: str | None  # the card left face up on the pile (the offer passed in a drawn deal)
    scores: tuple[int, int]  # the match units after the deal


@dataclass(frozen=True)
class ConquianState:
    """The whole match. ``hands``/``melds`` are per seat; ``stock`` is top card first."""

    rules: Rules
    seed: str
    cut: tuple[str, ...]  # the cards drawn for the first dealer (seat 0, seat 1, seat 0, ...), public
    deal: int  # 1-based number of the current deal
    dealer: int
    turn: int  # whose turn it is; in the force phases the opponent of ``turn`` decides
    phase: str
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    melds: tuple[Arrangement, Arrangement]
    stock: tuple[str, ...]
    offer: str | None  # top of the discard pile, offered to ``turn`` by the opponent's last action
    face_up: str | None  # the turned stock card (turned), the card to force or forced (force_reject, forced)
    dead: tuple[str, ...]  # buried discards, oldest first; never usable again
    scores: tuple[int, int]  # units won in the match
    draws_in_a_row: int  # drawn deals since the last won deal (sets the stake)
    drawn_deals: int  # drawn deals in the whole match
    last_deal: DealSummary | None = None
    end: str | None = None  # "target" | "max_deals" once the match is over
