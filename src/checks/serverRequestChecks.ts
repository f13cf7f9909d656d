import { isJsonObject } from '../../core/index.js';
import type { ContractMethod } from '../contracts/contractModel.js';
import { formatViolation, type SchemaValidators } from '../contracts/schemaValidators.js';

/** The rules of `server-request.envelope` on one received frame: pure, also used on requests seen by chance. */
export function serverRequestProblems(frame: Record<string, unknown>, subject: { request: ContractMethod; validators: SchemaValidators }, liveSessions: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const { request, validators } = subject;
  if (typeof frame['id'] !== 'string') problems.push(`id is ${JSON.stringify(frame['id'])}; a server request's id must be a string`);
  if (frame['jsonrpc'] !== '2.0') problems.push(`jsonrpc is ${JSON.stringify(frame['jsonrpc'])}, not "2.0"`);
  if (frame['method'] !== request.name) problems.push(`method is ${JSON.stringify(frame['method'])}, not the declared ${request.name}`);
  const params = frame['params'];
  const violations = validators.check(request.paramsSchema, params);
  if (violations.length > 0) problems.push(`params break the declared schema: ${violations.slice(0, 3).map(formatViolation).join('; ')}`);
  const sessionId = isJsonObject(params) ? params['session_id'] : undefined;
  if (request.descriptors.some((descriptor) => descriptor.name === 'session_id') && (typeof sessionId !== 'string' || !liveSessions.has(sessionId))) {
    problems.push(`params.session_id ${JSON.stringify(sessionId)} names no session of this connection (${[...liveSessions].join(', ') || 'none'})`);
  }
  return problems;
}
