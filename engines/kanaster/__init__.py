"""Kanaster: the Swiss house rules of canasta, 2 to 5 players each for himself.

Rules as implemented, dealing order, options and every ruling with its reason:
seeds/kanaster.md. Two or three packs with jokers; the cutter keeps the wild cards at the cut;
13 cards each; red 3s are laid out and replaced; melds of one rank with fewer wild cards than
natural cards; the pile is taken by melding its top card; canastas block their rank; going out
needs a canasta. A game is the whole match, hand after hand, to 5,000 points (option).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from engines.core import JSON, EngineDefaults, Event, Move, Result

from . import migrations as _migrations
from . import rules, strategy, view
from .moves import MOVE_TYPES
from .state import OPTIONS, PLAYERS, KanasterState, decode_state, encode_state


class KanasterEngine(EngineDefaults):
    """The engine surface (engines.core.Engine) of Kanaster; the rules live in ``rules``/``view``."""

    id = "kanaster"
    title = "Kanaster (Swiss canasta)"
    players = PLAYERS
    options = OPTIONS
    provisional = False
    move_types = MOVE_TYPES
    format = _migrations.FORMAT
    migrations = _migrations.MIGRATIONS

    def new_game(
        self, players: int, options: Mapping[str, JSON] | None, seed: str, deck: Sequence[str] | None = None
    ) -> KanasterState:
        return rules.new_game(players, options, seed, deck)

    def to_move(self, state: KanasterState) -> tuple[int, ...]:
        return () if state.over else (state.current,)

    def legal_moves(self, state: KanasterState, seat: int) -> tuple[Move, ...]:
        return rules.legal_moves(state, seat)

    def apply(self, state: KanasterState, seat: int, move: Move) -> KanasterState:
        return rules.apply(state, seat, move)

    def apply_events(self, state: KanasterState, seat: int, move: Move) -> tuple[KanasterState, tuple[Event, ...]]:
        return rules.apply_events(state, seat, move)

    def view(self, state: KanasterState, seat: int | None) -> dict[str, JSON]:
        return view.view(state, seat)

    def result(self, state: KanasterState) -> Result | None:
        return rules.result(state)

    def encode(self, state: KanasterState) -> dict[str, JSON]:
        return encode_state(state)

    def decode(self, data: Mapping[str, JSON]) -> KanasterState:
        return decode_state(data)

    def redact_move(self, state_before: KanasterState, seat: int, move: Move, viewer: int | None) -> dict[str, JSON]:
        return view.redact_move(state_before, seat, move, viewer)

    def shuffle_hidden(self, state: KanasterState, seat: int | None, seed: str) -> KanasterState:
        return view.shuffle_hidden(state, seat, seed)

    def determinize(self, state: KanasterState, seat: int, rng: random.Random) -> KanasterState:
        return strategy.determinize(state, seat, rng)

    def heuristic_move(self, state: KanasterState, seat: int, rng: random.Random) -> Move:
        return strategy.heuristic_move(state, seat, rng)

    def ranked_moves(self, state: KanasterState, seat: int, rng: random.Random) -> list[Move]:
        return strategy.ranked_moves(state, seat, rng)

    def evaluate(self, state: KanasterState, seat: int) -> float:
        return strategy.evaluate(state, seat)


ENGINE = KanasterEngine()

__all__ = ["ENGINE", "KanasterEngine"]
