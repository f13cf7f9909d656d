import { expect, test } from './helpers/test.js';
import { allOptionalValue, minimalValue, unknownKeyProbes } from '../../fuzz/index.js';
import type { JsonSchema, JsonValue, SchemaResolver } from '../../core/index.js';
import { documentLaws } from './helpers/fuzzDocumentLaws.js';
import { HERMES_DOCUMENT, HOOKS_DOCUMENT, loadTestDocument, THIRD_PARTY_DOCUMENTS, type TestDocument } from './helpers/fuzzDocuments.js';

const PREVIOUS_HERMES_DOCUMENT = 'profiles/hermes/contracts/session-lifecycle.pre-cwd-explicit.openrpc.json';
const ABSENT = 'the committed Hermes documents in contracts/ must load';
/** documentLaws' default: the minimal and the all-optional value of each case are probed. */
const MUTATED_PER_CASE = 2;

type Held = { closed: string[]; open: string[] };

/**
 * The objects every valid value of a case holds, by declared policy: the root and each required object property
 * (a required nullable object counts as the object: `{}` is shorter than `null`). The unknown-key laws probe each
 * of them on every value they mutate, whatever the seed.
 */
function heldObjects(doc: TestDocument): Held {
  const held: Held = { closed: [], open: [] };
  const visit = (schema: JsonSchema | undefined, at: string, depth: number, resolver: SchemaResolver): void => {
    let node = schema as { [key: string]: JsonValue } | undefined;
    while (node && typeof node['$ref'] === 'string') node = resolver.resolve(node['$ref']) as typeof node;
    if (!node || depth > 20) return;
    const members = Array.isArray(node['anyOf']) ? (node['anyOf'] as Array<{ [key: string]: JsonValue }>).filter((member) => member['type'] !== 'null') : [];
    if (members.length === 1) return visit(members[0] as JsonSchema, at, depth + 1, resolver);
    if (node['type'] !== 'object') return;
    if (node['additionalProperties'] === false) held.closed.push(at);
    if (node['additionalProperties'] === true) held.open.push(at);
    const properties = (node['properties'] ?? {}) as { [key: string]: JsonSchema };
    for (const key of (node['required'] ?? []) as string[]) if (properties[key] !== undefined) visit(properties[key], `${at}.${key}`, depth + 1, resolver);
  };
  for (const { name, schema } of doc.cases) visit(schema, name, 0, doc.resolver);
  return held;
}

/** One object of each policy that each document's values must hold. */
const KNOWN_HELD: Record<string, { closed: string; open: string }> = {
  [HERMES_DOCUMENT]: { closed: 'components.schemas.SessionCreateParams', open: 'components.schemas.SeedMessage' },
  [PREVIOUS_HERMES_DOCUMENT]: { closed: 'components.schemas.SessionCreateParams', open: 'components.schemas.SeedMessage' },
  [HOOKS_DOCUMENT]: { closed: 'components.schemas.HooksSubscribeParams', open: 'components.schemas.SessionPreInitPayload.model_options' },
};

for (const path of THIRD_PARTY_DOCUMENTS) {
  test(`generator laws hold for every schema of ${path.split('/').slice(-1)[0]}`, async () => {
    const doc = loadTestDocument(path, { strict: false });
    expect(doc?.path, `${path} must load`).toBe(path);
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
    expect(doc?.path, `${ABSENT}: ${path}`).toBe(path);
    if (!doc) return;
    const report = await documentLaws(doc, effort);
    expect(report.failures).toEqual([]);
    expect(report.unsatisfiable).toEqual([]);
    const held = heldObjects(doc);
    expect(held.closed).toContain(KNOWN_HELD[path]?.closed);
    expect(held.open).toContain(KNOWN_HELD[path]?.open);
    const mutated = 'mutatedPerCase' in effort ? effort.mutatedPerCase : MUTATED_PER_CASE;
    // Nested optional objects and array rows add probes on top: these are bounds, exact when every object is held.
    expect(report.probes.closed, `${held.closed.length} closed objects every value holds × ${mutated} values`).toBeGreaterThanOrEqual(held.closed.length * mutated);
    expect(report.probes.open, `${held.open.length} open objects every value holds × ${mutated} values`).toBeGreaterThanOrEqual(held.open.length * mutated);
  });
}

test('Hermes session.create: closed params, open nested rows, and every optional key a client may send', () => {
  const doc = loadTestDocument(HERMES_DOCUMENT, { strict: true });
  expect(doc?.path, ABSENT).toBe(HERMES_DOCUMENT);
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
  expect(previous?.path, ABSENT).toBe(PREVIOUS_HERMES_DOCUMENT);
  if (!previous) return;
  const rejected = previous.errors(schema, everyKey).filter((e) => e.keyword === 'additionalProperties').map((e) => e.params['additionalProperty']);
  expect(rejected).toEqual(['cwd_explicit']);
});
