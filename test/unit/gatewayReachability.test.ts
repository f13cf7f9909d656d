import { readFileSync } from 'node:fs';
import { expect, test } from './helpers/test.js';
import { Ajv } from 'ajv';
import { generateSync } from 'json-schema-faker';
import type { MemoryClient } from '../../gateway/index.js';
import { coreHarness, createReady, HERMES_CONTRACT, HOOKS_EXTENSION, PRE_CWD_EXPLICIT_CONTRACT, turn } from './helpers/gatewayHarness.js';

type Schema = Record<string, unknown>;
type Doc = { methods: Array<{ name: string; params: Array<{ schema: { $ref: string } }> }>; components: { schemas: Record<string, Schema> } };

/** Live objects a harness binds identifier fields to. */
interface Bound {
  runtimeId: string;
  storedKey: string;
  spawnTreePath: string;
}

const STORED_ID_METHODS = new Set(['session.resume', 'session.delete']);
const RANDOM_VARIANTS = 4;

async function liveObjects(client: MemoryClient): Promise<Bound> {
  const live = await createReady(client);
  await turn(client, live.session_id, 'a prior turn');
  const stored = await createReady(client, { title: `stored ${Math.random()}` });
  await turn(client, stored.session_id, 'stored turn');
  await client.call('session.close', { session_id: stored.session_id });
  const { path } = await client.call<{ path: string }>('spawn_tree.save', { subagents: [{ id: 'x' }] });
  return { runtimeId: live.session_id, storedKey: stored.stored_session_id, spawnTreePath: path };
}

function bind(method: string, params: Schema, properties: Schema, bound: Bound): Schema {
  const out = { ...params };
  const set = (key: string, value: unknown) => {
    if (key in properties) out[key] = value;
  };
  set('session_id', STORED_ID_METHODS.has(method) ? bound.storedKey : method.startsWith('spawn_tree.') ? bound.storedKey : bound.runtimeId);
  set('parent_session_id', bound.storedKey);
  set('session_key', bound.storedKey);
  set('current_session_id', bound.runtimeId);
  set('cwd', '/');
  set('path', bound.spawnTreePath);
  if (method === 'llm.oneshot') out['input'] = 'hello';
  return out;
}

function requiredDefaults(schema: Schema): Schema {
  const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
  const out: Schema = {};
  for (const name of (schema['required'] ?? []) as string[]) {
    const type = properties[name]?.['type'];
    out[name] = type === 'array' ? [] : type === 'integer' || type === 'number' ? 1 : type === 'boolean' ? false : type === 'object' ? {} : 'x';
  }
  return out;
}

for (const contract of [HERMES_CONTRACT, PRE_CWD_EXPLICIT_CONTRACT]) {
  const label = contract.split('/').at(-1);
  test(`every method of ${label} answers a success to bound contract-valid params, and never a contract rejection`, async () => {
    const doc = JSON.parse(readFileSync(contract, 'utf8')) as Doc;
    const ajv = new Ajv({ strict: false, logger: false });
    ajv.addSchema({ components: doc.components } as Schema, 'doc');
    const harness = coreHarness({ contractPaths: [contract] });
    const unreached: string[] = [];
    const rejected: string[] = [];
    for (const [index, method] of doc.methods.entries()) {
      const ref = method.params[0]?.schema.$ref ?? '';
      const schema = doc.components.schemas[ref.split('/').at(-1) ?? ''] ?? {};
      const properties = (schema['properties'] ?? {}) as Schema;
      const validate = ajv.compile({ $ref: `doc${ref}` });
      const client = harness.client();
      // One set of live objects per method: the minimal call must succeed; later variants may meet domain refusals.
      const bound = await liveObjects(client);
      const minimal = bind(method.name, requiredDefaults(schema), properties, bound);
      const answer = await client.request(method.name, minimal);
      if (!('result' in answer)) unreached.push(`${method.name} ${JSON.stringify(minimal)} → ${JSON.stringify(answer['error'])}`);
      for (let variant = 0; variant < RANDOM_VARIANTS; variant++) {
        const generated = generateSync({ components: doc.components, $ref: ref }, { seed: index * 100 + variant, refDepthMax: 5, maxItems: 2 }) as Schema;
        const params = bind(method.name, generated, properties, bound);
        if (!validate(params)) continue;
        const frame = await client.request(method.name, params);
        const code = (frame['error'] as { code: number } | undefined)?.code;
        if (code !== undefined && (code === 4000 || code <= -32000)) rejected.push(`${method.name} ${JSON.stringify(params)} → ${JSON.stringify(frame['error'])}`);
      }
    }
    expect(unreached).toEqual([]);
    expect(rejected).toEqual([]);
    expect(doc.methods).toHaveLength(33);
    harness.close();
  });
}

test('with the session-hooks extension loaded, its methods are served by the schema responder', async () => {
  const harness = coreHarness({ contractPaths: [HERMES_CONTRACT, HOOKS_EXTENSION] });
  const client = harness.client();
  const created = await createReady(client);
  expect((await client.request('hooks.subscribe', { hooks: null }))['result'], 'hooks: null subscribes to every hook').toEqual({ subscribed: ['session_pre_init', 'session_post_init', 'session_reset', 'session_cleanup'] });
  expect((await client.request('session.reset', { session_id: created.session_id }))['result']).toEqual({ reset: true });
  harness.close();
});
