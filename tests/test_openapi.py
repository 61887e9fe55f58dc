"""The committed spec is the app's spec, and it is valid OpenAPI 3."""

from __future__ import annotations

import json
from pathlib import Path

from openapi_spec_validator import validate

from engines import REGISTRY
from schemas import SCHEMAS
from service.cli import spec_document, spec_text

COMMITTED = Path(__file__).resolve().parent.parent / "openapi" / "openapi.json"


def test_the_committed_spec_matches_the_app() -> None:
    stale = "openapi/openapi.json is stale: run `cardtable openapi -o openapi/openapi.json`"
    assert COMMITTED.read_text() == spec_text(), stale


def test_the_spec_is_valid_openapi_3() -> None:
    validate(spec_document())


def test_every_game_has_its_typed_operations() -> None:
    spec = spec_document()
    ops = {op["operationId"] for path in spec["paths"].values() for op in path.values() if isinstance(op, dict)
           and "operationId" in op}
    assert {"listGames", "getHealth", "getReadiness"} <= ops
    for game, schemas in SCHEMAS.items():
        p = schemas.prefix
        assert {f"create{p}Game", f"get{p}View", f"submit{p}Move", f"get{p}Log"} <= ops, game
        move = spec["components"]["schemas"][f"{p}Move"]
        assert set(move["discriminator"]["mapping"]) == {k.type for k in REGISTRY[game].move_types}


def test_every_schema_and_game_is_registered_together() -> None:
    assert set(SCHEMAS) == set(REGISTRY)


def test_operation_ids_are_unique() -> None:
    spec = spec_document()
    ids = [op["operationId"] for path in spec["paths"].values() for op in path.values() if isinstance(op, dict)
           and "operationId" in op]
    assert len(ids) == len(set(ids))
    json.dumps(spec)
