import { type JsonSchemaObject } from '../../core/index.js';
import { expectEqual, expectIs } from './helpers/fastExpect.js';
import { expect, test } from './helpers/test.js';
import fc from 'fast-check';
import { analyseSkew } from '../../src/skew/index.js';
import { skewContract } from '../skewFixtures/skewDoc.js';

const key = fc.constantFrom('a', 'b', 'c', 'd', 'e');
const leaf = fc.constantFrom<JsonSchemaObject>(
  { type: 'string' },
  { type: 'integer' },
  { type: 'number', minimum: 0 },
  { type: 'boolean' },
  { anyOf: [{ type: 'integer' }, { type: 'null' }], default: null },
  { enum: ['x', 'y'], type: 'string' },
  { type: 'string', maxLength: 8 },
  {},
);

function objectOf(properties: Record<string, JsonSchemaObject>, closed: boolean, requiredCount: number): JsonSchemaObject {
  const required = Object.keys(properties).slice(0, requiredCount);
  return { type: 'object', ...(closed ? { additionalProperties: false } : {}), properties, ...(required.length > 0 ? { required } : {}) };
}

const schemas = fc.letrec<{ node: JsonSchemaObject; object: JsonSchemaObject; array: JsonSchemaObject; nullable: JsonSchemaObject }>((tie) => ({
  node: fc.oneof({ depthSize: 'small', maxDepth: 4, withCrossShrink: true }, leaf, tie('object'), tie('array'), tie('nullable')),
  object: fc
    .record({ properties: fc.dictionary(key, tie('node'), { maxKeys: 4 }), closed: fc.boolean(), requiredCount: fc.nat(4) })
    .map(({ properties, closed, requiredCount }) => objectOf(properties, closed, requiredCount)),
  array: tie('node').map((items) => ({ type: 'array', items })),
  nullable: tie('object').map((object) => ({ anyOf: [object, { type: 'null' }] })),
}));

/** A random params model whose top level is closed, as Hermes params models are. */
const rootSchema = fc
  .record({ properties: fc.dictionary(key, schemas.node, { maxKeys: 5 }), requiredCount: fc.nat(5) })
  .map(({ properties, requiredCount }) => objectOf(properties, true, requiredCount));

/** The same schema used as params, result and event payload, optionally behind a `$ref`. */
function contractOf(schema: JsonSchemaObject, viaRef: boolean, version: string) {
  const node = viaRef ? { $ref: '#/components/schemas/Model' } : schema;
  return skewContract({
    version,
    methods: [{ name: 'm', params: node, result: node }],
    events: [{ name: 'e', payload: node }],
    schemas: viaRef ? { Model: schema } : {},
  });
}

/** Closed object nodes reachable through properties, array items and anyOf branches, with their Pydantic-style loc. */
function closedObjects(node: JsonSchemaObject, path: string[] = []): Array<{ node: JsonSchemaObject; path: string[] }> {
  const found: Array<{ node: JsonSchemaObject; path: string[] }> = [];
  for (const branch of node.anyOf ?? []) if (typeof branch === 'object') found.push(...closedObjects(branch, path));
  if (node.type === 'array' && typeof node.items === 'object' && !Array.isArray(node.items)) found.push(...closedObjects(node.items, [...path, '0']));
  if (node.type === 'object') {
    if (node.additionalProperties === false) found.push({ node, path });
    for (const [name, child] of Object.entries(node.properties ?? {})) if (typeof child === 'object') found.push(...closedObjects(child, [...path, name]));
  }
  return found;
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

test('the same documents and options give the report made before; other options or documents get one of their own, equal to a fresh analysis', () => {
  const model = (closed: boolean): JsonSchemaObject => ({ type: 'object', ...(closed ? { additionalProperties: false } : {}), properties: { x: { type: 'string' } } });
  const [client, server] = [contractOf({ ...model(false), properties: { x: { type: 'string' }, y: { type: 'integer' } } }, false, '2'), contractOf(model(true), false, '1')];
  const first = analyseSkew(client, server);
  expect(first.breaking, 'the fixture has a breaking finding to keep').toBe(true);
  expect(analyseSkew(client, server)).toBe(first);
  const ignored = analyseSkew(client, server, { unknownByNameParams: 'ignored' });
  expect(ignored).not.toBe(first);
  expect(analyseSkew(client, server, { unknownByNameParams: 'ignored' })).toBe(ignored);
  expect(analyseSkew(server, client)).not.toBe(first);
  // New document objects of the same content are analysed afresh, and find the same.
  const again = analyseSkew(contractOf({ ...model(false), properties: { x: { type: 'string' }, y: { type: 'integer' } } }, false, '2'), contractOf(model(true), false, '1'));
  expect(again).not.toBe(first);
  expect(again).toEqual(first);
});

test('a random document against a structurally equal copy of itself has no findings', () => {
  fc.assert(
    fc.property(rootSchema, fc.boolean(), (schema, viaRef) => {
      const report = analyseSkew(contractOf(schema, viaRef, '1'), contractOf(clone(schema), viaRef, '1'));
      expectEqual(report.findings, []);
    }),
    { numRuns: 300 },
  );
});

test('a property added to a closed client-side params model, not on the server, is always a breaking param-unknown-to-server at its path', () => {
  fc.assert(
    fc.property(rootSchema, fc.nat(), leaf, fc.boolean(), (schema, pick, added, viaRef) => {
      const client = clone(schema);
      const targets = closedObjects(client);
      const target = targets[pick % targets.length];
      if (target === undefined) throw new Error('the root is always closed');
      target.node.properties = { ...target.node.properties, extra_key: added };
      const path = [...target.path, 'extra_key'].join('.');
      const report = analyseSkew(contractOf(client, viaRef, '2'), contractOf(schema, viaRef, '1'));
      expectIs(report.breaking, true);
      expect(report.findings).toContainEqual(expect.objectContaining({ method: 'm', path, kind: 'param-unknown-to-server', severity: 'breaking', direction: 'request' }));
      // The other direction only learns of an optional param it does not know.
      const reverse = analyseSkew(contractOf(schema, viaRef, '1'), contractOf(client, viaRef, '2'));
      const requests = reverse.findings.filter((f) => f.direction === 'request');
      expect(requests).toEqual([expect.objectContaining({ path, kind: 'param-added-optional', severity: 'info' })]);
    }),
    { numRuns: 300 },
  );
});
