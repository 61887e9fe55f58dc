"""Kanaster's snapshot format steps (engines/kanaster/migrations.py; seeds/kanaster.md section 17).

A format-1 state is what the code before the hand cap wrote: its rules without ``hand_cap`` and with
``max_turns`` (default 3,000). A format-2 state is what the code before the moves' events wrote: its
``last_hand`` without ``totals`` and ``table``. Each is produced from a real playout state by writing
it back the old way, migrated, decoded, and played on next to the original.
"""

from __future__ import annotations

import copy
import itertools
import random
from dataclasses import replace

from engines.kanaster import ENGINE as E
from engines.kanaster.migrations import FORMAT, MIGRATIONS, state_1_to_2, state_2_to_3
from engines.kanaster.options import HAND_CAP
from engines.kanaster.state import KanasterState
from tests.playout import playout


def as_format_2(data: dict) -> dict:
    """What the format-2 encoder wrote for the same game (git show 96a97ec:engines/kanaster/state.py)."""
    old = copy.deepcopy(data)
    if old["last_hand"] is not None:
        del old["last_hand"]["totals"], old["last_hand"]["table"]
    return old


def forgotten(state: KanasterState) -> KanasterState:
    """``state`` as format 2 kept it: the last hand's final table lost."""
    if state.last_hand is None:
        return state
    return replace(state, last_hand=replace(state.last_hand, table=None))


def as_format_1(data: dict, max_turns: int | None = 3000) -> dict:
    """What the format-1 encoder wrote for the same game (git show 8f49af6:engines/kanaster/state.py)."""
    old = as_format_2(data)
    del old["rules"]["hand_cap"]
    old["rules"]["max_turns"] = max_turns
    return old


def midgame(players: int, seed: str):
    steps = list(itertools.islice(playout(E, players, seed, {}), 250))
    return steps[-1].state


def play_on(state, seed: str, moves: int = 200):
    rng = random.Random(seed)
    trace = []
    for _ in range(moves):
        if state.over:
            break
        legal = E.legal_moves(state, state.current)
        move = legal[int(rng.random() * len(legal))]
        trace.append((state.current, move))
        state = E.apply(state, state.current, move)
    return trace, E.encode(state)


def test_the_engine_writes_format_3_and_migrates_from_formats_1_and_2():
    assert E.format == FORMAT == 3 and E.migrations == MIGRATIONS == {1: state_1_to_2, 2: state_2_to_3}


def test_a_default_game_in_flight_gets_the_hand_cap_and_loses_the_turn_cap():
    """Section 17: a default match (max_turns 3,000) migrates to hand_cap 500 and no turn cap, and then
    plays on exactly like the same game started by the new code: same hands, same turn, same moves."""
    for players in (2, 5):
        state = midgame(players, f"migrate/{players}")
        new = E.encode(state)
        old = as_format_1(new)
        frozen = copy.deepcopy(old)
        migrated = state_1_to_2(old)
        assert old == frozen  # pure
        assert migrated == as_format_2(new)
        decoded = E.decode(state_2_to_3(migrated))
        assert decoded == forgotten(state) and decoded.rules.hand_cap == HAND_CAP and decoded.rules.max_turns is None
        assert play_on(decoded, "on") == play_on(forgotten(state), "on")


def test_a_chosen_turn_cap_is_kept():
    """A max_turns other than the old default was the player's choice: it is kept, so the game still
    ends where it would have; an aborted game stays aborted with its reason."""
    state = midgame(3, "migrate/custom")
    old = as_format_1(E.encode(state), max_turns=state.turns + 1)
    decoded = E.decode(state_2_to_3(state_1_to_2(old)))
    assert decoded.rules.max_turns == state.turns + 1 and decoded.hands == state.hands
    assert decoded.current == state.current and decoded.phase == state.phase
    trace, end = play_on(decoded, "cap", 400)
    assert end["phase"] == "aborted" and E.result(E.decode(end)).detail["reason"] == "max_turns"
    aborted = as_format_1(end, max_turns=state.turns + 1)
    again = E.decode(state_2_to_3(state_1_to_2(aborted)))
    assert again.over and E.result(again).status == "aborted" and E.result(again).detail["reason"] == "max_turns"


def test_a_game_aborted_at_the_old_default_cap_stays_aborted_with_it():
    """A format-1 game that the old default cap (3,000 turns) had aborted keeps that cap and its result."""
    state = midgame(2, "migrate/aborted")
    _, end = play_on(E.decode(state_2_to_3(state_1_to_2(as_format_1(E.encode(state), max_turns=state.turns + 2)))),
                     "x")
    old = as_format_1(end, max_turns=3000)
    old["turns"] = 3000
    again = E.decode(state_2_to_3(state_1_to_2(old)))
    assert again.rules.max_turns == 3000 and again.over
    assert E.result(again).status == "aborted" and E.result(again).detail["reason"] == "max_turns"


def after_a_hand(players: int, seed: str) -> KanasterState:
    for step in playout(E, players, seed, {}):
        if step.state.last_hand is not None:
            return step.state
    raise AssertionError("no hand ended")


def test_a_format_2_last_hand_keeps_its_count_gains_the_totals_and_no_table():
    """Section 17: a format-2 game's last hand keeps every field it showed; its
    ``totals`` are the scores written after it (exact: scores change only when a hand ends); its final
    table was not kept, so ``table`` is null; the game plays on exactly as before."""
    for players in (2, 4):
        state = after_a_hand(players, f"migrate3/{players}")
        assert state.last_hand.table is not None
        old = as_format_2(E.encode(state))
        frozen = copy.deepcopy(old)
        migrated = state_2_to_3(old)
        assert old == frozen  # pure
        decoded = E.decode(migrated)
        assert decoded == forgotten(state)
        assert decoded.last_hand.totals == state.scores == state.last_hand.totals
        before = E.view(state, 0)["last_hand"]
        after = E.view(decoded, 0)["last_hand"]
        assert after["table"] is None
        assert {k: v for k, v in after.items() if k != "table"} == {k: v for k, v in before.items() if k != "table"}
        assert play_on(decoded, "on3") == play_on(forgotten(state), "on3")


def test_a_format_2_game_without_a_finished_hand_is_unchanged():
    state = midgame(3, "migrate3/early")
    state = replace(state, last_hand=None, history=())
    assert state_2_to_3(E.encode(state)) == E.encode(state)
