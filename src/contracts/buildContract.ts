import { derefSchema, isJsonObject, type JsonObject, type JsonSchema, type JsonValue, resolveLocalRef, type SchemaResolver } from '../../core/index.js';
import { contentDigest } from '../../core/validatorCache.js';
import type { Contract, ContractEvent, ContractMethod, ParamDescriptor, ParamStructure } from './contractModel.js';

/** Follows `$ref` for non-schema OpenRPC objects (content descriptors, errors, methods). */
function follow(document: JsonObject, node: unknown): unknown {
  let current = node;
  for (let hop = 0; hop < 16 && isJsonObject(current) && typeof current['$ref'] === 'string'; hop++) {
    current = resolveLocalRef(document, current['$ref']);
  }
  return current;
}

function asSchema(value: unknown): JsonSchema {
  return typeof value === 'boolean' || isJsonObject(value) ? (value as JsonSchema) : true;
}

function descriptorOf(document: JsonObject, raw: unknown): ParamDescriptor | undefined {
  const node = follow(document, raw);
  if (!isJsonObject(node) || typeof node['name'] !== 'string') return undefined;
  return { name: node['name'], required: node['required'] === true, schema: asSchema(node['schema']) };
}

function isObjectSchema(schema: JsonSchema, resolver: SchemaResolver): boolean {
  const node = derefSchema(schema, resolver);
  return typeof node !== 'boolean' && (node.type === 'object' || node.properties !== undefined);
}

function paramStructureOf(raw: JsonObject, descriptors: ParamDescriptor[], resolver: SchemaResolver): ParamStructure {
  const declared = raw['paramStructure'];
  const only = descriptors[0];
  // The params-object layout: a single descriptor named "params" whose schema is the whole params object, no paramStructure.
  if (declared === undefined && descriptors.length === 1 && only?.name === 'params' && isObjectSchema(only.schema, resolver)) {
    return 'object';
  }
  return declared === 'by-name' ? 'by-name' : 'by-position';
}

function paramsSchemaOf(structure: ParamStructure, descriptors: ParamDescriptor[]): JsonSchema {
  if (structure === 'object') return descriptors[0]?.schema ?? { type: 'object' };
  if (structure === 'by-name') {
    return {
      type: 'object',
      properties: Object.fromEntries(descriptors.map((d) => [d.name, d.schema])),
      required: descriptors.filter((d) => d.required).map((d) => d.name),
    };
  }
  const requiredCount = descriptors.reduce((count, d, index) => (d.required ? index + 1 : count), 0);
  return {
    type: 'array',
    items: descriptors.map((d) => d.schema),
    minItems: requiredCount,
    maxItems: descriptors.length,
  };
}

function methodOf(document: JsonObject, raw: unknown, pointer: string, resolver: SchemaResolver): ContractMethod | undefined {
  const node = follow(document, raw);
  if (!isJsonObject(node) || typeof node['name'] !== 'string') return undefined;
  const rawParams = Array.isArray(node['params']) ? node['params'] : [];
  const descriptors = rawParams.map((p) => descriptorOf(document, p)).filter((d): d is ParamDescriptor => d !== undefined);
  const paramStructure = paramStructureOf(node, descriptors, resolver);
  const result = follow(document, node['result']);
  const errors = (Array.isArray(node['errors']) ? node['errors'] : [])
    .map((e) => follow(document, e))
    .filter(isJsonObject)
    .filter((e) => typeof e['code'] === 'number' && typeof e['message'] === 'string')
    .map((e) => ({ code: e['code'] as number, message: e['message'] as string, ...(e['data'] !== undefined ? { data: e['data'] as JsonValue } : {}) }));
  return {
    name: node['name'],
    summary: typeof node['summary'] === 'string' ? node['summary'] : undefined,
    paramStructure,
    declaredStructure: node['paramStructure'] === 'by-name' || node['paramStructure'] === 'by-position' ? node['paramStructure'] : 'either',
    descriptors,
    paramsSchema: paramsSchemaOf(paramStructure, descriptors),
    pointer,
    resultSchema: isJsonObject(result) && 'schema' in result ? asSchema(result['schema']) : undefined,
    errors,
  };
}

function isEmptyClosedObject(schema: JsonSchema | undefined): boolean {
  return (
    isJsonObject(schema) &&
    schema['type'] === 'object' &&
    schema['additionalProperties'] === false &&
    (schema['properties'] === undefined || Object.keys(schema['properties'] as object).length === 0)
  );
}

/** A vendor's list of typed events or of server requests: `x-<vendor>-event-types`, `x-<vendor>-server-requests`. */
const vendorKey = (document: JsonObject, suffix: string): string | undefined => Object.keys(document).find((key) => key.startsWith('x-') && key.endsWith(`-${suffix}`) && key.length > suffix.length + 3);

/** `x-notifications` (content descriptors with a `payload` param), or a vendor's `x-<vendor>-event-types` list of `{type, payload}`. */
function eventsOf(document: JsonObject): ContractEvent[] {
  const events: ContractEvent[] = [];
  const layoutA = document['x-notifications'];
  if (Array.isArray(layoutA)) {
    layoutA.forEach((raw, index) => {
      const node = follow(document, raw);
      if (!isJsonObject(node) || typeof node['name'] !== 'string') return;
      const params = Array.isArray(node['params']) ? node['params'] : [];
      const payload = params.map((p) => descriptorOf(document, p)).find((d) => d?.name === 'payload');
      events.push({
        name: node['name'],
        summary: typeof node['summary'] === 'string' ? node['summary'] : undefined,
        payloadSchema: payload?.schema,
        payloadless: isEmptyClosedObject(payload?.schema),
        pointer: `/x-notifications/${index}`,
      });
    });
  }
  const typedKey = vendorKey(document, 'event-types');
  const layoutB = typedKey === undefined ? undefined : document[typedKey];
  if (Array.isArray(layoutB)) {
    layoutB.forEach((raw, index) => {
      if (!isJsonObject(raw) || typeof raw['type'] !== 'string') return;
      const payload = raw['payload'] === undefined ? undefined : asSchema(raw['payload']);
      events.push({ name: raw['type'], summary: undefined, payloadSchema: payload, payloadless: isEmptyClosedObject(payload), pointer: `/${typedKey ?? ''}/${index}` });
    });
  }
  return events;
}

export function buildContract(document: JsonObject, origin: string): Contract {
  let digest: string | undefined;
  const resolver: SchemaResolver = {
    resolve: (ref) => {
      const target = resolveLocalRef(document, ref);
      return typeof target === 'boolean' || isJsonObject(target) ? (target as JsonSchema) : undefined;
    },
    documentDigest: () => (digest ??= contentDigest(document)),
  };
  const info = isJsonObject(document['info']) ? document['info'] : {};
  const rawMethods = Array.isArray(document['methods']) ? document['methods'] : [];
  const methods = rawMethods
    .map((raw, index) => methodOf(document, raw, `/methods/${index}`, resolver))
    .filter((m): m is ContractMethod => m !== undefined);
  const vendorRequests = vendorKey(document, 'server-requests');
  const rawRequests = document['x-server-requests'] ?? (vendorRequests === undefined ? undefined : document[vendorRequests]);
  const serverRequests = (Array.isArray(rawRequests) ? rawRequests : [])
    .map((raw, index) => methodOf(document, raw, `/x-server-requests/${index}`, resolver))
    .filter((m): m is ContractMethod => m !== undefined);
  const events = eventsOf(document);
  const methodIndex = new Map(methods.map((m) => [m.name, m]));
  const eventIndex = new Map(events.map((e) => [e.name, e]));
  return {
    origin,
    title: typeof info['title'] === 'string' ? info['title'] : '(untitled)',
    version: typeof info['version'] === 'string' ? info['version'] : '(unversioned)',
    document,
    methods,
    events,
    serverRequests,
    resolver,
    method: (name) => methodIndex.get(name),
    event: (name) => eventIndex.get(name),
  };
}
