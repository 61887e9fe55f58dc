"""The web table's JavaScript is typed against the spec: tsc checks it (``--checkJs``) with the
TypeScript types generated from the committed spec beside it, as tests/sdk does for the types.

Without node/npm the test skips on a developer's machine and fails in CI (``CI`` set).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.sdk.tools import ToolMissing, _run, generate_typescript, node_tools

PLAY = Path(__file__).resolve().parents[2] / "service" / "play"


def test_web_table_type_checks_against_the_generated_types(tmp_path: Path) -> None:
    try:
        bin_dir = node_tools()
    except ToolMissing as exc:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set and {exc}")
        pytest.skip(str(exc))
    generate_typescript(tmp_path / "cardtable.ts")
    scripts = sorted(PLAY.glob("*.js"))
    assert {p.name for p in scripts} >= {"app.js", "api.js", "types.js", "games.js", "live.js"}
    for script in scripts:
        shutil.copy(script, tmp_path / script.name)
    _run([str(bin_dir / "tsc"), "--noEmit", "--strict", "--allowJs", "--checkJs", "--target", "es2022",
          "--lib", "es2022,dom,dom.iterable", "--module", "esnext", "--moduleResolution", "bundler",
          "--skipLibCheck", *(str(tmp_path / p.name) for p in scripts)], cwd=tmp_path)
