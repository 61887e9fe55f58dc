"""Real servers for the service tests: redis-server and gunicorn on spare loopback ports."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def free_cluster_port() -> int:
    """A spare port whose cluster bus port (port + 10000) is spare too and below 65536."""
    for _ in range(200):
        port = free_port()
        if port + 10000 > 65535:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port + 10000))
            except OSError:
                continue
        return port
    raise RuntimeError("no spare port pair for a cluster node")


def wait_for_port(port: int, proc: subprocess.Popen, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port} after {timeout}s")


class RedisServer:
    """One redis-server process on loopback; can be stopped and started again on the
    same port and data directory (persistence on when ``persist``)."""

    def __init__(self, persist: bool = False, extra: tuple[str, ...] = (), port: int | None = None) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed: run `bash tests/run.sh` (it installs it)")
        self.binary = binary
        self.port = port or free_port()
        self.dir = tempfile.mkdtemp(prefix="cardtable-redis-")
        self.persist = persist
        self.extra = extra
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        args = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", self.dir,
                "--save", "", "--appendonly", "yes" if self.persist else "no", "--appendfsync", "always",
                "--protected-mode", "yes", *self.extra]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_for_port(self.port, self.proc)
        except RuntimeError:
            self.stop()
            raise

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self.proc = None

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


@contextmanager
def gunicorn(redis_url: str, workers: int = 2, extra_env: dict[str, str] | None = None,
             root: Path = ROOT) -> Iterator[str]:
    """gunicorn with deploy/gunicorn.conf.py on a spare port; yields the base URL. ``root`` is the
    source tree it runs (another release's, for the rolling upgrade test)."""
    port = free_port()
    env = dict(os.environ)
    env.update({"REDIS_URL": redis_url, "CARDTABLE_BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": str(workers),
                "CARDTABLE_ALLOW_FIXED_DEALS": "1", "CARDTABLE_LOG_LEVEL": "warning"})
    env.update(extra_env or {})
    env["PYTHONPATH"] = str(root)  # that tree's packages before the installed (editable) ones
    errlog = tempfile.TemporaryFile()  # noqa: SIM115 -- closed below, after the server stops
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(root / "deploy" / "gunicorn.conf.py"), "service.app:create_app()"],
        cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=errlog,
    )
    try:
        wait_for_port(port, proc)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        errlog.seek(0)
        tail = errlog.read()[-4000:].decode(errors="replace")
        errlog.close()
        if "Traceback" in tail:
            print("gunicorn stderr:\n" + tail, file=sys.stderr)


class RedisClusterServers:
    """A real Redis Cluster of three masters (no replicas) on loopback ports."""

    def __init__(self, masters: int = 3) -> None:
        self.nodes = [RedisServer(extra=("--cluster-enabled", "yes", "--cluster-node-timeout", "2000"),
                                  port=free_cluster_port()) for _ in range(masters)]

    @property
    def url(self) -> str:
        return self.nodes[0].url

    def start(self) -> None:
        try:
            self._start()
        except BaseException:
            self.cleanup()
            raise

    def _start(self) -> None:
        for node in self.nodes:
            node.extra = (*node.extra, "--cluster-config-file", os.path.join(node.dir, "nodes.conf"))
            node.start()
        cli = shutil.which("redis-cli")
        if cli is None:
            raise RuntimeError("redis-cli is not installed (Debian's redis-tools comes with redis-server)")
        addresses = [f"127.0.0.1:{n.port}" for n in self.nodes]
        subprocess.run([cli, "--cluster", "create", *addresses, "--cluster-replicas", "0", "--cluster-yes"],
                       check=True, capture_output=True, timeout=60)
        deadline = time.monotonic() + 30
        while True:
            info = subprocess.run([cli, "-p", str(self.nodes[0].port), "cluster", "info"],
                                  capture_output=True, text=True, timeout=10).stdout
            if "cluster_state:ok" in info:
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"the cluster did not become ready: {info}")
            time.sleep(0.2)

    def cleanup(self) -> None:
        for node in self.nodes:
            node.cleanup()
