"""Conquian: two-player proto-rummy with 40 cards; meld exactly 11 cards to win a deal.

Rules as implemented, and every ruling with its reason: seeds/conquian.md.
The game resource is a match of deals played to a target of units; drawn deals raise the stake.
"""

from __future__ import annotations

from engines.contract import Game, GameEngine

from . import migrations, options, rules, strategy, view
from .moves import MOVE_TYPES
from .state import ConquianState

ENGINE = GameEngine(Game(
    id="conquian",
    title="Conquian",
    players=options.PLAYERS,
    options=options.OPTIONS,
    move_types=MOVE_TYPES,
    state=ConquianState,
    new_game=rules.new_game,
    legal_moves=rules.legal_moves,
    apply=rules.apply,
    view=view.view,
    result=rules.result,
    to_move=rules.to_move,
    hidden=view.hidden,
    heuristic_move=strategy.heuristic_move,
    ranked_moves=strategy.ranked_moves,
    evaluate=strategy.evaluate,
    format=migrations.FORMAT,
    migrations=migrations.MIGRATIONS,
))

__all__ = ["ENGINE"]
