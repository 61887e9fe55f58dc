"""Real servers for the service tests: redis-server and gunicorn on spare loopback ports."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
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


def wait_for_answer(url: str, proc: subprocess.Popen, timeout: float = 60.0) -> None:
    """Until ``url`` answers 200 (bounded). gunicorn's master listens before its workers have loaded
    the app: on a loaded machine a test's first request would otherwise wait for that boot (seconds)
    inside its own time bounds and store timeouts."""
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=5) as reply:
                if reply.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{url} did not answer 200 within {timeout}s")
        time.sleep(0.1)


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
                "--protected-mode", "yes",
                # a replica that (re)joins syncs at once, not after diskless sync's default 5 s pause
                "--repl-diskless-sync-delay", "0", *self.extra]
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

    def kill(self) -> None:
        """SIGKILL: the machine is gone, nothing is flushed or handed over."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None

    def wait_synced(self, timeout: float = 30) -> None:
        """Until this replica's link to its primary is up (bounded)."""
        deadline = time.monotonic() + timeout
        while "master_link_status:up" not in self.cli("info", "replication"):
            if time.monotonic() > deadline:
                raise RuntimeError(f"replica on {self.port} did not sync in {timeout} s")
            time.sleep(0.05)

    def wait_replicas(self, count: int = 1, timeout: float = 30) -> None:
        """Until this primary counts ``count`` replicas for ``WAIT`` (bounded). A replica's link is up
        a moment before its primary has its first acknowledgement; a write that waits for it then
        gets 0 replicas, which a test with replica acknowledgements would read as a 503 of its own."""
        deadline = time.monotonic() + timeout
        while self.cli("wait", str(count), "100").strip() != str(count):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the primary on {self.port} does not count {count} replicas")

    def cli(self, *args: str) -> str:
        """One redis-cli command against this server; its output."""
        return subprocess.run([shutil.which("redis-cli") or "redis-cli", "-p", str(self.port), *args],
                              capture_output=True, text=True, timeout=10).stdout

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


class GunicornURL(str):
    """The base URL of a gunicorn under test; ``.pid`` is its master process."""

    pid: int

    def __new__(cls, url: str, pid: int) -> GunicornURL:
        self = super().__new__(cls, url)
        self.pid = pid
        return self

    def workers(self) -> list[int]:
        """The pids of the master's worker processes now (Linux: /proc)."""
        path = Path(f"/proc/{self.pid}/task/{self.pid}/children")
        return [int(p) for p in path.read_text().split()] if path.exists() else []


@contextmanager
def gunicorn(redis_url: str, workers: int = 2, extra_env: dict[str, str] | None = None,
             root: Path = ROOT) -> Iterator[str]:
    """gunicorn with deploy/gunicorn.conf.py on a spare port; yields the base URL. ``root`` is the
    source tree it runs (another release's, for the rolling upgrade test)."""
    port = free_port()
    env = dict(os.environ)
    env.update({"REDIS_URL": redis_url, "CARDTABLE_BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": str(workers),
                "CARDTABLE_ALLOW_FIXED_DEALS": "1", "CARDTABLE_LOG_LEVEL": "warning",
                # deploy/gunicorn.conf.py turns the rate limit on; tests that want it say so
                "CARDTABLE_RATE_LIMIT": "off", "CARDTABLE_CREATE_LIMIT": "off",
                # production's 1 s is a long time for Redis on loopback, but not on a machine whose
                # two cores run a whole test suite: there a 503 would fail a test that is not about
                # the store's timeout (the tests that are set their own)
                "CARDTABLE_STORE_TIMEOUT": "5"})
    env.update(extra_env or {})
    env["PYTHONPATH"] = str(root)  # that tree's packages before the installed (editable) ones
    errlog = tempfile.TemporaryFile()  # noqa: SIM115 -- closed below, after the server stops
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(root / "deploy" / "gunicorn.conf.py"), "service.app:create_app()"],
        cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=errlog,
    )
    try:
        wait_for_port(port, proc)
        wait_for_answer(f"http://127.0.0.1:{port}/healthz", proc)
        yield GunicornURL(f"http://127.0.0.1:{port}", proc.pid)
    finally:
        # SIGQUIT: gunicorn's quick stop. Its graceful stop (SIGTERM) waits up to graceful_timeout for
        # every open request, and an event stream whose client has left is only noticed at its next
        # keep-alive: a test that opened streams would wait 20 s here for nothing it checks.
        proc.send_signal(signal.SIGQUIT)
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
    """A real Redis Cluster on loopback ports: ``masters`` masters with ``replicas`` each."""

    def __init__(self, masters: int = 3, replicas: int = 0, node_timeout_ms: int = 2000) -> None:
        self.replicas = replicas
        self.nodes = [RedisServer(extra=("--cluster-enabled", "yes", "--cluster-node-timeout", str(node_timeout_ms)),
                                  port=free_cluster_port()) for _ in range(masters * (1 + replicas))]

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
            for attempt in range(3):
                try:
                    node.start()
                    break
                except RuntimeError:
                    # The port pair was spare when the nodes were made; meanwhile another process (an
                    # outgoing connection's ephemeral port) may have taken one: start on another pair.
                    if attempt == 2:
                        raise
                    node.port = free_cluster_port()
        cli = shutil.which("redis-cli")
        if cli is None:
            raise RuntimeError("redis-cli is not installed (Debian's redis-tools comes with redis-server)")
        addresses = [f"127.0.0.1:{n.port}" for n in self.nodes]
        subprocess.run([cli, "--cluster", "create", *addresses, "--cluster-replicas", str(self.replicas),
                        "--cluster-yes"], check=True, capture_output=True, timeout=60)
        deadline = time.monotonic() + 30
        while True:
            infos = [n.cli("cluster", "info") for n in self.nodes]
            synced = all("master_link_status:up" in r for n in self.nodes
                         if "role:slave" in (r := n.cli("info", "replication")))
            if all("cluster_state:ok" in info for info in infos) and synced:
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"the cluster did not become ready: {infos[0]}")
            time.sleep(0.2)

    def master_of(self, key: str) -> RedisServer | None:
        """The node that serves ``key``'s slot now, as the cluster itself says (None while the
        master that served it is failing and not yet replaced)."""
        live = next(n for n in self.nodes if n.proc)
        slot = int(live.cli("cluster", "keyslot", key).strip())
        for line in live.cli("cluster", "nodes").splitlines():
            fields = line.split()
            if "master" in fields[2] and "fail" not in fields[2]:
                for span in fields[8:]:
                    low, _, high = span.partition("-")
                    if low.isdigit() and int(low) <= slot <= int(high or low):
                        port = int(fields[1].split("@")[0].rsplit(":", 1)[1])
                        return next(n for n in self.nodes if n.port == port)
        return None

    def cleanup(self) -> None:
        for node in self.nodes:
            node.cleanup()


class SentinelServers:
    """A primary, its replica and three Sentinels on loopback ports, with short timeouts
    (down after 1 s) so that a failover completes within seconds."""

    NAME = "cardtable"

    def __init__(self, down_after_ms: int = 1000, failover_timeout_ms: int = 3000) -> None:
        self.primary = RedisServer()
        self.replica = RedisServer(extra=("--replicaof", "127.0.0.1", str(self.primary.port)))
        self.sentinel_ports = [free_port() for _ in range(3)]
        self.down_after_ms, self.failover_timeout_ms = down_after_ms, failover_timeout_ms
        self.dir = tempfile.mkdtemp(prefix="cardtable-sentinel-")
        self.sentinels: list[subprocess.Popen] = []

    @property
    def env(self) -> dict[str, str]:
        """The service's settings for these Sentinels."""
        return {"REDIS_SENTINELS": ",".join(f"127.0.0.1:{p}" for p in self.sentinel_ports),
                "REDIS_SENTINEL_MASTER": self.NAME}

    @property
    def nodes(self) -> list[RedisServer]:
        return [self.primary, self.replica]

    def start(self) -> None:
        try:
            self._start()
        except BaseException:
            self.cleanup()
            raise

    def _start(self) -> None:
        self.primary.start()
        self.replica.start()
        self.replica.wait_synced()
        self.primary.wait_replicas(1)
        for port in self.sentinel_ports:
            conf = os.path.join(self.dir, f"sentinel-{port}.conf")
            with open(conf, "w") as f:
                f.write(f"port {port}\nbind 127.0.0.1\ndir {self.dir}\n"
                        f"sentinel monitor {self.NAME} 127.0.0.1 {self.primary.port} 2\n"
                        f"sentinel down-after-milliseconds {self.NAME} {self.down_after_ms}\n"
                        f"sentinel failover-timeout {self.NAME} {self.failover_timeout_ms}\n"
                        f"sentinel parallel-syncs {self.NAME} 1\n")
            proc = subprocess.Popen([self.primary.binary, conf, "--sentinel"], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
            self.sentinels.append(proc)
            wait_for_port(port, proc)
        # every Sentinel has found the replica and the other Sentinels before any test kills anything
        deadline = time.monotonic() + 30
        while not all(self._sentinel_sees_all(p) for p in self.sentinel_ports):
            if time.monotonic() > deadline:
                raise RuntimeError("the Sentinels did not discover each other and the replica")
            time.sleep(0.2)

    def _sentinel_sees_all(self, port: int) -> bool:
        out = subprocess.run([shutil.which("redis-cli") or "redis-cli", "-p", str(port), "sentinel", "master",
                              self.NAME], capture_output=True, text=True, timeout=10).stdout.split()
        info = dict(zip(out[::2], out[1::2], strict=False))
        return info.get("num-slaves") == "1" and info.get("num-other-sentinels") == "2"

    def master_ports(self) -> list[int | None]:
        """The primary's port as each Sentinel names it (None: it did not answer)."""
        ports: list[int | None] = []
        for port in self.sentinel_ports:
            out = subprocess.run([shutil.which("redis-cli") or "redis-cli", "-p", str(port), "sentinel",
                                  "get-master-addr-by-name", self.NAME], capture_output=True, text=True,
                                 timeout=10).stdout.split()
            ports.append(int(out[1]) if len(out) == 2 and out[1].isdigit() else None)
        return ports

    def kill_primary_and_recover(self, timeout: float = 30) -> float:
        """SIGKILL the primary; once the Sentinels have promoted the replica, restart the dead
        node as a replica of the new primary (what a supervisor and Sentinel's config rewrite do
        together), so that writes can be replicated again. Swaps ``primary`` and ``replica``.
        Returns the seconds until the Sentinels named the new primary.

        The dead node comes back only once every Sentinel names the survivor: a Sentinel that has
        not yet heard of the failover still names the dead node's address, and once something
        answers there again it would send the service to a replica that is still empty (a game
        not found). It returns once the survivor counts it for ``WAIT`` again (all bounded)."""
        dead, survivor = self.primary, self.replica
        started = time.monotonic()
        dead.kill()
        while self.master_ports() != [survivor.port] * len(self.sentinel_ports):
            if time.monotonic() - started > timeout:
                raise RuntimeError(f"the Sentinels did not all fail over to {survivor.port}: {self.master_ports()}")
            time.sleep(0.05)
        promoted = time.monotonic() - started
        dead.extra = ("--replicaof", "127.0.0.1", str(survivor.port))
        dead.start()
        self.primary, self.replica = survivor, dead
        dead.wait_synced(timeout)
        survivor.wait_replicas(1, timeout)
        return promoted

    def cleanup(self) -> None:
        for proc in self.sentinels:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        self.primary.cleanup()
        self.replica.cleanup()
        shutil.rmtree(self.dir, ignore_errors=True)
