"""``cardtable serve``: the development server writes one line per request, the app's JSON access
line, and not werkzeug's own beside it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request

from tests.servers import ROOT, free_port, wait_for_port


def test_serve_logs_each_request_once_as_json() -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "REDIS_SENTINELS")}
    env["CARDTABLE_REQUEST_LOG"] = "1"
    proc = subprocess.Popen([sys.executable, "-m", "service.cli", "serve", "--port", str(port)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for_port(port, proc)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/games?probe=1", timeout=10) as reply:
            assert reply.status == 200
        proc.send_signal(signal.SIGINT)  # a clean exit writes the buffered access lines
        _, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    lines = [line for line in err.splitlines() if "/v1/games" in line]
    assert len(lines) == 1, err
    entry = json.loads(lines[0])
    assert entry["logger"] == "cardtable.access" and entry["path"] == "/v1/games" and entry["status"] == 200
