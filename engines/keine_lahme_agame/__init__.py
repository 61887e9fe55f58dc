"""Keine lahme Agame (Sezgin Güven, Mücke Spiele): a trick-taking and catching game.

Rules as implemented, and every ruling with its reason: ``seeds/keine-lahme-agame.md``.
The published rules stop after the catching round ("Fangen"), so what happens to trick cards,
what fits a display, scoring and game end are a provisional reconstruction behind options;
the engine is marked ``provisional``.
"""

from __future__ import annotations

from engines.contract import Game, GameEngine
from engines.keine_lahme_agame.state import State

ENGINE = GameEngine(Game.of(
    __name__, "keine-lahme-agame", "Keine lahme Agame", State, scoring="higher_wins", typical_minutes=30,
    description="Each player holds the cards of one colour: win tricks to fill your row with the numbers it "
                "still lacks, and catch cards from the others on the way. The published rules stop after the "
                "catching round; the scoring and the game's end here are a provisional reconstruction."))

__all__ = ["ENGINE"]
