"""Keine lahme Agame (Sezgin Güven, Mücke Spiele): a trick-taking and catching game.

Rules as implemented, and every ruling with its reason: ``seeds/keine-lahme-agame.md``.
The published rules stop after the catching round ("Fangen"), so what happens to trick cards,
what fits a display, scoring and game end are a provisional reconstruction behind options;
the engine is marked ``provisional``.
"""

from __future__ import annotations

from engines.contract import Game, GameEngine

from . import migrations, options, rules, strategy, view
from .moves import MOVE_TYPES
from .state import State

ENGINE = GameEngine(Game(
    id="keine-lahme-agame",
    title="Keine lahme Agame",
    players=options.PLAYERS,
    options=options.OPTIONS,
    move_types=MOVE_TYPES,
    state=State,
    new_game=rules.new_game,
    legal_moves=rules.legal_moves,
    apply=rules.apply,
    view=view.view,
    result=view.result,
    hidden=view.hidden,
    determinize=strategy.determinize,
    heuristic_move=strategy.heuristic_move,
    evaluate=strategy.evaluate,
    provisional=True,
    format=migrations.FORMAT,
    migrations=migrations.MIGRATIONS,
))

__all__ = ["ENGINE"]
