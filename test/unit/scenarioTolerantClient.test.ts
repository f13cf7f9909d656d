import { expect, test } from './helpers/test.js';
import type { Exchange, JsonObject, Outcome } from '../../core/index.js';
import { HERMES_OUT_OF_SYNC_SUFFIX } from '../../profiles/hermes/errorCodes.js';
import { createTolerantly, rejectedField, type ScenarioCaller } from '../../profiles/hermes/scenarios/tolerantClient.js';

const extra = (field: string, method = 'session.create', suffix = true) =>
  ({ error: { code: 4000, message: `invalid params for ${method}: ${field}: Extra inputs are not permitted${suffix ? HERMES_OUT_OF_SYNC_SUFFIX : ''}` } }) as const;

type Answer = { result: JsonObject } | { error: { code: number; message: string } } | { timeout: true };

/** A caller that answers from a script, recording what was sent. */
class ScriptedCaller implements ScenarioCaller {
  readonly sent: JsonObject[] = [];

  constructor(private readonly answer: (params: JsonObject, attempt: number) => Answer) {}

  async call(method: string, params?: unknown): Promise<Exchange> {
    const sent = params as JsonObject;
    this.sent.push(sent);
    const answer = this.answer(sent, this.sent.length);
    const base = { conn: 'c1', method, id: `r${this.sent.length}`, params, requestText: '', elapsedMs: 1, correlation: 'exact' as const };
    if ('timeout' in answer) return { ...base, failure: { code: 'REQUEST_TIMEOUT', message: `[REQUEST_TIMEOUT] ${method} did not answer` } };
    return { ...base, response: { jsonrpc: '2.0', id: base.id, ...answer } };
  }
}

/** A backend whose closed model lacks `unknown` keys: it names the first one it finds, like Pydantic's extra=forbid. */
const backend = (unknown: readonly string[]) => (params: JsonObject): Answer => {
  const first = Object.keys(params).find((key) => unknown.includes(key));
  return first ? extra(first) : { result: { session_id: 'abcd1234' } };
};

const error = (code: number, message: string): Outcome => ({ kind: 'error', code, message });

test('rejectedField reads only the exact unknown-key rejection, with or without the out-of-sync suffix', () => {
  expect(rejectedField(error(4000, extra('cwd_explicit').error.message), 'session.create')).toBe('cwd_explicit');
  expect(rejectedField(error(4000, extra('cwd_explicit', 'session.create', false).error.message), 'session.create')).toBe('cwd_explicit');
  expect(rejectedField(error(4000, extra('cwd_explicit', 'session.resume').error.message), 'session.create')).toBeUndefined();
  expect(rejectedField(error(-32602, extra('cwd_explicit').error.message), 'session.create')).toBeUndefined();
  expect(rejectedField(error(4000, 'handler error: cwd_explicit must be a boolean'), 'session.create')).toBeUndefined();
  expect(rejectedField(error(4000, extra('messages.0.foo').error.message), 'session.create')).toBeUndefined();
  expect(rejectedField(error(4000, `${extra('cwd_explicit').error.message}!`), 'session.create')).toBeUndefined();
  expect(rejectedField({ kind: 'result', result: {} }, 'session.create')).toBeUndefined();
});

test('an old backend: cwd_explicit is dropped once and cwd kept; the second attempt succeeds', async () => {
  const caller = new ScriptedCaller(backend(['cwd_explicit']));
  const result = await createTolerantly(caller, { cwd: '/work', cwd_explicit: true, title: 't' });
  expect(caller.sent).toEqual([{ cwd: '/work', cwd_explicit: true, title: 't' }, { cwd: '/work', title: 't' }]);
  expect(result).toMatchObject({ dropped: ['cwd_explicit'], outcome: { kind: 'result' } });
  expect(result.attempts).toHaveLength(2);
});

test('a current backend: one attempt, nothing dropped', async () => {
  const caller = new ScriptedCaller(backend([]));
  const result = await createTolerantly(caller, { cwd: '/', cwd_explicit: true });
  expect(caller.sent).toHaveLength(1);
  expect(result).toMatchObject({ dropped: [], outcome: { kind: 'result' } });
});

test('service_tier is tolerated the same way (fast kept), and both fields are dropped one after the other', async () => {
  const caller = new ScriptedCaller(backend(['service_tier', 'cwd_explicit']));
  const result = await createTolerantly(caller, { service_tier: 'ultrafast', fast: true, cwd: '/', cwd_explicit: true });
  expect(caller.sent).toEqual([
    { service_tier: 'ultrafast', fast: true, cwd: '/', cwd_explicit: true },
    { fast: true, cwd: '/', cwd_explicit: true },
    { fast: true, cwd: '/' },
  ]);
  expect(result.dropped).toEqual(['service_tier', 'cwd_explicit']);
  expect(result.outcome.kind).toBe('result');
});

test('a rejection naming any other field is never retried', async () => {
  const caller = new ScriptedCaller(backend(['service_tier_x', 'cwd_explicit']));
  const result = await createTolerantly(caller, { cwd: '/', service_tier_x: 'ultrafast' });
  expect(caller.sent).toHaveLength(1);
  expect(result).toMatchObject({ dropped: [], outcome: { kind: 'error', code: 4000 } });
});

test('a tolerated field named by the rejection but not sent, a field rejected twice, a handler error and a timeout are never retried', async () => {
  const notSent = new ScriptedCaller(() => extra('cwd_explicit'));
  expect((await createTolerantly(notSent, { cwd: '/' })).attempts).toHaveLength(1);

  const stubborn = new ScriptedCaller(() => extra('cwd_explicit'));
  const twice = await createTolerantly(stubborn, { cwd: '/', cwd_explicit: true });
  expect(stubborn.sent).toEqual([{ cwd: '/', cwd_explicit: true }, { cwd: '/' }]);
  expect(twice.outcome).toMatchObject({ kind: 'error', code: 4000 });

  const handler = new ScriptedCaller(() => ({ error: { code: 4017, message: 'cwd_explicit: working directory does not exist' } }));
  expect((await createTolerantly(handler, { cwd: '/nope', cwd_explicit: true })).attempts).toHaveLength(1);

  const silent = new ScriptedCaller(() => ({ timeout: true }));
  const timedOut = await createTolerantly(silent, { cwd: '/', cwd_explicit: true });
  expect(timedOut.attempts).toHaveLength(1);
  expect(timedOut.outcome.kind).toBe('failure');
});

test('the tolerated list and the method are options', async () => {
  const caller = new ScriptedCaller((params) => ('inline_images' in params ? extra('inline_images', 'session.resume') : { result: { session_id: 'x' } }));
  const result = await createTolerantly(caller, { session_id: 'k', inline_images: true }, { method: 'session.resume', fields: ['inline_images'] });
  expect(result.dropped).toEqual(['inline_images']);
  expect(caller.sent[1]).toEqual({ session_id: 'k' });
});
