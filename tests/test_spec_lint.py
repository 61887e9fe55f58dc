"""The committed spec lints clean with Spectral (the ruleset: .spectral.yaml), warnings included, and the
ruleset's own rules catch what they are written for.

Spectral is pinned in tools/package.json and its lockfile; tests/run.sh installs it (``npm ci``). Run
alone, this test installs it the same way when node and npm are there. Without node it is skipped on
a developer's machine, never in CI (``CI=true``), where a missing linter is a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools"
SPECTRAL = TOOLS / "node_modules" / ".bin" / "spectral"
SPEC = "openapi/openapi.json"  # relative to ROOT, as the ruleset's overrides name it


def _spectral() -> Path:
    """The pinned Spectral CLI, installed from the lockfile when it is missing."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("node and npm are needed to lint the spec (tests/run.sh installs them)")
        pytest.skip("node and npm are not installed: the spec's lint needs them")
    if not SPECTRAL.exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"],
                       cwd=TOOLS, check=True, capture_output=True, timeout=300)
    return SPECTRAL


def _lint(document: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(_spectral()), "lint", document, "--ruleset", ".spectral.yaml", "--fail-severity=warn",
                           *extra], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "SCARF_ANALYTICS": "false"})


def test_the_spec_lints_clean_with_spectral() -> None:
    run = _lint(SPEC, "--format", "text")
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]


def test_the_rulesets_own_rules_catch_what_they_are_for(tmp_path: Path) -> None:
    """A spec with an error answered as plain JSON, a schema without a description and a game's create
    without its example fails with each of cardtable's rules."""
    spec: dict[str, Any] = json.loads((ROOT / SPEC).read_text())
    create = spec["paths"]["/v1/sten/games"]["post"]
    del create["requestBody"]["content"]["application/json"]["example"]
    answers = create["responses"]["400"]["content"]
    answers["application/json"] = answers.pop("application/problem+json")
    del spec["components"]["schemas"]["StenView"]["description"]
    broken = tmp_path / "openapi.json"
    broken.write_text(json.dumps(spec))
    run = _lint(str(broken), "--format", "json", "--quiet")
    assert run.returncode != 0
    found = {finding["code"] for finding in json.loads(run.stdout)}
    assert {"cardtable-errors-are-problems", "cardtable-schema-description",
            "cardtable-game-operation-examples"} <= found, found
