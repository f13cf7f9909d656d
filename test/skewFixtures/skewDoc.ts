import { type JsonSchema } from '../../core/index.js';
import { parseContract, type Contract } from '../../src/contracts/index.js';

/** Compact description of a small OpenRPC document for the skew tests. */
export interface SkewDocSpec {
  version?: string;
  methods?: SkewMethodSpec[];
  schemas?: Record<string, JsonSchema>;
  events?: Array<{ name: string; payload: JsonSchema }>;
}

export interface SkewMethodSpec {
  name: string;
  /** Hermes layout: one descriptor `params` whose schema is the whole params object. */
  params?: JsonSchema;
  byName?: Array<{ name: string; schema: JsonSchema; required?: boolean }>;
  byPosition?: Array<{ name: string; schema: JsonSchema; required?: boolean }>;
  result?: JsonSchema;
}

function paramsOf(method: SkewMethodSpec): { paramStructure?: string; params: unknown[] } {
  if (method.byName) return { paramStructure: 'by-name', params: method.byName.map((d) => ({ required: false, ...d })) };
  if (method.byPosition) return { paramStructure: 'by-position', params: method.byPosition.map((d) => ({ required: false, ...d })) };
  return { params: [{ name: 'params', schema: method.params ?? { type: 'object', additionalProperties: false } }] };
}

export function skewDocument(spec: SkewDocSpec): Record<string, unknown> {
  return {
    openrpc: '1.3.2',
    info: { title: 'skew fixture', version: spec.version ?? '1' },
    methods: (spec.methods ?? []).map((method) => ({
      name: method.name,
      ...paramsOf(method),
      result: { name: 'result', schema: method.result ?? { type: 'object' } },
    })),
    components: { schemas: spec.schemas ?? {} },
    'x-notifications': (spec.events ?? []).map((event) => ({ name: event.name, params: [{ name: 'payload', schema: event.payload }] })),
  };
}

/** Builds, validates (OpenRPC meta-schema, $refs) and loads a fixture document; a deep copy each time. */
export function skewContract(spec: SkewDocSpec, origin = `fixture-v${spec.version ?? '1'}.openrpc.json`): Contract {
  return parseContract(JSON.parse(JSON.stringify(skewDocument(spec))), origin);
}

/** One Hermes-layout method `m` taking `params`, in a document of the given version. */
export function paramsContract(params: JsonSchema, version: string, schemas: Record<string, JsonSchema> = {}): Contract {
  return skewContract({ version, methods: [{ name: 'm', params }], schemas });
}

/** One method `m` returning `result`, in a document of the given version. */
export function resultContract(result: JsonSchema, version: string, schemas: Record<string, JsonSchema> = {}): Contract {
  return skewContract({ version, methods: [{ name: 'm', result }], schemas });
}

export function closed(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return { type: 'object', additionalProperties: false, properties, ...(required.length > 0 ? { required } : {}) };
}

export function open(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return { type: 'object', additionalProperties: true, properties, ...(required.length > 0 ? { required } : {}) };
}
