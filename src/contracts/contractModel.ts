import type { JsonObject, JsonSchema, JsonValue, SchemaResolver } from '../../core/index.js';

/**
 * How a method's params travel on the wire.
 * - `object`: the params-object layout, one descriptor named `params` whose schema is the whole params object (sent as is);
 * - `by-name`: standard OpenRPC by-name params, an object keyed by descriptor names;
 * - `by-position`: standard OpenRPC positional params, an array in descriptor order.
 */
export type ParamStructure = 'object' | 'by-name' | 'by-position';

export interface ParamDescriptor {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

export interface ContractMethod {
  name: string;
  summary: string | undefined;
  paramStructure: ParamStructure;
  /** OpenRPC's `paramStructure` as declared; absent means "either": an object keyed by name is as valid as an array. */
  declaredStructure: 'by-name' | 'by-position' | 'either';
  descriptors: ParamDescriptor[];
  /**
   * One schema for the whole wire `params` value: the params-object model, a synthesized object for by-name
   * (properties = descriptors; its top level says nothing about unknown keys) or a tuple schema for by-position.
   */
  paramsSchema: JsonSchema;
  /** JSON pointer of the method in the document, for messages. */
  pointer: string;
  resultSchema: JsonSchema | undefined;
  errors: Array<{ code: number; message: string; data?: JsonValue }>;
}

export interface ContractEvent {
  name: string;
  summary: string | undefined;
  /** Payload schema; undefined when the document declares none. */
  payloadSchema: JsonSchema | undefined;
  /** True when the declared payload is the empty closed object: the event must carry no payload. */
  payloadless: boolean;
  pointer: string;
}

export interface Contract {
  /** Path or URL the document was read from. */
  origin: string;
  title: string;
  version: string;
  document: JsonObject;
  methods: readonly ContractMethod[];
  events: readonly ContractEvent[];
  serverRequests: readonly ContractMethod[];
  resolver: SchemaResolver;
  method(name: string): ContractMethod | undefined;
  event(name: string): ContractEvent | undefined;
}
