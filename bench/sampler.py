"""Where a gunicorn worker's CPU time goes, sampled on CPU time: ``bench.http --sample DIR``.

py-spy samples wall time and counts a process that is runnable but waiting for a core as busy; on
two cores shared by two servers, Redis and the client processes that is much of the time, so it
misplaces the difference between the real service and the floor. This sampler counts CPU time only:
each worker arms ``ITIMER_PROF`` (it fires after every slice of the process's own CPU time, at the
kernel's tick) and its handler records the interrupted Python stack, in quarter-second buckets so
that each phase of a run can be told apart afterwards. Time spent in C (orjson, a system call) is
counted against the Python function that called it, or against the next Python line to run after
it (a callback orjson calls, for one): read whole functions (inclusive time), not single lines.

The workers write their samples when they exit (gunicorn's ``worker_exit``, in
``bench/gunicorn_sampled.py``); ``report`` scales each function's share of a phase's samples by the
phase's measured worker CPU per request (``/proc``), so no tick length is assumed.
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

#: Buckets per second of the samples' clock (``time.monotonic``, one clock for every process).
BUCKETS = 4
#: The deepest stack recorded (innermost frames first kept).
DEPTH = 80


def frame_name(filename: str, function: str) -> str:
    """``service/moves.py:submit``: the last directory, the file and the function."""
    parts = filename.replace("\\", "/").rsplit("/", 2)
    return f"{'/'.join(parts[-2:])}:{function}"


def start(directory: str) -> Callable[[], None]:
    """Sample this process from now on; returns the function that stops and writes the samples
    (``<directory>/samples-<parent pid>-<pid>.json``: the parent is the gunicorn master, one per
    server)."""
    counts: Counter[tuple[int, tuple[str, ...]]] = Counter()
    clock = time.monotonic

    def sample(signum: int, frame: FrameType | None) -> None:
        stack: list[str] = []
        while frame is not None and len(stack) < DEPTH:
            code = frame.f_code
            stack.append(frame_name(code.co_filename, code.co_name))
            frame = frame.f_back
        stack.reverse()
        counts[(int(clock() * BUCKETS), tuple(stack))] += 1

    signal.signal(signal.SIGPROF, sample)
    signal.setitimer(signal.ITIMER_PROF, 0.001, 0.001)

    def stop() -> None:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        path = Path(directory) / f"samples-{os.getppid()}-{os.getpid()}.json"
        path.write_text(json.dumps([[bucket, list(stack), n] for (bucket, stack), n in counts.items()]))

    return stop


@dataclass
class Window:
    """A timed phase of one server: its master's pid, its clock span and its worker CPU per request."""

    master: int
    start: float
    end: float
    cpu_per_request: float  # microseconds


Sample = tuple[int, Sequence[str], int]  # bucket, stack (outermost first), count


def inclusive(samples: Iterable[Sample], windows: Sequence[Window]) -> tuple[Counter[str], int]:
    """Samples per function (a function counted once per sample however deep it recurses) and the
    samples in all, of the buckets wholly inside one of ``windows``."""
    spans = [(int(w.start * BUCKETS) + 1, int(w.end * BUCKETS)) for w in windows]
    per: Counter[str] = Counter()
    total = 0
    for bucket, stack, n in samples:
        if not any(lo <= bucket < hi for lo, hi in spans):
            continue
        total += n
        for name in set(stack):
            per[name] += n
    return per, total


def load(directory: str, master: int) -> list[Sample]:
    """Every sample the workers of the server with ``master`` wrote."""
    out: list[Sample] = []
    for path in sorted(Path(directory).glob(f"samples-{master}-*.json")):
        out += [(b, s, n) for b, s, n in json.loads(path.read_text())]
    return out


def per_request(samples: Iterable[Sample], windows: Sequence[Window]) -> dict[str, float]:
    """Microseconds of worker CPU per request in each function (inclusive): its share of the
    samples times the phases' worker CPU per request."""
    per, total = inclusive(samples, windows)
    if not total or not windows:
        return {}
    cpu = sum(w.cpu_per_request for w in windows) / len(windows)
    return {name: n / total * cpu for name, n in per.items()}


def report(title: str, real: dict[str, float], floor: dict[str, float], top: int = 20, apart: int = 30) -> None:
    """The ``top`` functions that cost the most per request on either side, then the ``apart`` others
    whose cost differs the most between the two."""
    print(f"\n{title}: worker CPU per request by function (inclusive, us; CPU-time samples)")
    print(f"  {'real':>7} {'floor':>7}  function")
    names = sorted(set(real) | set(floor), key=lambda k: -max(real.get(k, 0.0), floor.get(k, 0.0)))
    for name in names[:top]:
        print(f"  {real.get(name, 0.0):7.1f} {floor.get(name, 0.0):7.1f}  {name}")
    print(f"  ... and the {apart} others furthest apart:")
    rest = sorted(names[top:], key=lambda k: -abs(real.get(k, 0.0) - floor.get(k, 0.0)))
    for name in rest[:apart]:
        print(f"  {real.get(name, 0.0):7.1f} {floor.get(name, 0.0):7.1f}  {name}")
