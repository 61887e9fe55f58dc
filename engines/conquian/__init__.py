"""Conquian: two-player proto-rummy with 40 cards; meld exactly 11 cards to win a deal.

Rules as implemented, and every ruling with its reason: seeds/conquian.md.
The game resource is a match of deals played to a target of units; drawn deals raise the stake.
"""

from __future__ import annotations

from engines.conquian.state import ConquianState
from engines.contract import Game, GameEngine

ENGINE = GameEngine(Game.of(__name__, "conquian", "Conquian", ConquianState))

__all__ = ["ENGINE"]
