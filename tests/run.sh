#!/usr/bin/env bash
# Run the whole test suite from a fresh machine: installs what is missing from Debian
# (redis-server, nginx, node, npm, chromium), creates .venv with the package and its test extras,
# lints (ruff) and type-checks (mypy), and runs pytest in two tiers, each its own pytest run:
#
#   1. the fast tier: every test not marked `slow`, on three pytest-xdist workers
#      (CARDTABLE_TEST_WORKERS to change that; on two cores a third worker fills the time the
#      others wait for servers, browsers and subprocesses), a module's tests on one worker (`--dist loadscope`:
#      a module's servers start once);
#   2. the slow tier (`-m slow`): tests whose verdict depends on real time (timeouts, deadlines,
#      failovers, faults under load) or that take ten seconds and more by themselves (fuzzing, the
#      bench smoke test, long playouts), split the same way; their time bounds hold on a loaded
#      machine.
#
# Both tiers run every time, here and in CI (.ci/run calls exactly this); each prints how long it
# took. `bash tests/run.sh --fast` runs the fast tier alone, while you work.
#
# Extra arguments go to pytest in each tier, e.g. `bash tests/run.sh -k sten`. With none (the whole
# suite), a tier that collects no test fails the run. With a selection, a tier it leaves empty is
# skipped (pytest's exit 5), but the run fails when neither tier ran a test. A `-m` of your own
# replaces the tiers: one pytest run with your arguments (add `-n 2` for workers).
set -euo pipefail
cd "$(dirname "$0")/.."

slow_tier=1
if [ "${1:-}" = "--fast" ]; then
  slow_tier=0
  shift
fi

# Debian packages the tests need: redis-server (and redis-cli) for the service tests, nginx for
# the tests of deploy/nginx in front of gunicorn (Debian's postinst starts no server in a container
# with policy-rc.d; elsewhere it may start the system's nginx, which the tests do not use),
# node and npm for the TypeScript SDK check and the spec's linter, chromium for the web table's browser tests
# (driven by Playwright from the test extra; Playwright's own browser download is not used).
missing=""
command -v redis-server >/dev/null 2>&1 || missing="$missing redis-server"
command -v redis-cli >/dev/null 2>&1 || missing="$missing redis-tools"
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing="$missing nginx"
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
[ -x /usr/bin/chromium ] || missing="$missing chromium"
if [ -n "$missing" ]; then
  echo "tests/run.sh: installing$missing" >&2
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi

PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test,load]'

# Spectral, the OpenAPI linter tests/test_spec_lint.py runs, pinned in tools/package.json and its
# lockfile; installed again only when the lockfile changed (no install scripts: none is needed).
if ! cmp -s tools/package-lock.json tools/node_modules/.installed-lock 2>/dev/null; then
  (cd tools && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error)
  cp tools/package-lock.json tools/node_modules/.installed-lock
fi

.venv/bin/ruff check .
.venv/bin/mypy engines bots schemas service

workers="${CARDTABLE_TEST_WORKERS:-3}"
pytest=(.venv/bin/python -m pytest -p no:cacheprovider)
for arg in "$@"; do
  case "$arg" in
    -m | -m?*) exec "${pytest[@]}" "$@" ;;
  esac
done

# One tier: its pytest run, with "no test collected" (5) accepted only in a selection of the
# caller's (the whole suite must find tests in each tier). Both tiers run even when the first fails,
# so that one run shows every failure; the script then exits with the first failure's status.
selection=0
[ "$#" = 0 ] || selection=1
ran=0
failed=0
tier() {
  local name=$1 status=0 started=$SECONDS
  shift
  echo "tests/run.sh: the $name tier" >&2
  "${pytest[@]}" "$@" || status=$?
  echo "tests/run.sh: the $name tier took $((SECONDS - started)) s (pytest exit $status)" >&2
  if [ "$status" = 0 ]; then
    ran=$((ran + 1))
  elif [ "$status" = 5 ] && [ "$selection" = 1 ]; then
    echo "tests/run.sh: the $name tier has no test in this selection" >&2
  elif [ "$failed" = 0 ]; then
    failed=$status
  fi
}

dist=(-n "$workers" --dist loadscope --no-loadscope-reorder)
tier fast -m "not slow" "${dist[@]}" "$@"
if [ "$slow_tier" = 1 ]; then
  tier slow -m slow "${dist[@]}" "$@"
fi
if [ "$failed" != 0 ]; then
  exit "$failed"
fi
if [ "$ran" = 0 ]; then
  echo "tests/run.sh: no test was collected in any tier" >&2
  exit 5
fi
