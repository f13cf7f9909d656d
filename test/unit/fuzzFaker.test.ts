import { expect, test } from './helpers/test.js';
import * as fc from 'fast-check';
import { arbitraryFromSchema, fakeFromSchema } from '../../fuzz/index.js';
import { describeErrors } from './helpers/fuzzLaws.js';
import { SYNTHETIC_DOCUMENT, SYNTHETIC_NAMES, syntheticErrors, syntheticRef, syntheticResolver as resolver } from './helpers/fuzzSchemas.js';

const SEEDS = [1, 2, 3, 4, 5];

test('every faker value validates, and json-schema-faker is the usual source', async () => {
  const failures: string[] = [];
  const sources = { faker: 0, 'fast-check': 0 };
  for (const name of SYNTHETIC_NAMES) {
    for (const seed of SEEDS) {
      const result = await fakeFromSchema(syntheticRef(name), { resolver, seed });
      sources[result.source]++;
      const errors = syntheticErrors(syntheticRef(name), result.value);
      if (errors.length > 0) failures.push(`${name} seed ${seed} (${result.source}): ${describeErrors(errors)}`);
      if ((result.source === 'fast-check') !== (result.fallbackReason !== undefined)) failures.push(`${name}: fallbackReason must be set exactly when fast-check is the source`);
    }
  }
  expect(failures).toEqual([]);
  expect(sources.faker).toBeGreaterThan(sources['fast-check'] * 5);
});

test('the same seed gives the same value and source, with the resolver or with the components object', async () => {
  const components = SYNTHETIC_DOCUMENT.components as unknown as Record<string, unknown>;
  for (const name of SYNTHETIC_NAMES) {
    const first = await fakeFromSchema(syntheticRef(name), { resolver, seed: 99 });
    expect(await fakeFromSchema(syntheticRef(name), { resolver, seed: 99 }), name).toEqual(first);
    expect(await fakeFromSchema(syntheticRef(name), { resolver, seed: 99, components }), name).toEqual(first);
  }
  const values = await Promise.all(SEEDS.map(async (seed) => JSON.stringify((await fakeFromSchema(syntheticRef('CreateParams'), { resolver, seed })).value)));
  expect(new Set(values).size).toBeGreaterThan(3);
});

test('when json-schema-faker breaks a oneOf, the fast-check arbitrary with the same seed is used and the reason is given', async () => {
  const schema = syntheticRef('Overlapping');
  const fallbacks = [];
  const fallbackSeeds: number[] = [];
  for (let seed = 1; seed <= 40; seed++) {
    const result = await fakeFromSchema(schema, { resolver, seed });
    if (result.source === 'fast-check') {
      fallbacks.push(result);
      fallbackSeeds.push(seed);
      expect(result.value).toEqual(fc.sample(arbitraryFromSchema(schema, { resolver, maxDepth: 2 }), { seed, numRuns: 1 })[0]);
    } else {
      // A value in 0..10 matches both branches: that is the invalid value a fallback replaces.
      expect(Number.isInteger(result.value) && !(Number(result.value) >= 0 && Number(result.value) <= 10), `seed ${seed}: ${JSON.stringify(result.value)}`).toBe(true);
    }
  }
  // json-schema-faker is seeded: the seeds whose value lands in the overlap are fixed.
  expect(fallbackSeeds).toEqual([1, 6]);
  expect(fallbacks[0]?.fallbackReason).toMatch(/json-schema-faker produced an invalid value: .*exactly one/);
});

test('a dangling $ref is reported as the reason for falling back, and the fallback then fails loudly', async () => {
  await expect(fakeFromSchema({ $ref: '#/components/schemas/Missing' }, { resolver, seed: 1 })).rejects.toThrow(/does not resolve/);
});
