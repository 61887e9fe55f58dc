#!/usr/bin/env bash
# Headless load test of a running cardtable service; starts nothing but Locust.
#
#   bash deploy/loadtest.sh [URL]            # URL defaults to http://127.0.0.1:8000
#
# Environment (all optional):
#   LOAD_DURATION    run time, Locust syntax (30s, 2m)            default 30s
#   LOAD_USERS       concurrent simulated players                  default 10
#   LOAD_SPAWN_RATE  users started per second                      default LOAD_USERS
#   LOAD_CSV         CSV prefix to keep Locust's raw stats         default a temporary directory
#   LOCUST           the locust executable                         default .venv/bin/locust, else PATH
#
# Locust comes with the `load` extra: .venv/bin/pip install -e '.[load]'.
# Users play whole games of every kind in the catalogue (deploy/locustfile.py). Afterwards one table:
# p50/p95/p99 per endpoint, the error rate (409 excluded), the 409 rate, and the games finished per kind
# (failed: abandoned, or whose whole log did not hold each of its versions once).
# Exit status: 0 when there was no error other than 409s, 1 otherwise, 2 when Locust itself failed.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
url="${1:-http://127.0.0.1:8000}"
duration="${LOAD_DURATION:-30s}"
users="${LOAD_USERS:-10}"
rate="${LOAD_SPAWN_RATE:-$users}"
locust="${LOCUST:-}"
if [[ -z "$locust" ]]; then
    if [[ -x "$root/.venv/bin/locust" ]]; then locust="$root/.venv/bin/locust"; else locust="locust"; fi
fi
command -v "$locust" >/dev/null || { echo "loadtest: locust not found; pip install -e '.[load]'" >&2; exit 2; }

tmp=""
if [[ -n "${LOAD_CSV:-}" ]]; then
    csv="$LOAD_CSV"
else
    tmp="$(mktemp -d)"; csv="$tmp/locust"
    trap 'rm -rf "$tmp"' EXIT
fi

echo "loadtest: $users users against $url for $duration" >&2
status=0
# `timeout` is a second bound in case Locust hangs on stop; -t is the real one.
timeout --kill-after=10s 15m "$locust" -f "$here/locustfile.py" --headless --host "$url" \
    -u "$users" -r "$rate" -t "$duration" --stop-timeout 5 --only-summary --loglevel WARNING \
    --csv "$csv" >/dev/null 2>"$csv.log" || status=$?
if [[ ! -s "${csv}_stats.csv" ]]; then
    echo "loadtest: locust exited with $status and wrote no stats:" >&2
    tail -n 30 "$csv.log" >&2
    exit 2
fi

python3 - "${csv}_stats.csv" "${csv}_failures.csv" <<'EOF'
import csv
import sys

stats_path, failures_path = sys.argv[1:3]
with open(stats_path, newline="") as f:
    rows = [r for r in csv.DictReader(f) if r["Name"] != "Aggregated"]
with open(failures_path, newline="") as f:
    failures = list(csv.DictReader(f))

http = [r for r in rows if r["Type"] != "GAME"]
games = [r for r in rows if r["Type"] == "GAME"]
total = sum(int(r["Request Count"]) for r in http)
failed = sum(int(r["Failure Count"]) for r in http)
http_failures = [f for f in failures if f["Method"] != "GAME"]
conflicts = sum(int(f["Occurrences"]) for f in http_failures if f["Error"].lstrip("'\"").startswith("409"))
errors = failed - conflicts

def ms(value: str) -> str:
    return "-" if value in ("", "N/A") else f"{float(value):.0f}"

def label(r: dict) -> str:
    return r["Name"] if r["Name"].startswith(r["Type"] + " ") else f"{r['Type']} {r['Name']}"

width = max([len("endpoint")] + [len(label(r)) for r in http])
print(f"{'endpoint':<{width}}  {'requests':>8}  {'fails':>6}  {'req/s':>7}  {'p50 ms':>6}  {'p95 ms':>6}  {'p99 ms':>6}")
for r in sorted(http, key=label):
    print(f"{label(r):<{width}}  {int(r['Request Count']):>8}  {int(r['Failure Count']):>6}  "
          f"{float(r['Requests/s']):>7.1f}  {ms(r['50%']):>6}  {ms(r['95%']):>6}  {ms(r['99%']):>6}")
rps = sum(float(r["Requests/s"]) for r in http)
print(f"{'all requests':<{width}}  {total:>8}  {failed:>6}  {rps:>7.1f}")
print()
print(f"error rate (409 excluded): {errors}/{total} = {100 * errors / max(total, 1):.2f}%")
print(f"409 rate:                  {conflicts}/{total} = {100 * conflicts / max(total, 1):.2f}%")
if games:
    print()
    print(f"{'games finished':<28}  {'games':>6}  {'failed':>9}  {'moves/game':>10}  {'p50 s':>6}  {'p95 s':>6}")
    for r in sorted(games, key=lambda r: r["Name"]):
        n = int(r["Request Count"])
        print(f"{r['Name']:<28}  {n:>6}  {int(r['Failure Count']):>9}  {float(r['Average Content Size']):>10.0f}  "
              f"{float(r['50%']) / 1000:>6.2f}  {float(r['95%']) / 1000:>6.2f}")
if http_failures:
    print()
    print("failures:")
    for f in sorted(http_failures, key=lambda f: -int(f["Occurrences"]))[:15]:
        print(f"  {int(f['Occurrences']):>6}  {f['Method']} {f['Name']}: {f['Error']}")
game_failures = [f for f in failures if f["Method"] == "GAME"]
for f in game_failures[:10]:
    print(f"  {int(f['Occurrences']):>6}  {f['Name']}: {f['Error']}")
sys.exit(1 if errors or game_failures else 0)
EOF
