import { isJsonObject, type JsonValue } from './json.js';
import type { RpcErrorObject } from './jsonRpc.js';

/** A JSON-RPC error as received from (or sent to) the wire. */
export class RpcError extends Error {
  readonly code: number;
  readonly data: JsonValue | undefined;

  constructor(code: number, message: string, data?: JsonValue) {
    super(message);
    this.name = 'RpcError';
    this.code = code;
    this.data = data;
  }

  /** Builds an RpcError from a wire `error` member; returns undefined when the shape is not a JSON-RPC error object. */
  static fromWire(value: unknown): RpcError | undefined {
    if (!isJsonObject(value)) return undefined;
    const { code, message, data } = value;
    if (typeof code !== 'number' || !Number.isInteger(code) || typeof message !== 'string') return undefined;
    return new RpcError(code, message, data);
  }

  toWire(): RpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}
