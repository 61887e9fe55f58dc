#!/usr/bin/env bash
# Soak test on this machine only (loopback): steady Locust load for SOAK_DURATION seconds against
# the service on a Redis primary + replica + three Sentinels, with the primary killed (SIGKILL) at
# 40 % and a gunicorn worker killed at 70 % of the run. Starts and stops everything itself.
#
#   bash deploy/soak.sh
#
# Environment (all optional):
#   SOAK_DURATION     seconds of load                              default 600
#   SOAK_USERS        Locust users                                 default 8
#   SOAK_THROUGHPUT   steps per second per user (a steady rate)    default 4
#   SOAK_WORKERS      gunicorn workers                             default 3
#   SOAK_RATE_LIMIT   CARDTABLE_RATE_LIMIT of the service           default 100/s
#   PYTHON            the interpreter with the package, its test and load extras
#                     default .venv/bin/python
#
# Needs redis-server and the `load` extra (Locust). Prints loadtest.sh's table (p50/p95/p99 per
# endpoint, error and 409 rates), then the soak report: acknowledged moves, lost ones (must be 0),
# failover and resume times, answers by status. Exit status 0 on PASS, 1 on FAIL.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
python="${PYTHON:-$root/.venv/bin/python}"
[[ -x "$python" ]] || python="python3"
duration="${SOAK_DURATION:-600}"
# Locust (and the table) read LOCUST from the same environment.
export LOCUST="${LOCUST:-$(dirname "$python")/locust}"
# A hard bound on the whole run: the load, the faults and the checks.
exec timeout --kill-after=30s "$((duration + 420))s" "$python" "$here/soak.py"
