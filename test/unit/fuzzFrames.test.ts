import { expect, test } from './helpers/test.js';
import { DEFAULT_OVERSIZED_BYTES, idProbes, junkFrames, NULL_ID_PROBE, oversizedFrame, requestFrame } from '../../fuzz/index.js';

function parse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** A JSON-RPC 2.0 request object as the specification defines it (id optional, params structured). */
function isValidRequest(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const r = value as Record<string, unknown>;
  const idOk = !('id' in r) || r['id'] === null || typeof r['id'] === 'string' || typeof r['id'] === 'number';
  const paramsOk = !('params' in r) || (typeof r['params'] === 'object' && r['params'] !== null);
  return r['jsonrpc'] === '2.0' && typeof r['method'] === 'string' && idOk && paramsOk;
}

test('each junk frame is what its expectation says', () => {
  const frames = junkFrames({ oversizedBytes: 4096 });
  const names = frames.map((f) => f.name);
  expect(new Set(names).size).toBe(names.length);
  for (const frame of frames) {
    const parsed = parse(frame.frame);
    switch (frame.expect) {
      case 'parse-error':
        expect(parsed.ok, frame.name).toBe(false);
        expect(frame.idEcho, frame.name).toBeNull();
        break;
      case 'invalid-request':
        expect(parsed.ok, frame.name).toBe(true);
        if (parsed.ok) expect(isValidRequest(parsed.value), frame.name).toBe(false);
        if (parsed.ok && Array.isArray(parsed.value)) expect(parsed.value, frame.name).toEqual([]);
        break;
      case 'batch':
        expect(parsed.ok && Array.isArray(parsed.value) && parsed.value.length >= 2, frame.name).toBe(true);
        break;
      case 'oversized':
        expect(Buffer.byteLength(frame.frame, 'utf8'), frame.name).toBe(4096);
        expect(parsed.ok && isValidRequest(parsed.value), frame.name).toBe(true);
        break;
    }
    if (parsed.ok && typeof parsed.value === 'object' && parsed.value !== null && !Array.isArray(parsed.value) && frame.idEcho !== undefined) {
      const id = (parsed.value as Record<string, unknown>)['id'];
      const readable = typeof id === 'string' || typeof id === 'number';
      expect(frame.idEcho, frame.name).toEqual(readable ? id : null);
    }
  }
});

test('the junk set covers the envelope faults the suite checks', () => {
  const names = junkFrames().map((f) => f.name);
  for (const expected of ['not JSON', 'truncated JSON', 'empty object', 'jsonrpc "1.0"', 'jsonrpc as number 2', 'jsonrpc missing', 'method missing', 'method is a number', 'params is a string', 'empty batch', 'batch of two requests']) {
    expect(names).toContain(expected);
  }
  const oversized = junkFrames().find((f) => f.expect === 'oversized');
  expect(Buffer.byteLength(oversized?.frame ?? '', 'utf8')).toBe(DEFAULT_OVERSIZED_BYTES);
  expect(junkFrames({ method: 'rpc.discover' }).find((f) => f.name === 'jsonrpc "1.0"')?.frame).toBe('{"jsonrpc":"1.0","id":"cg-junk-v1","method":"rpc.discover"}');
});

test('requestFrame writes exact text; oversizedFrame hits the byte count or says why it cannot', () => {
  expect(requestFrame({ id: 1.5, method: 'm', params: {} })).toBe('{"jsonrpc":"2.0","id":1.5,"method":"m","params":{}}');
  expect(requestFrame({ method: 'm' })).toBe('{"jsonrpc":"2.0","method":"m"}');
  expect(requestFrame({ id: null, method: 'm' })).toBe('{"jsonrpc":"2.0","id":null,"method":"m"}');
  expect(Buffer.byteLength(oversizedFrame(100_000, 'gateway.ping'), 'utf8')).toBe(100_000);
  expect(() => oversizedFrame(10, 'gateway.ping')).toThrow(/smaller than the request skeleton/);
});

test('id probes cover every JSON type a request id may take, null apart', () => {
  const probes = idProbes();
  expect(new Set(probes.map((p) => p.name)).size).toBe(probes.length);
  expect(probes.some((p) => p.id === null)).toBe(false);
  const kinds = new Set(probes.map((p) => (typeof p.id === 'string' ? 'string' : Number.isInteger(p.id) ? (p.id < 0 ? 'negative' : p.id === 0 ? 'zero' : 'integer') : 'fractional')));
  expect([...kinds].sort()).toEqual(['fractional', 'integer', 'negative', 'string', 'zero']);
  expect(probes.some((p) => typeof p.id === 'string' && p.id.length >= 1000)).toBe(true);
  for (const probe of probes) expect(JSON.parse(JSON.stringify({ id: probe.id })).id, probe.name).toBe(probe.id);
  expect(NULL_ID_PROBE.id).toBeNull();
});
