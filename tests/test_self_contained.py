"""The project stands on its own: nothing in it sends a reader to a text the repository does not hold.

The rules digest the games were researched from, the original German rule texts and the upstream
HTTP contract live outside the repository; a reader of the README, the docs, the rules pages, the
code or the tests cannot open them. So no tracked file names them, and what players read (the option
descriptions of the catalogue, the rules pages of the web table) carries no ruling ids or tracker
numbers they could not look up: each ruling is explained in words where it is made.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from flask.testing import FlaskClient

from engines import REGISTRY
from service.app import create_app
from service.config import Settings
from service.store import MemoryStore

ROOT = Path(__file__).resolve().parent.parent
THIS = Path(__file__).resolve()

#: Names of texts outside the repository: the rules digest, the German rule texts, the shared
#: folder they sit in, and the upstream contract (the project's own is docs/api.md, lower case).
OUTSIDE = ("RULES-RESEARCH", ".de.txt", "../shared", "API.md")

#: A ruling id of the digest ("A-S1", "A-K26", "(A-Z10)"): a letter, a dash, one or two capitals, digits.
RULING_ID = re.compile(r"\b[A-Z]-[A-Z]{1,2}[0-9]+\b")
#: Words that point at the digest or at a tracker instead of saying the thing itself.
POINTERS = re.compile(r"\b[Rr]esearch\b|\b[Ii]ssue #?[0-9]+|\bseed text\b")

#: Folders that are never the project's own files (the fallback when git is not at hand).
NOT_OURS = {".git", ".venv", "__pycache__", ".pytest_cache", ".hypothesis", ".ruff_cache", ".mypy_cache",
            ".schemathesis", "build", "dist", "node_modules"}


def tracked_files() -> list[Path]:
    """Every file git tracks; where there is no git (an unpacked release, the container's /app),
    every file of the tree but caches, virtual environments and build output."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=30)
        names = [n for n in out.stdout.decode().split("\0") if n]
    except (OSError, subprocess.SubprocessError):
        names = []
    if names:
        return [ROOT / n for n in names if (ROOT / n).is_file()]
    return [p for p in ROOT.rglob("*") if p.is_file() and not NOT_OURS.intersection(p.relative_to(ROOT).parts)
            and not any(part.endswith(".egg-info") for part in p.relative_to(ROOT).parts)]


def client() -> FlaskClient:
    return create_app(Settings(request_log=False), store=MemoryStore()).test_client()


def test_no_file_names_a_text_outside_the_repository() -> None:
    """README, docs, seeds, code and tests: none names the digest, the German texts, ../shared or API.md."""
    files = [p for p in tracked_files() if p.resolve() != THIS]
    names = {p.relative_to(ROOT).as_posix() for p in files}
    assert {"README.md", "seeds/sten.md", "engines/core.py"} <= names, "the file list misses the project"
    found = [f"{p.relative_to(ROOT).as_posix()}: {needle}" for p in files
             for needle in OUTSIDE if needle.encode() in p.read_bytes()]
    assert not found, "say it in the project's own words instead:\n" + "\n".join(found)


def test_catalogue_option_descriptions_say_in_words_what_each_option_does() -> None:
    """GET /v1/games shows every option's description on the web table's options form: no ruling
    ids or pointers a player cannot follow, and never empty."""
    games = client().get("/v1/games").get_json()["games"]
    assert {g["game"] for g in games} == set(REGISTRY)
    found = []
    for game in games:
        assert game["options"], game["game"]
        for option in game["options"]:
            text = option["description"]
            assert text.strip(), f"{game['game']}.{option['name']} has no description"
            if RULING_ID.search(text) or POINTERS.search(text):
                found.append(f"{game['game']}.{option['name']}: {text}")
    assert not found, "\n".join(found)


def test_rules_pages_explain_rulings_without_ids() -> None:
    """The web table's rules pages (seeds/<game>.md as served) name no ruling id, no research and
    no tracker issue: each ruling is explained where it is made."""
    c = client()
    found = []
    for game in REGISTRY:
        with c.get(f"/play/rules/{game}.md") as response:
            assert response.status_code == 200, game
            text = response.get_data(as_text=True)
        assert text.startswith("# "), game
        for n, line in enumerate(text.splitlines(), 1):
            if RULING_ID.search(line) or POINTERS.search(line):
                found.append(f"seeds/{game}.md:{n}: {line.strip()}")
    assert not found, "\n".join(found)


def test_project_pages_name_no_tracker_issue_or_ruling_id() -> None:
    """README, docs/ and the READMEs of bench/ and deploy/ explain in their own words: no issue
    numbers, ruling ids or research notes a reader of the repository cannot open."""
    pages = sorted({ROOT / "README.md", ROOT / "bench" / "README.md", ROOT / "deploy" / "README.md",
                    *(ROOT / "docs").rglob("*.md")})
    found = [f"{page.relative_to(ROOT).as_posix()}:{n}: {line.strip()}" for page in pages
             for n, line in enumerate(page.read_text().splitlines(), 1)
             if RULING_ID.search(line) or POINTERS.search(line)]
    assert not found, "\n".join(found)
