"""Tool specifications: one Param list per tool, from which the YAML doc and the JSON Schema derive."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

# Semantic kinds of parameters. The JSON type follows from the kind; the router's tier-0 plan
# filler uses the kind to know what to look for in the request text and the layer context.
PARAM_KINDS = {
    "layer": "string",  # a layer: project layer name, CLI input path or an earlier result name
    "layers": "array",  # several layers
    "field": "string",  # a field of the layer named by `of_layer`
    "fields": "array",  # several fields of `of_layer`
    "distance": "number",  # always in metres; the tool projects when the layer is in degrees
    "number": "number",
    "integer": "integer",
    "string": "string",
    "enum": "string",  # one of `enum`
    "boolean": "boolean",
    "crs": "string",  # "EPSG:32633" style authority id
    "expression": "string",  # a filter / calculator expression, parsed safely
    "format": "string",  # output format: one of `enum`
    "value": "string",  # a category value present in a field
    "numbers": "array",  # several numbers (ring distances, class breaks)
    "url": "string",
    "bbox": "array",  # [xmin, ymin, xmax, ymax]
}

ARRAY_ITEMS = {"layers": "string", "fields": "string", "numbers": "number", "bbox": "number"}


@dataclass(frozen=True)
class Param:
    """One argument of a tool."""

    name: str
    kind: str
    description: str
    required: bool = True
    default: Any = None
    enum: tuple | None = None
    unit: str | None = None
    minimum: float | None = None
    maximum: float | None = None
    of_layer: str | None = None  # for field/fields/value: the layer parameter they belong to

    def __post_init__(self):
        if self.kind not in PARAM_KINDS:
            raise ValueError(f"unknown parameter kind {self.kind!r} for {self.name}")

    def json_schema(self) -> dict:
        """The JSON Schema fragment for this parameter."""
        jtype = PARAM_KINDS[self.kind]
        schema: dict[str, Any] = {"type": jtype, "description": self.description}
        if jtype == "array":
            schema["items"] = {"type": ARRAY_ITEMS[self.kind]}
            if self.kind == "bbox":
                schema["minItems"] = schema["maxItems"] = 4
        if self.enum is not None:
            schema["enum"] = list(self.enum)
        if self.default is not None:
            schema["default"] = self.default
        if self.minimum is not None:
            schema["minimum"] = self.minimum
        if self.maximum is not None:
            schema["maximum"] = self.maximum
        if self.kind == "distance":
            schema["description"] = f"{self.description} (metres)"
        return schema

    def yaml_entry(self) -> dict:
        """The YAML-doc entry for this parameter (what the model reads)."""
        entry: dict[str, Any] = {"name": self.name, "type": PARAM_KINDS[self.kind], "kind": self.kind}
        entry["required"] = self.required
        entry["description"] = self.description
        for key in ("default", "unit", "minimum", "maximum", "of_layer"):
            value = getattr(self, key)
            if value is not None:
                entry[key] = value
        if self.kind == "distance" and self.unit is None:
            entry["unit"] = "m"
        if self.enum is not None:
            entry["allowed"] = list(self.enum)
        return entry


@dataclass(frozen=True)
class ToolSpec:
    """Everything the router, the model and the validator know about one tool."""

    name: str
    half: str  # "geojson" or "processing"
    category: str
    purpose: str  # one line
    params: tuple[Param, ...]
    returns: str
    when: str = ""
    examples: tuple[dict, ...] = ()
    paper_name: str | None = None  # GeoJSON Agents name, for the geojson half
    algorithm_ids: tuple[str, ...] = ()  # Processing ids to try in order, for the processing half
    equivalent: str | None = None  # the tool of the other half that does the same job
    keywords: tuple[str, ...] = field(default=())  # extra words users say for this tool

    @property
    def traits(self) -> frozenset[str]:
        """What the tool does to its input (function_lib/traits.py): per_feature, aggregates, keeps_subset, ..."""
        from .traits import traits_of

        return traits_of(self.name)

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    def json_schema(self) -> dict:
        """JSON Schema of the arguments, for validation and for the OpenAI `tools` definition."""
        return {
            "type": "object",
            "properties": {p.name: p.json_schema() for p in self.params},
            "required": [p.name for p in self.params if p.required],
            "additionalProperties": False,
        }

    def openai_tool(self) -> dict:
        """The OpenAI function-calling definition of this tool."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": f"{self.purpose} {self.when}".strip(),
                "parameters": self.json_schema(),
            },
        }

    def yaml_dict(self) -> dict:
        doc: dict[str, Any] = {"name": self.name, "purpose": self.purpose}
        if self.when:
            doc["when"] = self.when
        doc["parameters"] = [p.yaml_entry() for p in self.params]
        doc["returns"] = self.returns
        if self.examples:
            doc["examples"] = [dict(e) for e in self.examples]
        return doc

    def yaml_doc(self) -> str:
        """The YAML document the model reads for this tool."""
        return yaml.safe_dump(self.yaml_dict(), sort_keys=False, allow_unicode=True, width=100)


def schema_from_yaml(doc: str) -> dict:
    """Rebuild a JSON Schema from a YAML doc, so a test can prove the two never disagree."""
    data = yaml.safe_load(doc)
    props, required = {}, []
    for entry in data["parameters"]:
        kind = entry["kind"]
        param = Param(
            name=entry["name"],
            kind=kind,
            description=entry["description"],
            required=entry["required"],
            default=entry.get("default"),
            enum=tuple(entry["allowed"]) if "allowed" in entry else None,
            minimum=entry.get("minimum"),
            maximum=entry.get("maximum"),
        )
        props[param.name] = param.json_schema()
        if param.required:
            required.append(param.name)
    return {"type": "object", "properties": props, "required": required, "additionalProperties": False}
