import { expect, test } from './helpers/test.js';
import * as fc from 'fast-check';
import { join } from 'node:path';
import type { JsonSchema, JsonValue } from '../../core/index.js';
import { allOptionalValue, arbitraryFromSchema, minimalValue, mutationsOf, unknownKeyProbes } from '../../fuzz/index.js';
import { loadContractSync } from '../../src/contracts/index.js';
import type { ContractMethod } from '../../src/contracts/index.js';
import { documentValidator, keywordsOf, repoRoot } from './helpers/fuzzDocuments.js';
import { describeErrors, LAW_SEED, probeViolations } from './helpers/fuzzLaws.js';

/**
 * Every schema a client or the gateway exchanges on the full Hermes surface (profiles/hermes/contracts/gateway.openrpc.json):
 * method params and results, server→client request params and results, event payloads. The generators must
 * produce valid values for all of them, and negative payloads that really are invalid, as judged by an Ajv
 * independent of fuzz/.
 */
const contract = loadContractSync(join(repoRoot, 'profiles/hermes/contracts/gateway.openrpc.json'));
const errorsOf = documentValidator(contract.document, { strict: true });
const options = { resolver: contract.resolver };
const SAMPLES = 20;

interface SurfaceCase {
  name: string;
  schema: JsonSchema;
}

/** By-name params as src/contracts/buildContract.ts models them: one property per descriptor, `required` from the descriptors. */
function byNameParams(method: ContractMethod): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(method.descriptors.map((d) => [d.name, d.schema])),
    required: method.descriptors.filter((d) => d.required).map((d) => d.name),
  };
}

function callCases(kind: string, methods: readonly ContractMethod[]): SurfaceCase[] {
  return methods.flatMap((method) => [
    { name: `${kind} ${method.name} params`, schema: byNameParams(method) },
    ...(method.resultSchema === undefined ? [] : [{ name: `${kind} ${method.name} result`, schema: method.resultSchema }]),
  ]);
}

/** Every law broken by the generators on one schema, one line each. */
function surfaceViolations({ name, schema }: SurfaceCase, seed: number): string[] {
  const failures: string[] = [];
  const fail = (what: string) => failures.push(`${name}: ${what}`);
  let values: Array<[string, JsonValue]>;
  try {
    const samples = fc.sample(arbitraryFromSchema(schema, options), { seed, numRuns: SAMPLES });
    values = [['minimal', minimalValue(schema, options)], ['all-optional', allOptionalValue(schema, options)], ...samples.map((v, i): [string, JsonValue] => [`sample ${i}`, v])];
  } catch (error) {
    return [`${name}: generator threw ${(error as Error).message}`];
  }
  for (const [label, value] of values) {
    const errors = errorsOf(schema, value);
    if (errors.length > 0) {
      fail(`${label} ${JSON.stringify(value).slice(0, 200)} is invalid: ${describeErrors(errors)}`);
      continue;
    }
    if (!label.startsWith('sample') || label === 'sample 0') {
      try {
        for (const mutation of mutationsOf(schema, value, options)) {
          const rejected = errorsOf(schema, mutation.payload);
          if (!keywordsOf(rejected).includes(mutation.expectedKeyword)) fail(`${label}: mutation ${mutation.description} not rejected by ${mutation.expectedKeyword}: ${describeErrors(rejected) || 'accepted'}`);
        }
        const probes = unknownKeyProbes(schema, value, options);
        failures.push(...probeViolations(probes, (payload) => errorsOf(schema, payload)).map((f) => `${name}: ${label}: ${f}`));
      } catch (error) {
        fail(`${label}: probes or mutations threw ${(error as Error).message}`);
      }
    }
  }
  return failures;
}

const methodCases = callCases('method', contract.methods);
const GROUPS: Array<[string, SurfaceCase[]]> = [
  ['methods (first half)', methodCases.slice(0, methodCases.length / 2)],
  ['methods (second half)', methodCases.slice(methodCases.length / 2)],
  ['server requests', callCases('server request', contract.serverRequests)],
  ['event payloads', contract.events.flatMap((e) => (e.payloadSchema === undefined ? [] : [{ name: `event ${e.name}`, schema: e.payloadSchema }]))],
];

test('the surface is the full Hermes document: 278 methods, 14 server requests, 73 event types, all by-name', () => {
  expect(contract.methods).toHaveLength(278);
  expect(contract.serverRequests).toHaveLength(14);
  expect(contract.events).toHaveLength(73);
  expect([...contract.methods, ...contract.serverRequests].every((m) => m.paramStructure === 'by-name')).toBe(true);
  expect(GROUPS.map(([, cases]) => cases.length)).toEqual([278, 278, 28, 73]);
});

for (const [group, cases] of GROUPS) {
  test(`Hermes ${group}: minimal, all-optional and ${SAMPLES} generated values validate; mutations are invalid; probes hold`, () => {
    const failures = cases.flatMap((surfaceCase, index) => surfaceViolations(surfaceCase, LAW_SEED + index));
    expect(failures).toEqual([]);
  });
}
