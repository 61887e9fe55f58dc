"""Sten ("Stein"): the Sevens / Fan-Tan layout game with a loser's stone.

Rules as implemented, dealing order, options and every ruling with its reason: seeds/sten.md.
The hearts 7 opens; suits are built up from their 7 to the king and down to the ace; a player
who cannot place a card says "Stein" and takes the stone; a player may declare to lay his whole
hand in one turn. The first empty hand wins; whoever holds the stone loses.
"""

from __future__ import annotations

from engines.contract import Game, GameEngine
from engines.sten.state import StenState

ENGINE = GameEngine(Game.of(
    __name__, "sten", 'Sten ("Stein")', StenState, scoring="none", typical_minutes=25,
    description="Sevens with a stone: the suits are built from their sevens up to the king and down to the "
                "ace. Who cannot lay a card says \"Stein\" and takes the stone; the first empty hand wins and "
                "whoever holds the stone then loses."))

__all__ = ["ENGINE"]
