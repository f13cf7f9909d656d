import { expect, test } from './helpers/test.js';
import { RpcError } from '../../core/index.js';

test('RpcError.fromWire accepts a JSON-RPC error object and round-trips through toWire', () => {
  const error = RpcError.fromWire({ code: 4000, message: 'invalid params', data: { path: 'x' } });
  expect(error?.toWire()).toEqual({ code: 4000, message: 'invalid params', data: { path: 'x' } });
});

test('RpcError.fromWire refuses shapes that are not error objects', () => {
  for (const bad of [null, 'x', [], { code: '1', message: 'm' }, { code: 1.5, message: 'm' }, { code: 1 }]) {
    expect(RpcError.fromWire(bad)).toBeUndefined();
  }
});
