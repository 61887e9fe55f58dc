"""Siebenschläfer: a pub shedding game for 2-8 players with two decks, where every play is a pair
that must exceed the last one, 7s make others draw and the first empty hand wins.

Rules as implemented, and every ruling with its reason: seeds/siebenschlaefer.md.
"""

from __future__ import annotations

from engines.contract import Game, GameEngine
from engines.siebenschlaefer import migrations, options, rules, strategy, view
from engines.siebenschlaefer.moves import MOVE_TYPES
from engines.siebenschlaefer.state import State

ENGINE = GameEngine(Game(
    id="siebenschlaefer",
    title="Siebenschläfer",
    players=options.PLAYERS,
    options=options.OPTIONS,
    move_types=MOVE_TYPES,
    state=State,
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
