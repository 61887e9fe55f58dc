#!/usr/bin/env bash
# Generate the SDKs from the committed spec (openapi/openapi.json) into OUT_DIR (default: build/sdk):
#   OUT_DIR/python/cardtable_client/   Python client (openapi-python-client, from the `test` extra)
#   OUT_DIR/typescript/cardtable.ts    TypeScript types (openapi-typescript, pinned in tests/sdk/node/)
# Needs .venv (bash tests/run.sh makes it) and, for TypeScript, node and npm.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec .venv/bin/python -m tests.sdk.tools "${1:-build/sdk}"
