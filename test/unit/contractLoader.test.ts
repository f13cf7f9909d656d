import { expect, test } from './helpers/test.js';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { loadContract, loadContractSync, parseContract, SchemaValidators } from '../../src/contracts/index.js';
import { HarnessError } from '../../core/index.js';
import { scratchDir } from './helpers/scratchDir.js';

const ROOT = join(import.meta.dirname, '..', '..');
const EXAMPLES = join(ROOT, 'node_modules/@open-rpc/examples/build/service-descriptions');
const METAMASK = join(ROOT, 'node_modules/@metamask/api-specs/dist/build/openrpc.json');
const HERMES = join(ROOT, 'profiles/hermes/contracts/session-lifecycle.openrpc.json');

const thirdParty = [METAMASK, ...readdirSync(EXAMPLES).map((name) => join(EXAMPLES, name))];

function invalid(document: unknown): HarnessError {
  try {
    parseContract(document, 'doc.json');
  } catch (error) {
    if (HarnessError.is(error)) return error;
    throw error;
  }
  throw new Error('expected CONTRACT_INVALID');
}

test('every third-party document loads and every params and result schema compiles', () => {
  let methods = 0;
  for (const path of thirdParty) {
    const contract = loadContractSync(path);
    const validators = new SchemaValidators(contract);
    for (const method of contract.methods) {
      validators.validator(method.paramsSchema);
      if (method.resultSchema) validators.validator(method.resultSchema);
      methods++;
    }
  }
  expect(loadContractSync(METAMASK).methods).toHaveLength(55);
  expect(methods).toBeGreaterThan(55);
});

test('the Hermes layout is recognised: one params object per method, events from x-notifications', () => {
  const contract = loadContractSync(HERMES);
  expect(contract.methods).toHaveLength(33);
  expect(contract.methods.every((m) => m.paramStructure === 'object')).toBe(true);
  expect(contract.events.map((e) => e.name).sort()).toEqual(['error', 'gateway.ready', 'message.complete', 'message.delta', 'message.start', 'session.info', 'session.resume_progress']);
  expect(contract.event('message.start')?.payloadless).toBe(true);
  const validators = new SchemaValidators(contract);
  const create = contract.method('session.create');
  expect(validators.check(create!.paramsSchema, { cwd: '/', cwd_explicit: true })).toEqual([]);
  expect(validators.check(create!.paramsSchema, { cwd_explicit: true, surprise: 1 }).map((v) => v.keyword)).toContain('additionalProperties');
});

test('by-name and by-position params become one wire schema', () => {
  const byName = loadContractSync(join(EXAMPLES, 'params-by-name-petstore-openrpc.json'));
  const named = byName.methods.find((m) => m.paramStructure === 'by-name');
  expect(named?.name).toBe('list_pets');
  // One optional descriptor, `limit`: an object of it, none required.
  expect(named?.paramsSchema).toEqual({ type: 'object', properties: { limit: { type: 'integer' } }, required: [] });
  const validators = new SchemaValidators(byName);
  expect(validators.check(named!.paramsSchema, {})).toEqual([]);
  expect(validators.check(named!.paramsSchema, { limit: 'ten' }).map((v) => v.keyword)).toEqual(['type']);
  const simple = loadContractSync(join(EXAMPLES, 'simple-math-openrpc.json'));
  const addition = simple.method('addition');
  expect(addition?.paramStructure).toBe('by-position');
  expect(addition?.declaredStructure).toBe('either');
  expect(new SchemaValidators(simple).check(addition!.paramsSchema, [1, 2])).toEqual([]);
  expect(new SchemaValidators(simple).check(addition!.paramsSchema, [1, 2, 3]).map((v) => v.keyword)).toEqual(['maxItems']);
});

test('a malformed document is CONTRACT_INVALID naming the JSON pointer of the fault', () => {
  const noName = invalid({ openrpc: '1.2.6', info: { title: 't', version: '1' }, methods: [{ params: [] }] });
  expect(noName.code).toBe('CONTRACT_INVALID');
  expect(noName.message).toContain('at "/methods/0"');
  const dangling = invalid({
    openrpc: '1.2.6',
    info: { title: 't', version: '1' },
    methods: [{ name: 'm', params: [{ name: 'a', schema: { $ref: '#/components/schemas/Missing' } }], result: { name: 'r', schema: {} } }],
  });
  expect(dangling.message).toContain('"/methods/0/params/0/schema"');
  expect(dangling.message).toContain('#/components/schemas/Missing');
  expect(invalid([1, 2]).message).toContain('must be a JSON object');
});

test('recursive $refs load and validate', () => {
  const document = {
    openrpc: '1.2.6',
    info: { title: 'tree', version: '1' },
    methods: [{ name: 'walk', paramStructure: 'by-name', params: [{ name: 'node', required: true, schema: { $ref: '#/components/schemas/Node' } }], result: { name: 'r', schema: { type: 'integer' } } }],
    components: { schemas: { Node: { type: 'object', additionalProperties: false, properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } } } },
  };
  const contract = parseContract(document, 'tree.json');
  const validators = new SchemaValidators(contract);
  const schema = contract.method('walk')!.paramsSchema;
  expect(validators.check(schema, { node: { children: [{ children: [] }] } })).toEqual([]);
  expect(validators.check(schema, { node: { children: [{ oops: 1 }] } }).map((v) => v.instancePath)).toContain('/node/children/0');
});

test('validators are compiled once per schema', () => {
  const validators = new SchemaValidators(loadContractSync(HERMES));
  const schema = loadContractSync(HERMES).methods[0]!.paramsSchema;
  expect(validators.validator(schema)).toBe(validators.validator(schema));
});

test('a contract loads from an http URL, and an unreachable one is CONTRACT_NOT_FOUND', async () => {
  const body = readFileSync(HERMES, 'utf8');
  const server = createServer((_request, response) => response.end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  try {
    const contract = await loadContract(`http://127.0.0.1:${port}/contract.json`);
    expect(contract.methods).toHaveLength(33);
  } finally {
    server.close();
  }
  await expect(loadContract(`http://127.0.0.1:${port}/gone.json`)).rejects.toThrow(/CONTRACT_NOT_FOUND/);
  expect(() => loadContractSync('/no/such/contract.json')).toThrow(/CONTRACT_NOT_FOUND.*contract.json \(ENOENT\); check the path of the OpenRPC document/);
});

test('a file read again with the same text gives the contract already built; a changed file, or a check not made before, loads it anew', () => {
  const dir = scratchDir('contract-gate-contract-memo');
  const path = join(dir, 'doc.openrpc.json');
  const document = (version: string, extra: Record<string, unknown> = {}) => JSON.stringify({ openrpc: '1.2.6', info: { title: 't', version }, methods: [{ name: 'm', params: [], result: { name: 'r', schema: {} } }], ...extra });
  writeFileSync(path, document('1'));
  const first = loadContractSync(path);
  expect(loadContractSync(path), 'same text: the same contract').toBe(first);
  expect(loadContractSync(path, { validate: false }), 'a checked contract serves an unchecked ask').toBe(first);
  writeFileSync(path, document('2'));
  const changed = loadContractSync(path);
  expect(changed).not.toBe(first);
  expect(changed.version).toBe('2');
  // Not an OpenRPC document (an unknown top-level key): loaded unchecked first, an ask with the check still makes it.
  writeFileSync(path, document('3', { 'not-openrpc': true }));
  expect(loadContractSync(path, { validate: false }).version).toBe('3');
  expect(() => loadContractSync(path)).toThrow(/does not follow the OpenRPC meta-schema/);
  expect(() => loadContractSync(path), 'a failed check is not remembered as a pass').toThrow(/does not follow the OpenRPC meta-schema/);
});
