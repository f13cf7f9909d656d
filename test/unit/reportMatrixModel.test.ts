import { expect, test } from './helpers/test.js';
import fc from 'fast-check';
import { buildMatrix, classifyTest, failsGate, statusSeverity, type TestRecord, worseStatus } from '../../src/report/matrixModel.js';
import { CELL_STATUSES, type CellStatus, type MatrixRun } from '../../src/report/matrixTypes.js';
import { expectEqual, expectIs } from './helpers/fastExpect.js';
import { verdictSentence } from '../../src/report/renderMarkdown.js';
import { gateLines } from '../../src/report/verdictLines.js';

const RUN: MatrixRun = { target: 'ws://127.0.0.1:0/api/ws', contracts: [{ title: 'Hermes', version: '2.3.0', path: 'contracts/hermes.json' }], seed: 7 };
const AT = '2026-01-01T00:00:00.000Z';
const tags = (method: string, check: string): string[] => [`@method:${method}`, `@check:${check}`];

/** Records as Playwright reports each kind of test; `cell` tags are added by `record`. */
const KINDS = {
  pass: { outcome: 'expected', expectedStatus: 'passed', status: 'passed', annotations: [], errors: [] },
  fail: { outcome: 'unexpected', expectedStatus: 'passed', status: 'failed', annotations: [], errors: ['Error: boom\n  at x'] },
  knownFail: { outcome: 'expected', expectedStatus: 'failed', status: 'failed', annotations: [{ type: 'fail', description: 'baseline' }, { type: 'contract-gate.baseline', description: 'GW-1' }], errors: ['Error: still broken'] },
  stale: { outcome: 'unexpected', expectedStatus: 'failed', status: 'passed', annotations: [{ type: 'contract-gate.baseline', description: 'GW-2' }], errors: [] },
  skipped: { outcome: 'skipped', expectedStatus: 'skipped', status: 'skipped', annotations: [{ type: 'skip', description: 'no open model' }], errors: [] },
  flaky: { outcome: 'flaky', expectedStatus: 'passed', status: 'passed', annotations: [], errors: [] },
  notRun: { outcome: 'skipped', expectedStatus: 'passed', annotations: [], errors: [] },
} satisfies Record<string, Omit<TestRecord, 'tags'>>;
type Kind = keyof typeof KINDS;
const EXPECTED: Record<Kind, CellStatus> = { pass: 'pass', fail: 'fail', knownFail: 'known-fail', stale: 'stale', skipped: 'n/a', flaky: 'flaky', notRun: 'not-run' };

function record(kind: Kind, method = 'session.create', check = 'params.valid-accepted', extra: Partial<TestRecord> = {}): TestRecord {
  return { ...KINDS[kind], tags: tags(method, check), ...extra };
}

test('every Playwright outcome maps to its cell status', () => {
  for (const kind of Object.keys(KINDS) as Kind[]) expect(classifyTest(record(kind)).status, kind).toBe(EXPECTED[kind]);
});

test('details say why: error line, baseline reason, skip reason, flaky note, stale fix', () => {
  expect(classifyTest(record('fail')).detail).toBe('boom');
  expect(classifyTest(record('knownFail')).detail).toBe('GW-1 · still broken');
  expect(classifyTest(record('stale')).detail).toBe('baseline entry passes now: remove it from the baseline · reason was: GW-2');
  expect(classifyTest(record('skipped')).detail).toBe('no open model');
  expect(classifyTest(record('flaky')).detail).toBe('passed only on a retry');
  expect(classifyTest(record('notRun')).detail).toBe('the test did not run');
  expect(classifyTest(record('pass')).detail).toBeUndefined();
});

test('the detail annotation wins over the raw error, and ANSI colours are stripped', () => {
  const withDetail = record('fail', 'a', 'result.schema', { annotations: [{ type: 'contract-gate.detail', description: 'result.cwd missing' }] });
  expect(classifyTest(withDetail).detail).toBe('result.cwd missing');
  expect(classifyTest(record('fail', 'a', 'result.schema', { errors: ['\u001b[31mError: red\u001b[39m'] })).detail).toBe('red');
  expect(classifyTest(record('fail', 'a', 'result.schema', { errors: [], status: 'timedOut' })).detail).toBe('timed out');
});

test('n/a comes from a skip, a contract-gate.n/a annotation on a passing test, or a static skip that never ran', () => {
  const marked = record('pass', 'a', 'params.unknown-key-tolerated', { annotations: [{ type: 'contract-gate.n/a', description: 'all models closed' }] });
  expect(classifyTest(marked)).toEqual({ status: 'n/a', detail: 'all models closed' });
  const staticSkip: TestRecord = { ...record('notRun'), expectedStatus: 'skipped', annotations: [{ type: 'skip', description: 'later' }] };
  expect(classifyTest(staticSkip)).toEqual({ status: 'n/a', detail: 'later' });
  expect(classifyTest(record('pass', 'a', 'b', { status: 'interrupted', outcome: 'skipped' })).status).toBe('not-run');
});

test('a flaky baselined check stays a known failure', () => {
  const flakyKnown = record('flaky', 'a', 'b', { expectedStatus: 'failed', annotations: [{ type: 'contract-gate.baseline', description: 'GW-3' }] });
  expect(classifyTest(flakyKnown)).toEqual({ status: 'known-fail', detail: 'GW-3 · flaky: passed on one attempt' });
});

test('transcript and replay annotations travel with the cell', () => {
  const annotations = [
    { type: 'contract-gate.transcript-file', description: 'transcripts/a.jsonl' },
    { type: 'contract-gate.replay-file', description: 'replays/a.json' },
  ];
  expect(buildMatrix([record('fail', 'a', 'result.schema', { annotations })], RUN, AT).cells).toEqual([
    { method: 'a', check: 'result.schema', status: 'fail', detail: 'boom', transcript: 'transcripts/a.jsonl', replay: 'replays/a.json' },
  ]);
});

test('a cell skipped because the target went down is not-run with that reason, never n/a', () => {
  const skipped = record('skipped', 'a', 'envelope.batch', { annotations: [{ type: 'contract-gate.not-run', description: 'target down after (connection) × envelope.parse-error' }] });
  expect(classifyTest(skipped)).toEqual({ status: 'not-run', detail: 'target down after (connection) × envelope.parse-error' });
});

test('a cell that passed only on a retry is flaky: never a pass, and it fails the gate under --fail-on-flaky only', () => {
  expect(failsGate('flaky')).toBe(true);
  expect(failsGate('flaky', false)).toBe(false);
  expect(buildMatrix([record('flaky')], RUN, AT)).toMatchObject({ verdict: 'pass', summary: { pass: 0, flaky: 1 } });
  expect(buildMatrix([record('flaky')], { ...RUN, failOnFlaky: true }, AT)).toMatchObject({ verdict: 'fail', failOnFlaky: true });
});

test('a cell verdict retried to a pass (the flaky annotation) is flaky with its attempts; in a baselined cell it stays a known failure', () => {
  const annotations = [{ type: 'contract-gate.flaky', description: 'flaky: failed on attempt 1' }, { type: 'contract-gate.attempts', description: '2' }];
  expect(classifyTest(record('pass', 'a', 'result.schema', { annotations }))).toEqual({ status: 'flaky', detail: 'flaky: failed on attempt 1', attempts: 2 });
  expect(classifyTest(record('stale', 'a', 'result.schema', { annotations })).status).toBe('known-fail');
});

test('evidence counts travel from annotations to the cell, add up over its tests, and a pass without any is counted', () => {
  const seen = (answers: number) => [{ type: 'contract-gate.evidence.framesSent', description: '3' }, { type: 'contract-gate.evidence.answersJudged', description: String(answers) }];
  const matrix = buildMatrix([record('pass', 'a', 'result.schema', { annotations: seen(2) }), record('pass', 'a', 'result.schema', { annotations: seen(1) }), record('pass', 'b', 'result.schema', { annotations: seen(0) })], RUN, AT);
  expect(matrix.cells.find((cell) => cell.method === 'a')?.evidence).toMatchObject({ framesSent: 6, answersJudged: 3 });
  expect(matrix.summary.passWithoutEvidence).toBe(1);
});

test("the time of a cell's tests adds up over them, whichever verdict wins; a cell none of whose tests was timed has none", () => {
  const matrix = buildMatrix([record('pass', 'a', 'result.schema', { durationMs: 120 }), record('fail', 'a', 'result.schema', { durationMs: 30 }), record('pass', 'a', 'result.schema'), record('pass', 'b', 'result.schema')], RUN, AT);
  expect(matrix.cells.map(({ method, status, durationMs }) => ({ method, status, durationMs }))).toEqual([
    { method: 'a', status: 'fail', durationMs: 150 },
    { method: 'b', status: 'pass', durationMs: undefined },
  ]);
});

test('severity order is stale > fail > flaky > not-run > known-fail > pass > n/a', () => {
  const ordered: CellStatus[] = ['stale', 'fail', 'flaky', 'not-run', 'known-fail', 'pass', 'n/a'];
  expect([...CELL_STATUSES].sort((a, b) => statusSeverity(b) - statusSeverity(a))).toEqual(ordered);
  expect(worseStatus('pass', 'not-run')).toBe('not-run');
  expect(worseStatus('stale', 'fail')).toBe('stale');
});

const kindArb = fc.constantFrom(...(Object.keys(KINDS) as Kind[]));
const recordArb = fc
  .record({ kind: kindArb, method: fc.constantFrom('session.create', 'session.close', 'prompt.submit', 'a|b'), check: fc.constantFrom('params.valid-accepted', 'result.schema', 'envelope.id-echo') })
  .map(({ kind, method, check }) => record(kind, method, check));

test('property: several tests sharing a cell give the worst status among them', () => {
  fc.assert(
    fc.property(fc.array(recordArb, { maxLength: 30 }), (records) => {
      const matrix = buildMatrix(records, RUN, AT);
      for (const cell of matrix.cells) {
        const mine = records.filter((r) => r.tags[0] === `@method:${cell.method}` && r.tags[1] === `@check:${cell.check}`);
        const worst = mine.map((r) => classifyTest(r).status).reduce(worseStatus);
        expectIs(cell.status, worst);
      }
      expectIs(matrix.cells.length, new Set(records.map((r) => r.tags.join(' '))).size);
    }),
  );
});

test('property: the verdict is fail iff a fail or stale cell exists or every cell is n/a, and the summary counts every cell once', () => {
  fc.assert(
    fc.property(fc.array(recordArb, { maxLength: 30 }), (records) => {
      const matrix = buildMatrix(records, RUN, AT);
      const judgedNothing = matrix.cells.length > 0 && matrix.cells.every((cell) => cell.status === 'n/a');
      expectIs(matrix.verdict === 'fail', matrix.cells.some((cell) => failsGate(cell.status, false)) || judgedNothing);
      const { pass, fail, knownFail, stale, na, notRun, flaky = 0 } = matrix.summary;
      expectIs(pass + fail + knownFail + stale + na + notRun + flaky, matrix.cells.length);
      expectIs(fail, matrix.cells.filter((cell) => cell.status === 'fail').length);
    }),
  );
});

test('a run that judged nothing (every cell n/a) fails and says so; a shard of it, a run with one judged cell, and no cells at all do not', () => {
  const onlyNa = [record('skipped'), record('skipped', 'session.list', 'params.unknown-key-rejected')];
  const nothing = buildMatrix(onlyNa, RUN, AT);
  expect(nothing.verdict).toBe('fail');
  expect(verdictSentence(nothing)).toBe("FAIL: no check was judged: all 2 selected checks are n/a for this target (matrix.md gives each one's reason); select checks that apply to it.");
  expect(gateLines(nothing, 'report')).toContain("the gate fails: no check was judged: all 2 selected checks are n/a for this target (matrix.md gives each one's reason); select checks that apply to it");
  expect(buildMatrix(onlyNa, { ...RUN, shard: '1/2' }, AT).verdict, 'a shard may be dealt only n/a cells: the merge judges').toBe('pass');
  expect(buildMatrix([...onlyNa, record('pass', 'session.list')], RUN, AT).verdict).toBe('pass');
  expect(buildMatrix([], RUN, AT).verdict).toBe('pass');
});

test('tests outside the @method:/@check: vocabulary are ignored', () => {
  const records: TestRecord[] = [
    { ...KINDS.fail, tags: ['@smoke'] },
    { ...KINDS.fail, tags: ['@method:session.create'] },
    record('pass'),
  ];
  const matrix = buildMatrix(records, RUN, AT);
  expect(matrix.cells).toEqual([{ method: 'session.create', check: 'params.valid-accepted', status: 'pass' }]);
  expect(matrix.verdict).toBe('pass');
});

test('cells sort by subject, then by the check order of the catalogue', () => {
  const records = [record('pass', 'b', 'result.schema'), record('pass', 'b', 'envelope.jsonrpc-version'), record('pass', 'a', 'x.unknown'), record('pass', 'a', 'params.valid-accepted')];
  expect(buildMatrix(records, RUN, AT).cells.map((cell) => `${cell.method} ${cell.check}`)).toEqual([
    'a params.valid-accepted',
    'a x.unknown',
    'b envelope.jsonrpc-version',
    'b result.schema',
  ]);
});

test('coverage counts subjects with a params.valid-accepted cell and the reached ones among them', () => {
  const reached = (description: string) => ({ annotations: [{ type: 'contract-gate.reached', description }] });
  const records = [
    record('pass', 'session.create', 'params.valid-accepted', reached('session.create, session.list ,ghost')),
    record('fail', 'session.close', 'params.valid-accepted'),
    record('pass', 'session.list', 'params.valid-accepted'),
    record('pass', 'turn.started', 'event.envelope', reached('turn.started')),
    record('pass', 'turn.started', 'event.payload-schema', reached('event:turn.started')),
    record('skipped', 'turn.ended', 'event.payload-schema'),
    record('pass', 'approval', 'server-request.envelope', reached('server-request:approval')),
    // A method name is not an event type: the prefixes keep the kinds apart.
    record('pass', 'clarify', 'server-request.envelope', reached('clarify,event:clarify')),
  ];
  const matrix = buildMatrix(records, { ...RUN, shard: '1/2' }, AT);
  expect(matrix.coverage).toEqual({
    methods: 3,
    reached: ['session.create', 'session.list'],
    unreached: ['session.close'],
    events: { total: 2, seen: ['turn.started'], unseen: ['turn.ended'] },
    serverRequests: { total: 2, seen: ['approval'], unseen: ['clarify'] },
  });
  expect(matrix.shard).toBe('1/2');
  expect(matrix.generatedAt).toBe(AT);
});

test('property: reached and unreached partition the covered subjects, sorted', () => {
  const subject = fc.constantFrom('m1', 'm2', 'm3', 'm4');
  fc.assert(
    fc.property(fc.array(fc.record({ method: subject, check: fc.constantFrom('params.valid-accepted', 'result.schema'), reached: fc.subarray(['m1', 'm2', 'm3', 'm4', 'x']) })), (rows) => {
      const records = rows.map(({ method, check, reached }) => record('pass', method, check, { annotations: [{ type: 'contract-gate.reached', description: reached.join(',') }] }));
      const { coverage } = buildMatrix(records, RUN, AT);
      const subjects = [...new Set(rows.filter((row) => row.check === 'params.valid-accepted').map((row) => row.method))].sort();
      expectEqual([...coverage.reached, ...coverage.unreached].sort(), subjects);
      expectIs(coverage.methods, subjects.length);
      expectEqual(coverage.reached, [...coverage.reached].sort());
      expectEqual(coverage.unreached, [...coverage.unreached].sort());
    }),
  );
});
