"""Snapshot formats of Keine lahme Agame and the steps between them: a game stored in an older format
is brought to the current one, step by step, before the engine reads it.

Format 1: the first, before moves reported events; ``last_section`` keeps the section's number,
emptied seats, points and complete rows. Format 2 (seeds/keine-lahme-agame.md "Events"): the
finished section kept in ``last_section`` gains its final table, the hands revealed, the rows scored
and the discard pile. Each step is pure: an encoded state of one format in, the same
game in the next format out.
"""

from __future__ import annotations

from typing import Any

#: The snapshot format this code writes (format 1 = the first, before moves reported events).
FORMAT = 2


def state_1_to_2(data: dict[str, Any]) -> dict[str, Any]:
    """Pure: an encoded format-1 state -> the same game in format 2.

    A format-1 ``last_section`` is ``[section, emptied, points, complete]``; format 2 appends the
    section's final table ``hands, rows, discard``. The old release did not keep that table and it
    cannot be rebuilt (the next section has been dealt since), so a migrated section records it as
    unknown (null each); its number, emptied seats, points and complete rows are kept unchanged.
    """
    out = dict(data)
    ls = data["last_section"]
    if ls is not None:
        assert len(ls) == 4, "not a format-1 state"
        out["last_section"] = [*ls, None, None, None]
    return out


#: Old format -> the function giving the next format.
MIGRATIONS = {1: state_1_to_2}
