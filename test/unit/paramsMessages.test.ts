import { expect, test } from './helpers/test.js';
import type { Exchange } from '../../core/index.js';
import type { JsonSchema, JsonValue } from '../../core/index.js';
import { mutationsOf, type MutationKind } from '../../fuzz/mutations.js';
import { checkInvalidNotAccepted, mutationText } from '../../src/checks/paramsChecks.js';
import { syntheticResolver as resolver } from './helpers/fuzzSchemas.js';

// A contract-invalid payload is named the same way by a run and by the replay of its finding: what was changed,
// where (the params themselves are "(root)"), and how.

const mutate = (schema: JsonSchema, value: JsonValue, kind: MutationKind) => mutationsOf(schema, value, { resolver }).filter((m) => m.kind === kind);

const success: Exchange = { conn: 'c1', method: 'list_pets', id: 'r1', params: [1, 1], requestText: '', elapsedMs: 1, response: { jsonrpc: '2.0', id: 'r1', result: [] }, correlation: 'exact' };

test('a mutation is named by its kind and its description, which says where it was made, once', () => {
  const [root] = mutate({ type: 'array', maxItems: 1 }, [1], 'boundary');
  expect(mutationText(root)).toBe('boundary at (root): 2 items, maxItems is 1');
  const nested = mutate({ type: 'object', properties: { pet: { type: 'object', properties: { tag: { type: 'string' } } } } }, { pet: { tag: 'x' } }, 'wrong-type').find((m) => m.dottedPath === 'pet.tag');
  expect(mutationText(nested)).toMatch(/^wrong-type at pet\.tag: /);
  expect(mutationText(undefined)).toBe('a mutation');
  const [found] = checkInvalidNotAccepted(success, mutationText(root));
  expect(found?.message).toBe('list_pets: a contract-invalid payload (boundary at (root): 2 items, maxItems is 1) got a success; the wire accepts more than the contract says — fix the handler or widen the contract');
});
