"""Siebenschläfer: a pub shedding game for 2-8 players with two decks, where every play is a pair
that must exceed the last one, 7s make others draw and the first empty hand wins.

Rules as implemented, and every ruling with its reason: seeds/siebenschlaefer.md.
"""

from __future__ import annotations

from engines.contract import Game, GameEngine
from engines.siebenschlaefer.state import State

ENGINE = GameEngine(Game.of(__name__, "siebenschlaefer", "Siebenschläfer", State))

__all__ = ["ENGINE"]
