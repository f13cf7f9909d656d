/**
 * Renders a {@link ContractSpec} as OpenRPC in the layout of the Hermes generator
 * (`scripts/gen_gateway_contracts.py`, "layout A"): one `params` descriptor per method whose schema is
 * the whole params model, Pydantic v2 JSON Schema components sorted by name, `x-server-requests` and
 * `x-notifications`, pretty-printed with 2 spaces and every non-ASCII character escaped.
 */
import type { ContractSpec, Definition, EventDef, FieldDef, JsonValue, MethodDef, ModelDef, TypeExpr } from './modelDsl.js';

type Schema = { [key: string]: JsonValue };

const REF_PREFIX = '#/components/schemas/';

/** Inline schema of a payload-less event, in the key order the Hermes generator writes it. */
const NO_PAYLOAD: Schema = { type: 'object', additionalProperties: false };

function refTo(name: string): Schema {
  return { $ref: `${REF_PREFIX}${name}` };
}

/** Python's `str.title()` then `_` → space, as Pydantic derives a field title ("session_id" → "Session Id"). */
export function pydanticTitle(fieldName: string): string {
  let previousCased = false;
  let out = '';
  for (const char of fieldName) {
    const cased = char.toLowerCase() !== char.toUpperCase();
    out += cased ? (previousCased ? char.toLowerCase() : char.toUpperCase()) : char;
    previousCased = cased;
  }
  return out.replaceAll('_', ' ');
}

function typeSchema(type: TypeExpr): Schema {
  switch (type.kind) {
    case 'str':
      return { type: 'string' };
    case 'int':
      return { type: 'integer' };
    case 'float':
      return { type: 'number' };
    case 'bool':
      return { type: 'boolean' };
    case 'null':
      return { type: 'null' };
    case 'json':
      return {};
    case 'datetime':
      return { format: 'date-time', type: 'string' };
    case 'list':
      return { items: typeSchema(type.item), type: 'array' };
    case 'dict':
      // `dict[str, JsonValue]` renders as a plain open object.
      return { additionalProperties: type.value.kind === 'json' ? true : typeSchema(type.value), type: 'object' };
    case 'union':
      return { anyOf: flattenUnion(type).map(typeSchema) };
    case 'literal':
      return type.values.length === 1 ? { const: type.values[0] ?? '', type: 'string' } : { enum: [...type.values], type: 'string' };
    case 'ref':
      return refTo(type.target.name);
  }
}

function flattenUnion(type: TypeExpr): TypeExpr[] {
  return type.kind === 'union' ? type.options.flatMap(flattenUnion) : [type];
}

function isRefSchema(schema: JsonValue | undefined): boolean {
  return typeof schema === 'object' && schema !== null && !Array.isArray(schema) && typeof schema['$ref'] === 'string';
}

/** Pydantic leaves the title off a field that is a model/enum reference, or an optional one. */
function takesTitle(schema: Schema): boolean {
  if (isRefSchema(schema)) return false;
  const anyOf = schema['anyOf'];
  return !(Array.isArray(anyOf) && anyOf.some(isRefSchema));
}

function fieldSchema(name: string, field: FieldDef): Schema {
  const schema = typeSchema(field.type);
  if (field.default.kind === 'value') schema['default'] = field.default.value;
  if (field.constraints.minLength !== undefined) schema['minLength'] = field.constraints.minLength;
  if (field.constraints.minimum !== undefined) schema['minimum'] = field.constraints.minimum;
  if (takesTitle(schema)) schema['title'] = pydanticTitle(name);
  return schema;
}

function modelSchema(model: ModelDef): Schema {
  const properties: Schema = {};
  const required: string[] = [];
  for (const [name, field] of model.fields) {
    properties[name] = fieldSchema(name, field);
    if (field.default.kind === 'none') required.push(name);
  }
  const schema: Schema = { additionalProperties: model.extra === 'allow', properties, title: model.name, type: 'object' };
  if (model.doc !== undefined) schema['description'] = model.doc;
  if (required.length > 0) schema['required'] = required;
  return schema;
}

function definitionSchema(definition: Definition): Schema {
  switch (definition.kind) {
    case 'model':
      return modelSchema(definition);
    case 'enum': {
      const schema: Schema = { enum: [...definition.values], title: definition.name, type: 'string' };
      if (definition.doc !== undefined) schema['description'] = definition.doc;
      return schema;
    }
    case 'union': {
      const schema: Schema = { oneOf: definition.members.map((member) => refTo(member.name)), title: definition.name };
      if (definition.doc !== undefined) schema['description'] = definition.doc;
      return schema;
    }
  }
}

/**
 * Pydantic's `GenerateJsonSchema.sort`: keys sorted recursively, except the keys directly under
 * `properties` (declaration order) and `default` (the value as given).
 */
function sortLikePydantic(value: JsonValue, parentKey?: string): JsonValue {
  if (Array.isArray(value)) return value.map((item) => sortLikePydantic(item, parentKey));
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value);
  if (parentKey !== 'properties' && parentKey !== 'default') keys.sort();
  const sorted: Schema = {};
  for (const key of keys) sorted[key] = sortLikePydantic(value[key] ?? null, key);
  return sorted;
}

function typeRefs(type: TypeExpr): Definition[] {
  switch (type.kind) {
    case 'list':
      return typeRefs(type.item);
    case 'dict':
      return typeRefs(type.value);
    case 'union':
      return type.options.flatMap(typeRefs);
    case 'ref':
      return [type.target];
    default:
      return [];
  }
}

function directRefs(definition: Definition): Definition[] {
  if (definition.kind === 'union') return [...definition.members];
  if (definition.kind === 'enum') return [];
  return [...definition.fields.values()].flatMap((field) => typeRefs(field.type));
}

/** Every definition reachable from the spec, by name; two different definitions under one name are an error. */
function collectDefinitions(spec: ContractSpec): Map<string, Definition> {
  const found = new Map<string, Definition>();
  const pending: Definition[] = [
    ...[...spec.methods, ...spec.serverRequests].flatMap((entry) => [entry.params, entry.result]),
    ...spec.events.flatMap((entry) => (entry.payload === null ? [] : [entry.payload])),
    ...(spec.extraComponents ?? []),
  ];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const known = found.get(next.name);
    if (known === next) continue;
    if (known !== undefined) throw new Error(`two different definitions are named ${next.name}`);
    found.set(next.name, next);
    pending.push(...directRefs(next));
  }
  return found;
}

function byName<T extends { readonly name: string }>(entries: readonly T[]): T[] {
  return [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function methodEntry(entry: MethodDef): Schema {
  return {
    name: entry.name,
    summary: entry.summary,
    params: [{ name: 'params', schema: refTo(entry.params.name) }],
    result: { name: 'result', schema: refTo(entry.result.name) },
  };
}

function notificationEntry(entry: EventDef): Schema {
  const schema = entry.payload === null ? { ...NO_PAYLOAD } : refTo(entry.payload.name);
  return { name: entry.name, summary: entry.summary, params: [{ name: 'payload', schema }] };
}

/** The document as a plain object, keys in the order they are written. */
export function renderOpenRpc(spec: ContractSpec): Schema {
  const definitions = collectDefinitions(spec);
  const schemas: Schema = {};
  for (const name of [...definitions.keys()].sort()) {
    const definition = definitions.get(name);
    if (definition !== undefined) schemas[name] = sortLikePydantic(definitionSchema(definition));
  }
  return {
    openrpc: '1.3.2',
    info: { ...spec.info },
    methods: byName(spec.methods).map(methodEntry),
    components: { schemas },
    'x-server-requests': byName(spec.serverRequests).map(methodEntry),
    'x-notifications': byName(spec.events).map(notificationEntry),
  };
}

/** `json.dumps(document, indent=2, ensure_ascii=True)` plus a final newline. */
export function serializeOpenRpc(document: JsonValue): string {
  const text = JSON.stringify(document, null, 2).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `${text}\n`;
}
