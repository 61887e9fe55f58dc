"""OpenAPI generation details: move unions as ``oneOf`` with a discriminator, and card codes.

apispec documents a marshmallow-oneofschema ``OneOfSchema`` as an empty object (apispec issue
1012). This converter emits ``oneOf`` plus ``discriminator.mapping`` so that generated SDKs get one
typed class per move kind. A card field (``schemas.common.CardField``) names its game's card schema (``<Prefix>Card``:
the pattern and the meaning of the game's card codes), made once from the game's declaration.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

from apispec.ext.marshmallow import MarshmallowPlugin, OpenAPIConverter
from apispec.ext.marshmallow.common import resolve_schema_instance

from schemas.common import BotSeat, BotSeatField, CardField, MoveOneOf
from schemas.people import SeatBot, SeatOpen, SeatPerson, SeatSpecField

#: OpenAPI 3.0 has no null type: an object that admits only null.
_NULL = {"type": "object", "nullable": True, "enum": [None]}


class _Converter(OpenAPIConverter):
    def init_attribute_functions(self) -> None:
        super().init_attribute_functions()
        self.add_attribute_function(_bot_seat2properties)
        self.add_attribute_function(_seat_spec2properties)

    def field2property(self, field: Any) -> dict[str, Any]:
        """A card field as a reference to its game's card schema (with the field's own description
        beside it, under ``allOf``: OpenAPI 3.0 ignores what stands beside a plain ``$ref``)."""
        if not isinstance(field, CardField):
            out: dict[str, Any] = super().field2property(field)
            return out
        if field.component not in self.spec.components.schemas:
            self.spec.components.schema(field.component, {
                "type": "string", "pattern": field.codes.pattern, "description": field.codes.description})
        ref = {"$ref": f"#/components/schemas/{field.component}"}
        description = field.metadata.get("description")
        if field.allow_none:
            return {"anyOf": [ref, dict(_NULL)], **({"description": description} if description else {})}
        return {"allOf": [ref], "description": description} if description else ref

    def field2nullable(self, field: Any, ret: dict[str, Any]) -> dict[str, Any]:
        """A nullable nested schema as ``anyOf: [ref, null]``.

        apispec writes ``anyOf: [{type: object, nullable: true}, ref]`` for OpenAPI 3.0,
        whose first branch admits any object: generated SDKs then lose the type and
        validators check nothing inside. ``enum: [null]`` makes the branch admit null only.
        """
        if field.allow_none and self.openapi_version.major == 3 and self.openapi_version.minor == 0:
            if "$ref" in ret:
                return {"anyOf": [{"$ref": ret.pop("$ref")}, dict(_NULL)]}
            if "allOf" in ret:
                return {"anyOf": [*ret.pop("allOf"), dict(_NULL)]}
        out: dict[str, Any] = super().field2nullable(field, ret)
        return out

    def schema2jsonschema(self, schema: Any) -> dict[str, Any]:
        instance = resolve_schema_instance(schema)
        if isinstance(instance, MoveOneOf):
            refs = {tag: self.resolve_nested_schema(sub) for tag, sub in instance.type_schemas.items()}
            out: dict[str, Any] = {
                "oneOf": list(refs.values()),
                "discriminator": {"propertyName": instance.type_field,
                                  "mapping": {tag: ref["$ref"] for tag, ref in refs.items()}},
            }
            if instance.__doc__:
                out["description"] = instance.__doc__.strip()
            return out
        out = super().schema2jsonschema(schema)
        doc = type(instance).__doc__
        if "description" not in out and doc:  # a schema's docstring describes it (apispec reads only Meta)
            first = " ".join(inspect.cleandoc(doc).split("\n\n")[0].split())
            out["description"] = re.sub(r"``([^`]+)``", r"`\1`", first)  # reST's code spans as Markdown's
        return out


def _bot_seat2properties(self: _Converter, field: Any, **kwargs: Any) -> dict[str, Any]:
    """An entry of ``bots``: a seat number or a ``BotSeat`` object."""
    if isinstance(field, BotSeatField):
        return {"oneOf": [{"type": "integer", "minimum": 0}, self.resolve_nested_schema(BotSeat)]}
    return {}


def _seat_spec2properties(self: _Converter, field: Any, **kwargs: Any) -> dict[str, Any]:
    """An entry of ``seats``: a person, a bot or an open seat (each schema admits no other's keys)."""
    if isinstance(field, SeatSpecField):
        return {"oneOf": [self.resolve_nested_schema(s) for s in (SeatPerson, SeatBot, SeatOpen)]}
    return {}


class CardtablePlugin(MarshmallowPlugin):
    Converter = _Converter
