"""Import a built contract tree and render its OpenRPC document (or its name sets) on stdout.

Runs in its own interpreter (``gen_full_contract.py`` starts one per document): the contract
registry is module-global and rejects a second registration, so two sessions variants cannot be
imported into one process.

The document is the stored generator's own ``render_openrpc()`` (``collect()``, ``_descriptors``,
``_openrpc_schema``, its layout and ``json.dumps``), with ``ContractSchemas`` replaced by
:class:`OpenRpcSchemas`, a subclass that changes only what the stored generator cannot render for
the newer modules or for an OpenRPC reader; ``adaptations()`` lists each change and is written into
``info.description``.

    python3 render_in_tree.py TREE render|names seed|stored SESSIONS_REGISTRATIONS_JSON

SESSIONS_REGISTRATIONS_JSON is ``[[kind, name], ...]``, what the sessions text declares.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from contract_tree import CONTRACTS, GENERATOR, STAND_INS, VARIANTS, Variant

TITLE = "Hermes TUI/Desktop gateway"


class TreeError(RuntimeError):
    """The tree imports, but not into what the sources declare."""


def import_catalog(tree: Path) -> dict[str, dict[str, str]]:
    """Import ``tui_gateway.contracts`` from ``tree``; return, per table, the module that registered
    each name (so the sessions module can be checked against the names its text declares).

    The package object is created before its ``__init__`` runs so that ``registry`` can be loaded
    and its three registration functions wrapped before any topic module imports them."""
    sys.path.insert(0, str(tree))
    init = tree / CONTRACTS / "__init__.py"
    spec = importlib.util.spec_from_file_location(
        "tui_gateway.contracts", init, submodule_search_locations=[str(init.parent)]
    )
    assert spec is not None and spec.loader is not None
    parent = importlib.import_module("tui_gateway")
    package = importlib.util.module_from_spec(spec)
    sys.modules["tui_gateway.contracts"] = package
    parent.contracts = package  # type: ignore[attr-defined]
    registry = importlib.import_module("tui_gateway.contracts.registry")
    origin: dict[str, dict[str, str]] = {"method": {}, "server_request": {}, "event": {}}

    def recorded(kind: str, register: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(name: str, *args: Any, **kwargs: Any) -> Any:
            origin[kind][name] = sys._getframe(1).f_globals.get("__name__", "?")
            return register(name, *args, **kwargs)

        return wrapper

    for kind in origin:
        setattr(registry, kind, recorded(kind, getattr(registry, kind)))
    with warnings.catch_warnings():
        # groups_bot_relay.Room declares a field named ``copy`` (BaseModel.copy is deprecated API);
        # pydantic warns at class creation and the wire name is what the contract means.
        warnings.filterwarnings("ignore", message='Field name "copy" in "Room" shadows an attribute')
        spec.loader.exec_module(package)
    return origin


def check_sessions(origin: dict[str, dict[str, str]], expected: list[list[str]]) -> None:
    """The imported sessions module registers exactly what its source text declares."""
    registered = sorted(
        [kind, name] for kind, table in origin.items() for name, module in table.items()
        if module == "tui_gateway.contracts.sessions"
    )
    if registered != sorted(expected):
        missing = [name for kind, name in sorted(expected) if [kind, name] not in registered]
        extra = [name for kind, name in registered if [kind, name] not in expected]
        raise TreeError(f"sessions.py registers other names than its text declares: missing {missing}, extra {extra}")


def load_generator(tree: Path) -> ModuleType:
    """The stored upstream generator, imported from the tree (its ROOT is the tree)."""
    spec = importlib.util.spec_from_file_location("gen_gateway_contracts", tree / GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_gateway_contracts"] = module
    spec.loader.exec_module(module)
    return module


def _rename_refs(node: Any, names: dict[str, str]) -> Any:
    """``node`` with ``#/$defs/<old>`` references and ``$defs`` keys renamed by ``names``."""
    if isinstance(node, list):
        return [_rename_refs(item, names) for item in node]
    if not isinstance(node, dict):
        return node
    renamed: dict[str, Any] = {}
    for key, value in node.items():
        if key == "$ref" and isinstance(value, str) and value.startswith("#/$defs/"):
            target = value[len("#/$defs/") :]
            renamed[key] = f"#/$defs/{names.get(target, target)}"
        elif key == "$defs":
            renamed[key] = {names.get(name, name): _rename_refs(schema, names) for name, schema in value.items()}
        else:
            renamed[key] = _rename_refs(value, names)
    return renamed


_NAME_MAPS = {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}


def _without_discriminator(schema: Any) -> Any:
    """``schema`` without pydantic's ``discriminator`` keyword (OpenAPI's, not JSON Schema's).

    Keys of ``properties``-like maps are names, not keywords: a property called ``discriminator``
    stays."""
    if isinstance(schema, list):
        return [_without_discriminator(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    kept: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "discriminator":
            continue
        if key in _NAME_MAPS and isinstance(value, dict):
            kept[key] = {name: _without_discriminator(sub) for name, sub in value.items()}
        else:
            kept[key] = _without_discriminator(value)
    return kept


def _refs(node: Any) -> list[str]:
    if isinstance(node, list):
        return [ref for item in node for ref in _refs(item)]
    if not isinstance(node, dict):
        return []
    own = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
    return own + [ref for value in node.values() for ref in _refs(value)]


def make_schemas_class(gen: ModuleType) -> type:
    """The stored ``ContractSchemas`` with its OpenRPC-relevant gaps closed (see ``adaptations``)."""

    class _Outbound(gen._Schema):  # type: ignore[misc, name-defined]
        """Outbound slots: every serialized field is on the wire (pydantic's own
        ``json_schema_serialization_defaults_required`` rule)."""

        def field_is_required(self, field: Any, total: bool) -> bool:
            if field["type"] == "typed-dict-field":
                return super().field_is_required(field, total)  # a TypedDict omits absent keys
            return field.get("serialization_exclude_if") is None

    def directional_schema(tp: Any, *, inbound: bool, inbound_names: dict[str, str]) -> dict:
        if inbound:
            return _rename_refs(gen._schema_for(tp), inbound_names)
        from pydantic import TypeAdapter

        return TypeAdapter(tp).json_schema(mode="serialization", schema_generator=_Outbound, ref_template="#/$defs/{model}")

    class OpenRpcSchemas(gen.ContractSchemas):  # type: ignore[misc, name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.inbound_names = self._shared_models()
            self.title_reuses: list[str] = []

        @staticmethod
        def _shared_models() -> dict[str, str]:
            """Models some inbound and some outbound slot reach: their inbound rendering (defaulted
            fields optional) cannot share a component with the outbound one (all fields required)."""
            methods, server_requests, events = gen._catalog()
            inbound: set[str] = set()
            outbound: set[str] = set()
            for entry in methods.values():
                inbound.update(model.__name__ for model in gen._models_in(entry.params))
                outbound.update(model.__name__ for model in gen._models_in(entry.result))
            for entry in server_requests.values():
                outbound.update(model.__name__ for model in gen._models_in(entry.params))
                inbound.update(model.__name__ for model in gen._models_in(entry.result))
            for entry in events.values():
                outbound.update(model.__name__ for model in gen._models_in(entry.payload))
            return {name: gen._inbound_name(name) for name in sorted(inbound & outbound)}

        def add(self, tp: Any, slot: str, *, inbound: bool) -> dict:
            """The stored ``add`` without the TypeScript validation, with the direction's schema (less
            ``discriminator``) and with a top-level model that is already its own component reusing it."""
            self._register_classes(tp, slot, inbound=inbound)
            schema = _without_discriminator(directional_schema(tp, inbound=inbound, inbound_names=self.inbound_names))
            for name, definition in schema.pop("$defs", {}).items():
                existing = self.defs.get(name)
                if existing is not None and existing != definition:
                    if name not in self._classes:
                        raise gen.RenderError(f"{slot}: duplicate class name {name!r}")
                    continue
                if existing is None:
                    self.defs[name] = definition

            if "$ref" not in schema:
                name = gen._pascal(slot)
                existing = self.defs.get(name)
                if existing is not None and existing == schema and schema.get("title") == name:
                    self.title_reuses.append(name)
                else:
                    schema.pop("title", None)
                    if existing is not None and existing != schema:
                        raise gen.RenderError(f"{slot}: duplicate anonymous schema name {name!r}")
                    if existing is None:
                        self.defs[name] = schema
                schema = {"$ref": f"#/$defs/{name}"}

            top_name = gen._ref_name(schema["$ref"])
            if inbound:
                input_name = gen._type_name(slot)
                if input_name != top_name:
                    existing = self.defs.get(input_name)
                    if existing is not None and existing != self.defs[top_name]:
                        raise gen.RenderError(f"{slot}: duplicate inbound class name {input_name!r}")
                    if existing is None:
                        self.defs[input_name] = self.defs[top_name]
                        source_model = self._models.get(top_name)
                        if source_model is not None:
                            self._models[input_name] = source_model
                    schema = {"$ref": f"#/$defs/{input_name}"}
                    top_name = input_name
                self.inbound_defs.add(top_name)
            return schema

        def _validate_defs(self) -> None:
            """What the OpenRPC document needs of the table: references resolve, and the only
            empty schema is pydantic's recursive ``JsonValue``."""
            for name, definition in self.defs.items():
                if definition == {} and name != "JsonValue":
                    raise gen.RenderError(f"{name}: empty schema is only allowed for JsonValue")
                for ref in _refs(definition):
                    if gen._ref_name(ref) not in self.defs:
                        raise gen.RenderError(f"{name}: unknown schema definition {ref!r}")

    return OpenRpcSchemas


def adaptations(schemas: Any) -> list[str]:
    """One line per way this document departs from what the stored generator would write."""
    shared = ", ".join(f"{name} -> {alias}" for name, alias in schemas.inbound_names.items()) or "none"
    reused = ", ".join(sorted(set(schemas.title_reuses))) or "none"
    return [
        "The stored generator's TypeScript-representability checks (_validate_contract_type, "
        "ContractSchemas._validate_defs) are not run: they reject open models (additionalProperties: true) "
        "and constraint keywords (minLength, minItems, maxItems, pattern) that JSON Schema expresses. Every "
        "JSON Schema keyword pydantic emits is kept; what is checked instead is that every $ref resolves and that only "
        "JsonValue is an empty schema.",
        "Outbound slots (method results, server-request params, event payloads) list every serialized field "
        "in required, the base.py rule the stored TypeScript renderer applies; inbound slots (method params, "
        "server-request results) keep pydantic's required, so defaulted fields stay optional. The stored "
        "OpenRPC renderer used pydantic's required in both directions.",
        "A model that inbound and outbound slots both reach is one component per direction: the outbound one "
        "keeps the class name, the inbound one takes the stored generator's _inbound_name (<Name>Input): "
        f"{shared}.",
        "A slot rendered at the top level whose wire-derived name is already the component of the same model "
        "(equal but for the title the stored generator drops) refers to that component instead of failing "
        f"as a duplicate anonymous schema name: {reused}.",
        "pydantic's discriminator keyword (OpenAPI's, not JSON Schema's: strict JSON Schema validators reject "
        "it as unknown) is left out; the members of each such oneOf still differ by a required const or enum tag.",
        f'info.version is "{VARIANTS["seed"].version}" for the document built with the current (seed) sessions.py '
        f'and "{VARIANTS["stored"].version}" for the one built with the stored, older sessions.py, as in the '
        "session-lifecycle pair; the upstream generator writes \"1\" for every document, and info.description "
        "(upstream: one line) names the inputs, stand-ins and these adaptations.",
    ]


def render(tree: Path, variant: Variant) -> str:
    gen = load_generator(tree)
    schemas_class = make_schemas_class(gen)
    created: list[Any] = []

    def recording_class() -> Any:
        created.append(schemas_class())
        return created[-1]

    gen.ContractSchemas = recording_class  # collect() instantiates the table by this global name
    document = json.loads(gen.render_openrpc())
    lines = [
        "Generated by contract-gate scripts/hermes/gen_full_contract.py: the stored Hermes tui_gateway/contracts "
        f"sources ({variant.label}) imported with pydantic and rendered by the stored "
        "scripts/gen_gateway_contracts.py (collect, _descriptors, render_openrpc).",
        "Stand-ins:",
        *(f"- {line}" for line in STAND_INS),
        "Adaptations:",
        *(f"- {line}" for line in adaptations(created[-1])),
    ]
    document["info"] = {"title": TITLE, "version": variant.version, "description": "\n".join(lines)}
    return json.dumps(document, indent=2, sort_keys=False) + "\n"


def main(argv: list[str]) -> int:
    tree, mode, variant, expected = argv
    origin = import_catalog(Path(tree))
    check_sessions(origin, json.loads(expected))
    if mode == "names":
        from tui_gateway.contracts.registry import EVENTS, METHODS, SERVER_REQUESTS

        names = {"methods": sorted(METHODS), "serverRequests": sorted(SERVER_REQUESTS), "events": sorted(EVENTS)}
        sys.stdout.write(json.dumps(names, indent=2) + "\n")
    else:
        sys.stdout.write(render(Path(tree), VARIANTS[variant]))
    return 0


if __name__ == "__main__":
    try:
        raise SystemExit(main(sys.argv[1:]))
    except TreeError as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from error
