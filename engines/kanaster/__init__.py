"""Kanaster: the Swiss house rules of canasta, 2 to 5 players each for himself.

Rules as implemented, dealing order, options and every ruling with its reason:
seeds/kanaster.md. Two or three packs with jokers; the cutter keeps the wild cards at the cut;
13 cards each; red 3s are laid out and replaced; melds of one rank with fewer wild cards than
natural cards; the pile is taken by melding its top card; canastas block their rank; going out
needs a canasta. A game is the whole match, hand after hand, to 5,000 points (option).
"""

from __future__ import annotations

from engines.contract import Game, GameEngine
from engines.kanaster.state import KanasterState

ENGINE = GameEngine(Game.of(
    __name__, "kanaster", "Kanaster (Swiss canasta)", KanasterState, scoring="higher_wins", typical_minutes=90,
    description="Canasta by Swiss house rules, 2 to 5 players each for himself: meld cards of one rank, build "
                "canastas of seven, take the pile with its top card, and play hand after hand until a total "
                "reaches 5,000 points."))

__all__ = ["ENGINE"]
