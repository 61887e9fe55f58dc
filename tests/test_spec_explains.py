"""The spec explains itself, so that a frontend can be written from it alone: every field, parameter and
header is described, the examples are valid, each game's cards and refusal reasons are spelled out,
the log's moves are typed, and the document's own description covers every error code.

Read off the app's document (``service.cli.spec_document``), which the committed one equals
(tests/test_openapi.py). That the examples are what the service really answers is checked against a
real store in tests/service/test_spec_examples.py.
"""

from __future__ import annotations

import json
import re
import typing
from collections.abc import Iterator
from typing import Any

import pytest
from openapi_schema_validator import OAS30ReadValidator, OAS30WriteValidator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT4

from engines import REGISTRY
from schemas import SCHEMAS
from service.cli import spec_document
from tests.test_docs import service_codes

ENGINES = sorted(REGISTRY.values(), key=lambda e: e.id)
IDS = [e.id for e in ENGINES]
SPEC_URI = "urn:cardtable:openapi"
HTTP_METHODS = {"get", "post", "put", "patch", "delete"}


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return spec_document()


def _undescribed(schema: Any, where: str) -> Iterator[tuple[str, str]]:
    """``(where, property)`` for every property without a description, inline objects included."""
    if isinstance(schema, dict):
        for name, prop in (schema.get("properties") or {}).items():
            if not (isinstance(prop, dict) and prop.get("description")):
                yield where, name
            yield from _undescribed(prop, f"{where}.{name}")
        for key in ("items", "additionalProperties"):
            yield from _undescribed(schema.get(key), f"{where}[]")
        for key in ("allOf", "anyOf", "oneOf"):
            for i, part in enumerate(schema.get(key) or ()):
                yield from _undescribed(part, f"{where}/{key}/{i}")


def test_every_property_of_every_schema_is_described(spec: dict[str, Any]) -> None:
    missing = [f"{where}.{prop}" for name, schema in spec["components"]["schemas"].items()
               for where, prop in _undescribed(schema, name)]
    assert not missing, f"{len(missing)} properties without a description: {missing}"


def test_the_description_check_sees_what_it_judges(spec: dict[str, Any]) -> None:
    """The walk finds every property (a walk of nothing would pass), and an undescribed one is caught."""
    found = sum(len(s.get("properties", {})) for s in spec["components"]["schemas"].values())
    assert found > 500
    assert list(_undescribed({"properties": {"a": {"type": "string"}, "b": {"description": "b"}}}, "X")) == [
        ("X", "a")]


def _operations(spec: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any], dict[str, Any]]]:
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method in HTTP_METHODS:
                yield path, method, item, operation


def test_every_parameter_answer_and_header_is_described(spec: dict[str, Any]) -> None:
    missing = []
    for path, method, item, operation in _operations(spec):
        if not operation.get("description"):
            missing.append(f"{method} {path}: the operation")
        for parameter in [*item.get("parameters", ()), *operation.get("parameters", ())]:
            if not parameter.get("description"):
                missing.append(f"{method} {path}: parameter {parameter['name']}")
        for status, answer in operation["responses"].items():
            answer = spec["components"]["responses"][answer["$ref"].rsplit("/", 1)[1]] if "$ref" in answer else answer
            if not answer.get("description"):
                missing.append(f"{method} {path}: answer {status}")
            for header, declared in answer.get("headers", {}).items():
                if not declared.get("description"):
                    missing.append(f"{method} {path}: header {header} of {status}")
    assert not missing, missing


def _validator(spec: dict[str, Any], pointer: str, request: bool) -> Any:
    registry: Registry = Registry().with_resource(SPEC_URI, Resource.from_contents(spec, default_specification=DRAFT4))
    kind = OAS30WriteValidator if request else OAS30ReadValidator
    return kind({"$ref": f"{SPEC_URI}#{pointer}"}, registry=registry)


def _pointer(*parts: str) -> str:
    return "".join("/" + p.replace("~", "~0").replace("/", "~1") for p in parts)


def test_every_example_is_valid_for_its_schema(spec: dict[str, Any]) -> None:
    checked = 0
    problems = []
    for path, method, _, operation in _operations(spec):
        places: list[tuple[tuple[str, ...], Any, bool]] = [(("requestBody",), operation.get("requestBody", {}), True)]
        places += [(("responses", status), answer, False) for status, answer in operation["responses"].items()]
        for where, part, request in places:
            for media, content in part.get("content", {}).items():
                if "example" not in content:
                    continue
                at = _pointer("paths", path, method, *where, "content", media, "schema")
                for error in _validator(spec, at, request).iter_errors(content["example"]):
                    problems.append(f"{method} {path} {'/'.join(where)}: {error.message[:300]}")
                checked += 1
    assert not problems, problems
    # per game: create (request, answer), view, move (request, answer), check (request), log, join (request);
    # and the lookup's request
    assert checked == 8 * len(REGISTRY) + 1


def test_the_example_check_refuses_an_invalid_example(spec: dict[str, Any]) -> None:
    at = _pointer("paths", "/v1/sten/games/{game_id}/moves", "post", "requestBody", "content", "application/json",
                  "schema")
    assert not list(_validator(spec, at, True).iter_errors({"version": 0, "move": {"type": "play", "card": "7H"}}))
    assert list(_validator(spec, at, True).iter_errors({"version": 0, "move": {"type": "play", "card": "7Z"}}))


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_a_games_refused_moves_name_its_reasons(spec: dict[str, Any], engine: Any) -> None:
    """A move's 422 is the game's problem: ``reason`` is an enum of exactly the engine's reasons, each
    listed with what it means."""
    prefix = SCHEMAS[engine.id].prefix
    problem = spec["components"]["schemas"][f"{prefix}MoveProblem"]
    reason = problem["properties"]["reason"]
    assert reason["enum"] == list(engine.reasons)
    for code, meaning in engine.reasons.items():
        assert f"- `{code}`: {meaning}" in reason["description"]
    for action in ("moves", "moves/check"):
        answer = spec["paths"][f"/v1/{engine.id}/games/{{game_id}}/{action}"]["post"]["responses"]["422"]
        assert answer["content"]["application/problem+json"]["schema"]["$ref"].endswith(f"/{prefix}MoveProblem")


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        if "$ref" in node:
            yield node["$ref"].rsplit("/", 1)[1]
        for value in node.values():
            yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_a_games_cards_are_one_described_schema(spec: dict[str, Any], engine: Any) -> None:
    """``<Game>Card`` has the game's pattern and says what its codes mean; its moves, events and a
    create's deck name it."""
    prefix = SCHEMAS[engine.id].prefix
    schemas = spec["components"]["schemas"]
    card = schemas[f"{prefix}Card"]
    codes = next(m for k in engine.move_types for h in typing.get_type_hints(k, include_extras=True).values()
                 for m in _marks(h))
    assert card == {"type": "string", "pattern": codes.pattern, "description": codes.description}
    users = {name for name, schema in schemas.items() if f"{prefix}Card" in _refs(schema)}
    assert f"{prefix}CreateRequest" in users
    assert any(name.startswith(f"{prefix}Event") for name in users), users
    assert {f"{prefix}{''.join(p.capitalize() for p in k.type.split('_'))}" for k in engine.move_types} & users


def _marks(hint: Any) -> Iterator[Any]:
    if typing.get_origin(hint) is typing.Annotated:
        yield from typing.get_args(hint)[1:]
    for arg in typing.get_args(hint):
        yield from _marks(arg)


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_a_log_entrys_move_is_typed_and_says_what_it_may_hide(spec: dict[str, Any], engine: Any) -> None:
    prefix = SCHEMAS[engine.id].prefix
    schemas = spec["components"]["schemas"]
    move = schemas[f"{prefix}LogEntry"]["properties"]["move"]
    assert f"{prefix}LoggedMove" in list(_refs(move))
    mapping = schemas[f"{prefix}LoggedMove"]["discriminator"]["mapping"]
    assert set(mapping) == {k.type for k in engine.move_types}
    for kind in engine.move_types:
        name = mapping[kind.type].rsplit("/", 1)[1]
        if kind.shown_by is None:
            assert name == schemas[f"{prefix}Move"]["discriminator"]["mapping"][kind.type].rsplit("/", 1)[1]
            continue
        event, hidden = kind.shown_by
        logged = schemas[name]
        assert name.startswith(f"{prefix}Logged")
        for field in hidden:
            assert field not in logged.get("required", []), (name, field)
            assert f"`{event}` event" in logged["properties"][field]["description"]
            assert "absent" in logged["properties"][field]["description"]


def test_the_documents_description_covers_games_and_every_error_code(spec: dict[str, Any]) -> None:
    text = spec["info"]["description"]
    assert len(text) > 4000, "a page: what the service is, auth, versions, errors, streams, limits"
    for heading in ("## Seats and tokens", "## Views, versions and concurrency", "## Errors",
                    "## The log, streams and long polls", "## Limits"):
        assert heading in text
    for engine in ENGINES:
        assert f"`{engine.id}`" in text and f"`{SCHEMAS[engine.id].prefix}`" in text
    errors = text.split("## Errors", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"\| `([a-z_]+)` \|", errors))
    answered = {code for _, code in service_codes()}
    assert answered <= named, f"codes the service answers that info.description lacks: {sorted(answered - named)}"
    assert named <= answered, f"codes info.description names that the service never answers: {named - answered}"


def test_the_document_is_json_and_self_contained(spec: dict[str, Any]) -> None:
    """No reference leaves the document, and every one it makes resolves."""
    text = json.dumps(spec)
    refs = set(re.findall(r'"\$ref": "([^"]+)"', text))
    assert all(r.startswith("#/components/") for r in refs), refs
    for ref in refs:
        _, _, kind, name = ref.split("/")
        assert name in spec["components"][kind], ref
