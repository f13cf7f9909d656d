import type { JsonSchema, JsonValue } from '../../../core/index.js';
import { documentValidator, pointerResolver } from './fuzzDocuments.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const nullable = (schema: object) => ({ anyOf: [schema, { type: 'null' }], default: null });

/** Formats that ajv-formats validates and the generators produce on purpose. */
export const TESTED_FORMATS = ['date-time', 'date', 'time', 'iso-time', 'iso-date-time', 'duration', 'email', 'hostname', 'uri', 'url', 'uri-reference', 'uri-template', 'uuid', 'ipv4', 'ipv6', 'byte', 'json-pointer', 'relative-json-pointer', 'regex'];

/**
 * Hand-written schemas covering every keyword the generators claim, in one OpenRPC-like document so that
 * `$ref`s look like the real ones. Every schema compiles with ajv in strict mode.
 */
export const SYNTHETIC_DOCUMENT = {
  components: {
    schemas: {
      BoundedString: { type: 'string', minLength: 2, maxLength: 5 },
      Hex: { type: 'string', pattern: '^0x[0-9a-f]{2,8}$' },
      HexWithLength: { type: 'string', pattern: '^0x[0-9a-f]*$', minLength: 4, maxLength: 6 },
      Lookahead: { type: 'string', pattern: '^(?!cg)[a-z]{3}$' },
      SteppedInteger: { type: 'integer', minimum: -3, maximum: 40, multipleOf: 3 },
      OpenInterval: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
      BoundedNumber: { type: 'number', minimum: 1.5, maximum: 1000000 },
      Quarters: { type: 'number', multipleOf: 0.25, minimum: -10, maximum: 10 },
      Int32: { type: 'integer', format: 'int32' },
      Int64: { type: 'integer', format: 'int64' },
      TypeArray: { type: ['string', 'integer', 'null'] },
      Mixed: { enum: ['a', 'b', 3, null, true] },
      Fixed: { const: 'fixed' },
      Flag: { type: 'boolean' },
      Nothing: { type: 'null' },
      Empty: {},
      AnythingTrue: true,
      NullableString: nullable({ type: 'string' }),
      Overlapping: { oneOf: [{ type: 'integer', minimum: 0 }, { type: 'integer', maximum: 10 }] },
      MergedObjects: {
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          { type: 'object', properties: { b: { type: 'integer', minimum: 1 } }, required: ['b'] },
        ],
      },
      ClosedMerge: {
        allOf: [
          { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } }, additionalProperties: false },
          { type: 'object', properties: { b: { type: 'integer', minimum: 0 } }, required: ['b'] },
        ],
      },
      Node: {
        type: 'object',
        properties: { name: { type: 'string', maxLength: 4 }, child: { anyOf: [ref('Node'), { type: 'null' }] }, children: { type: 'array', items: ref('Node') } },
        required: ['name', 'child'],
        additionalProperties: false,
      },
      Pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], minItems: 2, additionalItems: false },
      DistinctSmall: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 5 }, uniqueItems: true, minItems: 2, maxItems: 4 },
      DistinctObjects: { type: 'array', items: { type: 'object', properties: { k: { type: 'boolean' } }, additionalProperties: false }, uniqueItems: true },
      ToolMap: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
      Extensions: { type: 'object', properties: { id: { type: 'string' } }, patternProperties: { '^x-[a-z]+$': { type: 'integer' } }, additionalProperties: false },
      OpenBag: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true },
      IntegerExtras: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'integer' } },
      StringExtras: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } },
      NotThreeOrFour: { type: 'integer', minimum: 0, maximum: 10, not: { enum: [3, 4] } },
      Sized: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' }, c: { type: 'integer' } }, minProperties: 1, maxProperties: 2 },
      Role: { type: 'string', enum: ['user', 'assistant', 'tool'], title: 'Role' },
      SeedMessage: {
        type: 'object',
        title: 'SeedMessage',
        additionalProperties: false,
        properties: { role: ref('Role'), text: { type: 'string', minLength: 1 }, meta: nullable({ type: 'object', additionalProperties: true }) },
        required: ['role', 'text'],
      },
      Info: {
        type: 'object',
        additionalProperties: true,
        properties: { model: { type: 'string', default: '' }, tools: ref('ToolMap'), usage: nullable({ type: 'object', properties: { total: { type: 'integer', minimum: 0 } }, additionalProperties: true }) },
      },
      CreateParams: {
        type: 'object',
        title: 'CreateParams',
        additionalProperties: false,
        properties: {
          profile: nullable({ type: 'string' }),
          cols: nullable({ type: 'integer', minimum: 1, maximum: 500 }),
          messages: nullable({ type: 'array', items: ref('SeedMessage'), maxItems: 5 }),
          hidden: { type: 'boolean', default: false },
          mode: { type: 'string', enum: ['fast', 'slow'], default: 'fast' },
          info: ref('Info'),
          started: { type: 'string', format: 'date-time' },
          tags: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1, uniqueItems: true },
          kind: { const: 'session', type: 'string' },
        },
        required: ['kind'],
      },
      ...Object.fromEntries(TESTED_FORMATS.map((format) => [`Format_${format}`, { type: 'string', format }])),
    },
  },
} as const satisfies { components: { schemas: Record<string, unknown> } };

export type SyntheticName = keyof typeof SYNTHETIC_DOCUMENT.components.schemas;

export const syntheticResolver = pointerResolver(SYNTHETIC_DOCUMENT as unknown as JsonValue);
// Strict mode; union types (`type: [..]`) are part of what the generators cover, so they are allowed explicitly.
export const syntheticErrors = documentValidator(SYNTHETIC_DOCUMENT as unknown as { [key: string]: JsonValue }, { strict: true, allowUnionTypes: true });

/** The schema as a caller holds it: a `$ref` into the document. */
export function syntheticRef(name: SyntheticName | string): JsonSchema {
  return ref(name);
}

export const SYNTHETIC_NAMES = Object.keys(SYNTHETIC_DOCUMENT.components.schemas) as SyntheticName[];

/** Schemas with no finite valid value; the generators must refuse them with a clear error. */
export const UNSATISFIABLE: Record<string, JsonSchema> = {
  contradictoryTypes: { allOf: [{ type: 'string' }, { type: 'integer' }] },
  closedMemberForbidsRequired: { allOf: [{ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false }, { type: 'object', required: ['b'] }] },
  endlessRecursion: { $ref: '#/components/schemas/Loop' },
  falseSchema: false,
};

export const LOOP_DOCUMENT = {
  components: { schemas: { Loop: { type: 'object', properties: { next: { $ref: '#/components/schemas/Loop' } }, required: ['next'] } } },
};
