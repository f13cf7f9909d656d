import { generateSync } from 'json-schema-faker';
import type { ContractSet, MethodContract, SchemaAt, SchemaNode } from './contract/contractSet.js';
import { schemaClosure } from './contract/schemaClosure.js';
import type { SchemaValidators } from './contract/schemaValidators.js';
import { copyJson } from './jsonCopy.js';

const ATTEMPTS = 8;
/** Different values per subject and schema before they repeat. */
const POOL_SIZE = 8;

/** FNV-1a, 32 bit: a stable seed from the gateway seed, the method name and the call counter. */
function hashSeed(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '1970-01-01T00:00:00Z',
  date: '1970-01-01',
  time: '00:00:00Z',
  uri: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  url: 'https://example.com/',
  email: 'user@example.com',
  uuid: '00000000-0000-4000-8000-000000000000',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  hostname: 'example.com',
};

/**
 * Seeded values of a schema (the results of methods without a stateful handler, the params of server requests, the
 * payloads `/emit` sends), checked with the gateway's own validators (json-schema-faker is retried with other seeds, then a minimal value is tried).
 */
export class SchemaResponder {
  private readonly calls = new Map<string, number>();
  /** Values made so far, per subject and schema: the `n`th call answers slot `n % POOL_SIZE`, made on its first use. */
  private readonly pools = new Map<string, unknown[]>();
  /** The document json-schema-faker gets for a schema: only what the schema reaches (`schemaClosure`), made once. */
  private readonly roots = new Map<string, Record<string, unknown>>();

  constructor(
    private readonly contracts: ContractSet,
    private readonly validators: SchemaValidators,
    private readonly seed: number,
  ) {}

  respond(method: MethodContract): unknown {
    return method.result ? this.valueOf(method.result, method.name) : null;
  }

  /**
   * A seeded value of the schema `result`; `label` keys the per-subject call counter (a method, an event type, …).
   * Values come from a small pool per subject and schema: making one (json-schema-faker, then validation) costs far
   * more than answering, and a few different values per subject show a client as much as fresh ones would.
   */
  valueOf(result: SchemaAt, label: string): unknown {
    const key = `${label}\u0000${result.document.index}#${result.pointer}`;
    const counter = this.calls.get(key) ?? 0;
    this.calls.set(key, counter + 1);
    let pool = this.pools.get(key);
    if (!pool) this.pools.set(key, (pool = []));
    const slot = counter % POOL_SIZE;
    if (slot >= pool.length) pool.push(this.make(result, label, slot));
    return copyJson(pool[slot]);
  }

  private make(result: SchemaAt, label: string, counter: number): unknown {
    const base = hashSeed(`${this.seed}\u0000${label}\u0000${counter}`);
    let last: unknown = null;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      try {
        last = this.generate(result, (base + attempt) >>> 0);
      } catch {
        continue;
      }
      if (!this.validators.check(result, last)) return last;
    }
    const minimal = this.minimal(result.schema, result, 0);
    return this.validators.check(result, minimal) ? last : minimal;
  }

  private generate(at: SchemaAt, seed: number): unknown {
    const key = `${at.document.index}#${at.pointer}`;
    let root = this.roots.get(key);
    if (!root) this.roots.set(key, (root = schemaClosure(at.document.json, at.pointer)));
    return generateSync(root, { seed, refDepthMax: 5, maxItems: 3, maxDefaultItems: 3, failOnInvalidTypes: false });
  }

  private minimal(raw: SchemaNode, at: SchemaAt, depth: number): unknown {
    if (typeof raw === 'boolean' || depth > 24) return null;
    if (typeof raw['$ref'] === 'string') {
      const target = this.contracts.resolveRef(at.document, raw['$ref']);
      return target === undefined ? null : this.minimal(target, at, depth + 1);
    }
    if ('const' in raw) return raw['const'];
    if (Array.isArray(raw['enum']) && raw['enum'].length > 0) return raw['enum'][0];
    for (const combinator of ['anyOf', 'oneOf', 'allOf'] as const) {
      const branches = raw[combinator];
      if (Array.isArray(branches) && branches.length > 0) {
        if (combinator !== 'allOf') return this.minimal(branches[0] as SchemaNode, at, depth + 1);
        return Object.assign({}, ...branches.map((branch) => this.minimal(branch as SchemaNode, at, depth + 1)));
      }
    }
    const declared = Array.isArray(raw['type']) ? raw['type'][0] : raw['type'];
    const type = declared ?? ('properties' in raw ? 'object' : 'items' in raw ? 'array' : 'null');
    switch (type) {
      case 'boolean':
        return false;
      case 'integer':
        return typeof raw['minimum'] === 'number' ? Math.ceil(raw['minimum']) : 0;
      case 'number':
        return typeof raw['minimum'] === 'number' ? raw['minimum'] : 0;
      case 'string': {
        const format = typeof raw['format'] === 'string' ? FORMAT_SAMPLES[raw['format']] : undefined;
        return format ?? 'x'.repeat(typeof raw['minLength'] === 'number' ? raw['minLength'] : 0);
      }
      case 'array': {
        const count = typeof raw['minItems'] === 'number' ? raw['minItems'] : 0;
        const items = (raw['items'] ?? true) as SchemaNode;
        return Array.from({ length: count }, () => this.minimal(items, at, depth + 1));
      }
      case 'object': {
        const properties = (raw['properties'] ?? {}) as Record<string, SchemaNode>;
        const required = Array.isArray(raw['required']) ? (raw['required'] as string[]) : [];
        return Object.fromEntries(required.map((name) => [name, this.minimal(properties[name] ?? true, at, depth + 1)]));
      }
      default:
        return null;
    }
  }
}
