"""The game engines, keyed by game id.

REGISTRY is explicit: a game is hosted by adding its engine here and its schema
module to ``schemas.SCHEMAS``; the service never names a game.
"""

from __future__ import annotations

from engines import conquian, kanaster, keine_lahme_agame, siebenschlaefer, sten
from engines.core import Engine

_ENGINES: tuple[Engine, ...] = (
    sten.ENGINE,
    conquian.ENGINE,
    keine_lahme_agame.ENGINE,
    siebenschlaefer.ENGINE,
    kanaster.ENGINE,
)

REGISTRY: dict[str, Engine] = {e.id: e for e in _ENGINES}
