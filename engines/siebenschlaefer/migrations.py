"""Snapshot formats of Siebenschläfer and the steps between them: a game stored in an older format
is brought to the current one, step by step, before the engine reads it.

Format 1: the first, before the stalled-round rule. Format 2 (seeds/siebenschlaefer.md section 12):
the settings gain ``stalled_round``, and every finished round in ``history`` gains its ``reason``
and ``winners``. Format 3 (section 16, written since every move reports its events): every finished
round keeps the table as it ended (``top``, ``target``, ``pile_count``, ``stock_count``). Each step
is pure: an encoded state of one format in, the same game in the next format out.
"""

from __future__ import annotations

from typing import Any

#: The snapshot format this code writes.
FORMAT = 3


def state_1_to_2(data: dict[str, Any]) -> dict[str, Any]:
    """Pure: an encoded format-1 state -> the same game in format 2 (seeds/siebenschlaefer.md 12).

    - ``settings.stalled_round`` = ``count_hands``, the new default: a table in a round that can
      never end should get its hands counted, as at the pub, instead of "aborted, no winner". Nothing that
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


def state_2_to_3(data: dict[str, Any]) -> dict[str, Any]:
    """Pure: an encoded format-2 state -> the same game in format 3 (seeds/siebenschlaefer.md 16).

    Format 3 keeps with every finished round the table as it ended. A format-2 game did not keep it
    and it cannot be rebuilt (the next round's deal took the pile away), so its finished rounds get
    ``top``, ``target``, ``pile_count`` and ``stock_count`` null: the view's ``last_round.table`` is
    null for them (unknown), never a made-up table.
    """
    out = dict(data)
    out["history"] = [{**r, "top": None, "target": None, "pile_count": None, "stock_count": None}
                      for r in data["history"]]
    return out


#: Old format -> the function giving the next format.
MIGRATIONS = {1: state_1_to_2, 2: state_2_to_3}
