import { expect, test } from './helpers/test.js';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { execFile } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { resolvePointer as corePointer } from '../../core/jsonPointer.js';
import { scratchDir } from './helpers/scratchDir.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const contractsDir = join(repoRoot, 'profiles', 'hermes', 'contracts');
const CURRENT = 'profiles/hermes/contracts/session-lifecycle.openrpc.json';
const PRE_CWD_EXPLICIT = 'profiles/hermes/contracts/session-lifecycle.pre-cwd-explicit.openrpc.json';
const HOOKS = 'profiles/hermes/contracts/session-hooks.openrpc.json';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

function openRpcFiles(dir = contractsDir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return openRpcFiles(path);
    return entry.name.endsWith('.openrpc.json') ? [relative(repoRoot, path)] : [];
  });
}

function load(path: string): JsonObject {
  return JSON.parse(readFileSync(join(repoRoot, path), 'utf8')) as JsonObject;
}

/** Every `"$ref": "…"` of a document's text: what a walk of the parsed document must find. */
function refsInText(path: string): string[] {
  return [...readFileSync(join(repoRoot, path), 'utf8').matchAll(/"\$ref":\s*"((?:[^"\\]|\\.)*)"/g)].map((match) => JSON.parse(`"${match[1] as string}"`) as string);
}

/** The components schema each method's result names (every generated document names them by $ref). */
function resultSchemaNames(document: JsonObject): string[] {
  return (document['methods'] as JsonObject[]).map((entry) => String(asObject(asObject(entry['result'])['schema'])['$ref']).replace('#/components/schemas/', ''));
}

function asObject(value: Json | undefined): JsonObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('expected an object');
  return value;
}

function schemasOf(document: JsonObject): JsonObject {
  return asObject(asObject(document['components'])['schemas']);
}

function resolvePointer(document: Json, pointer: string): Json | undefined {
  const found = corePointer(document, pointer);
  return found.found ? (found.value as Json) : undefined;
}

function refsIn(node: Json, path = ''): Array<{ at: string; ref: string }> {
  if (node === null || typeof node !== 'object') return [];
  const entries = Array.isArray(node) ? node.map((value, index) => [String(index), value] as const) : Object.entries(node);
  return entries.flatMap(([key, value]) =>
    key === '$ref' && typeof value === 'string' ? [{ at: path, ref: value }] : refsIn(value, `${path}/${key}`));
}

/** JSON pointers where two values differ (a key present on one side only counts as a difference). */
function deepDiff(a: Json | undefined, b: Json | undefined, path = ''): string[] {
  const bothObjects = a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b);
  if (!bothObjects) return JSON.stringify(a) === JSON.stringify(b) ? [] : [path];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  const pick = (value: Json[] | JsonObject, key: string): Json | undefined =>
    Array.isArray(value) ? value[Number(key)] : value[key];
  return [...keys].flatMap((key) => deepDiff(pick(a, key), pick(b, key), `${path}/${key}`));
}

function openRpcValidator() {
  const require = createRequire(import.meta.url);
  const withoutDialect = (moduleName: string): JsonObject => {
    const loaded = require(moduleName) as { default?: JsonObject } & JsonObject;
    const schema = { ...(loaded.default ?? loaded) };
    // Both name a private dialect URL in $schema; their content is draft-07.
    delete schema['$schema'];
    return schema;
  };
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormatsModule.default(ajv);
  ajv.addSchema(withoutDialect('@json-schema-tools/meta-schema'));
  // The OpenRPC meta-schema names "https://meta.json-schema.tools" without the trailing slash of that schema's $id.
  const openRpc = JSON.parse(
    JSON.stringify(withoutDialect('@open-rpc/meta-schema')).replaceAll('"https://meta.json-schema.tools"', '"https://meta.json-schema.tools/"'),
  ) as JsonObject;
  return ajv.compile(openRpc);
}

test('contracts/ holds the three generated OpenRPC documents', () => {
  expect(openRpcFiles().sort()).toEqual(expect.arrayContaining([CURRENT, PRE_CWD_EXPLICIT, HOOKS]));
});

test('every OpenRPC document under contracts/ validates against the OpenRPC meta-schema', () => {
  const validate = openRpcValidator();
  for (const path of openRpcFiles()) {
    validate(load(path));
    expect(validate.errors ?? [], path).toEqual([]);
  }
  // The validator does reject: a method without params is not OpenRPC.
  expect(validate({ openrpc: '1.3.2', info: { title: 't', version: '1' }, methods: [{ name: 'm' }], 'x-any': 1 })).toBe(false);
});

test('every $ref in every document resolves inside that document', () => {
  for (const path of openRpcFiles()) {
    const document = load(path);
    const refs = refsIn(document);
    expect(refs.map(({ ref }) => ref).sort(), `${path}: every $ref of the text`).toEqual(refsInText(path).sort());
    const methods = document['methods'] as JsonObject[];
    expect(refs.map(({ at }) => at), `${path}: each method's result schema is a $ref`).toEqual(expect.arrayContaining(methods.map((_, index) => `/methods/${index}/result/schema`)));
    const dangling = refs.filter(({ ref }) => !ref.startsWith('#/') || resolvePointer(document, ref.slice(1)) === undefined);
    expect(dangling, path).toEqual([]);
  }
});

test('every components schema compiles with ajv in strict mode', () => {
  // A schema of the same name and text as one compiled for an earlier document is not compiled again: strict mode
  // judges each schema node on its own, and what it refers to is compiled under its own name. The two full
  // documents share all but a few of their 900-odd schemas.
  const compiledBefore = new Set<string>();
  for (const path of openRpcFiles()) {
    // inlineRefs: false compiles each referenced schema once, as its own function, instead of again inside every
    // schema that refers to it: every schema is still compiled, each in strict mode, at about two thirds of the CPU.
    // The generated code is never run, so ajv's optimiser pass over it is skipped.
    const ajv = new Ajv({ strict: true, allErrors: true, inlineRefs: false, code: { optimize: false } });
    addFormatsModule.default(ajv);
    ajv.addKeyword('components');
    const id = `https://contract-gate.invalid/${path}`;
    const document = load(path);
    ajv.addSchema({ $id: id, components: asObject(document['components']) });
    const schemas = schemasOf(document);
    const names = Object.keys(schemas);
    expect(names, `${path}: the result schemas of its methods are among those compiled`).toEqual(expect.arrayContaining(resultSchemaNames(document)));
    // One assertion per document: an expect per schema costs more than compiling it.
    const fresh = names.filter((name) => {
      const key = `${name}\u0000${JSON.stringify(schemas[name])}`;
      if (compiledBefore.has(key)) return false;
      compiledBefore.add(key);
      return true;
    });
    const refused = fresh.flatMap((name) => {
      try {
        ajv.getSchema(`${id}#/components/schemas/${name}`);
        return [];
      } catch (error) {
        return [`${name}: ${(error as Error).message}`];
      }
    });
    expect(refused, `${path}: schemas strict mode refuses`).toEqual([]);
  }
});

test('the pre-cwd-explicit document differs from the current one only by cwd_explicit and info.version', () => {
  const current = load(CURRENT);
  const previous = load(PRE_CWD_EXPLICIT);
  expect(deepDiff(current, previous).sort()).toEqual(['/components/schemas/SessionCreateParams/properties/cwd_explicit', '/info/version']);
  expect(asObject(current['info'])['version']).toBe('2');
  expect(asObject(previous['info'])['version']).toBe('1');
  expect(asObject(asObject(schemasOf(current)['SessionCreateParams'])['properties'])['cwd_explicit']).toEqual({
    anyOf: [{ type: 'boolean' }, { type: 'null' }], default: null, title: 'Cwd Explicit',
  });
});

test('the session lifecycle documents declare 33 methods whose params and result targets exist', () => {
  for (const path of [CURRENT, PRE_CWD_EXPLICIT]) {
    const document = load(path);
    const methods = document['methods'] as JsonObject[];
    expect(methods, path).toHaveLength(33);
    const names = methods.map((entry) => entry['name'] as string);
    expect(names).toEqual([...names].sort());
    expect(names).toContain('prompt.submit');
    const schemas = schemasOf(document);
    for (const entry of methods) {
      const params = entry['params'] as JsonObject[];
      expect(params.map((descriptor) => descriptor['name'])).toEqual(['params']);
      const targets = [asObject(params[0]?.['schema'])['$ref'], asObject(asObject(entry['result'])['schema'])['$ref']];
      for (const ref of targets) {
        expect(typeof ref).toBe('string');
        expect(schemas, `${path} ${String(entry['name'])} ${String(ref)}`).toHaveProperty([String(ref).replace('#/components/schemas/', '')]);
      }
    }
  }
});

test('the session lifecycle documents describe the events their methods emit', () => {
  const notifications = load(CURRENT)['x-notifications'] as JsonObject[];
  expect(notifications.map((entry) => entry['name'])).toEqual([
    'error', 'gateway.ready', 'message.complete', 'message.delta', 'message.start', 'session.info', 'session.resume_progress',
  ]);
  const start = notifications.find((entry) => entry['name'] === 'message.start');
  expect(start?.['params']).toEqual([{ name: 'payload', schema: { type: 'object', additionalProperties: false } }]);
  expect(load(CURRENT)['x-server-requests']).toEqual([]);
});

test('the seed-modelled documents are written in the Hermes layout: key order, sorted components, ASCII only', () => {
  // The full documents (gateway*.openrpc.json) follow the upstream generator's own layout; hermesFullContract.test.ts checks them.
  for (const path of openRpcFiles().filter((file) => !/\/gateway[^/]*\.openrpc\.json$/.test(file))) {
    const text = readFileSync(join(repoRoot, path), 'utf8');
    expect(/[^\x00-\x7e]/.test(text), path).toBe(false);
    const document = JSON.parse(text) as JsonObject;
    expect(Object.keys(document)).toEqual(['openrpc', 'info', 'methods', 'components', 'x-server-requests', 'x-notifications']);
    const names = Object.keys(schemasOf(document));
    expect(names).toEqual([...names].sort());
    expect(text.startsWith('{\n  "openrpc": "1.3.2",\n  "info": {\n'), path).toBe(true);
  }
});

const run = promisify(execFile);
// tsx as a loader of this Node, not through npx (npm's own start-up costs more CPU than the generator).
const GENERATOR = ['--import', 'tsx', join(repoRoot, 'scripts/genHermesContracts.ts')];

test('the generator --check finds the committed documents current', async () => {
  const { stdout } = await run(process.execPath, [...GENERATOR, '--check'], { cwd: repoRoot });
  expect(stdout).toContain('3 contract documents are current');
});

test('the generator --check exits 1 and names a stale document', async () => {
  const root = scratchDir('contract-gate-contracts');
  try {
    cpSync(contractsDir, join(root, 'profiles', 'hermes', 'contracts'), { recursive: true });
    const stale = join(root, HOOKS);
    writeFileSync(stale, readFileSync(stale, 'utf8').replace('"version": "1"', '"version": "0"'));
    const failure = await run(process.execPath, [...GENERATOR, '--check', '--root', root], { cwd: repoRoot }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain(`${HOOKS} is stale`);
    expect(failure?.stderr).not.toContain(CURRENT);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
