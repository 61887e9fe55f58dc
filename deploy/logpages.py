"""A game's whole log, read page after page: the one reader of the soak's checker and the Locust task.

``GET /v1/{game}/games/{id}/log?since=V&limit=N`` answers at most ``N`` entries after version ``V``
(the service's default and maximum are in ``schemas/common.py``) and ``next_since`` while more
remain. A single read of a long game (a Siebenschläfer match reaches a thousand versions and more)
therefore sees only its first page; this reader follows ``next_since`` until it is null, and at
most ``max_pages`` times, so that a log that never ends (or a service that never says so) is an
error, not an endless loop.

No HTTP client is imported here: the caller passes ``get(path) -> (status, body)``, which is how
the checker (plain ``http.client``, retrying) and Locust (its own client, counting every page as a
request) can share it. Nothing else from the project is imported either: Locust loads this file
next to the locustfile, outside the package.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: Pages of one log before the reader gives up: 100 pages of the service's default 500 entries are
#: ten times the longest game the load test lets run (``LOCUST_MAX_MOVES``, 5,000 moves).
MAX_PAGES = 100

Get = Callable[[str], tuple[int, Any]]


class LogTooLong(RuntimeError):
    """The log did not end (``next_since`` null) within the page bound."""


def read_log(get: Get, path: str, limit: int | None = None, max_pages: int = MAX_PAGES) -> tuple[int, Any]:
    """``(200, log)`` with every entry of the log at ``path`` (``/v1/{game}/games/{id}/log``), where
    ``log`` is the last page's answer with the entries of all pages and ``next_since`` null; or
    ``(status, None)`` for the first page not answered 200. ``limit`` is the page size (the
    service's default when None). Raises ``LogTooLong`` after ``max_pages`` pages, and when a page
    names a ``next_since`` that does not go forward (the same pages would come again)."""
    entries: list[Any] = []
    since = 0
    for _ in range(max_pages):
        status, page = get(f"{path}?since={since}" + (f"&limit={limit}" if limit is not None else ""))
        if status != 200:
            return status, None
        entries.extend(page["entries"])
        following = page["next_since"]
        if following is None:
            return 200, {**page, "entries": entries}
        if following <= since:
            raise LogTooLong(f"{path}: next_since {following} after since {since} does not go forward")
        since = following
    raise LogTooLong(f"{path}: the log did not end within {max_pages} pages of "
                     f"{limit if limit is not None else 'the default'} entries")
