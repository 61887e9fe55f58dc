"""Snapshot formats of Siebenschläfer and the steps between them (issue 16's contract).

Format 1: everything released before the stalled-round rule. Format 2 (seeds/siebenschlaefer.md
section 12): the settings gain ``stalled_round``, and every finished round in ``history`` gains its
``reason`` and ``winners``. Each step is pure: an encoded state of one format in, the same game in
the next format out.
"""

from __future__ import annotations

from typing import Any

#: The snapshot format this code writes (format 1 = everything released so far).
FORMAT = 2


def state_1_to_2(data: dict[str, Any]) -> dict[str, Any]:
    """Pure: an encoded format-1 state -> the same game in format 2 (seeds/siebenschlaefer.md 12).

    - ``settings.stalled_round`` = ``count_hands``, the new default: the issue asks that a table in a
      round that can never end gets its hands counted instead of "aborted, no winner". Nothing that
      happened changes: a round in flight is checked for the stall only after its next move, and a
      format-1 game has never ended as stalled. ``max_turns`` keeps its stored value (the game was
      created with it).
    - Every finished round in ``history`` went out (format 1 knew no other end): ``reason``
      ``went_out`` and ``winners`` = ``[winner]``.
    """
    out = dict(data)
    out["settings"] = {**data["settings"], "stalled_round": "count_hands"}
    out["history"] = [{**r, "reason": "went_out", "winners": [r["winner"]]} for r in data["history"]]
    return out


#: Old format -> the function giving the next format.
MIGRATIONS = {1: state_1_to_2}
