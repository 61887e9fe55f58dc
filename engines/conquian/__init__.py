"""Conquian: two-player proto-rummy with 40 cards; meld exactly 11 cards to win a deal.

Rules as implemented, and every ruling with its reason: seeds/conquian.md.
The game resource is a match of deals played to a target of units; drawn deals raise the stake.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engines.core import EngineDefaults, Event, Move, Result

from . import migrations as _migrations
from . import rules, strategy, view
from .state import MOVE_TYPES, OPTIONS, ConquianState
from .state import decode as decode_state
from .state import encode as encode_state


class ConquianEngine(EngineDefaults):
    """The Engine protocol (engines.core.Engine) for Conquian."""

    id = "conquian"
    title = "Conquian"
    players = rules.PLAYERS
    options = OPTIONS
    provisional = False
    move_types = MOVE_TYPES
    format = _migrations.FORMAT
    migrations = _migrations.MIGRATIONS

    def new_game(
        self, players: int, options: Mapping[str, Any] | None, seed: str, deck: Sequence[str] | None = None
    ) -> ConquianState:
        return rules.new_game(players, options, seed, deck)

    def to_move(self, state: ConquianState) -> tuple[int, ...]:
        return rules.to_move(state)

    def legal_moves(self, state: ConquianState, seat: int) -> tuple[Move, ...]:
        return rules.legal_moves(state, seat)

    def apply(self, state: ConquianState, seat: int, move: Move) -> ConquianState:
        return rules.apply(state, seat, move)

    def apply_events(self, state: ConquianState, seat: int, move: Move) -> tuple[ConquianState, tuple[Event, ...]]:
        return rules.apply_events(state, seat, move)

    def view(self, state: ConquianState, seat: int | None) -> dict[str, Any]:
        return view.view(state, seat)

    def result(self, state: ConquianState) -> Result | None:
        return rules.result(state)

    def encode(self, state: ConquianState) -> dict[str, Any]:
        return encode_state(state)

    def decode(self, data: Mapping[str, Any]) -> ConquianState:
        return decode_state(data)

    def redact_move(self, state_before: ConquianState, seat: int, move: Move, viewer: int | None) -> dict[str, Any]:
        return view.redact_move(state_before, seat, move, viewer)

    def shuffle_hidden(self, state: ConquianState, seat: int | None, seed: str) -> ConquianState:
        return rules.shuffle_hidden(state, seat, seed)

    def determinize(self, state: ConquianState, seat: int, rng: random.Random) -> ConquianState:
        return strategy.determinize(state, seat, rng)

    def heuristic_move(self, state: ConquianState, seat: int, rng: random.Random) -> Move:
        return strategy.heuristic_move(state, seat, rng)

    def ranked_moves(self, state: ConquianState, seat: int, rng: random.Random) -> list[Move]:
        return strategy.ranked_moves(state, seat, rng)

    def evaluate(self, state: ConquianState, seat: int) -> float:
        return strategy.evaluate(state, seat)


ENGINE = ConquianEngine()

__all__ = ["ENGINE", "ConquianEngine"]
