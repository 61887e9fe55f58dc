"""Snapshot formats of Conquian and the steps between them (seeds/conquian.md 10): a game stored in an
older format is brought to the current one, step by step, before the engine reads it.

Format 1: the first; ``last_deal`` holds the deal's number, dealer, outcome, winner, stake, final melds
and ``stock_left``. Format 2 (written since every move reports its events): ``last_deal`` keeps the
whole final table and score of the finished deal: ``hand_counts``, ``dead``, ``discard`` and the
match ``scores`` after it. Each step is pure: an encoded state of one format in, the same game in
the next format out.
"""

from __future__ import annotations

from typing import Any

from .state import HAND_SIZE

#: The snapshot format this code writes (format 1 = the first, before moves reported events).
FORMAT = 2


def state_1_to_2(data: dict[str, Any]) -> dict[str, Any]:
    """Pure: an encoded format-1 state -> the same game in format 2 (seeds/conquian.md 10).

    A finished deal (``last_deal``) gains what format 1 did not keep, as far as it is known:

    - ``scores``: the match scores of the state. Scores change only when a deal ends, and that deal
      is ``last_deal``, so they are exactly the scores right after it.
    - ``hand_counts``: the winner melded all his cards (0 left); every other hand held
      ``10 - melded`` cards (between turns hand + melded = 10, section 4.2; a drawn deal ends in
      ``choose``, where that holds for both).
    - ``dead`` and ``discard``: not derivable (the dead pile of the finished deal is gone): null,
      "not recorded".

    Nothing else changes: the deal in flight, whose turn it is and the match score are untouched.
    """
    out = dict(data)
    ld = data["last_deal"]
    if ld is not None:
        counts = [0 if seat == ld["winner"] else HAND_SIZE - sum(len(m) for m in melds)
                  for seat, melds in enumerate(ld["melds"])]
        out["last_deal"] = {**ld, "hand_counts": counts, "dead": None, "discard": None,
                            "scores": list(data["scores"])}
    return out


#: Old format -> the function giving the next format.
MIGRATIONS = {1: state_1_to_2}
