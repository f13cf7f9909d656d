import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveLocalRef, type JsonSchema, type JsonValue, type SchemaResolver } from '../../../core/index.js';

export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
export const HERMES_DOCUMENT = 'profiles/hermes/contracts/session-lifecycle.openrpc.json';
export const HOOKS_DOCUMENT = 'profiles/hermes/contracts/session-hooks.openrpc.json';
const EXAMPLES_DIR = 'node_modules/@open-rpc/examples/build/service-descriptions';

/**
 * Third-party documents are validated with `strict: false`: the MetaMask document uses `unevaluatedProperties`
 * (unknown to the draft-07 dialect of OpenRPC), required keys that no `properties` declare, and untyped
 * keywords; the @open-rpc examples use `required` lists and keywords strict mode refuses the same way.
 * The project's own documents and the synthetic schemas are compiled in strict mode.
 */
export const THIRD_PARTY_DOCUMENTS: readonly string[] = [
  'node_modules/@metamask/api-specs/dist/build/openrpc.json',
  'node_modules/@metamask/api-specs/dist/build/multichain-openrpc.json',
  ...readdirSync(join(repoRoot, EXAMPLES_DIR)).filter((f) => f.endsWith('.json')).sort().map((f) => `${EXAMPLES_DIR}/${f}`),
];

type JsonObject = { [key: string]: JsonValue };

export interface SchemaCase {
  /** "components.schemas.Block" or "methods.eth_call.params.transaction". */
  name: string;
  schema: JsonSchema;
}

export interface TestDocument {
  path: string;
  document: JsonObject;
  resolver: SchemaResolver;
  cases: SchemaCase[];
  /** ajv errors of `value` against `schema`, from a validator independent of fuzz/ (its own Ajv, refs into the document). */
  errors(schema: JsonSchema, value: JsonValue): ErrorObject[];
}

export function resolvePointer(document: JsonValue, ref: string): JsonValue | undefined {
  return resolveLocalRef(document, ref) as JsonValue | undefined;
}

export function pointerResolver(document: JsonValue): SchemaResolver {
  return { resolve: (ref) => resolvePointer(document, ref) as JsonSchema | undefined };
}

function anchorRefs(node: JsonValue, base: string): JsonValue {
  if (Array.isArray(node)) return node.map((item) => anchorRefs(item, base));
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `${base}${v}` : anchorRefs(v, base)]));
}

let documentCounter = 0;

/** A draft-07 Ajv with formats, the document registered as `{ $id, components }` (the layout the project's tests use). */
export function documentValidator(document: JsonObject, options: Options): (schema: JsonSchema, value: JsonValue) => ErrorObject[] {
  // Referenced schemas compiled once as functions of their own, without the optimiser pass: compiling is most of these tests' time.
  const ajv = new Ajv({ allErrors: true, inlineRefs: false, code: { optimize: false }, ...options });
  addFormatsModule.default(ajv);
  ajv.addKeyword('components');
  const id = `https://contract-gate.invalid/fuzz-test/${++documentCounter}`;
  ajv.addSchema({ $id: id, components: document['components'] ?? {} });
  const compiled = new Map<JsonSchema, ValidateFunction>();
  return (schema, value) => {
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile(typeof schema === 'boolean' ? schema : (anchorRefs(schema as JsonValue, id) as object));
      compiled.set(schema, validate);
    }
    return validate(value) ? [] : [...(validate.errors ?? [])];
  };
}

function descriptorSchema(document: JsonObject, descriptor: JsonValue): { name: string; schema: JsonSchema } | undefined {
  const resolved = typeof descriptor === 'object' && descriptor !== null && !Array.isArray(descriptor) && typeof descriptor['$ref'] === 'string' ? resolvePointer(document, descriptor['$ref']) : descriptor;
  if (resolved === null || typeof resolved !== 'object' || Array.isArray(resolved) || resolved['schema'] === undefined) return undefined;
  return { name: String(resolved['name']), schema: resolved['schema'] as JsonSchema };
}

/** Every components schema, then every params schema of every method (and of `x-server-requests`). */
export function schemaCases(document: JsonObject): SchemaCase[] {
  const cases: SchemaCase[] = [];
  const components = (document['components'] ?? {}) as JsonObject;
  for (const [name, schema] of Object.entries((components['schemas'] ?? {}) as JsonObject)) cases.push({ name: `components.schemas.${name}`, schema: schema as JsonSchema });
  for (const list of ['methods', 'x-server-requests']) {
    for (const method of (document[list] ?? []) as JsonObject[]) {
      for (const descriptor of (method['params'] ?? []) as JsonValue[]) {
        const found = descriptorSchema(document, descriptor);
        if (found) cases.push({ name: `${list}.${String(method['name'])}.params.${found.name}`, schema: found.schema });
      }
    }
  }
  return cases;
}

export function loadTestDocument(path: string, options: Options): TestDocument | undefined {
  const full = join(repoRoot, path);
  if (!existsSync(full)) return undefined;
  const document = JSON.parse(readFileSync(full, 'utf8')) as JsonObject;
  return { path, document, resolver: pointerResolver(document), cases: schemaCases(document), errors: documentValidator(document, options) };
}

export function keywordsOf(errors: readonly ErrorObject[]): string[] {
  return [...new Set(errors.map((e) => e.keyword))];
}
