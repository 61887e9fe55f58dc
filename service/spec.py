"""OpenAPI generation details: move unions as ``oneOf`` with a discriminator.

apispec documents a marshmallow-oneofschema ``OneOfSchema`` as an empty object
(apispec issue 1012). This converter emits ``oneOf`` plus ``discriminator.mapping``
so that generated SDKs get one typed class per move kind.
"""

from __future__ import annotations

from typing import Any

from apispec.ext.marshmallow import MarshmallowPlugin, OpenAPIConverter
from apispec.ext.marshmallow.common import resolve_schema_instance

from schemas.common import BotSeat, BotSeatField, MoveOneOf

#: OpenAPI 3.0 has no null type: an object that admits only null.
_NULL = {"type": "object", "nullable": True, "enum": [None]}


class _Converter(OpenAPIConverter):
    def init_attribute_functions(self) -> None:
        super().init_attribute_functions()
        self.add_attribute_function(_bot_seat2properties)

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
        return super().schema2jsonschema(schema)


def _bot_seat2properties(self: _Converter, field: Any, **kwargs: Any) -> dict[str, Any]:
    """An entry of ``bots``: a seat number or a ``BotSeat`` object."""
    if isinstance(field, BotSeatField):
        return {"oneOf": [{"type": "integer", "minimum": 0}, self.resolve_nested_schema(BotSeat)]}
    return {}


class CardtablePlugin(MarshmallowPlugin):
    Converter = _Converter
