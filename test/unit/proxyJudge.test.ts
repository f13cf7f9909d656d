import { expect, test } from './helpers/test.js';
import { HERMES_CODES, JSON_RPC_CODES } from './helpers/profiles.js';
import { HERMES_DIALECT } from '../../profiles/hermes/dialect.js';
import { SESSION_LIFECYCLE_CONTRACT, SESSION_LIFECYCLE_PRE_CWD_EXPLICIT } from '../../profiles/hermes/paths.js';
import { loadContractSync } from '../../src/contracts/index.js';
import { FrameStreamJudge, requestShape, skewSummary, type FrameFinding } from '../../src/proxy/index.js';
import { SchemaValidators } from '../../src/contracts/index.js';
import { FOREIGN_DIR } from '../foreignServers/childServer.js';

// The frame judge alone, fed frames as text: no socket, no gateway. Each case is a conversation that must give
// exactly the findings listed, under the catalogue's check ids.

const CURRENT = loadContractSync(SESSION_LIFECYCLE_CONTRACT);
const OLDER = loadContractSync(SESSION_LIFECYCLE_PRE_CWD_EXPLICIT);

type Line = ['client' | 'server', unknown] | ['close', number];

function converse(lines: Line[], client = false): { findings: FrameFinding[]; judge: FrameStreamJudge } {
  const judge = new FrameStreamJudge({ server: OLDER, profile: HERMES_CODES, dialect: HERMES_DIALECT, inlineMethods: ['gateway.ping'], ...(client ? { client: CURRENT } : {}) });
  judge.open('c1');
  const findings: FrameFinding[] = [];
  lines.forEach(([side, frame], at) => {
    if (side === 'close') findings.push(...judge.close('c1', 'server', frame as number, at));
    else findings.push(...judge.frame('c1', side, typeof frame === 'string' ? frame : JSON.stringify(frame), at));
  });
  return { findings, judge };
}

const summary = (findings: FrameFinding[]): string[] => findings.map((f) => `${f.subject} × ${f.check} @ ${f.path}`);
const request = (id: unknown, method: string, params: unknown): unknown => ({ jsonrpc: '2.0', id, method, params });

test('request shapes: unknown keys under a closed model, invalid values, dotted paths', () => {
  const validators = new SchemaValidators(OLDER);
  const create = OLDER.method('session.create');
  expect(requestShape(create, { cwd: '/x', cwd_explicit: true }, validators)).toMatchObject({ kind: 'unknown-key', paths: ['cwd_explicit'] });
  expect(requestShape(create, { cwd: 5 }, validators)).toMatchObject({ kind: 'invalid', paths: ['cwd'] });
  expect(requestShape(create, undefined, validators)).toEqual({ kind: 'valid' });
  expect(requestShape(undefined, {}, validators)).toEqual({ kind: 'undeclared' });
});

test('an undeclared method must get -32601; a success for it is envelope.unknown-method', () => {
  const good = converse([
    ['client', request('a', 'no.such_method', {})],
    ['server', { jsonrpc: '2.0', id: 'a', error: { code: -32601, message: 'unknown method: no.such_method' } }],
  ]);
  expect(summary(good.findings)).toEqual([]);
  const bad = converse([
    ['client', request('a', 'no.such_method', {})],
    ['server', { jsonrpc: '2.0', id: 'a', result: {} }],
  ]);
  expect(summary(bad.findings)).toEqual(['(connection) × envelope.unknown-method @ method']);
});

test('a contract-invalid request that succeeds, a second answer, and an unanswered request when the gateway closes', () => {
  const { findings } = converse([
    ['client', request(1, 'session.create', { cwd: 5 })],
    ['server', { jsonrpc: '2.0', id: 1, result: { session_id: 's1' } }],
    ['server', { jsonrpc: '2.0', id: 1, result: { session_id: 's1' } }],
    ['client', request(2, 'session.list', {})],
    ['close', 1011],
  ]);
  expect(summary(findings)).toEqual(['session.create × params.invalid-not-accepted @ cwd', 'session.create × result.schema @ result.stored_session_id', 'session.create × envelope.id-echo @ id', 'session.list × params.valid-accepted @ (root)']);
  expect(findings[3]?.message).toContain('closed the connection (1011)');
});

test('with --client-contract: a key its own contract lacks is a client defect, not skew; a key only the server lacks is skew', () => {
  const { findings, judge } = converse(
    [
      ['client', request('a', 'session.create', { cwd: '/x', nonsense: 1 })],
      ['server', { jsonrpc: '2.0', id: 'a', error: { code: 4000, message: 'invalid params for session.create: nonsense: Extra inputs are not permitted' } }],
      ['client', request('b', 'session.create', { cwd: '/x', cwd_explicit: true })],
      ['server', { jsonrpc: '2.0', id: 'b', error: { code: 4000, message: 'invalid params for session.create: cwd_explicit: Extra inputs are not permitted' } }],
    ],
    true,
  );
  expect(summary(findings)).toEqual(['session.create × skew.client-contract @ nonsense', 'session.create × skew.client-contract @ cwd_explicit']);
  expect(findings[0]?.message).toContain('by its own contract (Hermes TUI/Desktop gateway 2)');
  expect(findings[0]?.skew).toBeUndefined();
  expect(findings[1]?.skew).toEqual({ method: 'session.create', path: 'cwd_explicit' });
  const lines = skewSummary(judge.skew.values(), OLDER, CURRENT);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain('session.create.cwd_explicit');
});

test("a valid request answered with an error its method declares (through $ref too) is a domain error, as run judges it", () => {
  // calc.divide declares -32000 (division by zero) through #/components/errors; -32001 it does not declare.
  const judge = new FrameStreamJudge({ server: loadContractSync(`${FOREIGN_DIR}/calculator.openrpc.json`), profile: JSON_RPC_CODES });
  judge.open('c1');
  const frames: Array<[ 'client' | 'server', unknown ]> = [
    ['client', request(1, 'calc.divide', { dividend: 1, divisor: 0 })],
    ['server', { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'division by zero' } }],
    ['client', request(2, 'calc.divide', { dividend: 1, divisor: 3 })],
    ['server', { jsonrpc: '2.0', id: 2, error: { code: -32001, message: 'busy' } }],
    ['client', request(3, 'calc.add', { a: 1, b: 0 })],
    ['server', { jsonrpc: '2.0', id: 3, error: { code: -32000, message: 'division by zero' } }],
  ];
  const findings = frames.flatMap(([side, frame], at) => judge.frame('c1', side, JSON.stringify(frame), at));
  expect(findings.map((f) => `${f.subject} × ${f.check} @ ${f.request?.id}`)).toEqual(['calc.divide × params.valid-accepted @ 2', 'calc.add × params.valid-accepted @ 3']);
  // A client spraying undeclared names: the per-method profiles stay those of the contract's methods.
  for (let i = 0; i < 50; i++) {
    judge.frame('c1', 'client', JSON.stringify(request(`x${i}`, `no.such_${i}`, {})), 10 + i);
    judge.frame('c1', 'server', JSON.stringify({ jsonrpc: '2.0', id: `x${i}`, error: { code: -32601, message: 'Method not found' } }), 10 + i);
  }
  expect((judge as unknown as { methodProfiles: Map<string, unknown> }).methodProfiles.size).toBe(2);
});

test('a success is no evidence of the error shape: envelope.error-shape counts error answers only, as run does', () => {
  const judge = new FrameStreamJudge({ server: loadContractSync(`${FOREIGN_DIR}/calculator.openrpc.json`), profile: JSON_RPC_CODES });
  judge.open('c1');
  judge.frame('c1', 'client', JSON.stringify(request(1, 'calc.add', { a: 1, b: 2 })), 0);
  judge.frame('c1', 'server', JSON.stringify({ jsonrpc: '2.0', id: 1, result: 3 }), 1);
  const judged = (subject: string) => Object.fromEntries(judge.cells.filter((c) => c.subject === subject).map((c) => [c.check, c.judged]));
  expect(judged('calc.add')['envelope.error-shape']).toBeUndefined();
  expect(judged('calc.add')['envelope.id-echo']).toBe(1);
  judge.frame('c1', 'client', JSON.stringify(request(2, 'calc.divide', { dividend: 1, divisor: 0 })), 2);
  judge.frame('c1', 'server', JSON.stringify({ jsonrpc: '2.0', id: 2, error: { code: -32000, message: 'division by zero' } }), 3);
  expect(judged('calc.divide')['envelope.error-shape']).toBe(1);
});

test('a request that is not a Request object may be answered as an Invalid Request with id null; any other request keeps its id', () => {
  const judge = new FrameStreamJudge({ server: loadContractSync(`${FOREIGN_DIR}/calculator.openrpc.json`), profile: JSON_RPC_CODES });
  judge.open('c1');
  const invalid = { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request' } };
  const frames: Array<['client' | 'server', unknown]> = [
    ['client', request('a', 'calc.add', 'params that are neither an object nor an array')],
    ['server', invalid],
    ['client', request('b', 'calc.add', 7)],
    ['server', { ...invalid, error: { code: -32700, message: 'Parse error' } }],
    ['client', request('c', 'calc.add', { a: 1, b: 2 })],
    ['server', invalid],
    ['client', { jsonrpc: '1.0', id: 'd', method: 'calc.add', params: { a: 1, b: 2 } }],
    ['server', invalid],
    ['client', { id: 'e', method: 'calc.add' }],
    ['server', invalid],
    ['client', request({ e: 1 }, 'calc.add', { a: 1, b: 2 })],
    ['server', invalid],
  ];
  const findings = frames.flatMap(([side, frame], at) => judge.frame('c1', side, JSON.stringify(frame), at));
  // b: a parse error is not the answer to a request that was JSON; c: a Request object keeps its id.
  expect(findings.filter((f) => f.check === 'envelope.id-echo').map((f) => f.request?.id)).toEqual(['b', 'c']);
});

test('an unknown key the gateway silently accepts is params.unknown-key-rejected, not skew', () => {
  const { findings } = converse([
    ['client', request('a', 'session.create', { cwd: '/x', cwd_explicit: true })],
    ['server', { jsonrpc: '2.0', id: 'a', result: { session_id: 's1', stored_session_id: 'k', message_count: 0, messages: [], info: {} } }],
  ]);
  expect(summary(findings).filter((line) => !line.includes('result.schema'))).toEqual(['session.create × params.unknown-key-rejected @ cwd_explicit']);
});

test('events: a session created here starts at seq 1; a repeat and a gap are each a seq finding', () => {
  const event = (seq: number): unknown => ({ jsonrpc: '2.0', method: 'event', params: { type: 'status.update', session_id: 's9', seq, payload: { kind: 'status', text: 'x' } } });
  const { findings } = converse([
    ['client', request('a', 'session.create', {})],
    ['server', { jsonrpc: '2.0', id: 'a', result: { session_id: 's9' } }],
    ['server', event(2)],
    ['server', event(2)],
    ['server', event(4)],
    ['server', 'not json'],
  ]);
  expect(summary(findings).filter((line) => line.includes('seq-monotonic'))).toEqual([
    '(session events) × event.seq-monotonic @ params.seq',
    '(session events) × event.seq-monotonic @ params.seq',
    '(session events) × event.seq-monotonic @ params.seq',
  ]);
});

test('a server request the contract does not declare is a server-request.envelope finding', () => {
  const { findings } = converse([['server', { jsonrpc: '2.0', id: 'srv-1', method: 'approval.request', params: { session_id: 's1' } }]]);
  expect(summary(findings)).toEqual(['approval.request × server-request.envelope @ method']);
});
