"""A worker's background loop: the deadline sweeper (``service.sweeper``) and the metrics flusher
(``service.observability``) run in one each.

A loop is one daemon thread (a greenlet under gevent, whose monkey-patching makes threads
greenlets) that ends with the process, or at ``stop``; ``run`` says what it does every ``interval``
seconds, and is bounded by ``stopped``, the event ``stop`` sets and every wait of the loop waits on."""

from __future__ import annotations

import threading
from typing import Self


class WorkerLoop:
    """Subclasses write ``run``; ``name`` names the thread (in a stack dump, in ``py-spy``)."""

    name = "cardtable-loop"

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.stopped = threading.Event()
        self.thread: threading.Thread | None = None

    def run(self) -> None:
        raise NotImplementedError

    def start(self) -> Self:
        self.thread = threading.Thread(target=self.run, name=self.name, daemon=True)
        self.thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self.stopped.set()
        if self.thread is not None:
            self.thread.join(timeout)
