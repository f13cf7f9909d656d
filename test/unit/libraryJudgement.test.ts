import { expect, test } from './helpers/test.js';
import { expectEqual, expectIs } from './helpers/fastExpect.js';
import * as fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatPointer, type JsonPath, type JsonValue } from '../../core/index.js';
import { judgeEvent, judgeResult } from '../../fixtures/library/contractJudgement.js';
import { loadLibrarySettings } from '../../fixtures/library/librarySettings.js';
import { schemaDifferences } from '../../fixtures/library/schemaDiff.js';
import { arbitraryFromSchema } from '../../fuzz/index.js';
import { loadContractSync } from '../../src/contracts/loadContract.js';
import { SchemaValidators } from '../../src/contracts/schemaValidators.js';
import { REPO } from './helpers/cliRunner.js';
import { lawParams } from './helpers/fuzzLaws.js';
import { scratchDir } from './helpers/scratchDir.js';

const GATEWAY = loadContractSync(join(REPO, 'profiles/hermes/contracts/gateway.openrpc.json'));
const contracts = [GATEWAY];

test('a result of the wrong type names the pointer, the schema fragment there and the value received', () => {
  const judgement = judgeResult('session.undo', { removed: '2' }, contracts);
  expect(judgement.pass).toBe(false);
  expect(judgement.detail).toContain('the result of session.undo does not match its schema in Hermes TUI/Desktop gateway 2');
  expect(judgement.detail).toContain('  at /removed: must be integer\n    expected: {"title":"Removed","type":"integer"}\n    received: "2"');
});

test('a missing required key and an undeclared key are shown at their own pointer', () => {
  expect(judgeResult('session.undo', {}, contracts).detail).toContain('  at /removed: a required key is missing\n    expected: {"title":"Removed","type":"integer"}\n    received: (missing)');
  expect(judgeResult('session.undo', { removed: 1, debug: true }, contracts).detail).toContain(
    '  at /debug: a key the schema does not declare (additionalProperties: false)\n    expected: no such key; declared keys: removed\n    received: true',
  );
});

test('the fragment is found through $ref and array items', () => {
  const row = { id: 7, resolved_id: null, title: '', preview: '', started_at: 1, message_count: 0, source: '' };
  const judgement = judgeResult('session.list', { sessions: [row] }, contracts);
  expect(judgement.detail).toContain('  at /sessions/0/id: must be string\n    expected: {"title":"Id","type":"string"}\n    received: 7');
});

test('a matching result passes; an undeclared method or event fails and suggests the nearest name', () => {
  expect(judgeResult('session.undo', { removed: 0 }, contracts)).toMatchObject({ pass: true });
  const unknown = judgeResult('session.creat', {}, contracts);
  expect(unknown.pass).toBe(false);
  expect(unknown.detail).toContain('the contract declares no method session.creat (did you mean session.create?)');
  expect(judgeEvent('session.inf', {}, contracts).detail).toContain('the contract declares no event session.inf (did you mean session.info?)');
});

test('event payloads: judged against their schema; a payload-less event must carry none', () => {
  expect(judgeEvent('session.resume_progress', { phase: 'history', status: 'loading', message_count: null, message: null }, contracts).pass).toBe(true);
  const wrong = judgeEvent('session.resume_progress', { phase: 1, status: 'loading', message_count: null, message: null }, contracts);
  expect(wrong.detail).toContain('  at /phase: must be string\n    expected: {"title":"Phase","type":"string"}\n    received: 1');
  expect(judgeEvent('message.start', undefined, contracts).pass).toBe(true);
  expect(judgeEvent('message.start', { text: 'x' }, contracts)).toMatchObject({ pass: false, detail: expect.stringContaining('declares no payload for event message.start') });
  expect(judgeEvent('session.resume_progress', undefined, contracts)).toMatchObject({ pass: false, detail: expect.stringContaining('is missing') });
});

/** Every path into a value (the root too). */
function pathsOf(value: JsonValue, path: JsonPath = []): JsonPath[] {
  if (Array.isArray(value)) return [path, ...value.flatMap((item, index) => pathsOf(item, [...path, index]))];
  if (value !== null && typeof value === 'object') return [path, ...Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...path, key]))];
  return [path];
}

function replaced(value: JsonValue, path: JsonPath, by: JsonValue): JsonValue {
  if (path.length === 0) return by;
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as Record<string, JsonValue>) }) as Record<string | number, JsonValue>;
  copy[head as string | number] = replaced(copy[head as string | number] as JsonValue, rest, by);
  return copy as JsonValue;
}

test('property: for a valid result with one member replaced, every difference of its own value shows a fragment that value breaks', () => {
  const validators = new SchemaValidators(GATEWAY);
  const methods = GATEWAY.methods.filter((method) => method.resultSchema !== undefined);
  let judged = 0;
  const broken = fc.constantFrom(...methods).chain((method) =>
    arbitraryFromSchema(method.resultSchema as never, { resolver: GATEWAY.resolver, optional: 'random' }).chain((valid) =>
      fc.tuple(fc.constant(method), fc.constant(valid), fc.constantFrom(...pathsOf(valid)), fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<JsonValue>),
    ),
  );
  fc.assert(
    fc.property(broken, ([method, valid, path, by]) => {
      expectEqual(schemaDifferences(GATEWAY, method.resultSchema as never, valid), []);
      const value = replaced(valid, path, by);
      const differences = schemaDifferences(GATEWAY, method.resultSchema as never, value);
      expectIs(differences.length === 0, validators.check(method.resultSchema as never, value).length === 0);
      for (const difference of differences) {
        if (difference.pointer !== (formatPointer(path) || '(root)') || difference.expected.endsWith('characters)') || !difference.expected.startsWith('{')) continue;
        judged++;
        const refusals = validators.check(JSON.parse(difference.expected), by).length;
        if (refusals === 0) expect(refusals, `${method.name} ${difference.pointer}: ${difference.expected} accepts ${difference.received}`).toBeGreaterThan(0);
      }
    }),
    lawParams(300),
  );
  expect(judged).toBeGreaterThan(30);
});

test('settings: test.use over the project over the file, the project from CONTRACT_GATE_PROJECT; keys checked as in a file', async () => {
  const dir = scratchDir('contract-gate-library');
  writeFileSync(join(dir, 'contract-gate.config.mjs'), "export default { seed: 1, runs: 7, requestTimeout: '2s', projects: { staging: { seed: 2, target: 'ws://127.0.0.1:1/api/ws' } } };\n");
  const top = await loadLibrarySettings({}, dir);
  expect([top.configFile, top.settings.seed, top.settings.runs, top.settings.requestTimeout, top.settings.target]).toEqual([join(dir, 'contract-gate.config.mjs'), 1, 7, 2000, undefined]);
  const staging = await loadLibrarySettings({ project: 'staging' }, dir);
  expect([staging.settings.seed, staging.settings.target]).toEqual([2, 'ws://127.0.0.1:1/api/ws']);
  expect((await loadLibrarySettings({ project: 'staging', seed: 3 }, dir)).settings.seed).toBe(3);
  process.env['CONTRACT_GATE_PROJECT'] = 'staging';
  try {
    expect((await loadLibrarySettings({}, dir)).project).toBe('staging');
  } finally {
    delete process.env['CONTRACT_GATE_PROJECT'];
  }
  await expect(loadLibrarySettings({ contracts: ['x.json'] } as never, dir)).rejects.toThrow('test.use({ contractGate }): unknown key contracts (did you mean contract?)');
  const secret = loadLibrarySettings({ token: 'hunter2-literal' } as never, dir);
  await expect(secret).rejects.toThrow('token would hold a secret');
  await expect(secret).rejects.not.toThrow('hunter2-literal');
});
