import { fileURLToPath } from 'node:url';
import { expect, test } from './helpers/test.js';
import { loadContractSync } from '../../src/contracts/index.js';
import { analyseSkew, analyseSkewMatrix, type SkewFinding } from '../../src/skew/index.js';

// anchors.md §7.4: v1 takes by-name {title} and rejects unknown params; v2 adds the optional `tags` param and the
// result gains `tags`. An old-to-new diff calls this INFO; the two directions disagree.
const fixture = (name: string): string => fileURLToPath(new URL(`../skewFixtures/${name}`, import.meta.url));
const v1 = loadContractSync(fixture('worked-example-v1.openrpc.json'));
const v1Tolerant = loadContractSync(fixture('worked-example-v1-tolerant.openrpc.json'));
const v2 = loadContractSync(fixture('worked-example-v2.openrpc.json'));

const summary = (findings: readonly SkewFinding[]) => findings.map((f) => `${f.severity} ${f.direction} ${f.method} ${f.path} ${f.kind}`);

test('client v2 against server v1 breaks on the new by-name param tags (-32602)', () => {
  const report = analyseSkew(v2, v1);
  expect(report.breaking).toBe(true);
  expect(summary(report.findings)).toEqual(['breaking request session.create tags param-unknown-to-server']);
  expect(report.findings[0]?.message).toContain('clients on v2 send "tags"');
  expect(report.findings[0]?.message).toContain('-32602');
});

test('client v1 against server v2: the params are fine (tags is an optional addition)', () => {
  const requests = analyseSkew(v1, v2).findings.filter((f) => f.direction === 'request');
  expect(summary(requests)).toEqual(['info request session.create tags param-added-optional']);
});

test('results: a strict v1 client breaks on the tags a v2 server adds to the result', () => {
  const report = analyseSkew(v1, v2);
  expect(report.breaking).toBe(true);
  expect(summary(report.findings.filter((f) => f.severity === 'breaking'))).toEqual([
    'breaking response session.create result.tags result-unknown-to-client',
  ]);
  expect(report.findings.find((f) => f.kind === 'result-unknown-to-client')?.message).toContain('SessionCreateResult is closed');
});

test('results: a v1 client with an open result model only notes the new key', () => {
  const report = analyseSkew(v1Tolerant, v2);
  expect(report.breaking).toBe(false);
  // Sorted by method, then path: "result.tags" before "tags".
  expect(summary(report.findings)).toEqual([
    'info response session.create result.tags result-key-added-open',
    'info request session.create tags param-added-optional',
  ]);
});

test('the matrix over the three versions: clean diagonal, breaks exactly where §7.4 says', () => {
  const matrix = analyseSkewMatrix([v1, v1Tolerant, v2]);
  expect(matrix.cells).toHaveLength(9);
  for (const cell of matrix.cells.filter((c) => c.client === c.server)) expect(cell.findings).toEqual([]);
  const broken = matrix.cells.filter((c) => c.breaking).map((c) => `${matrix.contracts[c.client]?.version}->${matrix.contracts[c.server]?.version}`);
  expect(broken).toEqual(['1->2', '2->1', '2->1-tolerant']);
  expect(matrix.breaking).toBe(true);
});
