import { expect, test } from './helpers/test.js';
import { join } from 'node:path';
import type { Exchange } from '../../core/index.js';
import { classifyExchange } from '../../src/checks/outcomeClass.js';
import { withDeclaredErrors } from '../../src/checks/codeProfile.js';
import { HERMES_CODES, JSON_RPC, JSON_RPC_CODES } from './helpers/profiles.js';
import { loadProfileFile } from '../../profiles/index.js';
import { checkValidAccepted } from '../../src/checks/paramsChecks.js';

const errorExchange = (code: number, message = 'm'): Exchange => ({
  conn: 'c1',
  method: 'm',
  id: 1,
  params: {},
  requestText: '{}',
  responseText: JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code, message } }),
  response: { jsonrpc: '2.0', id: 1, error: { code, message } },
  elapsedMs: 1,
  correlation: 'exact',
});

test('the built-in profiles, read from profiles/*.json, sort codes as the Hermes and JSON-RPC rules say', () => {
  const cases: Array<[number, string, string]> = [
    [4000, 'contract-rejection', 'domain-error'],
    [4023, 'domain-error', 'domain-error'],
    [-32602, 'contract-rejection', 'contract-rejection'],
    [-32603, 'server-error', 'server-error'],
    [-32000, 'server-error', 'server-error'],
    [5032, 'server-error', 'domain-error'],
    [1, 'server-error', 'domain-error'],
  ];
  for (const [code, hermes, plain] of cases) {
    expect(classifyExchange(errorExchange(code), HERMES_CODES), `hermes ${code}`).toBe(hermes);
    expect(classifyExchange(errorExchange(code), JSON_RPC_CODES), `json-rpc ${code}`).toBe(plain);
  }
  expect(HERMES_CODES.unknownKeyMessageMatches('session.usage', 'x', 'invalid params for session.usage: x: Extra inputs are not permitted', undefined)).toBe(true);
  expect(JSON_RPC_CODES.unknownKeyMessageMatches('m', 'a.extra', 'unexpected key "extra"', undefined)).toBe(true);
});

test('a code the method declares in its errors is its domain error, even in the reserved server range', () => {
  const declared = withDeclaredErrors(JSON_RPC_CODES, [{ code: -32000 }]);
  expect(classifyExchange(errorExchange(-32000), declared)).toBe('domain-error');
  expect(classifyExchange(errorExchange(-32001), declared)).toBe('server-error');
  expect(checkValidAccepted(errorExchange(-32000), declared)).toEqual([]);
  const [undeclared] = checkValidAccepted(errorExchange(-32001), declared);
  expect(undeclared?.message).toContain('implementation-defined server errors in JSON-RPC 2.0 §5.1');
  expect(undeclared?.message).toContain('declares (-32000)');
});

test('--profile FILE: the EIP-1474 example makes -32000 "invalid input" a domain error on top of plain JSON-RPC', () => {
  const loaded = loadProfileFile(join(import.meta.dirname, '..', '..', 'examples', 'profiles', 'eip-1474.json'));
  expect(loaded.name).toBe('eip-1474');
  expect(loaded.wire).toBe(JSON_RPC.wire);
  const profile = loaded.codes;
  expect(profile.label).toBe('eip-1474');
  expect(classifyExchange(errorExchange(-32000, 'invalid input'), profile)).toBe('domain-error');
  expect(classifyExchange(errorExchange(-32003), profile)).toBe('domain-error');
  expect(classifyExchange(errorExchange(-32603), profile)).toBe('server-error');
  expect(classifyExchange(errorExchange(-32050), profile)).toBe('server-error');
});
