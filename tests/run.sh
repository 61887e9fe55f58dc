#!/usr/bin/env bash
# Run the whole test suite from a fresh machine: installs redis-server (Debian) when it is
# missing, creates .venv with the package and its test extras, lints, and runs pytest.
# Extra arguments go to pytest, e.g. `bash tests/run.sh -k sten`.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v redis-server >/dev/null 2>&1; then
  echo "tests/run.sh: installing redis-server" >&2
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq redis-server >/dev/null
fi

PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'

.venv/bin/ruff check .
exec .venv/bin/python -m pytest -p no:cacheprovider "$@"
