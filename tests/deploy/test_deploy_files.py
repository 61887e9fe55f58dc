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
import stat
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

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
    for instr, args in instructions:
        if instr == "COPY":
            *sources, _ = shlex.split(args)
            for source in sources:
                assert (ROOT / source).exists(), f"COPY {source}: not in the build context"


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
        pages[target] = [c for c in codes if not c.startswith("=")]
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
