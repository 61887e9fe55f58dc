"""Server-side players for the seats named in ``bots`` on create, at their level (``bots.LEVELS``).

The service asks the bot of every bot seat that is to move until a human is to move or the game
ends (``games.play_bots``). The moves themselves come from the pure ``bots`` package; this module
adds what only a request knows: the per-move budget and the bound on all bot moves of one request.

The request bound (``CARDTABLE_BOT_REQUEST_SECONDS``) has two parts, so that a fixed deal replays:

- a deterministic one: at most ``request_seconds / budget_ms`` ``strong`` searches per request (each
  is calibrated to stay under ``budget_ms``; a move with a single choice searches nothing and is
  not counted); the bot moves after them in the same request play ``greedy``. Request boundaries
  are the humans' moves, so a replay of the same moves falls back at the same move and plays the
  same game;
- a safety net on the CPU time the request's bot moves really took: past ``request_seconds`` the
  rest play ``greedy`` too. It only trips on an overloaded or much slower machine, and then a
  replay may differ from the original from that move on (as when a single search hits its cap).

The default, 0.25 s at 50 ms a search, is five searches per request: in a 2-player game a bot's
turn needs more only rarely (about 1 in 100 of Kanaster's, never in Conquian's), while four
``strong`` Kanaster bots at one table, a dozen or more searches between two human moves, would
otherwise cost a request over half a second of CPU.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bots import DEFAULT_LEVEL, LEGACY_LEVEL, LEVELS, SearchStats, budget_for, choose_move
from engines.core import Engine, Move

__all__ = ["DEFAULT_LEVEL", "LEGACY_LEVEL", "LEVELS", "MAX_BOT_MOVES", "BotPolicy", "RequestBots", "seat_level"]

#: Bot moves one request may make before it gives the turn back; a human seat is
#: always reached long before in a finite game, this only bounds a runaway loop.
MAX_BOT_MOVES = 20_000


def seat_level(seat: Mapping[str, Any]) -> str | None:
    """The bot level of a stored seat (``{"hash", "bot", "level"}``), None for a human's. A bot seat
    stored without a level was created before levels existed, when every bot played ``random``."""
    if not seat.get("bot"):
        return None
    level = seat.get("level", LEGACY_LEVEL)
    return level if level in LEVELS else LEGACY_LEVEL


@dataclass(frozen=True)
class BotPolicy:
    """The deployment's bot settings: CPU milliseconds per ``strong`` move, CPU seconds for all bot
    moves of one request."""

    budget_ms: float = 50.0  # CARDTABLE_BOT_BUDGET_MS
    request_seconds: float = 0.25  # CARDTABLE_BOT_REQUEST_SECONDS

    @property
    def strong_moves_per_request(self) -> int:
        """The deterministic part of the request bound: strong searches per request (at least one)."""
        return max(1, int(self.request_seconds * 1000.0 // max(self.budget_ms, 1e-3)))


@dataclass
class RequestBots:
    """The bot moves of one request: chooses each at its seat's level within the request's bound."""

    policy: BotPolicy
    started: float = field(default_factory=time.process_time)
    strong_moves: int = 0  # strong searches run (a move with a single choice is no search)
    fallbacks: int = 0  # strong moves played as greedy because the request's bound was reached
    capped: int = 0  # strong searches that hit their CPU cap

    def level_now(self, level: str) -> str:
        """``level``, or ``greedy`` once a ``strong`` seat would exceed the request's bound."""
        if level != "strong":
            return level
        over_count = self.strong_moves >= self.policy.strong_moves_per_request
        over_time = time.process_time() - self.started > self.policy.request_seconds
        if over_count or over_time:
            self.fallbacks += 1
            return "greedy"
        self.strong_moves += 1
        return level

    def choose(self, engine: Engine, state: Any, seat: int, level: str, seed: str, turn: int) -> Move:
        """A legal move for bot ``seat`` (which is to move), at its level or the request's fallback."""
        level = self.level_now(level)
        stats = SearchStats()
        budget = budget_for(engine, self.policy.budget_ms) if level == "strong" else None
        move = choose_move(engine, state, seat, level, seed, turn, budget=budget, stats=stats)
        self.capped += stats.capped
        if stats.skipped:  # a single choice cost nothing: it does not count against the bound
            self.strong_moves -= 1
        return move
