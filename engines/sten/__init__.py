"""Sten ("Stein"): the Sevens / Fan-Tan layout game with a loser's stone.

Rules as implemented, dealing order, options and every ruling with its reason: seeds/sten.md.
The hearts 7 opens; suits are built up from their 7 to the king and down to the ace; a player
who cannot place a card says "Stein" and takes the stone; a player may declare to lay his whole
hand in one turn. The first empty hand wins; whoever holds the stone loses.
"""

from __future__ import annotations

from engines.contract import Game, GameEngine
from engines.sten import migrations, options, rules, strategy, view
from engines.sten.moves import MOVE_TYPES
from engines.sten.state import StenState

ENGINE = GameEngine(Game(
    id="sten",
    title='Sten ("Stein")',
    players=options.PLAYERS,
    options=options.OPTIONS,
    move_types=MOVE_TYPES,
    state=StenState,
    new_game=rules.new_game,
    legal_moves=rules.legal_moves,
    apply=rules.apply,
    view=view.view,
    result=rules.result,
    hidden=view.hidden,
    heuristic_move=strategy.heuristic_move,
    evaluate=strategy.evaluate,
    format=migrations.FORMAT,
    migrations=migrations.MIGRATIONS,
))

__all__ = ["ENGINE"]
