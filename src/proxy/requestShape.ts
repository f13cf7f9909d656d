import type { ContractMethod } from '../contracts/contractModel.js';
import type { SchemaValidators, SchemaViolation } from '../contracts/schemaValidators.js';

/**
 * What a request's params are under one contract: conforming, carrying keys a closed model forbids (and nothing
 * else wrong), otherwise invalid (wrong type, missing required, …), or a method the contract does not declare.
 */
export type RequestShape =
  | { kind: 'valid' }
  | { kind: 'unknown-key'; paths: string[]; problems: SchemaViolation[] }
  | { kind: 'invalid'; paths: string[]; problems: SchemaViolation[] }
  | { kind: 'undeclared' };

/** The Pydantic-style dotted location of a schema violation: `cwd_explicit`, `messages.0.foo`, `(root)`. */
export function dottedPathOf(violation: SchemaViolation, prefix = ''): string {
  const tokens = violation.instancePath.split('/').slice(1).map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
  const named = violation.keyword === 'additionalProperties' ? violation.params['additionalProperty'] : violation.keyword === 'required' ? violation.params['missingProperty'] : undefined;
  if (typeof named === 'string') tokens.push(named);
  const path = [prefix, ...tokens].filter((part) => part !== '').join('.');
  return path === '' ? '(root)' : path;
}

/** A params-object request without params is read as `{}` (as such gateways do); by-position as `[]`. */
function wireParams(method: ContractMethod, params: unknown): unknown {
  if (params !== undefined) return params;
  return method.paramStructure === 'by-position' ? [] : {};
}

export function requestShape(method: ContractMethod | undefined, params: unknown, validators: SchemaValidators): RequestShape {
  if (!method) return { kind: 'undeclared' };
  const problems = validators.check(method.paramsSchema, wireParams(method, params));
  if (problems.length === 0) return { kind: 'valid' };
  const paths = [...new Set(problems.map((problem) => dottedPathOf(problem)))];
  const onlyUnknownKeys = problems.every((problem) => problem.keyword === 'additionalProperties');
  return { kind: onlyUnknownKeys ? 'unknown-key' : 'invalid', paths, problems };
}
