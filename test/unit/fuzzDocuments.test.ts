import { expect, test } from '@playwright/test';
import { allOptionalValue, minimalValue, unknownKeyProbes } from '../../fuzz/index.js';
import type { JsonSchema } from '../../core/index.js';
import { documentLaws } from './helpers/fuzzDocumentLaws.js';
import { HERMES_DOCUMENT, HOOKS_DOCUMENT, loadTestDocument, THIRD_PARTY_DOCUMENTS } from './helpers/fuzzDocuments.js';

const PREVIOUS_HERMES_DOCUMENT = 'profiles/hermes/contracts/session-lifecycle.pre-cwd-explicit.openrpc.json';
const ABSENT = 'the committed Hermes documents in contracts/ must load';

for (const path of THIRD_PARTY_DOCUMENTS) {
  test(`generator laws hold for every schema of ${path.split('/').slice(-1)[0]}`, async () => {
    const doc = loadTestDocument(path, { strict: false });
    expect(doc, path).toBeDefined();
    if (!doc) return;
    const report = await documentLaws(doc);
    expect(report.failures).toEqual([]);
    expect(report.unsatisfiable).toEqual([]);
    expect(report.values).toBeGreaterThanOrEqual(report.cases);
  });
}

// The previous Hermes document differs from the current one by a single property: a lighter pass suffices.
for (const [path, effort] of [[HERMES_DOCUMENT, {}], [PREVIOUS_HERMES_DOCUMENT, { samplesPerCase: 1, mutatedPerCase: 1 }], [HOOKS_DOCUMENT, {}]] as const) {
  test(`generator laws hold for every schema of ${path} (strict ajv)`, async () => {
    const doc = loadTestDocument(path, { strict: true });
    expect(doc, `${ABSENT}: ${path}`).toBeDefined();
    if (!doc) return;
    const report = await documentLaws(doc, effort);
    expect(report.failures).toEqual([]);
    expect(report.unsatisfiable).toEqual([]);
    expect(report.probes.closed).toBeGreaterThan(0);
    expect(report.probes.open).toBeGreaterThan(0);
  });
}

test('Hermes session.create: closed params, open nested rows, and every optional key a client may send', () => {
  const doc = loadTestDocument(HERMES_DOCUMENT, { strict: true });
  expect(doc, ABSENT).toBeDefined();
  if (!doc) return;
  const schema: JsonSchema = { $ref: '#/components/schemas/SessionCreateParams' };
  const everyKey = allOptionalValue(schema, { resolver: doc.resolver });
  expect(Object.keys(everyKey as object)).toContain('cwd_explicit');
  expect(doc.errors(schema, everyKey)).toEqual([]);
  const probes = Object.fromEntries(unknownKeyProbes(schema, everyKey, { resolver: doc.resolver }).map((p) => [p.dottedPath, p.policy]));
  expect(probes['cg_unknown_key']).toBe('closed');
  expect(probes['messages.0.cg_unknown_key']).toBe('open');
  expect(minimalValue(schema, { resolver: doc.resolver })).toEqual({});

  const previous = loadTestDocument(PREVIOUS_HERMES_DOCUMENT, { strict: true });
  expect(previous, ABSENT).toBeDefined();
  if (!previous) return;
  const rejected = previous.errors(schema, everyKey).filter((e) => e.keyword === 'additionalProperties').map((e) => e.params['additionalProperty']);
  expect(rejected).toEqual(['cwd_explicit']);
});
