"""The view ``state`` fields a release renamed, so that what an older release showed can be compared
with what the current code shows: ``in_current_names(game, state)`` is an old view's ``state`` with
every renamed field under its current name (docs/api.md, "Common names in `state`").

Only the names change: every value is the one the old release showed, moved where the current view
keeps it (a per-seat ``hand_count`` into the list ``hand_counts``, a per-seat ``score`` into
``scores``). A state that already has the current names is returned unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

State = dict[str, Any]


def _renamed(state: State, names: dict[str, str]) -> State:
    """``state`` with each key of ``names`` present renamed to its value, in place of the old key."""
    return {names.get(k, k): v for k, v in state.items()}


def _per_seat_out(state: State, key: str, moved: dict[str, str]) -> State:
    """The per-seat list ``state[key]`` without the fields of ``moved``, each of which becomes a list
    by seat under the top-level name ``moved[field]`` (``hand_count`` -> ``hand_counts``)."""
    seats = state[key]
    out = {**state, key: [{k: v for k, v in s.items() if k not in moved} for s in seats]}
    for field, name in moved.items():
        out[name] = [s[field] for s in seats]
    return out


def _sten(state: State) -> State:
    return _renamed(state, {"turn": "turns_played"})


def _keine_lahme_agame(state: State) -> State:
    state = _renamed(state, {"turn": "turns_played", "discard": "discard_pile"})
    if state["players"] and "hand_count" in state["players"][0]:
        state = _per_seat_out(state, "players", {"hand_count": "hand_counts", "score": "scores"})
    return state


def _conquian(state: State) -> State:
    if "turn" not in state:
        return state
    # ``turn`` named the seat whose turn it is, also once the match was over; ``current`` is null then
    return {**_renamed(state, {"turn": "current"}), "current": None if state["phase"] == "over" else state["turn"]}


def _siebenschlaefer(state: State) -> State:
    return _renamed(state, {"pile_count": "discard_count", "target": "to_beat", "totals": "scores"})


def _kanaster(state: State) -> State:
    if "seats" in state:
        state = _per_seat_out(state, "seats", {"hand_count": "hand_counts", "score": "scores"})
    return _renamed(state, {"seats": "players", "talon_count": "stock_count", "pile": "discard_pile",
                            "pile_top": "discard_top", "turn": "current_turn", "turns": "turns_played"})


RENAMES: dict[str, Callable[[State], State]] = {
    "sten": _sten,
    "keine-lahme-agame": _keine_lahme_agame,
    "conquian": _conquian,
    "siebenschlaefer": _siebenschlaefer,
    "kanaster": _kanaster,
}


def in_current_names(game: str, state: State) -> State:
    """An old view's ``state`` of ``game`` under the names the current view gives its fields."""
    return RENAMES[game](state)
