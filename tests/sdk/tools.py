"""Generating the SDKs from the committed spec, for tests/sdk and for `bash tests/sdk/generate.sh`.

Python: ``openapi-python-client`` (a test extra, run as ``python -m openapi_python_client`` from the
same interpreter). TypeScript: ``openapi-typescript`` and ``tsc``, pinned by ``tests/sdk/node/package.json``
and its lockfile and installed with ``npm ci`` into a cache directory outside the work tree
(``$CARDTABLE_NODE_CACHE``, default ``/tmp/cardtable-sdk-node``), one directory per lockfile content.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
#: The spec the checks read: the committed one, or ``$CARDTABLE_SDK_SPEC`` (to try a changed spec first).
SPEC = Path(os.environ.get("CARDTABLE_SDK_SPEC") or ROOT / "openapi" / "openapi.json")
NODE_DIR = Path(__file__).resolve().parent / "node"
PACKAGE = "cardtable_client"

#: openapi-python-client's config: a fixed package name, and no post hooks (they would run ruff over the
#: generated code, slow and beside the point of checking that the spec generates).
_PY_CONFIG = f"package_name_override: {PACKAGE}\npost_hooks: []\n"


class ToolMissing(RuntimeError):
    """A tool the SDK checks need is not installed and cannot be installed here."""


def _run(args: list[str], cwd: Path | None = None, timeout: float = 300) -> str:
    proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} exited {proc.returncode}:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
    return proc.stdout + proc.stderr


def generate_python_client(out_parent: Path, spec: Path = SPEC) -> Path:
    """Generate the Python client package ``cardtable_client`` under ``out_parent``; returns its directory.

    ``--fail-on-warning``: a schema the generator cannot model is an error, not a silently
    untyped field.
    """
    out_parent.mkdir(parents=True, exist_ok=True)
    config = out_parent / "openapi-python-client.yaml"
    config.write_text(_PY_CONFIG)
    target = out_parent / PACKAGE
    _run([sys.executable, "-m", "openapi_python_client", "generate", "--path", str(spec),
          "--output-path", str(target), "--meta", "none", "--config", str(config),
          "--fail-on-warning", "--overwrite"])
    return target


def node_tools() -> Path:
    """The ``node_modules/.bin`` directory with the pinned openapi-typescript and tsc, installing it once.

    Raises ``ToolMissing`` when ``npm``/``node`` are not on PATH.
    """
    npm, node = shutil.which("npm"), shutil.which("node")
    if npm is None or node is None:
        raise ToolMissing("node and npm are needed for the TypeScript SDK check (Debian: apt-get install nodejs npm)")
    lock = (NODE_DIR / "package-lock.json").read_bytes()
    key = hashlib.sha256((NODE_DIR / "package.json").read_bytes() + lock).hexdigest()[:16]
    cache = Path(os.environ.get("CARDTABLE_NODE_CACHE") or "/tmp/cardtable-sdk-node")
    home = cache / key
    bin_dir = home / "node_modules" / ".bin"
    if (bin_dir / "openapi-typescript").exists() and (bin_dir / "tsc").exists():
        return bin_dir
    cache.mkdir(parents=True, exist_ok=True)
    # Install into a fresh directory and rename it into place, so a half-done install is never reused.
    staging = Path(tempfile.mkdtemp(prefix=f"{key}-", dir=cache))
    try:
        shutil.copy(NODE_DIR / "package.json", staging / "package.json")
        shutil.copy(NODE_DIR / "package-lock.json", staging / "package-lock.json")
        _run([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], cwd=staging, timeout=300)
        try:
            staging.rename(home)
        except OSError:  # another run installed it meanwhile
            if not (bin_dir / "openapi-typescript").exists():
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return bin_dir


def generate_typescript(out: Path, spec: Path = SPEC) -> Path:
    """Write the TypeScript declarations of the spec to ``out`` (a ``.ts`` file); returns it."""
    bin_dir = node_tools()
    out.parent.mkdir(parents=True, exist_ok=True)
    _run([str(bin_dir / "openapi-typescript"), str(spec), "--output", str(out)])
    return out


def typecheck(files: list[Path]) -> None:
    """Compile ``files`` with the pinned tsc in strict mode, emitting nothing; raises on any error."""
    bin_dir = node_tools()
    _run([str(bin_dir / "tsc"), "--noEmit", "--strict", "--target", "es2022", "--module", "esnext",
          "--moduleResolution", "bundler", "--skipLibCheck", *map(str, files)])


def main(argv: list[str]) -> int:
    """``python -m tests.sdk.tools OUT_DIR``: write both SDKs under OUT_DIR."""
    if len(argv) != 1:
        print("usage: python -m tests.sdk.tools OUT_DIR", file=sys.stderr)
        return 2
    out = Path(argv[0]).resolve()
    py = generate_python_client(out / "python")
    ts = generate_typescript(out / "typescript" / "cardtable.ts")
    print(f"python client: {py}\ntypescript types: {ts}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
