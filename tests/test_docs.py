"""The documents tell the truth about the project, and stand on their own.

- docs/api.md names every route, operationId and error code the service has, and nothing it lacks:
  it is checked against the app's URL map, its OpenAPI document and the codes its source can answer.
- The configuration table of docs/operations.md lists exactly the environment variables the service
  and its gunicorn config read.
- Every relative link in README.md, docs/, seeds/, bench/README.md and deploy/README.md leads to a
  file (and, with an anchor, a heading) inside the repository: a reader of a checkout or of the
  repository's web page never meets a dead link or one into a sibling directory that is not there.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from werkzeug.exceptions import HTTPException
from werkzeug.routing import MapAdapter

from engines import REGISTRY
from schemas import SCHEMAS
from service.app import create_app
from service.cli import spec_document
from service.config import Settings
from service.errors import _CODES as FRAMEWORK_CODES
from service.store import MemoryStore
from tests.markdown import broken_links, code_spans, section, table_rows

ROOT = Path(__file__).resolve().parent.parent
API = ROOT / "docs" / "api.md"
OPERATIONS = ROOT / "docs" / "operations.md"
LINKED_PAGES = sorted({ROOT / "README.md", ROOT / "bench" / "README.md", ROOT / "deploy" / "README.md",
                       *(ROOT / "docs").rglob("*.md"), *(ROOT / "seeds").glob("*.md")})
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
#: A game's routes hang under this; "..." abbreviates it in prose (`GET .../log`).
GAME_PATH = "/v1/{game}/games/{game_id}"


# --- docs/api.md and the app -------------------------------------------------------------------------


def spec_operations() -> Iterator[tuple[str, str, dict]]:
    """(METHOD, path, operation) of every operation in the app's OpenAPI document."""
    for path, item in spec_document()["paths"].items():
        for method, operation in item.items():
            if method.upper() in METHODS:
                yield method.upper(), path, operation


def generic_path(path: str) -> str:
    """``/v1/sten/games/{game_id}`` -> ``/v1/{game}/games/{game_id}``: how docs/api.md writes it."""
    for game_id in REGISTRY:
        if path.startswith(f"/v1/{game_id}/"):
            return "/v1/{game}/" + path[len(f"/v1/{game_id}/"):]
    return path


def generic_operation(operation_id: str) -> str:
    """``getStenView`` -> ``get<Game>View``."""
    for schemas in SCHEMAS.values():
        if schemas.prefix in operation_id:
            return operation_id.replace(schemas.prefix, "<Game>")
    return operation_id


def documented_routes(text: str) -> set[tuple[str, str]]:
    """Every ``METHOD /path`` written in a code span, the query string dropped and ``...``
    expanded to a game's path."""
    routes = set()
    for span in code_spans(text):
        match = re.fullmatch(rf"({'|'.join(METHODS)}) (\S+)", span)
        if match:
            path = match.group(2).split("?", 1)[0]
            if path.startswith("..."):
                path = GAME_PATH + path[3:]
            routes.add((match.group(1), path))
    return routes


def concrete(path: str) -> list[str]:
    """A documented path made real: ``{game}`` as every game id, any other ``{name}`` as a sample."""
    paths = [path.replace("{game}", game_id) for game_id in REGISTRY] if "{game}" in path else [path]
    return [re.sub(r"\{[a-z_]+\}", "sample", p) for p in paths]


@pytest.fixture(scope="module")
def urls() -> MapAdapter:
    app = create_app(Settings(), store=MemoryStore())
    return app.url_map.bind("localhost")


def test_every_operation_of_the_spec_is_in_docs_api_md() -> None:
    text = API.read_text()
    routes = documented_routes(text)
    spans = set(code_spans(text))
    operations = list(spec_operations())
    assert len(operations) > 10
    missing_routes = sorted({(m, generic_path(p)) for m, p, _ in operations} - routes)
    missing_ids = sorted({generic_operation(op["operationId"]) for _, _, op in operations} - spans)
    assert not missing_routes, f"routes of the spec that docs/api.md does not name: {missing_routes}"
    assert not missing_ids, f"operationIds of the spec that docs/api.md does not name: {missing_ids}"


def test_every_route_docs_api_md_and_the_readme_name_exists(urls: MapAdapter) -> None:
    named = documented_routes(API.read_text()) | documented_routes((ROOT / "README.md").read_text())
    assert ("POST", "/v1/{game}/games") in named
    absent = []
    for method, path in sorted(named):
        for real in concrete(path):
            try:
                urls.match(real, method=method)
            except HTTPException:
                absent.append(f"{method} {real}")
    assert not absent, f"routes named in the docs that the app does not have: {absent}"


# --- the error table -------------------------------------------------------------------------------


def service_codes() -> set[tuple[int | None, str]]:
    """(status, code) of every problem the service's source can answer; status None where the
    framework decides it (the fallback for any other HTTP error)."""
    found: set[tuple[int | None, str]] = set(FRAMEWORK_CODES.items())
    for path in (ROOT / "service").rglob("*.py"):
        source = path.read_text()
        found |= {(int(s), c) for s, c in re.findall(r"\b(?:ApiError|problem)\(\s*(\d{3}),\s*\"([a-z_]+)\"", source)}
        found |= {(None, c) for c in re.findall(r"_CODES\.get\(\s*\w+,\s*\"([a-z_]+)\"\)", source)}
    return found


def spec_codes() -> set[tuple[int, str]]:
    """(status, code) named by the spec's error answers: their descriptions name the codes
    (``stale_version, not_your_turn or game_over; ...``, ``unauthorized: ...``); field names in
    backticks are not codes."""
    found = set()
    for _, _, operation in spec_operations():
        for status, answer in operation.get("responses", {}).items():
            if status.isdigit() and int(status) >= 400:
                prose = re.sub(r"`[^`]*`", " ", answer.get("description", ""))
                named = re.findall(r"\b[a-z]+(?:_[a-z]+)+\b", prose) + re.findall(r"^([a-z]+):", prose)
                found |= {(int(status), c) for c in named}
    return found


def error_table() -> dict[str, set[str]]:
    """docs/api.md's error table: code -> the statuses written for it (``409``, or ``4xx``)."""
    table: dict[str, set[str]] = {}
    for cells in table_rows(section(API.read_text(), "Errors")):
        match = re.fullmatch(r"`([a-z_]+)`", cells[1])
        if match:
            table.setdefault(match.group(1), set()).add(cells[0])
    return table


def test_every_error_code_the_service_answers_is_in_the_error_table() -> None:
    table = error_table()
    codes = service_codes()
    assert {(409, "stale_version"), (422, "illegal_move"), (429, "rate_limited"), (503, "store_unavailable"),
            (405, "method_not_allowed")} <= codes
    missing = sorted(f"{status} {code}" for status, code in codes
                     if code not in table or (status is not None and str(status) not in table[code]))
    assert not missing, f"problems the service answers that docs/api.md's error table lacks: {missing}"


def test_every_error_code_the_spec_names_is_in_the_error_table() -> None:
    table = error_table()
    codes = spec_codes()
    assert {(401, "unauthorized"), (409, "not_your_turn"), (422, "idempotency_conflict")} <= codes
    missing = sorted(f"{status} {code}" for status, code in codes if str(status) not in table.get(code, ()))
    assert not missing, f"problems the spec names that docs/api.md's error table lacks: {missing}"


def test_every_row_of_the_error_table_is_a_problem_the_service_answers() -> None:
    known = service_codes() | spec_codes()
    invented = []
    for code, statuses in error_table().items():
        for status in statuses:
            fits = (int(status), code) in known if status.isdigit() else (None, code) in known
            if not fits:
                invented.append(f"{status} {code}")
    assert not invented, f"rows of docs/api.md's error table that the service never answers: {invented}"


# --- the configuration table -----------------------------------------------------------------------


#: ``os.environ.get("X")``, ``os.environ["X"]``, ``os.environ.setdefault("X", ...)``, ``os.getenv("X")``,
#: ``env.get("X")``; and ``"X" in os.environ``.
READ = re.compile(r"(?:\bos\.environ|\bos\.getenv|\benv)(?:\.get|\.setdefault)?\s*[(\[]\s*[\"']([A-Z][A-Z0-9_]*)[\"']")
TESTED = re.compile(r"[\"']([A-Z][A-Z0-9_]*)[\"']\s+in\s+os\.environ")


def settings_read() -> set[str]:
    """Environment variables read by the service and by deploy/gunicorn.conf.py (``os.environ`` and
    the settings' ``env`` mapping; a WSGI ``environ`` is a request, not configuration)."""
    sources = [*(ROOT / "service").rglob("*.py"), ROOT / "deploy" / "gunicorn.conf.py"]
    names = set()
    for path in sources:
        source = path.read_text()
        names |= set(READ.findall(source)) | set(TESTED.findall(source))
    return names


def settings_documented() -> set[str]:
    rows = table_rows(section(OPERATIONS.read_text(), "Configuration"))
    return {name for cells in rows for name in re.findall(r"`([A-Z][A-Z0-9_]*)`", cells[0])}


def test_the_configuration_table_names_exactly_the_settings_the_service_reads() -> None:
    read, documented = settings_read(), settings_documented()
    assert {"REDIS_URL", "CARDTABLE_RATE_LIMIT", "WEB_CONCURRENCY", "PROMETHEUS_MULTIPROC_DIR"} <= read
    assert not read - documented, f"read but not in docs/operations.md: {sorted(read - documented)}"
    assert not documented - read, f"in docs/operations.md but read nowhere: {sorted(documented - read)}"


# --- links -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("page", LINKED_PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_into_the_repository(page: Path) -> None:
    assert not broken_links(page, ROOT)


def test_a_link_out_of_the_repository_to_a_missing_file_or_heading_is_caught(tmp_path: Path) -> None:
    """The checker itself: a sibling's file is outside even when it exists; code is not a link."""
    (tmp_path / "sibling").mkdir()
    (tmp_path / "sibling" / "CONTRACT.md").write_text("# Contract\n")
    repo = tmp_path / "repo"
    (repo / "docs").mkdir(parents=True)
    (repo / "docs" / "a.md").write_text("# A heading: with `code`\n\n```\n# not a heading\n```\n")
    (repo / "README.md").write_text(
        "The contract is [../sibling/CONTRACT.md](../sibling/CONTRACT.md); see [a](docs/a.md#a-heading-with-code),\n"
        "[gone](docs/gone.md), [no heading](docs/a.md#not-a-heading), [web](https://example.org/x.md),\n"
        "[top](#readme) and `[code](nowhere.md)`.\n\n# Readme\n")
    assert broken_links(repo / "README.md", repo) == [
        "../sibling/CONTRACT.md: leaves the repository",
        "docs/gone.md: no such file",
        "docs/a.md#not-a-heading: no heading #not-a-heading in docs/a.md",
    ]
