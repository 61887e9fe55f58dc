"""Wire schemas, one module per game; SCHEMAS maps a game id to its declared parts.

A game is hosted by adding its engine to ``engines.REGISTRY`` and its module's
``GAME`` here; ``schemas.common.build`` makes the rest.
"""

from __future__ import annotations

from schemas import conquian, kanaster, keine_lahme_agame, siebenschlaefer, sten
from schemas.common import GameSchemas

SCHEMAS: dict[str, GameSchemas] = {
    "sten": sten.GAME,
    "conquian": conquian.GAME,
    "keine-lahme-agame": keine_lahme_agame.GAME,
    "siebenschlaefer": siebenschlaefer.GAME,
    "kanaster": kanaster.GAME,
}
