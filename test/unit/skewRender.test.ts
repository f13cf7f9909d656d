import { expect, test } from './helpers/test.js';
import { analyseSkew, analyseSkewMatrix, renderSkew, renderSkewMatrix } from '../../src/skew/index.js';
import { parseContract, type Contract } from '../../src/contracts/index.js';
import { closed, paramsContract, skewContract } from '../skewFixtures/skewDoc.js';

const v1 = paramsContract(closed({ cwd: { type: 'string' } }), '1');
const v2 = paramsContract(closed({ cwd: { type: 'string' }, cwd_explicit: { type: 'boolean' } }), '2');

test('text: one line per finding, then the verdict', () => {
  const lines = renderSkew(analyseSkew(v2, v1), 'text').trimEnd().split('\n');
  expect(lines).toHaveLength(3);
  expect(lines[0]).toBe('skew: client skew fixture v2 (fixture-v2.openrpc.json) -> server skew fixture v1 (fixture-v1.openrpc.json)');
  expect(lines[1]).toBe(
    'BREAKING m cwd_explicit: clients on v2 send "cwd_explicit"; the server\'s params object is closed (additionalProperties: false), so it answers -32602 (invalid params) — upgrade the server first, or make the client omit "cwd_explicit" for servers on v1',
  );
  expect(lines[2]).toMatch(/^verdict: BREAKING — clients on v2 cannot work with servers on v1 \(1 breaking, 0 warnings, 0 info\)$/);
  expect(renderSkew(analyseSkew(v1, v2), 'text')).toContain('verdict: compatible');
});

test('markdown: a summary and one table row per finding, pipes escaped', () => {
  const md = renderSkew(analyseSkew(v2, v1), 'md');
  expect(md).toContain('**Verdict: ✗ breaking** — 1 breaking, 0 warnings, 0 info.');
  expect(md).toContain('| Severity | Method | Path | Direction | Kind | Message |');
  expect(md).toContain('| breaking | `m` | `cwd_explicit` | request | param-unknown-to-server | clients on v2 send');
  expect(renderSkew(analyseSkew(v1, v1), 'md')).toContain('No findings.');
  const piped = renderSkew(analyseSkew(paramsContract(closed({ 'a|b': { type: 'string' } }), '2'), v1), 'md');
  expect(piped).toContain('| `a\\|b` |');
});

test('json: exactly the SkewReport shape', () => {
  const parsed = JSON.parse(renderSkew(analyseSkew(v2, v1), 'json')) as Record<string, unknown>;
  expect(Object.keys(parsed)).toEqual(['client', 'server', 'breaking', 'findings']);
  expect(parsed['client']).toEqual({ title: 'skew fixture', version: '2', path: 'fixture-v2.openrpc.json' });
  const findings = parsed['findings'] as Array<Record<string, unknown>>;
  expect(Object.keys(findings[0] ?? {}).sort()).toEqual(['direction', 'kind', 'message', 'method', 'path', 'severity']);
});

test('matrix: a can-i-deploy grid with rows = clients, columns = servers', () => {
  const matrix = analyseSkewMatrix([v1, v2]);
  const text = renderSkewMatrix(matrix, 'text');
  expect(text.split('\n').slice(1, 4)).toEqual(['client \\ server  v1            v2', 'v1               ✓             ✓', 'v2               ✗ 1 breaking  ✓']);
  expect(text).toContain('verdict: BREAKING — 1 of 4 client/server pairs cannot work together');
  const md = renderSkewMatrix(matrix, 'md');
  expect(md).toContain('| client ↓ / server → | v1 | v2 |');
  expect(md).toContain('| **v2** | ✗ 1 breaking | ✓ |');
  const json = JSON.parse(renderSkewMatrix(matrix, 'json')) as { contracts: unknown[]; cells: unknown[]; breaking: boolean };
  expect(json.contracts).toHaveLength(2);
  expect(json.cells).toHaveLength(4);
  expect(json.breaking).toBe(true);
});

test('matrix labels fall back to file names when two documents share a version', () => {
  const other = paramsContract(closed({}), '1');
  const matrix = analyseSkewMatrix([v1, { ...other, origin: 'other/fixture-v1b.openrpc.json' }]);
  expect(renderSkewMatrix(matrix, 'text')).toContain('v1 (fixture-v1.openrpc.json)');
  expect(renderSkewMatrix(matrix, 'text')).toContain('v1 (fixture-v1b.openrpc.json)');
});

test('two documents of one version are told apart in every line: by title, else by file name', () => {
  const server = skewContract({ version: '1', methods: [{ name: 'm', params: closed({ cwd: { type: 'string' } }) }] }, 'server.openrpc.json');
  const client = skewContract({ version: '1', methods: [{ name: 'm', params: closed({ cwd: { type: 'string' }, cwd_explicit: { type: 'boolean' } }) }] }, 'client.openrpc.json');
  const byFile = renderSkew(analyseSkew(client, server), 'text');
  expect(byFile).toContain('BREAKING m cwd_explicit: clients on v1 (client.openrpc.json) send "cwd_explicit"');
  expect(byFile).toContain('verdict: BREAKING — clients on v1 (client.openrpc.json) cannot work with servers on v1 (server.openrpc.json)');
  const titled = (contract: Contract, title: string): Contract => parseContract({ ...(JSON.parse(JSON.stringify(contract.document)) as Record<string, unknown>), info: { title, version: '1' } }, contract.origin);
  const byTitle = renderSkew(analyseSkew(titled(client, 'Desktop'), titled(server, 'Gateway')), 'text');
  expect(byTitle).toContain('clients on Desktop v1 send "cwd_explicit"');
  expect(byTitle).toContain('verdict: BREAKING — clients on Desktop v1 cannot work with servers on Gateway v1');
  expect(renderSkew(analyseSkew(v2, v1), 'text'), 'versions that differ name the sides by version alone').toContain('clients on v2 cannot work with servers on v1');
});
