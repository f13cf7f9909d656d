import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './helpers/test.js';
import { ContractLoadError, loadContractSet } from '../../gateway/core/contract/contractSet.js';
import { firstExtraKey } from '../../gateway/core/contract/firstExtraKey.js';
import { HERMES_CONTRACT, PRE_CWD_EXPLICIT_CONTRACT, coreHarness } from './helpers/gatewayHarness.js';
import { scratchDir } from './helpers/scratchDir.js';

const SUFFIX = ' \u2014 the client and the Hermes backend are out of sync (different versions); run `hermes update` and restart both';

function writeDoc(document: unknown): string {
  const path = join(scratchDir('gateway-doc'), 'doc.json');
  writeFileSync(path, JSON.stringify(document));
  return path;
}

/** A layout-A document with closed nested models, to pin Pydantic's error order. */
const NESTED_DOC = {
  openrpc: '1.3.2',
  info: { title: 'Hermes TUI/Desktop gateway', version: '1' },
  methods: [
    {
      name: 'thing.create',
      params: [{ name: 'params', schema: { $ref: '#/components/schemas/ThingParams' } }],
      result: { name: 'result', schema: { type: 'object' } },
    },
  ],
  components: {
    schemas: {
      ThingParams: {
        type: 'object',
        additionalProperties: false,
        properties: {
          name: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          messages: { anyOf: [{ type: 'array', items: { $ref: '#/components/schemas/Row' } }, { type: 'null' }] },
          meta: { anyOf: [{ $ref: '#/components/schemas/Open' }, { type: 'null' }] },
          byKey: { type: 'object', additionalProperties: { $ref: '#/components/schemas/Row' } },
        },
      },
      Row: { type: 'object', additionalProperties: false, properties: { role: { type: 'string' } }, required: ['role'] },
      Open: { type: 'object', additionalProperties: true, properties: { inner: { $ref: '#/components/schemas/Row' } } },
    },
  },
  'x-notifications': [],
};

test('loads the Hermes documents in layout A: 33 whole-object methods and the turn events', () => {
  const contracts = loadContractSet([HERMES_CONTRACT]);
  expect(contracts.methods.size).toBe(33);
  expect([...contracts.methods.values()].every((method) => method.shape === 'whole-object')).toBe(true);
  expect(contracts.documents[0]?.profile).toBe('hermes');
  for (const event of ['message.start', 'message.delta', 'message.complete', 'error', 'session.info', 'gateway.ready']) {
    expect(contracts.notifications.has(event), event).toBe(true);
  }
});

test('a union of documents keeps the first declaration of a method', () => {
  const contracts = loadContractSet([PRE_CWD_EXPLICIT_CONTRACT, HERMES_CONTRACT]);
  expect(contracts.methods.size).toBe(33);
  expect(contracts.methods.get('session.create')?.document.path).toBe(PRE_CWD_EXPLICIT_CONTRACT);
});

test('a malformed document is reported with the JSON pointer of the fault', () => {
  const path = writeDoc({ openrpc: '1.3.2', info: { title: 'x', version: '1' }, methods: [{ name: 'a', params: [{ $ref: '#/components/contentDescriptors/Missing' }] }] });
  expect(() => loadContractSet([path])).toThrow(ContractLoadError);
  expect(() => loadContractSet([path])).toThrow(/at \/methods\/0\/params\/0: dangling reference/);
});

test('the first extra key follows Pydantic order: declared fields (recursing) before the extras of the object', () => {
  const contracts = loadContractSet([writeDoc(NESTED_DOC)]);
  const method = contracts.methods.get('thing.create');
  if (!method) throw new Error('method missing');
  const resolve = (ref: string) => contracts.resolveRef(method.document, ref);
  const schema = method.params[0]?.schema.schema ?? true;
  expect(firstExtraKey({ cwd_explicit: true, messages: [{ role: 'u', foo: 1 }] }, schema, resolve)).toEqual(['messages', '0', 'foo']);
  expect(firstExtraKey({ zzz: 1, aaa: 2, name: 'x' }, schema, resolve)).toEqual(['zzz']);
  expect(firstExtraKey({ messages: [{ role: 'a' }, { role: 'b', x: 1, y: 2 }] }, schema, resolve)).toEqual(['messages', '1', 'x']);
  expect(firstExtraKey({ byKey: { k: { role: 'r', extra: 1 } } }, schema, resolve)).toEqual(['byKey', 'k', 'extra']);
  // An open model accepts extras, but a closed model nested in it still rejects.
  expect(firstExtraKey({ meta: { anything: 1 } }, schema, resolve)).toBeUndefined();
  expect(firstExtraKey({ meta: { inner: { role: 'r', bad: 1 } } }, schema, resolve)).toEqual(['meta', 'inner', 'bad']);
  // A value of the wrong type is not walked (the contract check reports it instead).
  expect(firstExtraKey({ messages: 'nope' }, schema, resolve)).toBeUndefined();
});

test('4000 names the first extra key with the exact out-of-sync wording', async () => {
  const harness = coreHarness({ contractPaths: [writeDoc(NESTED_DOC)] });
  const client = harness.client();
  const frame = await client.request('thing.create', { cwd_explicit: true, messages: [{ role: 'u', foo: 1 }] });
  expect(frame['error']).toEqual({ code: 4000, message: `invalid params for thing.create: messages.0.foo: Extra inputs are not permitted${SUFFIX}` });
  harness.close();
});

test('legacyMessages drops the suffix from 4000 and -32601 (v0.21.3 wording)', async () => {
  const harness = coreHarness({ contractPaths: [PRE_CWD_EXPLICIT_CONTRACT], legacyMessages: true });
  const client = harness.client();
  const rejected = await client.request('session.create', { cwd: '/', cwd_explicit: true });
  expect(rejected['error']).toEqual({ code: 4000, message: 'invalid params for session.create: cwd_explicit: Extra inputs are not permitted' });
  const unknown = await client.request('session.nope', {});
  expect(unknown['error']).toEqual({ code: -32601, message: 'unknown method: session.nope' });
  harness.close();
});

test('contract-invalid params never succeed: domain codes where the spec names one, else -32602 with the location', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const cases: Array<[string, unknown, number, string]> = [
    ['session.resume', {}, 4006, 'session_id required'],
    ['session.delete', { session_id: 7 }, 4006, 'session_id required'],
    ['session.workspace.move', { cwd: '/' }, 4007, 'session_key required'],
    ['session.workspace.move', { session_key: 'k' }, 4016, 'cwd required'],
    ['session.cwd.set', { session_id: 'x' }, 4016, 'cwd required'],
    ['spawn_tree.load', {}, 4000, 'path required'],
    ['session.events.since', { session_id: 'x', last_seen: 1.5 }, -32602, 'invalid params: last_seen must be an integer'],
    ['session.create', { cols: 'wide' }, -32602, 'invalid params for session.create: cols: Input should be a valid integer'],
    ['session.create', { messages: [{}] }, -32602, 'invalid params for session.create: messages.0.role: Field required'],
    ['session.branch_stored', { parent_session_id: '' }, -32602, 'invalid params for session.branch_stored: parent_session_id: String should have at least 1 character'],
    ['session.close', {}, -32602, 'invalid params for session.close: session_id: Field required'],
    ['session.list', [], -32602, 'invalid params for session.list: params: Input should be a valid dictionary'],
  ];
  for (const [method, params, code, message] of cases) {
    const frame = await client.request(method, params);
    expect(frame['error'], `${method} ${JSON.stringify(params)}`).toEqual({ code, message });
  }
  harness.close();
});

test('Hermes methods take absent or null params as an empty params object', async () => {
  const harness = coreHarness();
  const client = harness.client();
  expect((await client.request('session.list'))['result']).toEqual({ sessions: [] });
  expect((await client.request('session.list', null))['result']).toEqual({ sessions: [] });
  expect((await client.request('session.list', 'x'))['error']).toMatchObject({ code: -32602 });
  harness.close();
});

test('the unknown-key check runs before the contract check', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const frame = await client.request('session.resume', { bogus: 1 });
  expect((frame['error'] as { code: number }).code).toBe(4000);
  expect((frame['error'] as { message: string }).message).toContain('session.resume: bogus: Extra inputs');
  harness.close();
});
