"""Deadlines that fire with nobody asking: every worker (and ``cardtable serve``) runs a ``Sweeper``
that claims the games due in the store's set of due games (``Store.claim``: each claimed game's time
is pushed a lease ahead, so a worker that dies on the way only delays it) and applies each one's real
deadline, read off the game itself (``service.deadlines.enforce``): a claim is a hint. The loop is
bounded (an interval, a batch, a longer wait each time the store fails) and never a timer per game.
"""

from __future__ import annotations

import logging
import random

from flask import Flask

from service import clocks, table
from service.deadlines import enforced
from service.errors import ApiError
from service.loops import WorkerLoop
from service.records import loads
from service.runtime import runtime
from service.store import StoreUnavailable

logger = logging.getLogger("cardtable")

#: How long a claim holds a due game: another worker claims it again once this is over.
LEASE_MS = 30_000


def settle_due(game_id: str, claimed: int) -> bool:
    """Act on one game claimed from the due set (its time set to ``claimed`` by the claim): apply what
    is really due (the game decides, not the claim), then, when no commit set the game's time meanwhile,
    set it to the game's next due time, or take a finished or vanished game out. True when a deadline
    was applied."""
    rt = runtime()
    loaded = rt.store.load(game_id)
    peek = loads(loaded.snapshot) if loaded is not None else None
    game = rt.games.get(str(peek.get("game"))) if isinstance(peek, dict) else None
    if loaded is None or game is None:
        rt.store.reschedule(game_id, claimed, None)
        return False
    try:
        stored = game.read(game_id, loaded)
    except ApiError:  # a record this release cannot read (a newer one's): not ours to act on
        rt.store.reschedule(game_id, claimed, None)
        return False
    stored, applied = enforced(game, game_id, stored)
    if not applied:
        engine = game.engine
        active = table.status(stored.record, engine.result(stored.state)) == "active"
        due = clocks.due(stored.record, active)
        rt.store.reschedule(game_id, claimed, due)
        # On a cluster a commit moves the time earlier just before and after its write: one that came
        # between this read and the reschedule still stands, as read again here.
        if rt.store.kind == "redis" and not rt.store.atomic_lobby:
            again = game.read(game_id)
            if again.version != stored.version and (d := again.record.get("due")) is not None:
                rt.store.schedule(game_id, d)
    return applied


class Sweeper(WorkerLoop):
    """A worker's loop over the due games: every ``interval`` seconds it claims up to ``batch`` of them
    and settles each (``settle_due``); when the store fails it waits longer each time (up to a minute)
    and goes on once the store is back. One daemon thread (a greenlet under gevent) per worker."""

    name = "cardtable-deadlines"

    def __init__(self, app: Flask, interval: float, batch: int) -> None:
        super().__init__(interval)
        self.app = app
        self.batch = batch

    def sweep(self) -> int:
        """One sweep: the number of games claimed."""
        with self.app.app_context():
            rt = runtime()
            claimed = rt.store.claim(clocks.now_ms(), LEASE_MS, self.batch)
            for game_id, at in claimed:
                try:
                    settle_due(game_id, at)
                except StoreUnavailable:
                    raise
                except Exception:  # one game's trouble never stops the loop; its lease brings it back
                    logger.exception("the deadline of game %s could not be applied", game_id)
            return len(claimed)

    def run(self) -> None:
        # Workers start together: each begins at its own random point of the interval, so that their
        # sweeps interleave and a deadline waits half an interval on average, not a whole one.
        if self.stopped.wait(random.uniform(0, self.interval)):
            return
        pause = self.interval
        while not self.stopped.is_set():
            try:
                taken = self.sweep()
                pause = 0.0 if taken >= self.batch else self.interval  # more are due: at once
            except StoreUnavailable as exc:
                pause = min(60.0, max(self.interval, pause * 2))
                logger.warning("deadline sweep: the store is unavailable (%s); again in %.1f s", exc, pause)
            except Exception:
                pause = min(60.0, max(self.interval, pause * 2))
                logger.exception("deadline sweep failed; again in %.1f s", pause)
            self.stopped.wait(pause)


def start(app: Flask) -> Sweeper | None:
    """Start the app's sweeper (once per process), unless CARDTABLE_SWEEP_SECONDS is 0 or the app is not
    the service (``bench.floor_app`` runs under the same gunicorn config and has no games to sweep)."""
    settings = app.extensions.get("cardtable.settings")
    if settings is None or settings.sweep_seconds <= 0:
        return None
    running: Sweeper | None = app.extensions.get("cardtable.sweeper")
    if running is None:
        running = app.extensions["cardtable.sweeper"] = Sweeper(app, settings.sweep_seconds,
                                                                settings.sweep_batch).start()
    return running
