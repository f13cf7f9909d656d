import type { SchemaResolver } from '../core/index.js';
import { schemaCheckFor, type SchemaCheck } from './schemaCheck.js';
import type { SchemaMemo } from './schemaMemo.js';

export interface SchemaArbitraryOptions {
  resolver: SchemaResolver;
  /** How many times a recursive `$ref` may re-enter itself on one path (default 2); deeper, the smallest finite branch is taken. */
  maxDepth?: number;
  /** Longest generated array (default 3), also below a larger `maxItems`; a larger `minItems` wins. Boundaries are the mutations' job. */
  maxItems?: number;
  /** Longest plain string (default 12), also below a larger `maxLength`; `minLength`, patterns and formats decide their own lengths. */
  maxStringLength?: number;
  /** Optional properties: present at random (default), all present, or none. */
  optional?: 'random' | 'all' | 'none';
  /** Add a few undeclared keys where `additionalProperties` is true, absent or a schema (default false). */
  extraKeys?: boolean;
  /** Expansions shared by the walks of one method run (same resolver). */
  memo?: SchemaMemo;
}

export type ResolvedOptions = Required<Omit<SchemaArbitraryOptions, 'memo'>> & { memo: SchemaMemo | undefined; check: SchemaCheck };

export function resolveOptions(options: SchemaArbitraryOptions): ResolvedOptions {
  return {
    resolver: options.resolver,
    maxDepth: options.maxDepth ?? 2,
    maxItems: options.maxItems ?? 3,
    maxStringLength: options.maxStringLength ?? 12,
    optional: options.optional ?? 'random',
    extraKeys: options.extraKeys ?? false,
    memo: options.memo,
    check: schemaCheckFor(options.resolver),
  };
}

/** The schema admits no value the generators can build (contradictory `allOf`, only infinite recursion, …). */
export class UnsatisfiableSchemaError extends Error {
  constructor(readonly reasons: readonly string[]) {
    super(`fuzz: the schema admits no finite value: ${reasons.length > 0 ? [...new Set(reasons)].slice(0, 5).join('; ') : 'every branch recurses without end'}`);
    this.name = 'UnsatisfiableSchemaError';
  }
}
