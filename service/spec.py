"""OpenAPI generation details: move unions as ``oneOf`` with a discriminator.

apispec documents a marshmallow-oneofschema ``OneOfSchema`` as an empty object
(apispec issue 1012). This converter emits ``oneOf`` plus ``discriminator.mapping``
so that generated SDKs get one typed class per move kind.
"""

from __future__ import annotations

from typing import Any

from apispec.ext.marshmallow import MarshmallowPlugin, OpenAPIConverter
from apispec.ext.marshmallow.common import resolve_schema_instance

from schemas.common import MoveOneOf


class _Converter(OpenAPIConverter):
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


class CardtablePlugin(MarshmallowPlugin):
    Converter = _Converter
