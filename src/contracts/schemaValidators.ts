import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { cachingAjv, contentDigest, type ValidatorCache } from '../../core/validatorCache.js';
import type { Contract } from './contractModel.js';
import type { JsonSchema } from '../../core/index.js';

export interface SchemaViolation {
  /** JSON pointer inside the validated value. */
  instancePath: string;
  keyword: string;
  message: string;
  params: Record<string, unknown>;
}

export type SchemaCheck = (value: unknown) => SchemaViolation[];

function toViolations(errors: ErrorObject[] | null | undefined): SchemaViolation[] {
  return (errors ?? []).map((e) => ({ instancePath: e.instancePath, keyword: e.keyword, message: e.message ?? e.keyword, params: e.params as Record<string, unknown> }));
}

/** Rewrites document-local `$ref`s ("#/...") so that they point into the registered document. */
function anchorRefs(node: unknown, base: string): unknown {
  if (Array.isArray(node)) return node.map((item) => anchorRefs(item, base));
  if (typeof node !== 'object' || node === null) return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    copy[key] = key === '$ref' && typeof value === 'string' && value.startsWith('#') ? `${base}${value}` : anchorRefs(value, base);
  }
  return copy;
}

interface CompiledDocument {
  ajv: Ajv;
  base: string;
  /** By identity first (no serialising on the hot path), then by content: generated documents repeat schemas. */
  byIdentity: Map<JsonSchema, ValidateFunction>;
  byContent: Map<string, ValidateFunction>;
  /** Validators compiled by earlier runs for the same document (none when the cache is off). */
  disk: ValidatorCache | undefined;
}

/**
 * Referenced schemas compiled once as functions of their own (inlineRefs off), and no optimiser pass: a run compiles
 * most schemas of its document and validates a few hundred values with each.
 */
const OPTIONS = { validateSchema: false, inlineRefs: false } as const;
const CODE = { optimize: false } as const;

/** One compiled state per document object, shared by every SchemaValidators built for it (workers, benches, replays). */
const compiledDocuments = new WeakMap<object, CompiledDocument>();

function compiledDocument(contract: Contract): CompiledDocument {
  let compiled = compiledDocuments.get(contract.document);
  if (!compiled) {
    // The document's digest names it, so that equal documents (another run, another process) give equal code.
    const base = `urn:contract-gate:document:${contract.resolver.documentDigest?.() ?? contentDigest(contract.document)}`;
    const { ajv, cache: disk } = cachingAjv('harness', { ...OPTIONS, code: CODE }, base);
    ajv.addSchema({ ...contract.document, $id: base }, base);
    compiled = { ajv, base, byIdentity: new Map(), byContent: new Map(), disk };
    compiledDocuments.set(contract.document, compiled);
  }
  return compiled;
}

/**
 * Compiles the schemas of one contract with ajv + ajv-formats, each schema once (cached by identity and by content, per
 * document, and on disk between runs: core/validatorCache.ts).
 * The whole document is registered under a private id so that `$ref`s, recursive ones included, resolve.
 */
export class SchemaValidators {
  private readonly compiled: CompiledDocument;

  constructor(contract: Contract) {
    this.compiled = compiledDocument(contract);
  }

  validator(schema: JsonSchema): ValidateFunction {
    const { ajv, base, byIdentity, byContent, disk } = this.compiled;
    let validate = byIdentity.get(schema);
    if (!validate) {
      const content = JSON.stringify(schema);
      validate = byContent.get(content) ?? disk?.load(content);
      if (!validate) {
        validate = ajv.compile(typeof schema === 'boolean' ? schema : (anchorRefs(schema, base) as object));
        disk?.store(content, ajv, validate);
      }
      byContent.set(content, validate);
      byIdentity.set(schema, validate);
    }
    return validate;
  }

  check(schema: JsonSchema, value: unknown): SchemaViolation[] {
    const validate = this.validator(schema);
    return validate(value) ? [] : toViolations(validate.errors);
  }

  /** A reusable check function bound to one schema. */
  checker(schema: JsonSchema): SchemaCheck {
    const validate = this.validator(schema);
    return (value) => (validate(value) ? [] : toViolations(validate.errors));
  }
}

export function formatViolation(violation: SchemaViolation): string {
  const where = violation.instancePath === '' ? '(root)' : violation.instancePath;
  const extra =
    violation.keyword === 'additionalProperties'
      ? ` "${String(violation.params['additionalProperty'])}"`
      : violation.keyword === 'required'
        ? ` "${String(violation.params['missingProperty'])}"`
        : '';
  return `${where}: ${violation.message}${extra}`;
}
