"""Conquian: two-player proto-rummy with 40 cards; meld exactly 11 cards to win a deal.

Rules as implemented, and every ruling with its reason: seeds/conquian.md.
The game resource is a match of deals played to a target of units; drawn deals raise the stake.
"""

from __future__ import annotations

from engines.conquian.state import ConquianState
from engines.contract import Game, GameEngine

ENGINE = GameEngine(Game.of(
    __name__, "conquian", "Conquian", ConquianState, scoring="higher_wins", typical_minutes=30,
    description="The old two-player rummy with 40 cards: take the offered card or turn one from the stock to "
                "meld groups and sequences, until one player has exactly eleven cards on the table. A match "
                "of deals, played to a target of units."))

__all__ = ["ENGINE"]
