"""deploy/nginx as shipped, run on loopback in front of a test's gunicorn.

The config is the shipped files with only what must differ on a test machine replaced: the
listening port, gunicorn's address, and where nginx keeps its pid and temporary files. Each
replacement must match exactly once, so a change to the shipped files that a test would no
longer see fails here instead.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.servers import ROOT, free_port, wait_for_port

NGINX = ROOT / "deploy" / "nginx"


def _replace_once(text: str, pattern: str, replacement: str, name: str) -> str:
    out, count = re.subn(pattern, lambda _: replacement, text, flags=re.M)
    if count != 1:
        raise AssertionError(f"deploy/nginx/{name}: {pattern!r} matched {count} times, not once")
    return out


def binary() -> str | None:
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)


class Nginx:
    """One nginx with the shipped config, listening on a spare loopback port, proxying to ``upstream``."""

    def __init__(self, upstream_port: int) -> None:
        found = binary()
        if found is None:
            raise RuntimeError("nginx is not installed: run `bash tests/run.sh` (it installs it)")
        self.binary = found
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="cardtable-nginx-"))
        self.dir.chmod(0o755)  # the workers (nobody, when the master is root) read nothing here but pass through
        main = (NGINX / "nginx.conf").read_text()
        main = _replace_once(main, r"^pid \S+;$", f"pid {self.dir}/nginx.pid;", "nginx.conf")
        main = _replace_once(main, r"^    include /etc/nginx/cardtable\.conf;$",
                             f"    include {self.dir}/cardtable.conf;\n" + "".join(
                                 f"    {kind}_temp_path {self.dir}/{kind};\n"
                                 for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")),
                             "nginx.conf")
        site = (NGINX / "cardtable.conf").read_text()
        site = _replace_once(site, r"^    server cardtable:8000;$", f"    server 127.0.0.1:{upstream_port};",
                             "cardtable.conf")
        site = _replace_once(site, r"^    listen 8080;$", f"    listen 127.0.0.1:{self.port};", "cardtable.conf")
        (self.dir / "nginx.conf").write_text(main)
        (self.dir / "cardtable.conf").write_text(site)
        self.log = self.dir / "error.log"
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def command(self, *extra: str) -> list[str]:
        return [self.binary, "-p", str(self.dir), "-c", str(self.dir / "nginx.conf"), *extra]

    def start(self) -> None:
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(self.command("-g", "daemon off;"), stdout=subprocess.DEVNULL, stderr=log)
        try:
            wait_for_port(self.port, self.proc)
        except RuntimeError:
            self.stop()
            raise RuntimeError(f"nginx did not start: {self.log.read_text()[-2000:]}") from None

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
