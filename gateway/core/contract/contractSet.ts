import { readFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { getAt, parseLocalRef, toPointer } from './jsonPointer.js';

/**
 * The gateway's own reading of OpenRPC documents. It shares nothing with the harness's loader on purpose:
 * the reference gateway is the oracle the harness is measured against.
 */

export type SchemaNode = boolean | { [keyword: string]: unknown };

/** A schema together with where it sits in its document (validators are compiled by location). */
export interface SchemaAt {
  readonly document: ContractDocument;
  readonly pointer: string;
  readonly schema: SchemaNode;
}

export interface ParamDescriptor {
  readonly name: string;
  readonly required: boolean;
  readonly schema: SchemaAt;
}

/**
 * How a method's params travel. `whole-object`: the Hermes layout, one descriptor named `params` whose schema is
 * the whole params object, sent as the JSON-RPC `params` object itself. The others are OpenRPC's paramStructure
 * (`either` when the document does not say).
 */
export type ParamsShape = 'whole-object' | 'by-name' | 'by-position' | 'either';

export interface MethodContract {
  readonly name: string;
  readonly summary: string;
  readonly document: ContractDocument;
  readonly shape: ParamsShape;
  readonly params: readonly ParamDescriptor[];
  readonly result: SchemaAt | undefined;
}

export interface NotificationContract {
  readonly name: string;
  readonly document: ContractDocument;
  /** Undefined when the document declares the event without a payload schema. */
  readonly payload: SchemaAt | undefined;
}

/** `hermes`: unknown keys answer 4000 with the out-of-sync wording; `generic`: plain JSON-RPC -32602. */
export type ContractProfile = 'hermes' | 'generic';

export interface ContractDocument {
  readonly index: number;
  readonly path: string;
  /** Base URI under which the document is registered with the gateway's ajv instance. */
  readonly uri: string;
  readonly json: Record<string, unknown>;
  readonly profile: ContractProfile;
  readonly title: string;
  readonly version: string;
}

export interface ContractSet {
  readonly documents: readonly ContractDocument[];
  /** Union of the documents' methods; the first document declaring a name wins. */
  readonly methods: ReadonlyMap<string, MethodContract>;
  /** Server→client requests (`x-server-requests` / `x-hermes-server-requests`), read like methods. */
  readonly serverRequests: ReadonlyMap<string, MethodContract>;
  readonly notifications: ReadonlyMap<string, NotificationContract>;
  /** Follows one `$ref` inside the document; undefined when it dangles or is not local. */
  resolveRef(document: ContractDocument, ref: string): SchemaNode | undefined;
  /** `resolveRef` bound to one document, the same function every time (schema walks memoise per resolver). */
  resolverFor(document: ContractDocument): (ref: string) => SchemaNode | undefined;
}

export class ContractLoadError extends Error {
  constructor(path: string, pointer: string, problem: string) {
    super(`contract ${path} at ${pointer || '/'}: ${problem}; fix the document or pass another contract path`);
    this.name = 'ContractLoadError';
  }
}

const HERMES_MARKERS = ['x-notifications', 'x-server-requests', 'x-hermes-notifications', 'x-hermes-event-types'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Follows `$ref` chains from `segments`, returning the final node and its location. */
function follow(json: unknown, segments: string[], path: string): { node: unknown; segments: string[] } {
  let current = segments;
  let node = getAt(json, current);
  for (let hop = 0; hop < 32 && isRecord(node) && typeof node['$ref'] === 'string'; hop++) {
    const target = parseLocalRef(node['$ref']);
    if (!target) throw new ContractLoadError(path, toPointer(current), `unsupported reference ${node['$ref']}`);
    const next = getAt(json, target);
    if (next === undefined) throw new ContractLoadError(path, toPointer(current), `dangling reference ${node['$ref']}`);
    current = target;
    node = next;
  }
  return { node, segments: current };
}

function readDocument(path: string, index: number): ContractDocument {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ContractLoadError(path, '', `not readable as JSON (${(error as Error).message})`);
  }
  if (!isRecord(json)) throw new ContractLoadError(path, '', 'the document is not a JSON object');
  if (!Array.isArray(json['methods'])) throw new ContractLoadError(path, '/methods', 'methods must be an array');
  const info = isRecord(json['info']) ? json['info'] : {};
  const title = typeof info['title'] === 'string' ? info['title'] : '';
  const hermes = HERMES_MARKERS.some((key) => key in json) || /hermes/i.test(title);
  return {
    index,
    path,
    uri: `urn:contract-gate:gateway:document:${index}`,
    json,
    profile: hermes ? 'hermes' : 'generic',
    title,
    version: typeof info['version'] === 'string' ? info['version'] : '',
  };
}

function descriptorAt(document: ContractDocument, segments: string[]): ParamDescriptor {
  const { node, segments: at } = follow(document.json, segments, document.path);
  if (!isRecord(node) || typeof node['name'] !== 'string') {
    throw new ContractLoadError(document.path, toPointer(at), 'a content descriptor needs a string name');
  }
  if (!('schema' in node)) throw new ContractLoadError(document.path, toPointer(at), 'a content descriptor needs a schema');
  const schema = node['schema'];
  if (typeof schema !== 'boolean' && !isRecord(schema)) {
    throw new ContractLoadError(document.path, toPointer([...at, 'schema']), 'schema must be an object or a boolean');
  }
  return {
    name: node['name'],
    required: node['required'] === true,
    schema: { document, pointer: toPointer([...at, 'schema']), schema },
  };
}

function readMethod(document: ContractDocument, at: string[]): MethodContract {
  const { node, segments } = follow(document.json, at, document.path);
  if (!isRecord(node) || typeof node['name'] !== 'string') {
    throw new ContractLoadError(document.path, toPointer(segments), 'a method needs a string name');
  }
  const rawParams = node['params'] ?? [];
  if (!Array.isArray(rawParams)) throw new ContractLoadError(document.path, toPointer([...segments, 'params']), 'params must be an array');
  const params = rawParams.map((_, i) => descriptorAt(document, [...segments, 'params', String(i)]));
  const result = node['result'] === undefined ? undefined : descriptorAt(document, [...segments, 'result']).schema;
  const structure = node['paramStructure'];
  let shape: ParamsShape = structure === 'by-name' || structure === 'by-position' ? structure : 'either';
  if (document.profile === 'hermes' && structure !== 'by-name' && params.length === 1 && params[0]?.name === 'params') {
    shape = 'whole-object';
  }
  const summary = typeof node['summary'] === 'string' ? node['summary'] : '';
  return { name: node['name'], summary, document, shape, params, result };
}

function readNotifications(document: ContractDocument, into: Map<string, NotificationContract>): void {
  const layoutA = document.json['x-notifications'];
  if (Array.isArray(layoutA)) {
    layoutA.forEach((entry, i) => {
      if (!isRecord(entry) || typeof entry['name'] !== 'string') return;
      const params = Array.isArray(entry['params']) ? entry['params'] : [];
      const index = params.findIndex((p) => isRecord(p) && p['name'] === 'payload');
      const payload = index < 0 ? undefined : descriptorAt(document, ['x-notifications', String(i), 'params', String(index)]).schema;
      if (!into.has(entry['name'])) into.set(entry['name'], { name: entry['name'], document, payload });
    });
  }
  const layoutB = document.json['x-hermes-event-types'];
  if (Array.isArray(layoutB)) {
    layoutB.forEach((entry, i) => {
      if (!isRecord(entry) || typeof entry['type'] !== 'string') return;
      const schema = entry['payload'];
      const payload =
        typeof schema === 'boolean' || isRecord(schema)
          ? { document, pointer: toPointer(['x-hermes-event-types', String(i), 'payload']), schema }
          : undefined;
      if (!into.has(entry['type'])) into.set(entry['type'], { name: entry['type'], document, payload });
    });
  }
}

export function loadContractSet(paths: readonly string[]): ContractSet {
  if (paths.length === 0) throw new ContractLoadError('(none)', '', 'at least one contract document is needed');
  const documents = paths.map((path, index) => readDocument(resolvePath(path), index));
  const methods = new Map<string, MethodContract>();
  const serverRequests = new Map<string, MethodContract>();
  const notifications = new Map<string, NotificationContract>();
  const readList = (document: ContractDocument, key: string, into: Map<string, MethodContract>): void => {
    const list = document.json[key];
    if (!Array.isArray(list)) return;
    for (let i = 0; i < list.length; i++) {
      const method = readMethod(document, [key, String(i)]);
      if (!into.has(method.name)) into.set(method.name, method);
    }
  };
  const resolved = new WeakMap<ContractDocument, Map<string, SchemaNode | undefined>>();
  const resolvers = new WeakMap<ContractDocument, (ref: string) => SchemaNode | undefined>();
  for (const document of documents) {
    readList(document, 'methods', methods);
    readList(document, 'x-server-requests', serverRequests);
    readList(document, 'x-hermes-server-requests', serverRequests);
    readNotifications(document, notifications);
  }
  return {
    documents,
    methods,
    serverRequests,
    notifications,
    resolveRef(document, ref) {
      // Shaping every outbound value follows the same references again and again: each is parsed and walked once.
      let byRef = resolved.get(document);
      if (!byRef) resolved.set(document, (byRef = new Map()));
      if (byRef.has(ref)) return byRef.get(ref);
      const segments = parseLocalRef(ref);
      const node = segments ? getAt(document.json, segments) : undefined;
      const schema = typeof node === 'boolean' || isRecord(node) ? node : undefined;
      byRef.set(ref, schema);
      return schema;
    },
    resolverFor(document) {
      let resolver = resolvers.get(document);
      if (!resolver) resolvers.set(document, (resolver = (ref) => this.resolveRef(document, ref)));
      return resolver;
    },
  };
}

/** A payload-less event: a closed object that declares no property (the frame carries no `payload`). */
export function isPayloadless(schema: SchemaNode): boolean {
  if (typeof schema === 'boolean') return false;
  const properties = schema['properties'];
  const empty = properties === undefined || (typeof properties === 'object' && properties !== null && Object.keys(properties).length === 0);
  return schema['type'] === 'object' && schema['additionalProperties'] === false && empty;
}
