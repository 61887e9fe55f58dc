"""Siebenschläfer: a pub shedding game for 2-8 players with two decks, where every play is a pair
that must exceed the last one, 7s make others draw and the first empty hand wins.

Rules as implemented, and every ruling with its reason: seeds/siebenschlaefer.md.
"""

from __future__ import annotations

from engines.contract import Game, GameEngine
from engines.siebenschlaefer.state import State

ENGINE = GameEngine(Game.of(
    __name__, "siebenschlaefer", "Siebenschläfer", State, scoring="lower_wins", typical_minutes=20,
    description="A pub game with two decks in which every play is a pair that must beat the last one, and a "
                "seven makes the next player draw two and miss a turn. The first empty hand wins the round; "
                "in a match of several rounds the fewest counted points win."))

__all__ = ["ENGINE"]
