import { expect, test } from './helpers/test.js';
import type { Exchange, JsonValue } from '../../core/index.js';
import { checkErrorHygiene, hygieneFindings } from '../../src/checks/errorHygiene.js';

const answer = (error: JsonValue): Exchange => ({
  conn: 'c1',
  method: 'eth_call',
  id: 7,
  params: [],
  requestText: '{}',
  response: { jsonrpc: '2.0', id: 7, error },
  elapsedMs: 1,
  correlation: 'exact',
});

test('stack traces in any member of an error object are found, with the offending excerpt', () => {
  const node = { code: -32603, message: 'Internal error', data: { stack: 'Error: boom\n    at Executor.execute (/app/node_modules/ganache/dist/node/1.js:2:284522)' } };
  const [found] = checkErrorHygiene(answer(node), []);
  expect(found?.check).toBe('envelope.error-hygiene');
  expect(found?.message).toContain('a JavaScript stack frame in error.data.stack');
  expect(found?.message).toContain('Executor.execute');
  const python = hygieneFindings({ code: 1, message: 'failed', trace: 'Traceback (most recent call last):\n  File "/srv/app/handlers.py", line 12, in run' }, []);
  expect(python.map((f) => [f.where, f.what])).toEqual([['error.trace', 'a Python traceback']]);
  expect(hygieneFindings({ code: 1, message: 'java.lang.NullPointerException at com.acme.rpc.Handler.call(Handler.java:42)' }, [])[0]?.what).toBe('a Java stack frame');
});

test('absolute paths are found; URLs, method names and relative words are not', () => {
  expect(hygieneFindings({ code: -32000, message: 'cannot open /home/deploy/keys/signer.json' }, [])[0]?.what).toBe('an absolute path');
  expect(hygieneFindings({ code: -32000, message: 'failed', data: 'C:\\Users\\build\\gateway\\index.js' }, [])[0]?.what).toBe('an absolute path');
  const clean: JsonValue[] = [
    { code: -32601, message: 'Method not found: session/create' },
    { code: -32602, message: 'invalid params for session.create: cwd: Extra inputs are not permitted' },
    { code: 4001, message: 'session not found', data: { url: 'https://docs.example.com/api/errors' } },
    { code: -32000, message: 'division by zero', data: 'retry at 12:30:45' },
  ];
  for (const error of clean) expect(hygieneFindings(error, []), JSON.stringify(error)).toEqual([]);
});

test('a secret of the run in an error answer is found and redacted in the evidence', () => {
  const token = 'tok-4f1a9c2e7b';
  const [found] = checkErrorHygiene(answer({ code: 4401, message: `token ${token} is expired` }), [token]);
  expect(found?.message).toContain('a secret of the run in error.message');
  expect(found?.message).not.toContain(token);
  expect(found?.message).toContain('token *** is expired');
});

test('success answers and clean errors pass', () => {
  expect(checkErrorHygiene({ ...answer({ code: 1, message: 'x' }), response: { jsonrpc: '2.0', id: 7, result: '/home/user/ok' } }, [])).toEqual([]);
  expect(checkErrorHygiene(answer({ code: 1, message: 'no such key' }), ['secret-value'])).toEqual([]);
});
