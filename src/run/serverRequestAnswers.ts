import fc from 'fast-check';
import { arbitraryFromSchema } from '../../fuzz/index.js';
import { JsonRpcErrorCode, type JsonValue } from '../../core/index.js';
import type { ServerRequest, ServerRequestAnswer, ServerRequestHandler } from '../client/serverRequests.js';
import type { Contract, ContractMethod } from '../contracts/contractModel.js';

/** The declaration of a server→client request in the contracts, with the contract that declares it. */
export function declaredServerRequest(contracts: readonly Contract[], method: string): { contract: Contract; request: ContractMethod } | undefined {
  for (const contract of contracts) {
    const request = contract.serverRequests.find((candidate) => candidate.name === method);
    if (request) return { contract, request };
  }
  return undefined;
}

/** A seeded value of the request's result schema (`{}` when the contract declares none). */
export function answerValue(contract: Contract, request: ContractMethod, seed: number): JsonValue {
  if (!request.resultSchema) return {};
  const arbitrary = arbitraryFromSchema(request.resultSchema, { resolver: contract.resolver, optional: 'all' });
  return fc.sample(arbitrary, { seed, numRuns: 1 })[0] ?? {};
}

/**
 * How the harness answers a server→client request: a seeded, schema-valid result of the declared request, so a
 * turn that asks is never left waiting; an undeclared method gets -32601. Each request gets its own seed
 * (run seed + order of arrival), so one run answers reproducibly.
 */
export function schemaAnswerer(contracts: readonly Contract[], seed: number): ServerRequestHandler {
  let asked = 0;
  return async (incoming: ServerRequest): Promise<ServerRequestAnswer> => {
    const declared = declaredServerRequest(contracts, incoming.method);
    if (!declared) return { error: { code: JsonRpcErrorCode.METHOD_NOT_FOUND, message: `the client's contract declares no server request ${incoming.method}` } };
    return { result: answerValue(declared.contract, declared.request, seed + asked++) };
  };
}
