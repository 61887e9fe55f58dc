"""Conquian's snapshot format steps (engines/conquian/migrations.py; seeds/conquian.md 10).

A format-1 state is what the code before the moves' events wrote: its ``last_deal`` without ``hand_counts``,
``dead``, ``discard`` and ``scores``. It is produced from real playout states by writing them back
the old way, migrated, decoded, and compared with the original.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from engines.conquian import ENGINE as E
from engines.conquian.migrations import FORMAT, MIGRATIONS, state_1_to_2
from engines.conquian.state import ConquianState
from tests.playout import playout

#: The fields of a view's ``last_deal`` in format 1 (git show e23672b:engines/conquian/view.py).
OLD_LAST_DEAL = ("deal", "dealer", "outcome", "winner", "stake", "melds", "stock_left")


def as_format_1(data: dict[str, Any]) -> dict[str, Any]:
    """What the format-1 encoder wrote for the same game (git show e23672b:engines/conquian/state.py)."""
    old = copy.deepcopy(data)
    if old["last_deal"] is not None:
        for key in ("hand_counts", "dead", "discard", "scores"):
            del old["last_deal"][key]
    return old


def states_after_deals(seed: str, **options: Any) -> list[ConquianState]:
    """Positions of a random match of 4 deals: each right after a deal ended, the end, one mid-match."""
    out = []
    steps = list(playout(E, 2, seed, {"max_deals": 4, **options}))
    for before, after in zip(steps, steps[1:], strict=False):
        if after.state.deal != before.state.deal:
            out.append(after.state)
    final = steps[-1]
    out.append(E.apply(final.state, final.seat, final.move))  # the match over
    out.append(steps[len(steps) // 2].state)
    return out


def play_on(state: ConquianState, seed: str, moves: int = 120) -> tuple[list[Any], dict[str, Any]]:
    rng = random.Random(seed)
    trace = []
    for _ in range(moves):
        if E.result(state) is not None:
            break
        seat = E.to_move(state)[0]
        legal = E.legal_moves(state, seat)
        move = legal[int(rng.random() * len(legal))]
        trace.append((seat, move))
        state = E.apply(state, seat, move)
    return trace, E.encode(state)


def test_the_engine_writes_format_2_and_migrates_from_format_1():
    assert E.format == FORMAT == 2 and E.migrations == MIGRATIONS == {1: state_1_to_2}


def test_a_format_1_last_deal_gets_its_exact_hand_counts_and_scores_and_unrecorded_dead_pile():
    """Section 10: ``scores`` and ``hand_counts`` follow exactly from what format 1 kept (they equal what
    the new code records), ``dead`` and ``discard`` become null; nothing else changes, the step is pure."""
    checked = 0
    for seed, options in (("m1", {}), ("m2", {"meld_from_hand_without_upcard": True}), ("m3", {"target": 1})):
        for state in states_after_deals(seed, **options):
            new = E.encode(state)
            old = as_format_1(new)
            frozen = copy.deepcopy(old)
            migrated = state_1_to_2(old)
            assert old == frozen  # pure
            if new["last_deal"] is None:
                assert migrated == new
                continue
            expected = copy.deepcopy(new)
            expected["last_deal"]["dead"] = None
            expected["last_deal"]["discard"] = None
            assert migrated == expected
            checked += 1
    assert checked >= 6


def test_a_migrated_game_shows_what_it_showed_and_plays_on_as_before():
    for state in states_after_deals("m4"):
        migrated = E.decode(state_1_to_2(as_format_1(E.encode(state))))
        for viewer in (None, 0, 1):
            now, was = E.view(migrated, viewer), E.view(state, viewer)
            if was["last_deal"] is not None:
                for key in OLD_LAST_DEAL:
                    assert now["last_deal"][key] == was["last_deal"][key], key
                assert now["last_deal"]["dead"] is None and now["last_deal"]["discard"] is None
                now, was = {**now, "last_deal": None}, {**was, "last_deal": None}
            assert now == was
        trace, end = play_on(migrated, "on")
        trace_real, end_real = play_on(state, "on")
        assert trace == trace_real
        if state.last_deal is None or end_real["last_deal"]["deal"] != state.last_deal.deal:
            assert end == end_real  # once the next deal ended, nothing of format 1 is left
        else:
            assert {**end, "last_deal": None} == {**end_real, "last_deal": None}
