/**
 * The shared vocabulary of the harness: JSON values and schemas, JSON Pointer, canonical JSON and equality, the
 * JSON-RPC wire shapes, the exchange model and the harness's own errors. It depends on nothing else in the project.
 */
export * from './json.js';
export * from './canonicalJson.js';
export * from './jsonPointer.js';
export * from './schema.js';
export * from './jsonRpc.js';
export * from './rpcId.js';
export * from './rpcIdIndex.js';
export * from './errorCodes.js';
export * from './rpcError.js';
export * from './exchange.js';
export * from './harnessError.js';
export * from './wireDialect.js';
