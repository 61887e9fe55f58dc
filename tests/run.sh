#!/usr/bin/env bash
# Run the whole test suite from a fresh machine: installs what is missing from Debian
# (redis-server, node, npm), creates .venv with the package and its test extras, lints,
# and runs pytest.
# Extra arguments go to pytest, e.g. `bash tests/run.sh -k sten`.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages the tests need: redis-server (and redis-cli) for the service tests, nginx for
# the tests of deploy/nginx in front of gunicorn (Debian's postinst starts no server in a container
# with policy-rc.d; elsewhere it may start the system's nginx, which the tests do not use),
# node and npm for the TypeScript SDK check, chromium for the web table's browser tests
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

.venv/bin/ruff check .
.venv/bin/mypy engines bots schemas service
exec .venv/bin/python -m pytest -p no:cacheprovider "$@"
