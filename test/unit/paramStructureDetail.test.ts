import { expect, test } from './helpers/test.js';
import type { Exchange } from '../../core/index.js';
import { JSON_RPC_CODES } from './helpers/profiles.js';
import { methodVerdicts } from '../../src/conformance/methodVerdicts.js';
import type { CaseRecord } from '../../src/conformance/methodRunTypes.js';

const rejected = (params: unknown): CaseRecord => {
  const exchange: Exchange = {
    conn: 'c1',
    method: 'eth_getBalance',
    id: 1,
    params,
    requestText: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params }),
    response: { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'invalid argument 0: json: cannot unmarshal object into Go value of type []interface {}' } },
    elapsedMs: 1,
    correlation: 'exact',
  };
  return { phase: 'valid', generated: params as never, payload: params as never, exchange, substitutions: {} };
};

const detailFor = (record: CaseRecord, declaredStructure: 'by-name' | 'by-position' | 'either'): string =>
  methodVerdicts({ method: 'eth_getBalance', profile: JSON_RPC_CODES, records: [record], validateResult: undefined, setupFailures: [], declaredStructure }).get('params.valid-accepted')?.detail ?? '';

test('a valid payload refused under "either" or by-position says which structure was sent and what the contract allows', () => {
  expect(detailFor(rejected({ address: '0x0', block: 'latest' }), 'either')).toContain('params were sent by-name (an object), the contract allows either structure');
  expect(detailFor(rejected(['0x0', 'latest']), 'by-position')).toContain('params were sent by-position (an array), the contract allows by-position only');
  expect(detailFor(rejected({ address: '0x0' }), 'by-name')).not.toContain('params were sent');
});

test('a method whose live objects could not be created is n/a with that reason, not a failure of its rule', () => {
  const verdict = methodVerdicts({
    method: 'session.close',
    profile: JSON_RPC_CODES,
    records: [],
    validateResult: undefined,
    setupFailures: [{ phase: 'valid', generated: {}, message: 'session.create answered 5032 "agent init failed"' }],
  }).get('params.valid-accepted');
  expect(verdict).toMatchObject({ status: 'n/a', detail: 'not judged: the live objects this method needs could not be created: session.create answered 5032 "agent init failed"' });
});

test('an invalid payload left unanswered breaks no rule but is no evidence: the answers judged count only answers', () => {
  const invalid = (id: number, answered: boolean): CaseRecord => {
    const params = [id];
    const exchange: Exchange = {
      conn: 'c1',
      method: 'ping',
      id,
      params,
      requestText: JSON.stringify({ jsonrpc: '2.0', id, method: 'ping', params }),
      ...(answered ? { response: { jsonrpc: '2.0', id, error: { code: -32602, message: 'invalid params' } } } : { failure: { code: 'REQUEST_TIMEOUT' as const, message: '[REQUEST_TIMEOUT] ping did not answer within 3000 ms' } }),
      elapsedMs: 1,
      correlation: answered ? 'exact' : 'none',
    };
    return { phase: 'invalid', generated: {}, payload: params, exchange, substitutions: {} };
  };
  const verdictOf = (records: CaseRecord[]) => methodVerdicts({ method: 'ping', profile: JSON_RPC_CODES, records, validateResult: undefined, setupFailures: [] }).get('params.invalid-not-accepted');
  expect(verdictOf([invalid(1, true), invalid(2, false)])).toMatchObject({ status: 'pass', judged: 2, answered: 1, detail: '2 exchanges judged, all conform (1 of them unanswered: no success, and no answer to judge)' });
  // Nothing answered: the rule held on nothing seen, which the matrix counts as a pass with no evidence.
  expect(verdictOf([invalid(1, false)])).toMatchObject({ status: 'pass', judged: 1, answered: 0 });
  expect(verdictOf([invalid(1, true)])).toMatchObject({ status: 'pass', judged: 1, answered: 1, detail: '1 exchange judged, all conform' });
});

test('a success that comes after an invalid payload timed out breaks the rule; a late error, or text that is not JSON, does not', () => {
  const late = (lateAnswer: string): CaseRecord => {
    const exchange: Exchange = {
      conn: 'c1',
      method: 'ping',
      id: 'r1',
      params: [],
      requestText: '{"jsonrpc":"2.0","id":"r1","method":"ping","params":[]}',
      failure: { code: 'REQUEST_TIMEOUT', message: '[REQUEST_TIMEOUT] ping did not answer within 1000 ms' },
      lateAnswer,
      elapsedMs: 1000,
      correlation: 'none',
    };
    return { phase: 'invalid', generated: {}, payload: [], exchange, substitutions: {}, mutation: { kind: 'wrong-type', dottedPath: '', description: '(root): array instead of object' } };
  };
  const verdictOf = (record: CaseRecord) => methodVerdicts({ method: 'ping', profile: JSON_RPC_CODES, records: [record], validateResult: undefined, setupFailures: [] }).get('params.invalid-not-accepted');
  expect(verdictOf(late('{"jsonrpc":"2.0","id":"r1","result":{}}'))).toMatchObject({
    status: 'fail',
    answered: 1,
    detail: '1 of 1 exchange broke the rule: ping: a contract-invalid payload (wrong-type at (root): array instead of object) got a success after its timeout; the wire accepts more than the contract says — fix the handler or widen the contract',
  });
  expect(verdictOf(late('{"jsonrpc":"2.0","id":"r1","error":{"code":-32602,"message":"invalid params"}}'))).toMatchObject({ status: 'pass', answered: 1 });
  expect(verdictOf(late('<html>'))).toMatchObject({ status: 'pass' });
});
