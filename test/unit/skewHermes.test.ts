import { fileURLToPath } from 'node:url';
import { expect, test } from './helpers/test.js';
import { loadContractSync, type Contract } from '../../src/contracts/index.js';
import { analyseSkew, analyseSkewMatrix, renderSkew } from '../../src/skew/index.js';
import { HERMES_CODES } from './helpers/profiles.js';

const current = fileURLToPath(new URL('../../profiles/hermes/contracts/session-lifecycle.openrpc.json', import.meta.url));
const previous = fileURLToPath(new URL('../../profiles/hermes/contracts/session-lifecycle.pre-cwd-explicit.openrpc.json', import.meta.url));

test.describe('the Hermes session lifecycle documents (cwd_explicit)', () => {
  let newer: Contract;
  let older: Contract;
  test.beforeAll(() => {
    newer = loadContractSync(current);
    older = loadContractSync(previous);
  });

  test('a newer desktop against an older remote backend: session.create cwd_explicit breaks with 4000', () => {
    const report = analyseSkew(newer, older, { serverCodes: HERMES_CODES });
    expect(report.breaking).toBe(true);
    const breaking = report.findings.filter((f) => f.severity === 'breaking');
    expect(breaking.map((f) => [f.method, f.path, f.kind, f.direction])).toEqual([['session.create', 'cwd_explicit', 'param-unknown-to-server', 'request']]);
    expect(breaking[0]?.message).toContain('the server model SessionCreateParams is closed (additionalProperties: false)');
    expect(breaking[0]?.message).toContain('4000 "invalid params for session.create: cwd_explicit: Extra inputs are not permitted"');
    expect(renderSkew(report, 'text')).toContain('BREAKING session.create cwd_explicit: clients on v2 send "cwd_explicit"; the server model SessionCreateParams is closed');
  });

  test('an older client against the newer server is fine, with an info for the optional param it does not know', () => {
    const report = analyseSkew(older, newer, { serverCodes: HERMES_CODES });
    expect(report.breaking).toBe(false);
    expect(report.findings.map((f) => [f.severity, f.method, f.path, f.kind])).toEqual([['info', 'session.create', 'cwd_explicit', 'param-added-optional']]);
  });

  test('each document against itself has no findings', () => {
    expect(analyseSkew(newer, newer, { serverCodes: HERMES_CODES }).findings).toEqual([]);
    expect(analyseSkew(older, older, { serverCodes: HERMES_CODES }).findings).toEqual([]);
    // Two separate loads of the same file: structural, not identity, comparison.
    expect(analyseSkew(newer, loadContractSync(current)).findings).toEqual([]);
  });

  test('the two-version matrix breaks only in the (newer client, older server) cell', () => {
    const matrix = analyseSkewMatrix([older, newer]);
    expect(matrix.cells.map((c) => [c.client, c.server, c.breaking])).toEqual([
      [0, 0, false],
      [0, 1, false],
      [1, 0, true],
      [1, 1, false],
    ]);
  });
});
