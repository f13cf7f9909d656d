import { createHash } from 'node:crypto';
import { Ajv, type AnySchema, type CodeOptions, type ErrorObject, type ValidateFunction } from 'ajv';
import * as formatsModule from 'ajv-formats';
import type { ContractSet, SchemaAt } from './contractSet.js';
import { unescapeSegment } from './jsonPointer.js';

type FormatsPlugin = (ajv: Ajv) => Ajv;
const formats = formatsModule as unknown as { default: FormatsPlugin | { default: FormatsPlugin } };
const addFormats: FormatsPlugin = typeof formats.default === 'function' ? formats.default : formats.default.default;

/** The first reason a value does not satisfy a schema, located Pydantic-style. */
export interface SchemaIssue {
  readonly path: readonly string[];
  readonly keyword: string;
  readonly reason: string;
}

const TYPE_REASONS: Record<string, string> = {
  integer: 'Input should be a valid integer',
  number: 'Input should be a valid number',
  string: 'Input should be a valid string',
  boolean: 'Input should be a valid boolean',
  array: 'Input should be a valid list',
  object: 'Input should be a valid dictionary',
  null: 'Input should be None',
};

function quoteList(values: readonly unknown[]): string {
  const quoted = values.map((value) => (typeof value === 'string' ? `'${value}'` : JSON.stringify(value)));
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

function reasonOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'Field required';
    case 'additionalProperties':
      return 'Extra inputs are not permitted';
    case 'type': {
      const first = String(params['type']).split(',')[0] ?? '';
      return TYPE_REASONS[first] ?? `Input should be of type ${String(params['type'])}`;
    }
    case 'enum':
      return `Input should be ${quoteList((params['allowedValues'] as unknown[]) ?? [])}`;
    case 'const':
      return `Input should be ${quoteList([params['allowedValue']])}`;
    case 'minLength':
      return `String should have at least ${String(params['limit'])} character${params['limit'] === 1 ? '' : 's'}`;
    case 'maxLength':
      return `String should have at most ${String(params['limit'])} characters`;
    default:
      return error.message ?? `fails the ${error.keyword} rule`;
  }
}

function issueOf(errors: readonly ErrorObject[]): SchemaIssue {
  // For anyOf/oneOf, ajv lists the branch errors before the combinator error: the first branch error reads best.
  const error = errors.find((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf') ?? errors[0];
  if (!error) return { path: [], keyword: 'unknown', reason: 'invalid' };
  const path = error.instancePath === '' ? [] : error.instancePath.slice(1).split('/').map(unescapeSegment);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required' && typeof params['missingProperty'] === 'string') path.push(params['missingProperty']);
  if (error.keyword === 'additionalProperties' && typeof params['additionalProperty'] === 'string') {
    path.push(params['additionalProperty']);
  }
  return { path, keyword: error.keyword, reason: reasonOf(error) };
}

/** Where the validators of one Ajv configuration and document set are kept: `key` names a schema in the set. */
export interface ValidatorShelf {
  load(key: string): ValidateFunction | undefined;
  /** Keeps `validate`, compiled by `ajv` (created with the store's code options), for a later process. */
  store(key: string, ajv: Ajv, validate: ValidateFunction): void;
}

/**
 * Compiled validators kept between processes, given by whoever embeds the gateway (the harness passes its validator
 * cache); the gateway keeps none of its own. Validators are the same compiled or loaded, so a store changes what a
 * start costs, never what the gateway admits.
 */
export interface ValidatorStore {
  /** What the store needs of the Ajv that compiles: its validators' sources kept, formats named in their code. */
  readonly code: CodeOptions;
  /** The shelf of one scope (the gateway's Ajv options and the documents' digest), or none (the store is off). */
  open(scope: string): ValidatorShelf | undefined;
}

const AJV_OPTIONS = { strict: false, allErrors: false, logger: false, validateSchema: false, inlineRefs: false } as const;

/** Everything a compiled validator depends on besides its location: the options and every registered document. */
function scopeOf(contracts: ContractSet): string {
  const hash = createHash('sha256').update(JSON.stringify(AJV_OPTIONS));
  for (const document of contracts.documents) hash.update(`\n${document.uri}\n`).update(JSON.stringify(document.json));
  return `reference-gateway ${hash.digest('hex').slice(0, 32)}`;
}

/**
 * The gateway's own ajv instance. Each document is registered whole under its URI, and a schema is compiled by
 * reference to its location, so `$ref`s (cyclic ones included) resolve exactly as the document wrote them.
 */
export class SchemaValidators {
  private readonly ajv: Ajv;
  private readonly cache = new Map<string, ValidateFunction | null>();
  /** The same lookup by the SchemaAt object itself: the hot path (every outbound frame) skips building the key. */
  private readonly byLocation = new WeakMap<SchemaAt, ValidateFunction | null>();
  private readonly shelf: ValidatorShelf | undefined;

  constructor(
    contracts: ContractSet,
    private readonly log: (line: string) => void,
    store?: ValidatorStore,
  ) {
    // strict off: OpenRPC documents carry vendor keywords (x-…, examples) that are not JSON Schema. A run reaches
    // every schema of the document (1 310 in the full Hermes one), each compiled on first use: with referenced
    // schemas compiled once as functions of their own (inlineRefs off) and no optimisation pass over the generated
    // code, compiling them all costs about half as much (bench/gatewayStartup.ts).
    this.shelf = store?.open(scopeOf(contracts));
    this.ajv = new Ajv({ ...AJV_OPTIONS, code: { optimize: false, ...(this.shelf ? store?.code : {}) } });
    addFormats(this.ajv);
    for (const document of contracts.documents) {
      try {
        this.ajv.addSchema(document.json as AnySchema, document.uri);
      } catch (error) {
        this.log(`contract ${document.path}: not every schema could be registered (${(error as Error).message})`);
      }
    }
  }

  private compiled(at: SchemaAt): ValidateFunction | null {
    const known = this.byLocation.get(at);
    if (known !== undefined) return known;
    const validate = this.compiledAt(at);
    this.byLocation.set(at, validate);
    return validate;
  }

  private compiledAt(at: SchemaAt): ValidateFunction | null {
    const key = `${at.document.index}#${at.pointer}`;
    let validate = this.cache.get(key);
    if (validate === undefined) {
      const fragment = at.pointer.split('/').map(encodeURIComponent).join('/');
      try {
        validate = this.fromShelf((shelf) => shelf.load(key));
        if (!validate) {
          const compiled = this.ajv.compile({ $ref: `${at.document.uri}#${fragment}` });
          this.fromShelf((shelf) => shelf.store(key, this.ajv, compiled));
          validate = compiled;
        }
      } catch (error) {
        this.log(`contract ${at.document.path} at ${at.pointer}: schema not compilable, values are not checked (${(error as Error).message})`);
        validate = null;
      }
      this.cache.set(key, validate);
    }
    return validate;
  }

  /** A store that fails costs its entries, never a validator: what it throws is a miss. */
  private fromShelf<T>(use: (shelf: ValidatorShelf) => T): T | undefined {
    if (!this.shelf) return undefined;
    try {
      return use(this.shelf);
    } catch {
      return undefined;
    }
  }

  /** Undefined when the value satisfies the schema (or the schema could not be compiled). */
  check(at: SchemaAt, value: unknown): SchemaIssue | undefined {
    const validate = this.compiled(at);
    if (!validate || validate(value)) return undefined;
    return issueOf(validate.errors ?? []);
  }
}
