import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './helpers/test.js';
import { generateSync } from 'json-schema-faker';
import { coreHarness } from './helpers/gatewayHarness.js';
import { scratchDir } from './helpers/scratchDir.js';

const METAMASK = join(process.cwd(), 'node_modules', '@metamask', 'api-specs', 'dist', 'build', 'openrpc.json');
const EXAMPLES_DIR = join(process.cwd(), 'node_modules', '@open-rpc', 'examples', 'build', 'service-descriptions');
const EXAMPLES = readdirSync(EXAMPLES_DIR).filter((name) => name.endsWith('.json')).map((name) => join(EXAMPLES_DIR, name));

type Doc = { methods: Array<Record<string, unknown>>; [key: string]: unknown };

/** Follows a local `$ref` of the document (content descriptors and methods may be references). */
function deref(doc: Doc, node: unknown): Record<string, unknown> {
  let current = node as Record<string, unknown>;
  while (typeof current['$ref'] === 'string') {
    current = (current['$ref'] as string)
      .slice(2)
      .split('/')
      .reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], doc) as Record<string, unknown>;
  }
  return current;
}

/** Contract-valid params for a method: every required descriptor and, with the seed, some optional ones. */
function validParams(doc: Doc, method: Record<string, unknown>, seed: number): { params: unknown; byPosition: boolean } {
  const descriptors = ((method['params'] as unknown[]) ?? []).map((raw) => deref(doc, raw));
  const values = descriptors.map((descriptor, i) => generateSync({ ...doc, ...(descriptor['schema'] as object) }, { seed: seed + i, refDepthMax: 5, maxItems: 2 }));
  const byPosition = method['paramStructure'] === 'by-position' || (method['paramStructure'] !== 'by-name' && seed % 2 === 0);
  if (byPosition) {
    const lastRequired = descriptors.reduce((last, descriptor, i) => (descriptor['required'] ? i : last), -1);
    return { params: values.slice(0, Math.max(lastRequired + 1, values.length)), byPosition };
  }
  return { params: Object.fromEntries(descriptors.map((descriptor, i) => [descriptor['name'], values[i]])), byPosition };
}

/** json-schema-faker does not always honour a schema: a few seeds are tried until the params are contract-valid. */
const PARAM_SEEDS = 40;

for (const path of [METAMASK, ...EXAMPLES]) {
  const name = path.split('/').at(-1) ?? path;
  test(`the schema-driven responder serves every method of ${name} with a contract-valid result`, async () => {
    const doc = JSON.parse(readFileSync(path, 'utf8')) as Doc;
    const harness = coreHarness({ contractPaths: [path], seed: 7 });
    const client = harness.client();
    const unreached: string[] = [];
    const serverErrors: string[] = [];
    for (const [index, raw] of doc.methods.entries()) {
      const method = deref(doc, raw);
      const successes = { byName: 0, byPosition: 0 };
      for (let attempt = 0; attempt < PARAM_SEEDS && successes.byName + successes.byPosition < 2; attempt++) {
        const { params, byPosition } = validParams(doc, method, index * 1000 + attempt);
        const frame = await client.request(String(method['name']), params);
        const error = frame['error'] as { code: number } | undefined;
        if (!error) successes[byPosition ? 'byPosition' : 'byName'] += 1;
        else if (error.code !== -32602) serverErrors.push(`${String(method['name'])} → ${JSON.stringify(error)}`);
      }
      if (successes.byName + successes.byPosition === 0) unreached.push(String(method['name']));
    }
    expect(serverErrors).toEqual([]);
    expect(unreached).toEqual([]);
    if (name === 'openrpc.json') expect(doc.methods).toHaveLength(55);
    harness.close();
  });
}

test('the responder is seeded: same seed, same answers; another seed, other answers', async () => {
  const answers = async (seed: number) => {
    const harness = coreHarness({ contractPaths: [METAMASK], seed });
    const client = harness.client();
    const results = [];
    for (let i = 0; i < 3; i++) results.push((await client.request('eth_getBlockByNumber', ['latest', false]))['result']);
    harness.close();
    return results;
  };
  const first = await answers(1);
  expect(await answers(1)).toEqual(first);
  expect(await answers(2)).not.toEqual(first);
  expect(first[0]).not.toEqual(first[1]);
});

test('generic documents: by-name ignores unknown top-level keys, nested closed models answer -32602, by-position checks arity', async () => {
  const doc = {
    openrpc: '1.3.2',
    info: { title: 'generic', version: '1' },
    methods: [
      {
        name: 'pet.add',
        paramStructure: 'by-name',
        params: [{ name: 'pet', required: true, schema: { $ref: '#/components/schemas/Pet' } }, { name: 'note', schema: { type: 'string' } }],
        result: { name: 'id', schema: { type: 'integer', minimum: 1 } },
      },
      {
        name: 'math.add',
        paramStructure: 'by-position',
        params: [{ name: 'a', required: true, schema: { type: 'integer' } }, { name: 'b', required: true, schema: { type: 'integer' } }],
        result: { name: 'sum', schema: { type: 'integer' } },
      },
      { name: 'ping.either', params: [{ name: 'x', required: true, schema: { type: 'string' } }], result: { name: 'ok', schema: { const: 'pong' } } },
    ],
    components: { schemas: { Pet: { type: 'object', additionalProperties: false, properties: { name: { type: 'string' } }, required: ['name'] } } },
  };
  const path = join(scratchDir('gateway-generic'), 'doc.json');
  writeFileSync(path, JSON.stringify(doc));
  const harness = coreHarness({ contractPaths: [path] });
  const client = harness.client();
  expect(typeof (await client.request('pet.add', { pet: { name: 'Rex' }, unknown: 1 }))['result']).toBe('number');
  expect((await client.request('pet.add', { pet: { name: 'Rex', age: 3 } }))['error']).toEqual({ code: -32602, message: 'invalid params for pet.add: pet.age: Extra inputs are not permitted' });
  expect((await client.request('pet.add', {}))['error']).toEqual({ code: -32602, message: 'invalid params for pet.add: pet: Field required' });
  expect((await client.request('pet.add', [{ name: 'Rex' }]))['error']).toMatchObject({ code: -32602 });
  expect(typeof (await client.request('math.add', [1, 2]))['result']).toBe('number');
  expect((await client.request('math.add', [1]))['error']).toEqual({ code: -32602, message: 'invalid params for math.add: 1: Field required' });
  expect((await client.request('math.add', [1, 2, 3]))['error']).toEqual({ code: -32602, message: 'invalid params for math.add: 2: at most 2 positional params' });
  expect((await client.request('math.add', [1, 'two']))['error']).toEqual({ code: -32602, message: 'invalid params for math.add: 1: Input should be a valid integer' });
  expect((await client.request('ping.either', ['a']))['result']).toBe('pong');
  expect((await client.request('ping.either', { x: 'a' }))['result']).toBe('pong');
  harness.close();
});
