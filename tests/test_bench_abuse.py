"""bench.abuse runs end to end: every attack starts, reports what it did, and gets its row.

Its figures are not checked here (speed is measured by the benchmark, never asserted in a test): a
second per window, with small caps, only proves that the bench still runs against the service as
it is deployed, so that a change of the service or of deploy/ does not silently break it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench.abuse import ATTACKS

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow

ROW = r"^{name}\s+[\d.]+ms\s+[\d.]+ms\s+[\d.]+ms\s+[\d.]+ms\s+(?:[\d.]+|inf)\s+\d+\s+\d+\s+(?:PASS|FAIL)\s+\S"


def test_abuse_bench_prints_a_row_per_attack_and_every_attacker_reports() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "bench.abuse", "--attack", "all", "--seconds", "1", "--connections", "4",
         "--held", "300", "--streams", "200", "--replay-entries", "60", "--build-seconds", "5"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "did not report" not in run.stderr and "died without reporting" not in run.stderr, run.stderr[-3000:]
    for name in ATTACKS:
        assert re.search(ROW.format(name=re.escape(name)), run.stdout, re.MULTILINE), (name, run.stdout)
        details = re.search(rf"^  {re.escape(name)}: attacker answers (.*)$", run.stdout, re.MULTILINE)
        assert details is not None and details.group(1) != "{}", (name, run.stdout)
    assert "goal: the player's p99 with the attacker <= 2 x" in run.stdout
