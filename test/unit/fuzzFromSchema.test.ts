import { expect, test } from './helpers/test.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as fc from 'fast-check';
import { allOptionalValue, arbitraryFromSchema, minimalValue, SchemaMemo, UnsatisfiableSchemaError } from '../../fuzz/index.js';
import type { JsonSchema, JsonValue, SchemaResolver } from '../../core/index.js';
import { loadContractSync } from '../../src/contracts/loadContract.js';
import { pointerResolver } from './helpers/fuzzDocuments.js';
import { describeErrors, lawParams } from './helpers/fuzzLaws.js';
import { LOOP_DOCUMENT, SYNTHETIC_DOCUMENT, SYNTHETIC_NAMES, syntheticErrors, syntheticRef, syntheticResolver, TESTED_FORMATS, UNSATISFIABLE } from './helpers/fuzzSchemas.js';

const resolver = syntheticResolver;
type Obj = { [key: string]: JsonValue };
const asObject = (value: JsonValue): Obj => value as Obj;

function depthOf(node: JsonValue): number {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return 0;
  const child = (node as Obj)['child'] ?? null;
  const children = ((node as Obj)['children'] ?? []) as JsonValue[];
  return 1 + Math.max(depthOf(child), ...children.map(depthOf), 0);
}

test('every generated value validates, for every synthetic schema, optional mode and extraKeys setting', () => {
  for (const name of SYNTHETIC_NAMES) {
    const schema = syntheticRef(name);
    for (const optional of ['random', 'all', 'none'] as const) {
      for (const extraKeys of [false, true]) {
        const arb = arbitraryFromSchema(schema, { resolver, optional, extraKeys });
        fc.assert(
          fc.property(arb, (value) => {
            const errors = syntheticErrors(schema, value);
            if (errors.length > 0) throw new Error(`${name} (${optional}, extraKeys=${extraKeys}): ${JSON.stringify(value)} → ${describeErrors(errors)}`);
          }),
          lawParams(40),
        );
      }
    }
  }
});

test('optional "all" sends every declared key, "none" only the required ones', () => {
  const schema = syntheticRef('CreateParams');
  const declared = Object.keys(SYNTHETIC_DOCUMENT.components.schemas.CreateParams.properties).sort();
  for (const value of fc.sample(arbitraryFromSchema(schema, { resolver, optional: 'all' }), lawParams(30))) {
    expect(Object.keys(asObject(value)).sort()).toEqual(declared);
  }
  for (const value of fc.sample(arbitraryFromSchema(schema, { resolver, optional: 'none' }), lawParams(30))) {
    expect(Object.keys(asObject(value))).toEqual(['kind']);
  }
  const randomKeyCounts = fc.sample(arbitraryFromSchema(schema, { resolver }), lawParams(60)).map((v) => Object.keys(asObject(v)).length);
  expect(new Set(randomKeyCounts).size).toBeGreaterThan(3);
});

test('extraKeys adds undeclared keys only where additionalProperties allows them, with values of its schema', () => {
  const SAMPLES = 80;
  const perValue = (name: string, extraKeys: boolean, declared: string[]) =>
    fc.sample(arbitraryFromSchema(syntheticRef(name), { resolver, extraKeys }), lawParams(SAMPLES)).map((v) => Object.entries(asObject(v)).filter(([k]) => !declared.includes(k)));
  const extras = (name: string, extraKeys: boolean, declared: string[]) => perValue(name, extraKeys, declared).flat();
  // Whether a value gets extra keys is random (an empty dictionary is one of its draws): with seeds 1 to 2,000 at
  // least 37 of the 80 values had some, so a quarter leaves a wide margin for any CG_FUZZ_SEED.
  const withExtras = (name: string) => perValue(name, true, ['a']).filter((entries) => entries.length > 0).length;
  expect(extras('OpenBag', false, ['a'])).toEqual([]);
  expect(withExtras('OpenBag'), 'OpenBag values with undeclared keys').toBeGreaterThanOrEqual(SAMPLES / 4);
  const integerExtras = extras('IntegerExtras', true, ['a']);
  expect(withExtras('IntegerExtras'), 'IntegerExtras values with undeclared keys').toBeGreaterThanOrEqual(SAMPLES / 4);
  expect(integerExtras.every(([, v]) => Number.isInteger(v))).toBe(true);
  expect(extras('Extensions', true, ['id']).every(([k]) => /^x-[a-z]+$/.test(k))).toBe(true);
  expect(extras('SeedMessage', true, ['role', 'text', 'meta'])).toEqual([]);
});

test('maps and pattern properties are populated with entries of their schemas', () => {
  const maps = fc.sample(arbitraryFromSchema(syntheticRef('ToolMap'), { resolver }), lawParams(50)).map(asObject);
  expect(maps.some((m) => Object.keys(m).length > 0)).toBe(true);
  const patterned = fc.sample(arbitraryFromSchema(syntheticRef('Extensions'), { resolver }), lawParams(50)).map(asObject);
  expect(patterned.some((o) => Object.keys(o).some((k) => k.startsWith('x-')))).toBe(true);
});

test('recursion through $ref stops at maxDepth by taking the null branch or an empty array', () => {
  for (const maxDepth of [0, 1, 2, 3]) {
    const depths = fc.sample(arbitraryFromSchema(syntheticRef('Node'), { resolver, maxDepth }), lawParams(200)).map(depthOf);
    expect(Math.max(...depths), `maxDepth ${maxDepth}`).toBeLessThanOrEqual(maxDepth + 1);
    if (maxDepth > 0) expect(Math.max(...depths), `maxDepth ${maxDepth} is reached`).toBe(maxDepth + 1);
  }
});

test('schemas without a finite value are refused with a clear error', () => {
  const loopResolver = pointerResolver(LOOP_DOCUMENT as unknown as JsonValue);
  const expected: Record<string, RegExp> = {
    contradictoryTypes: /no type satisfies both/,
    closedMemberForbidsRequired: /required key\(s\) b are not allowed by a closed member/,
    endlessRecursion: /no finite value/,
    falseSchema: /`false`/,
  };
  for (const [name, schema] of Object.entries(UNSATISFIABLE)) {
    const options = { resolver: name === 'endlessRecursion' ? loopResolver : resolver };
    expect(() => arbitraryFromSchema(schema, options), name).toThrow(UnsatisfiableSchemaError);
    expect(() => arbitraryFromSchema(schema, options), name).toThrow(expected[name] as RegExp);
    expect(() => minimalValue(schema, options), name).toThrow(UnsatisfiableSchemaError);
  }
  expect(() => arbitraryFromSchema({ $ref: '#/components/schemas/Missing' }, { resolver })).toThrow(/does not resolve/);
});

test('the same seed gives the same values; another seed gives others', () => {
  for (const name of SYNTHETIC_NAMES) {
    const arb = arbitraryFromSchema(syntheticRef(name), { resolver });
    expect(fc.sample(arb, { seed: 42, numRuns: 15 }), name).toEqual(fc.sample(arb, { seed: 42, numRuns: 15 }));
    expect(fc.sample(arbitraryFromSchema(syntheticRef(name), { resolver }), { seed: 42, numRuns: 15 }), name).toEqual(fc.sample(arb, { seed: 42, numRuns: 15 }));
  }
  const arb = arbitraryFromSchema(syntheticRef('CreateParams'), { resolver });
  expect(fc.sample(arb, { seed: 1, numRuns: 10 })).not.toEqual(fc.sample(arb, { seed: 2, numRuns: 10 }));
});

test('failures shrink: strings to the shortest failing length, numbers to the bound, objects to their failing part', () => {
  const strings = fc.check(fc.property(arbitraryFromSchema({ type: 'string', maxLength: 30 }, { resolver, maxStringLength: 30 }), (s) => (s as string).length <= 3), lawParams(200));
  expect(strings.failed).toBe(true);
  expect((strings.counterexample?.[0] as string).length).toBe(4);

  const numbers = fc.check(fc.property(arbitraryFromSchema({ type: 'integer', minimum: 1, maximum: 500 }, { resolver }), (n) => (n as number) <= 100), lawParams(200));
  expect(numbers.counterexample?.[0]).toBe(101);

  const params = fc.check(
    fc.property(arbitraryFromSchema(syntheticRef('CreateParams'), { resolver }), (p) => ((asObject(p)['messages'] ?? []) as JsonValue[]).length < 2),
    lawParams(500),
  );
  expect(params.failed).toBe(true);
  const shrunk = asObject(params.counterexample?.[0] as JsonValue);
  expect(Object.keys(shrunk).sort()).toEqual(['kind', 'messages']);
  expect(shrunk['messages']).toHaveLength(2);
});

test('minimalValue is valid and deterministic: required keys only, defaults, shortest values', () => {
  for (const name of SYNTHETIC_NAMES) {
    const schema = syntheticRef(name);
    const value = minimalValue(schema, { resolver });
    expect(syntheticErrors(schema, value), `${name}: ${JSON.stringify(value)}`).toEqual([]);
    expect(minimalValue(schema, { resolver }), name).toEqual(value);
  }
  expect(minimalValue(syntheticRef('CreateParams'), { resolver })).toEqual({ kind: 'session' });
  expect(minimalValue(syntheticRef('Node'), { resolver })).toEqual({ name: '', child: null });
  expect(minimalValue(syntheticRef('BoundedString'), { resolver })).toBe('xx');
  expect(minimalValue(syntheticRef('SteppedInteger'), { resolver })).toBe(0);
  // Bounded on both sides and exclusive: the midpoint of (0, 1).
  expect(minimalValue(syntheticRef('OpenInterval'), { resolver })).toBe(0.5);
  expect(minimalValue({ type: 'string', default: 'manual' }, { resolver })).toBe('manual');
  expect(minimalValue(syntheticRef('Overlapping'), { resolver })).not.toBeNull();
});

test('allOptionalValue is valid and populates every declared key, array items and map entries included', () => {
  for (const name of SYNTHETIC_NAMES) {
    const schema = syntheticRef(name);
    const value = allOptionalValue(schema, { resolver });
    expect(syntheticErrors(schema, value), `${name}: ${JSON.stringify(value)}`).toEqual([]);
    expect(allOptionalValue(schema, { resolver }), name).toEqual(value);
  }
  const params = asObject(allOptionalValue(syntheticRef('CreateParams'), { resolver }));
  expect(Object.keys(params).sort()).toEqual(Object.keys(SYNTHETIC_DOCUMENT.components.schemas.CreateParams.properties).sort());
  const messages = params['messages'] as Obj[];
  expect(messages).toHaveLength(1);
  expect(Object.keys(messages[0] as Obj).sort()).toEqual(['meta', 'role', 'text']);
  expect(Object.keys(asObject(asObject(params['info'] as JsonValue)['tools'] as JsonValue))).toHaveLength(1);
  expect(params['hidden']).toBe(false);
  const node = allOptionalValue(syntheticRef('Node'), { resolver, maxDepth: 1 });
  expect(depthOf(node)).toBe(2);
});

test('formats: random, minimal and realistic values all validate with ajv-formats', () => {
  for (const format of TESTED_FORMATS) {
    const schema = syntheticRef(`Format_${format}`);
    const values = [...fc.sample(arbitraryFromSchema(schema, { resolver }), lawParams(100)), minimalValue(schema, { resolver }), allOptionalValue(schema, { resolver })];
    const invalid = values.filter((value) => syntheticErrors(schema, value).length > 0);
    expect(invalid, format).toEqual([]);
  }
});

test('prefixItems (JSON Schema 2020-12, as Pydantic renders tuples) is honoured too', () => {
  const schema: JsonSchema = { type: 'array', prefixItems: [{ type: 'string', minLength: 1 }, { type: 'integer' }], items: false, minItems: 1 };
  // strictTuples would demand a fixed length; a tuple with an optional tail is what this checks.
  const validate = new Ajv2020({ strict: true, strictTuples: false }).compile(schema as object);
  const values = fc.sample(arbitraryFromSchema(schema, { resolver }), lawParams(100));
  expect(values.filter((v) => !validate(v))).toEqual([]);
  expect(new Set(values.map((v) => (v as JsonValue[]).length))).toEqual(new Set([1, 2]));
  expect(validate(minimalValue(schema, { resolver }))).toBe(true);
  expect(allOptionalValue(schema, { resolver })).toHaveLength(2);
});

test('a memo shared by the walks of a run changes no value: witnesses and arbitraries at every recursion bound', () => {
  const hermes = loadContractSync('profiles/hermes/contracts/session-lifecycle.openrpc.json');
  const metamask = loadContractSync('node_modules/@metamask/api-specs/dist/build/openrpc.json');
  const subjects: Array<{ resolver: SchemaResolver; schemas: JsonSchema[] }> = [
    { resolver, schemas: SYNTHETIC_NAMES.map(syntheticRef) },
    { resolver: hermes.resolver, schemas: hermes.methods.map((m) => m.paramsSchema) },
    { resolver: metamask.resolver, schemas: metamask.methods.map((m) => m.paramsSchema) },
  ];
  const outcome = (f: () => JsonValue): string => {
    try {
      return JSON.stringify(f());
    } catch (error) {
      return `throws ${(error as Error).message}`;
    }
  };
  // Differences collected and asserted once: an expect per comparison costs more than the walks.
  const differences: string[] = [];
  for (const { resolver: own, schemas } of subjects) {
    for (const schema of schemas) {
      // One memo for every walk of the schema, bounds in an order that makes later walks reuse earlier expansions.
      const memo = new SchemaMemo(own);
      for (const maxDepth of [0, 3, 1, 2]) {
        const plain = { resolver: own, maxDepth };
        const shared = { resolver: own, maxDepth, memo };
        const sample = (options: typeof plain): JsonValue => fc.sample(arbitraryFromSchema(schema, options), { seed: 42, numRuns: 20 });
        const walks = { minimalValue: (options: typeof plain) => minimalValue(schema, options), allOptionalValue: (options: typeof plain) => allOptionalValue(schema, options), sample };
        for (const [walk, run] of Object.entries(walks)) {
          const [withMemo, without] = [outcome(() => run(shared)), outcome(() => run(plain))];
          if (withMemo !== without) differences.push(`${walk} of ${JSON.stringify(schema).slice(0, 120)} at depth ${maxDepth}: ${withMemo.slice(0, 200)} with the memo, ${without.slice(0, 200)} without`);
        }
      }
    }
  }
  expect(differences).toEqual([]);
});
