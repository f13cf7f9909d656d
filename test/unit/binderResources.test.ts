import { expect, test } from './helpers/test.js';
import fc from 'fast-check';
import type { Exchange, JsonObject, JsonValue } from '../../core/index.js';
import { Binder, type RpcCaller } from '../../src/binding/binder.js';
import { NoEventsError } from '../../src/client/noEvents.js';
import { HarnessError } from '../../core/index.js';
import { parseBindingRules } from '../../src/binding/bindingRules.js';
import { expectEqual } from './helpers/fastExpect.js';

/*
 * A binder creates only the live objects the fields it binds on a payload name: a `bindIfPresent` field the payload
 * does not carry needs nothing. (The Hermes rules bind `session_id` wherever a method carries one: a method that takes
 * none used to make a session for each run, which an HTTP target, sending no events, can never finish.)
 */

const RULES = parseBindingRules(
  {
    resources: {
      session: { steps: [{ call: 'session.create', params: {}, as: 'create' }], provides: { runtimeId: '${create.session_id}' } },
      announced: { steps: [{ call: 'session.create', params: {}, as: 'create' }, { waitEvent: 'session.info', session: '${create.session_id}' }], provides: { runtimeId: '${create.session_id}' } },
      tree: { steps: [{ call: 'tree.save', params: {}, as: 'saved' }], provides: { path: '${saved.path}' } },
    },
    methods: {
      'session.status': { fill: { session_id: '${session.runtimeId}' } },
      'tree.load': { set: { path: '${tree.path}' }, bindIfPresent: { session_id: '${session.runtimeId}' } },
      'set.then.fill': { set: { owner: '${session.runtimeId}' }, fill: { owner: '${tree.path}' } },
      'needs.announced': { set: { session_id: '${announced.runtimeId}' } },
    },
    otherMethods: { bindIfPresent: { session_id: '${session.runtimeId}' } },
  },
  'test rules',
);

/** Answers every setup call with the ids the rules read, and records the methods called. */
function recordingCaller(): { caller: RpcCaller; calls: string[] } {
  const calls: string[] = [];
  const caller: RpcCaller = {
    call(method, params) {
      calls.push(method);
      const result = method === 'session.create' ? { session_id: `s${calls.length}` } : { path: `/t${calls.length}` };
      const exchange: Exchange = { conn: 'c', method, id: calls.length, params, requestText: '', elapsedMs: 0, correlation: 'exact', response: { jsonrpc: '2.0', id: calls.length, result } };
      return Promise.resolve(exchange);
    },
  };
  return { caller, calls };
}

test('a bindIfPresent field the payload does not carry creates nothing; one it carries creates its resource once', async () => {
  const { caller, calls } = recordingCaller();
  const binder = new Binder(RULES, caller);
  expect(await binder.bindTraced('session.list', { limit: 3 })).toEqual({ payload: { limit: 3 }, substitutions: {} });
  expect(await binder.bindTraced('session.list', { session_id: null })).toEqual({ payload: { session_id: null }, substitutions: {} });
  expect(calls).toEqual([]);
  expect(await binder.bindTraced('session.list', { session_id: 'x', limit: 1 })).toEqual({ payload: { session_id: 's1', limit: 1 }, substitutions: { session_id: '${session.runtimeId}' } });
  expect((await binder.bindTraced('other.method', { session_id: 'y' })).payload).toEqual({ session_id: 's1' });
  expect(calls).toEqual(['session.create']);
});

test('fill creates its resource only for a payload that lacks the field; set always; a field set earlier counts as carried', async () => {
  const { caller, calls } = recordingCaller();
  const binder = new Binder(RULES, caller);
  expect((await binder.bindTraced('session.status', { session_id: 'given' })).payload).toEqual({ session_id: 'given' });
  expect(calls).toEqual([]);
  expect((await binder.bindTraced('session.status', {})).payload).toEqual({ session_id: 's1' });
  // tree.load: `set` binds path from the tree resource on every payload; session_id only where the payload has one.
  expect(await binder.bindTraced('tree.load', { depth: 1 })).toEqual({ payload: { depth: 1, path: '/t2' }, substitutions: { path: '${tree.path}' } });
  expect(calls).toEqual(['session.create', 'tree.save']);
  const fresh = recordingCaller();
  expect((await new Binder(RULES, fresh.caller).bindTraced('set.then.fill', {})).payload).toEqual({ owner: 's1' });
  expect(fresh.calls).toEqual(['session.create']);
});

test('property: the bound payload is the same whether the resources existed before or were created for it, and nothing unneeded is created', async () => {
  const keys = fc.constantFrom('session_id', 'path', 'owner', 'limit', 'depth');
  const payloadArb = fc.dictionary(keys, fc.oneof(fc.constant(null), fc.string({ maxLength: 3 }), fc.integer()), { maxKeys: 4 }) as fc.Arbitrary<JsonObject>;
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('session.status', 'tree.load', 'session.list', 'set.then.fill'), payloadArb, async (method, payload) => {
      const cold = recordingCaller();
      const warm = recordingCaller();
      const warmBinder = new Binder(RULES, warm.caller);
      await warmBinder.resource('session');
      await warmBinder.resource('tree');
      const coldBound = await new Binder(RULES, cold.caller).bindTraced(method, payload);
      const warmBound = await warmBinder.bindTraced(method, payload);
      const substituted = (bound: { payload: JsonValue }): JsonObject => bound.payload as JsonObject;
      // The ids differ by creation order only: compare which fields were bound and that nothing else changed.
      expectEqual(Object.keys(coldBound.substitutions).sort(), Object.keys(warmBound.substitutions).sort());
      for (const [key, value] of Object.entries(payload)) if (!(key in coldBound.substitutions)) expectEqual(substituted(coldBound)[key], value);
      const needed = [...new Set(Object.values(coldBound.substitutions).map((template) => (template.includes('tree.') ? 'tree.save' : 'session.create')))].sort();
      expectEqual([...new Set(cold.calls)].sort(), needed);
    }),
    { numRuns: 200 },
  );
});

test('a resource that waits for an event on a connection that delivers none is tried once, for every case and fork; another failure is tried again', async () => {
  for (const [failure, triesPerCase] of [
    [new NoEventsError('session.info'), false],
    [new HarnessError('EVENT_TIMEOUT', 'no session.info arrived within 10 ms'), true],
  ] as const) {
    const { caller, calls } = recordingCaller();
    const binder = new Binder(RULES, { ...caller, waitForEvent: () => Promise.reject(failure) });
    const attempts = [binder, binder, binder.fork(), binder.fork().fork()];
    for (const attempt of attempts) await expect(attempt.bindTraced('needs.announced', {}), failure.message).rejects.toThrow(/\[BINDING_FAILED\] setup waited for session\.info of session s\d+: /);
    expect(calls.length, failure.message).toBe(triesPerCase ? attempts.length : 1);
  }
});
