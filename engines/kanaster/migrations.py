"""Snapshot format steps of Kanaster (seeds/kanaster.md section 17): a game stored in an older format
is brought to the current one, step by step, before the engine reads it.

Format 1 is the first: a match is bounded by ``max_turns`` (default 3,000). Format 2 bounds a match
by hands: the rules gain ``hand_cap`` and ``max_turns`` no longer defaults to 3,000. Format 3 keeps
the last finished hand's final table and the totals after it in ``last_hand`` (written since every
move reports its events).
"""

from __future__ import annotations

import copy
from typing import Any

from .options import HAND_CAP

FORMAT = 3  # the state format this code writes (format 1 = the first, bounded by max_turns)

#: The old default of ``max_turns``: a game stored with it did not choose it (a match to the target
#: is no longer aborted by turns; it is bounded by hands).
_OLD_MAX_TURNS_DEFAULT = 3000


def state_1_to_2(data: dict[str, Any]) -> dict[str, Any]:
    """Pure: an encoded state of format 1 -> the same game in format 2 (seeds/kanaster.md section 17).

    The game in flight gets the new default ``hand_cap`` (bounded like a new match); ``max_turns`` at
    the old default 3,000 becomes null (the new default: a real match was aborted by it), any
    other value the player chose is kept. Hands, melds, scores, whose turn and phase are
    untouched; a game already aborted stays aborted and keeps its ``max_turns``, so that its
    result still names the cap that ended it.
    """
    out = copy.deepcopy(data)
    rules = out["rules"]
    assert "hand_cap" not in rules, "not a format-1 state"
    rules["hand_cap"] = HAND_CAP
    if rules.get("max_turns") == _OLD_MAX_TURNS_DEFAULT and out["phase"] != "aborted":
        rules["max_turns"] = None
    return out


def state_2_to_3(data: dict[str, Any]) -> dict[str, Any]:
    """Pure: an encoded state of format 2 -> the same game in format 3 (seeds/kanaster.md section 17).

    ``last_hand`` gains ``totals``, the cumulative totals written after that hand: they are the
    state's ``scores``, which change only when a hand ends, so they are exact; and ``table``, the
    hand's final table, which format 2 did not keep (the next hand was dealt over it): null, shown
    as such. Nothing else changes.
    """
    out = copy.deepcopy(data)
    last = out["last_hand"]
    if last is not None:
        assert "table" not in last, "not a format-2 state"
        last["totals"] = list(out["scores"])
        last["table"] = None
    return out


MIGRATIONS = {1: state_1_to_2, 2: state_2_to_3}  # old format -> function giving the next format
