"""Server-side players for the seats named in ``bots`` on create.

A bot implements ``Bot.choose``; the service asks the bot of every bot seat that is to
move until a human is to move or the game ends. Better bots plug in by implementing
the same one-method interface.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from engines.core import Engine, Move


class Bot(Protocol):
    name: str

    def choose(self, engine: Engine, state: Any, seat: int, seed: str, turn: int) -> Move:
        """A legal move for ``seat`` (which is to move)."""
        ...


class RandomBot:
    """Plays a uniformly random entry of ``legal_moves``, seeded by the game so that a
    fixed deal with bots replays identically."""

    name = "random"

    def choose(self, engine: Engine, state: Any, seat: int, seed: str, turn: int) -> Move:
        moves = engine.legal_moves(state, seat)
        assert moves, f"{engine.id}: seat {seat} is to move but has no legal move"
        rng = random.Random(f"{seed}/bot/{seat}/{turn}")
        return moves[int(rng.random() * len(moves))]


DEFAULT_BOT: Bot = RandomBot()

#: Bot moves one request may make before it gives the turn back; a human seat is
#: always reached long before in a finite game, this only bounds a runaway loop.
MAX_BOT_MOVES = 20_000
