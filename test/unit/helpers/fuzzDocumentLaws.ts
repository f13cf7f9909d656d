import * as fc from 'fast-check';
import { allOptionalValue, arbitraryFromSchema, fakeFromSchema, minimalValue, mutationsOf, UnsatisfiableSchemaError, unknownKeyProbes } from '../../../fuzz/index.js';
import type { JsonValue } from '../../../core/index.js';
import { keywordsOf, type TestDocument } from './fuzzDocuments.js';
import { describeErrors, LAW_SEED, probeViolations } from './fuzzLaws.js';

export interface DocumentLawReport {
  cases: number;
  values: number;
  mutations: number;
  probes: { closed: number; open: number; unknown: number };
  /** Cases the generators refuse as unsatisfiable, with the first reason. */
  unsatisfiable: string[];
  faker: { faker: number; 'fast-check': number };
  /** Every broken law, one line each; empty when the document passes. */
  failures: string[];
}

/**
 * Runs the generator laws over every schema case of a document, against the document's own validator:
 * generated, minimal and all-optional values validate; mutations are rejected with their keyword; unknown-key
 * probes behave as their policy says; faker values validate and replay from their seed.
 */
export async function documentLaws(doc: TestDocument, { samplesPerCase = 4, mutatedPerCase = 2 } = {}): Promise<DocumentLawReport> {
  const report: DocumentLawReport = { cases: doc.cases.length, values: 0, mutations: 0, probes: { closed: 0, open: 0, unknown: 0 }, unsatisfiable: [], faker: { faker: 0, 'fast-check': 0 }, failures: [] };
  const options = { resolver: doc.resolver };
  for (const [index, { name, schema }] of doc.cases.entries()) {
    const fail = (what: string) => report.failures.push(`${name}: ${what}`);
    let values: JsonValue[];
    try {
      values = [minimalValue(schema, options), allOptionalValue(schema, options), ...fc.sample(arbitraryFromSchema(schema, options), { seed: LAW_SEED + index, numRuns: samplesPerCase })];
    } catch (error) {
      if (error instanceof UnsatisfiableSchemaError) report.unsatisfiable.push(`${name}: ${error.reasons[0] ?? error.message}`);
      else fail(`generator threw ${(error as Error).message}`);
      continue;
    }
    const valid: JsonValue[] = [];
    for (const value of values) {
      report.values++;
      const errors = doc.errors(schema, value);
      if (errors.length > 0) fail(`generated ${JSON.stringify(value).slice(0, 200)} is invalid: ${describeErrors(errors)}`);
      else valid.push(value);
    }
    for (const value of valid.slice(0, mutatedPerCase)) {
      for (const mutation of mutationsOf(schema, value, options)) {
        report.mutations++;
        const errors = doc.errors(schema, mutation.payload);
        if (!keywordsOf(errors).includes(mutation.expectedKeyword)) fail(`mutation ${mutation.description} not rejected by ${mutation.expectedKeyword}: ${describeErrors(errors) || 'accepted'}`);
      }
      const probes = unknownKeyProbes(schema, value, options);
      for (const probe of probes) report.probes[probe.policy]++;
      report.failures.push(...probeViolations(probes, (payload) => doc.errors(schema, payload)).map((f) => `${name}: ${f}`));
    }
    const fake = await fakeFromSchema(schema, { ...options, seed: LAW_SEED + index });
    report.faker[fake.source]++;
    const fakeErrors = doc.errors(schema, fake.value);
    if (fakeErrors.length > 0) fail(`faker value (${fake.source}) is invalid: ${describeErrors(fakeErrors)}`);
    if (index % 10 === 0) {
      const again = await fakeFromSchema(schema, { ...options, seed: LAW_SEED + index });
      if (JSON.stringify(again) !== JSON.stringify(fake)) fail('faker gave another value for the same seed');
    }
  }
  return report;
}
