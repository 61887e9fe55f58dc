"""The deployment files under deploy/: they parse, and they agree with each other and with the service.

No Docker engine or cluster is needed: the YAML is parsed with PyYAML, the Dockerfile read line by
line, and loadtest.sh's report is checked on Locust-shaped CSV written by a stand-in `locust`.
The locustfile import runs in a subprocess (importing Locust monkey-patches the process with gevent).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from engines import REGISTRY
from tests.deploy.dockerignore import DockerIgnore, go_clean
from tests.servers import free_port, wait_for_port

yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
GUNICORN_CMD = ["gunicorn", "-c", "deploy/gunicorn.conf.py", "service.app:create_app()"]


def k8s_objects() -> dict[tuple[str, str], dict[str, Any]]:
    objects = {}
    for path in sorted(K8S.glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text()):
            if doc and doc.get("kind") != "Kustomization":
                objects[(doc["kind"], doc["metadata"]["name"])] = doc
    return objects


def compose() -> dict[str, Any]:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())  # type: ignore[no-any-return]


def dockerfile() -> list[tuple[str, str]]:
    """(instruction, arguments) pairs, continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n", " ", (DEPLOY / "Dockerfile").read_text())
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            instr, _, args = line.partition(" ")
            out.append((instr.upper(), args.strip()))
    return out


def copies() -> list[tuple[list[str], str]]:
    """(sources, destination) of each COPY or ADD from the build context (not ``--from`` another
    stage), in order: the sources cleaned as the engine cleans them, the destination made absolute
    with the WORKDIR in force."""
    out = []
    workdir = "/"
    for instr, args in dockerfile():
        if instr == "WORKDIR":
            workdir = os.path.join(workdir, args)
        if instr not in ("COPY", "ADD"):
            continue
        words = json.loads(args) if args.startswith("[") else shlex.split(args)
        if any(w.startswith("--from") for w in words):
            continue
        *sources, dest = [w for w in words if not w.startswith("--")]
        target = os.path.join(workdir, dest) + ("/" if dest.endswith("/") else "")
        out.append(([go_clean(s).lstrip("/") or "." for s in sources], target))
    return out


def tracked_files() -> list[str]:
    """The repository's files (a build from a clean checkout sees exactly these)."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=30)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [f for f in listed.stdout.decode().split("\0") if f and (ROOT / f).is_file()]


def image_path(file: str) -> str | None:
    """Where the Dockerfile's COPYs put a file of the build context in the image, or None."""
    placed = None
    for sources, target in copies():
        for source in sources:
            if file == source:  # a file: into a directory (a trailing "/" or several sources), or renamed
                into_dir = target.endswith("/") or len(sources) > 1
                placed = os.path.join(target, os.path.basename(file)) if into_dir else target
            elif DockerIgnore([source]).excluded(file):  # under a directory: its contents go into the target
                placed = os.path.join(target, os.path.basename(file) if "*" in source else
                                      os.path.relpath(file, source))
    return os.path.normpath(placed) if placed else None


def known_settings() -> set[str]:
    """Environment names the service or the gunicorn config reads."""
    text = (ROOT / "service" / "config.py").read_text() + (DEPLOY / "gunicorn.conf.py").read_text()
    return set(re.findall(r"""["']([A-Z][A-Z0-9_]+)["']""", text))


# --- compose ------------------------------------------------------------------------------------

def test_compose_redis_persists_to_a_named_volume_and_is_healthchecked() -> None:
    doc = compose()
    redis = doc["services"]["redis"]
    command = redis["command"]
    assert command[command.index("--appendonly") + 1] == "yes"
    volume = redis["volumes"][0].split(":")[0]
    assert volume in doc["volumes"], "redis data must be on a named volume"
    assert redis["volumes"][0].split(":")[1] == "/data"
    assert "redis-cli" in redis["healthcheck"]["test"]


def test_compose_service_uses_redis_and_waits_until_it_is_healthy() -> None:
    doc = compose()
    app = doc["services"]["cardtable"]
    assert app["environment"]["REDIS_URL"].startswith("redis://redis:6379/")
    assert app["depends_on"]["redis"]["condition"] == "service_healthy"
    assert any("/readyz" in part or "/healthz" in part for part in app["healthcheck"]["test"])
    assert app["build"]["dockerfile"] == "deploy/Dockerfile"
    assert (DEPLOY / app["build"]["context"]).resolve() == ROOT
    assert set(app["environment"]) <= known_settings()


# --- kubernetes ----------------------------------------------------------------------------------

def test_k8s_probes_point_at_readyz_and_healthz() -> None:
    deployment = k8s_objects()[("Deployment", "cardtable")]
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert ports["http"] == 8000
    for probe in ("readinessProbe", "livenessProbe"):
        assert container[probe]["httpGet"]["port"] in ("http", 8000)
    assert container["resources"]["requests"]["cpu"] and container["resources"]["limits"]["memory"]


def test_k8s_config_comes_from_the_configmap_and_names_real_settings() -> None:
    objects = k8s_objects()
    container = objects[("Deployment", "cardtable")]["spec"]["template"]["spec"]["containers"][0]
    refs = [e["configMapRef"]["name"] for e in container["envFrom"] if "configMapRef" in e]
    assert refs and all(("ConfigMap", name) in objects for name in refs)
    data = objects[("ConfigMap", refs[0])]["data"]
    assert all(isinstance(v, str) for v in data.values()), "ConfigMap values must be strings"
    assert set(data) <= known_settings(), set(data) - known_settings()
    assert data["CARDTABLE_ALLOW_FIXED_DEALS"] == "0"
    assert data["CARDTABLE_BIND"].endswith(":8000")


def test_k8s_redis_url_points_at_the_redis_service() -> None:
    objects = k8s_objects()
    url = objects[("ConfigMap", "cardtable-config")]["data"]["REDIS_URL"]
    host, port = re.match(r"redis://([^:/]+):(\d+)/\d+$", url).groups()  # type: ignore[union-attr]
    redis = objects[("Service", host)]
    assert redis["spec"]["type"] == "ExternalName" or "selector" in redis["spec"]
    assert int(port) in [p["port"] for p in redis["spec"]["ports"]]


def test_k8s_service_and_hpa_target_the_deployment() -> None:
    objects = k8s_objects()
    deployment = objects[("Deployment", "cardtable")]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"].items() <= labels.items()
    service = objects[("Service", "cardtable")]
    assert service["spec"]["selector"].items() <= labels.items()
    assert service["spec"]["ports"][0]["targetPort"] == "http"
    hpa = objects[("HorizontalPodAutoscaler", "cardtable")]
    assert hpa["spec"]["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": "cardtable"}


def test_k8s_pods_admit_only_the_ingress_whose_forwarded_address_they_trust() -> None:
    """The service takes the client's address from the entry the ingress appends to X-Forwarded-For
    (one trusted proxy): that is sound only while nothing but the ingress controller reaches a pod."""
    objects = k8s_objects()
    deployment = objects[("Deployment", "cardtable")]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    policy = objects[("NetworkPolicy", "cardtable-from-ingress")]["spec"]
    assert policy["podSelector"]["matchLabels"] and policy["podSelector"]["matchLabels"].items() <= labels.items()
    assert policy["policyTypes"] == ["Ingress"]
    (rule,) = policy["ingress"]
    (peer,) = rule["from"]  # one peer with both selectors: the controller's pods in its namespace
    assert set(peer) == {"namespaceSelector", "podSelector"}
    assert peer["namespaceSelector"]["matchLabels"] == {"kubernetes.io/metadata.name": "ingress-nginx"}
    assert peer["podSelector"]["matchLabels"]["app.kubernetes.io/name"] == "ingress-nginx"
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    assert [p["port"] for p in rule["ports"]] == ["http"] and "http" in [p["name"] for p in container["ports"]]
    assert objects[("Ingress", "cardtable")]["spec"]["ingressClassName"] == "nginx"
    assert objects[("Service", "cardtable")]["spec"]["type"] == "ClusterIP", "a NodePort would pass by the ingress"
    data = objects[("ConfigMap", "cardtable-config")]["data"]
    assert data["CARDTABLE_TRUSTED_PROXIES"] == "1"
    assert data["FORWARDED_ALLOW_IPS"] == "*"  # gunicorn's trust, consistent with the same policy


def test_k8s_the_hpa_alone_sets_the_replica_count() -> None:
    """A `replicas` beside the HPA resets the count the HPA chose at every `kubectl apply`."""
    objects = k8s_objects()
    assert "replicas" not in objects[("Deployment", "cardtable")]["spec"]
    assert objects[("HorizontalPodAutoscaler", "cardtable")]["spec"]["minReplicas"] >= 2


def test_kustomization_lists_every_manifest() -> None:
    listed = yaml.safe_load((K8S / "kustomization.yaml").read_text())["resources"]
    assert sorted(listed) == sorted(p.name for p in K8S.glob("*.yaml") if p.name != "kustomization.yaml")


# --- Dockerfile ----------------------------------------------------------------------------------

def test_dockerfile_runs_gunicorn_with_the_deploy_config_as_non_root() -> None:
    instructions = dockerfile()
    assert instructions[0] == ("FROM", "python:3.11-slim")
    (cmd,) = [json.loads(args) for instr, args in instructions if instr == "CMD"]
    assert cmd == GUNICORN_CMD
    (user,) = [args for instr, args in instructions if instr == "USER"]
    assert user.split(":")[0] not in ("root", "0")
    assert ("EXPOSE", "8000") in instructions
    assert any(instr == "RUN" and "pip install ." in args for instr, args in instructions)


def test_every_copy_source_survives_the_dockerignore() -> None:
    """A COPY of something .dockerignore leaves out stops the build (the context lacks it), and a
    file left out of a copied directory is silently missing from the image."""
    ignore = DockerIgnore.read(ROOT / ".dockerignore")
    files = tracked_files()
    sources = [source for sources, _ in copies() for source in sources]
    assert sources
    for source in sources:
        covered = [f for f in files if DockerIgnore([source]).excluded(f)]  # the source or files under it
        assert covered, f"COPY {source}: no such file in the repository"
        left_out = [f for f in covered if ignore.excluded(f)]
        assert not left_out, f"COPY {source}: .dockerignore leaves out {left_out[:5]}"


def test_the_files_the_image_serves_are_in_the_context_and_where_the_app_reads_them() -> None:
    """The web table (installed with the package), each game's rules page (read from seeds/ in the
    working directory) and the gunicorn config the CMD names."""
    ignore = DockerIgnore.read(ROOT / ".dockerignore")
    files = set(tracked_files())
    play = sorted(f for f in files if f.startswith("service/play/"))
    rules = [f"seeds/{game}.md" for game in REGISTRY]
    config = GUNICORN_CMD[2]
    workdir = [args for instr, args in dockerfile() if instr == "WORKDIR"][-1]
    assert "index.html" in {Path(f).name for f in play}
    for file in [*play, *rules, config]:
        assert file in files, f"{file} is not in the repository"
        assert not ignore.excluded(file), f"{file}: left out of the build context by .dockerignore"
        assert image_path(file), f"{file}: no COPY puts it in the image"
    for rule in rules:  # service/web.py reads the rules from ./seeds, the image's working directory
        assert image_path(rule) == os.path.join(workdir, rule)
    assert image_path(config) == os.path.join(workdir, config)  # the CMD's relative path
    # service/ is copied before `pip install .`, which installs the web table with the package
    package_data = (ROOT / "pyproject.toml").read_text()
    assert re.search(r'^service = \["play/\*"\]', package_data, re.M), "pip install . must install service/play"


def test_dockerfile_healthcheck_is_a_python_call_of_healthz() -> None:
    (args,) = [args for instr, args in dockerfile() if instr == "HEALTHCHECK"]
    exec_form = json.loads(args[args.index("CMD") + 3:].strip())
    assert exec_form[:2] == ["python", "-c"]
    assert "/healthz" in exec_form[2]
    compile(exec_form[2], "healthcheck", "exec")


# --- load test -------------------------------------------------------------------------------------

def test_locustfile_imports_and_shortens_every_registered_game() -> None:
    if importlib.util.find_spec("locust") is None:  # not importorskip: importing Locust patches this process
        pytest.skip("locust is not installed (the `load` extra)")
    script = textwrap.dedent("""
        import runpy
        from locust import HttpUser
        from engines import REGISTRY
        from service.app import catalogue_entries
        ns = runpy.run_path("deploy/locustfile.py")
        assert issubclass(ns["Player"], HttpUser)
        for entry in catalogue_entries():
            options = ns["short_options"](entry)
            named = {o["name"] for o in entry["options"]} & set(ns["SHORT_MATCH"])
            assert set(options) == named, (entry["game"], options)
            REGISTRY[entry["game"]].new_game(entry["min_players"], options, "locust")
        print("ok", len(catalogue_entries()))
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("ok")


STATS_HEADER = ("Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,"
                "Min Response Time,Max Response Time,Average Content Size,Requests/s,Failures/s,"
                "50%,66%,75%,80%,90%,95%,98%,99%,99.9%,99.99%,100%")


def _fake_locust(tmp_path: Path, stats: list[str], failures: list[str]) -> Path:
    """A stand-in for `locust` that writes the given CSV where --csv says."""
    (tmp_path / "stats.csv").write_text("\n".join([STATS_HEADER, *stats]) + "\n")
    (tmp_path / "failures.csv").write_text("\n".join(["Method,Name,Error,Occurrences", *failures]) + "\n")
    fake = tmp_path / "locust"
    fake.write_text(textwrap.dedent(f"""\
        #!/bin/sh
        while [ "$1" != "--csv" ]; do shift; done
        cp {tmp_path}/stats.csv "$2_stats.csv"; cp {tmp_path}/failures.csv "$2_failures.csv"
        exit 1
    """))
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    return fake


def _row(type_: str, name: str, count: int, fails: int, p50: int, p95: int, p99: int) -> str:
    return (f"{type_},{name},{count},{fails},{p50},{p50},1,{p99},100,10.0,0.0,"
            f"{p50},{p50},{p50},{p50},{p95},{p95},{p99},{p99},{p99},{p99},{p99}")


def test_loadtest_prints_percentiles_error_rate_and_409_rate(tmp_path: Path) -> None:
    stats = [_row("GET", "GET /v1/[game]/games/[id]", 600, 0, 12, 40, 80),
             _row("POST", "POST /v1/[game]/games/[id]/moves", 400, 6, 20, 50, 90),
             _row("GAME", "finished sten", 5, 0, 3000, 5000, 5000),
             _row("", "Aggregated", 1005, 6, 15, 45, 85)]
    failures = ['POST,POST /v1/[game]/games/[id]/moves,409 stale_version (sten play),4',
                'POST,POST /v1/[game]/games/[id]/moves,422 card_not_in_hand (sten play),2']
    fake = _fake_locust(tmp_path, stats, failures)
    done = subprocess.run(["bash", str(DEPLOY / "loadtest.sh"), "http://127.0.0.1:9"], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "LOCUST": str(fake), "LOAD_DURATION": "1s"})
    out = done.stdout
    assert re.search(r"GET /v1/\[game\]/games/\[id\]\s+600\s+0\s+10\.0\s+12\s+40\s+80", out), out
    assert re.search(r"POST /v1/\[game\]/games/\[id\]/moves\s+400\s+6\s+10\.0\s+20\s+50\s+90", out), out
    assert "error rate (409 excluded): 2/1000 = 0.20%" in out
    assert "409 rate:                  4/1000 = 0.40%" in out
    assert re.search(r"finished sten\s+5\s+0", out)
    assert "Aggregated" not in out
    assert done.returncode == 1  # the two 422s are errors


def test_loadtest_exits_0_when_only_409s_failed(tmp_path: Path) -> None:
    fake = _fake_locust(tmp_path, [_row("POST", "POST /v1/[game]/games/[id]/moves", 100, 1, 20, 50, 90)],
                        ['POST,POST /v1/[game]/games/[id]/moves,409 not_your_turn (sten play),1'])
    done = subprocess.run(["bash", str(DEPLOY / "loadtest.sh")], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "LOCUST": str(fake)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "error rate (409 excluded): 0/100 = 0.00%" in done.stdout


# --- rate limit and soak ---------------------------------------------------------------------------

def test_the_rate_limit_is_on_in_every_deployment_and_off_in_the_test_servers() -> None:
    assert compose()["services"]["cardtable"]["environment"]["CARDTABLE_RATE_LIMIT"] == "20/s"
    assert k8s_objects()[("ConfigMap", "cardtable-config")]["data"]["CARDTABLE_RATE_LIMIT"] == "20/s"
    assert 'setdefault("CARDTABLE_RATE_LIMIT", "20/s")' in (DEPLOY / "gunicorn.conf.py").read_text()
    assert '"CARDTABLE_RATE_LIMIT": "off"' in (ROOT / "tests" / "servers.py").read_text()


def test_the_soak_is_bounded_and_loopback_only() -> None:
    script = (DEPLOY / "soak.sh").read_text()
    assert subprocess.run(["bash", "-n", str(DEPLOY / "soak.sh")], capture_output=True).returncode == 0
    assert re.search(r"^exec timeout --kill-after=\S+ \S+ ", script, re.M), "the whole soak needs a hard bound"
    assert 'SOAK_DURATION:-600' in script
    driver = (DEPLOY / "soak.py").read_text()
    assert "0.0.0.0" not in driver and "localhost" not in driver
    assert re.findall(r"redis://([\d.]+):", driver) == ["127.0.0.1"]
    assert "timeout=DURATION + 300" in driver  # the load subprocess is bounded too


def test_streams_pass_proxies_unbuffered_and_outlive_their_keepalive() -> None:
    """Event streams: gevent workers by default; the ingress neither buffers them nor times them
    out before the stream's own limit; compose and k8s say the same."""
    conf = (DEPLOY / "gunicorn.conf.py").read_text()
    assert re.search(r'worker_class = os\.environ\.get\("CARDTABLE_WORKER_CLASS", "gevent"\)', conf)
    objects = k8s_objects()
    data = objects[("ConfigMap", "cardtable-config")]["data"]
    assert data["CARDTABLE_WORKER_CLASS"] == "gevent"
    notes = objects[("Ingress", "cardtable")]["metadata"]["annotations"]
    assert notes["nginx.ingress.kubernetes.io/proxy-buffering"] == "off"
    assert int(notes["nginx.ingress.kubernetes.io/proxy-read-timeout"]) >= float(data["CARDTABLE_STREAM_MAX_SECONDS"])
    assert float(data["CARDTABLE_STREAM_KEEPALIVE"]) < int(notes["nginx.ingress.kubernetes.io/proxy-read-timeout"])
    env = compose()["services"]["cardtable"]["environment"]
    assert env["CARDTABLE_WORKER_CLASS"] == "gevent"


# --- gunicorn's control socket and private directory --------------------------------------------

CONFIG_PROBE = textwrap.dedent("""
    import json, os, sys
    from gunicorn.app.base import Application
    from gunicorn.config import _get_default_control_socket

    class Probe(Application):
        def init(self, parser, opts, args):
            return None

        def load(self):
            return None

        def load_config(self):
            self.load_config_from_file(sys.argv[1])
            self.first = self.cfg.control_socket
            self.load_config_from_file(sys.argv[1])  # read again, as a reload (SIGHUP) does

    probe = Probe()
    cfg = probe.cfg
    print(json.dumps({"first": probe.first, "socket": cfg.control_socket, "mode": cfg.control_socket_mode,
                      "off": cfg.control_socket_disable, "default": _get_default_control_socket(),
                      "metrics": os.environ["PROMETHEUS_MULTIPROC_DIR"]}))
""")


def _gunicorn_env(**extra: str) -> dict[str, str]:
    drop = ("PROMETHEUS_MULTIPROC_DIR", "CARDTABLE_GUNICORN_RUN_DIR", "REDIS_URL", "REDIS_SENTINELS")
    return {**{k: v for k, v in os.environ.items() if k not in drop}, **extra}


def _probe_config(**extra: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", CONFIG_PROBE, str(DEPLOY / "gunicorn.conf.py")], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, env=_gunicorn_env(**extra))
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_each_server_has_its_own_private_control_socket() -> None:
    """gunicorn's default control socket is one path for all the user's servers (the next one takes
    it over); the config gives each server a socket of its own in a directory only it can enter."""
    # the second run inherits a directory that is not its own (another process's): it must not use it
    first, second = _probe_config(), _probe_config(CARDTABLE_GUNICORN_RUN_DIR="1:/tmp")
    try:
        for probe in (first, second):
            assert not probe["off"] and probe["socket"] != probe["default"]
            assert probe["first"] == probe["socket"], "a reload of the config keeps the socket where it is"
            folder = Path(probe["socket"]).parent
            info = folder.stat()
            assert stat.S_IMODE(info.st_mode) == 0o700 and info.st_uid == os.getuid(), oct(info.st_mode)
            assert probe["mode"] == 0o600
            assert Path(probe["metrics"]).parent == folder
        assert Path(first["socket"]).parent != Path(second["socket"]).parent
        assert Path(second["socket"]).parent != Path("/tmp")
    finally:
        for probe in (first, second):
            shutil.rmtree(Path(probe["socket"]).parent, ignore_errors=True)


def test_a_running_server_answers_on_its_own_socket_and_removes_its_directory(tmp_path: Path) -> None:
    from gunicorn.ctl.client import ControlClient

    port = free_port()
    env = _gunicorn_env(CARDTABLE_BIND=f"127.0.0.1:{port}", WEB_CONCURRENCY="1", CARDTABLE_WORKER_CLASS="sync",
                        CARDTABLE_LOG_LEVEL="info", CARDTABLE_RATE_LIMIT="off", HOME=str(tmp_path))
    env.pop("XDG_RUNTIME_DIR", None)  # so the default would be $HOME/.gunicorn/gunicorn.ctl
    log = tmp_path / "gunicorn.log"
    with log.open("w") as err:
        proc = subprocess.Popen([sys.executable, "-m", "gunicorn", *GUNICORN_CMD[1:]], cwd=ROOT, env=env,
                                stdout=subprocess.DEVNULL, stderr=err)
    try:
        wait_for_port(port, proc)
        for _ in range(100):
            found = re.search(r"Control socket listening at (\S+)", log.read_text())
            if found:
                break
            time.sleep(0.1)
        assert found, log.read_text()
        socket_path = Path(found[1])
        assert stat.S_ISSOCK(socket_path.stat().st_mode)
        assert stat.S_IMODE(socket_path.parent.stat().st_mode) == 0o700
        with ControlClient(str(socket_path), timeout=10) as client:
            workers = client.send_command("show workers")
        assert len(workers["workers"]) == 1, workers
        assert not (tmp_path / ".gunicorn").exists(), "the shared default path is left alone"
    finally:
        proc.terminate()
        proc.wait(20)
    assert not socket_path.parent.exists(), "the server's directory goes with it"


ARCHIVE_PROBE = textwrap.dedent("""
    import atexit, os, runpy, shutil, sys, types
    ns = runpy.run_path(sys.argv[1])  # sets PROMETHEUS_MULTIPROC_DIR (in the environment) when unset
    atexit.register(shutil.rmtree, ns["_run_dir"], True)  # the server's directory, whatever happens
    folder = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    os.makedirs(folder)

    def worker(n):
        pid = os.fork()
        if pid == 0:
            from prometheus_client import Counter, Gauge, Histogram
            Counter("probe_requests", "r", ["status"]).labels("200").inc(n)
            Histogram("probe_seconds", "s", buckets=(0.1, 1.0)).observe(0.5 * n)
            Gauge("probe_active", "a", multiprocess_mode="sum").inc(n)
            os._exit(0)
        os.waitpid(pid, 0)
        return pid

    def scrape():
        from prometheus_client import CollectorRegistry
        from prometheus_client.multiprocess import MultiProcessCollector
        registry = CollectorRegistry()
        MultiProcessCollector(registry)
        return sorted((s.name, tuple(sorted(s.labels.items())), s.value)
                      for m in registry.collect() for s in m.samples)

    first, second = worker(1), worker(2)
    before = scrape()
    for pid in (first, second):
        ns["child_exit"](None, types.SimpleNamespace(pid=pid))
        assert scrape() == before, (scrape(), before)
    assert sorted(os.listdir(folder)) == ["counter_archive.db", "gauge_sum_archive.db", "histogram_archive.db"]
    assert ("probe_requests_total", (("status", "200"),), 3.0) in before
    worker(4)  # a later worker adds to what the archives hold
    assert ("probe_requests_total", (("status", "200"),), 7.0) in scrape()
    print("ok")
""")


def test_a_dead_workers_metrics_are_folded_into_archives_and_keep_their_totals() -> None:
    """Workers come and go (max_requests); their metrics files must not pile up in the in-memory
    /tmp, and the totals a scrape reports must not change when a worker's files are folded."""
    done = subprocess.run([sys.executable, "-c", ARCHIVE_PROBE, str(DEPLOY / "gunicorn.conf.py")], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, env=_gunicorn_env())
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "ok"


# --- abuse: nginx in front, memory and create limits ---------------------------------------------

NGINX_SITE = (DEPLOY / "nginx" / "cardtable.conf").read_text()
GUNICORN_BIND_PORT = int(re.search(r'"CARDTABLE_BIND", "[\d.]+:(\d+)"', (DEPLOY / "gunicorn.conf.py").read_text())
                         .group(1))  # type: ignore[union-attr]


def nginx_directives(name: str, text: str = NGINX_SITE) -> list[str]:
    return [v.strip() for v in re.findall(rf"^\s*{name}\s+([^;]+);", text, re.M)]


def nginx_location(pattern: str) -> str:
    """The body of the ``location`` block whose header matches ``pattern``."""
    match = re.search(rf"^\s*location {pattern} \{{\n(.*?)^\s*\}}", NGINX_SITE, re.M | re.S)
    assert match, f"no location {pattern} in deploy/nginx/cardtable.conf"
    return match.group(1)


def seconds(value: str) -> float:
    return float(value.removesuffix("s"))


def test_compose_redis_caps_its_memory_and_never_evicts_a_game() -> None:
    command = compose()["services"]["redis"]["command"]
    assert re.fullmatch(r"\d+(mb|gb)", command[command.index("--maxmemory") + 1])
    assert command[command.index("--maxmemory-policy") + 1] == "noeviction"


def test_compose_publishes_nginx_only_and_nginx_reaches_gunicorn() -> None:
    services = compose()["services"]
    app, proxy = services["cardtable"], services["nginx"]
    assert "ports" not in app, "gunicorn must be reached through nginx only"
    assert app["environment"]["CARDTABLE_TRUSTED_PROXIES"] == "1"
    (published,) = proxy["ports"]
    host_ip, host_port, container_port = published.split(":")
    assert (host_ip, host_port) == ("127.0.0.1", "8000")
    assert nginx_directives("listen") == [container_port]
    mounts = {target: (DEPLOY / source).resolve() for source, target, *_ in (v.split(":") for v in proxy["volumes"])}
    assert mounts == {"/etc/nginx/nginx.conf": DEPLOY / "nginx" / "nginx.conf",
                      "/etc/nginx/cardtable.conf": DEPLOY / "nginx" / "cardtable.conf"}
    assert nginx_directives("include", (DEPLOY / "nginx" / "nginx.conf").read_text()) == ["/etc/nginx/cardtable.conf"]
    (upstream,) = [v for v in nginx_directives("server") if ":" in v]
    assert upstream == f"cardtable:{GUNICORN_BIND_PORT}" and str(GUNICORN_BIND_PORT) in app["expose"]
    assert proxy["depends_on"]["cardtable"]["condition"] == "service_healthy"


def test_nginx_limits_agree_with_the_service() -> None:
    from service.config import Settings

    defaults = Settings()
    assert nginx_directives("client_max_body_size") == [f"{defaults.max_body // 1024}k"]
    assert nginx_directives("client_body_buffer_size") == nginx_directives("client_max_body_size")
    assert nginx_directives("proxy_request_buffering") == ["on"]
    assert nginx_directives("proxy_set_header").count("X-Forwarded-For $remote_addr") == 1
    (limit,) = nginx_directives("limit_conn")
    assert int(limit.split()[1]) > defaults.streams_per_address, "the service's own stream cap must bind first"
    assert nginx_directives("limit_conn_status") == ["429"]
    events = nginx_location(r"~ \^/v1/\[\^/\]\+/games/\[\^/\]\+/events\$")
    assert "proxy_buffering off;" in events
    read_timeouts = [seconds(v) for v in nginx_directives("proxy_read_timeout")]
    assert min(read_timeouts) > max(defaults.long_poll_max_seconds, 2 * defaults.stream_keepalive)
    (upstream_idle,) = [seconds(v) for v in nginx_directives("keepalive_timeout") if v != "15s"]
    gunicorn_keepalive = int(re.search(r"^keepalive = (\d+)", (DEPLOY / "gunicorn.conf.py").read_text(), re.M)
                             .group(1))  # type: ignore[union-attr]
    assert 0 < upstream_idle < gunicorn_keepalive, "nginx must not reuse a connection gunicorn is closing"


def test_every_nginx_error_page_is_an_internal_problem_json_answer() -> None:
    pages = {}
    for value in nginx_directives("error_page"):
        *codes, target = value.split()
        # a variable target is a map's: each of its values is a page
        block = re.search(rf"^map \S+ {re.escape(target)} \{{\n(.*?)^\}}", NGINX_SITE, re.M | re.S)
        for page in [line.split()[1].rstrip(";") for line in block.group(1).splitlines()] if block else [target]:
            pages[page] = [c for c in codes if not c.startswith("=")]
    assert {"400", "413", "414", "429", "502", "503", "504"} <= {c for cs in pages.values() for c in cs}
    for target in pages:
        body = nginx_location(f"= {re.escape(target)}")
        assert "internal;" in body and "default_type application/problem+json;" in body
        (answer,) = re.findall(r"return (\d{3}) '([^']*)';", body)
        problem = json.loads(answer[1])
        assert problem["status"] == int(answer[0]) and problem["type"] == f"urn:cardtable:problem:{problem['code']}"
        assert target.endswith("/" + problem["code"])


def test_the_create_limit_is_on_in_every_deployment_and_off_in_the_test_servers() -> None:
    assert compose()["services"]["cardtable"]["environment"]["CARDTABLE_CREATE_LIMIT"] == "30/m,300/h"
    assert 'setdefault("CARDTABLE_CREATE_LIMIT", "30/m,300/h")' in (DEPLOY / "gunicorn.conf.py").read_text()
    assert '"CARDTABLE_CREATE_LIMIT": "off"' in (ROOT / "tests" / "servers.py").read_text()


def test_run_sh_installs_nginx_for_the_proxy_tests() -> None:
    script = (ROOT / "tests" / "run.sh").read_text()
    assert 'missing="$missing nginx"' in script


def test_k8s_ingress_reads_whole_bounded_requests_before_a_pod_sees_them() -> None:
    """A slow or huge body must hold the ingress, not a gunicorn worker: request buffering on, the
    body limit the service's own (CARDTABLE_MAX_BODY), connections per address bounded."""
    objects = k8s_objects()
    notes = objects[("Ingress", "cardtable")]["metadata"]["annotations"]
    assert notes["nginx.ingress.kubernetes.io/proxy-request-buffering"] == "on"
    max_body = int(objects[("ConfigMap", "cardtable-config")]["data"]["CARDTABLE_MAX_BODY"])
    assert notes["nginx.ingress.kubernetes.io/proxy-body-size"] == f"{max_body // 1024}k"
    assert 0 < int(notes["nginx.ingress.kubernetes.io/limit-connections"]) <= 200
