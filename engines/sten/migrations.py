"""Snapshot formats of Sten ("Stein"): format 1 is the only one so far, so there is no step yet.

When a release changes what a game stores, it raises ``FORMAT`` and adds the pure step from the old
format to ``MIGRATIONS`` (as the other games' ``migrations`` modules do).
"""

from __future__ import annotations

from engines.core import Migration

#: The snapshot format this code writes.
FORMAT = 1

#: Old format -> the function giving the next format.
MIGRATIONS: dict[int, Migration] = {}
