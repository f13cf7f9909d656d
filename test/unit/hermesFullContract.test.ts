import { expect, test } from './helpers/test.js';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, requireSharedSources, type SharedSources } from './helpers/sharedSources.js';
import { scratchDir } from './helpers/scratchDir.js';

/**
 * The full Hermes gateway documents (profiles/hermes/contracts/gateway*.openrpc.json) that
 * scripts/hermes/gen_full_contract.py renders from the stored upstream Pydantic contracts: they are
 * current, they name what the imported registry holds, and they have the shape the harness reads.
 */

const GENERATOR = join(REPO, 'scripts', 'hermes', 'gen_full_contract.py');
const DOCUMENTS = [
  { sessions: 'seed', path: 'profiles/hermes/contracts/gateway.openrpc.json', version: '2' },
  { sessions: 'stored', path: 'profiles/hermes/contracts/gateway.pre-cwd-explicit.openrpc.json', version: '1' },
] as const;
const SEED_ONLY_METHODS = ['session.branch_stored', 'session.branch_whole'];
/** Entries both documents hold that the tests below name (their models, their unions). */
const NAMED_ENTRIES = {
  methods: ['connectors.connect', 'ping', 'session.create', 'session.save'],
  serverRequests: ['approval'],
  events: ['gateway.ready', 'message.delta', 'message.start', 'session.info'],
};
/** The discriminators of the upstream pydantic unions, the tags their `oneOf`s keep. */
const UNION_TAGS = ['kind', 'mode', 'type'];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface Entry extends JsonObject {
  name: string;
  paramStructure: string;
  params: JsonObject[];
}

function asObject(value: Json | undefined, where = 'value'): JsonObject {
  if (value === null || value === undefined || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${where}: expected an object`);
  return value;
}

function load(path: string): JsonObject {
  return JSON.parse(readFileSync(join(REPO, path), 'utf8')) as JsonObject;
}

function schemasOf(document: JsonObject): Record<string, JsonObject> {
  return asObject(asObject(document['components'])['schemas']) as Record<string, JsonObject>;
}

function refName(ref: Json | undefined): string {
  if (typeof ref !== 'string' || !ref.startsWith('#/components/schemas/')) throw new Error(`not a component reference: ${String(ref)}`);
  return ref.slice('#/components/schemas/'.length);
}

function refsIn(node: Json | undefined): string[] {
  if (node === null || node === undefined || typeof node !== 'object') return [];
  const values = Array.isArray(node) ? node : Object.values(node);
  const own = !Array.isArray(node) && typeof node['$ref'] === 'string' ? [node['$ref']] : [];
  return [...own, ...values.flatMap(refsIn)];
}

function resolvePointer(document: Json, pointer: string): Json | undefined {
  let node: Json | undefined = document;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || node === undefined || typeof node !== 'object') return undefined;
    node = Array.isArray(node) ? node[Number(key)] : node[key];
  }
  return node;
}

/** Every component reachable from `roots` through `$ref`s (the roots included). */
function reachable(schemas: Record<string, JsonObject>, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const pending = [...roots];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (seen.has(name)) continue;
    seen.add(name);
    pending.push(...refsIn(schemas[name]).map(refName));
  }
  return seen;
}

/** The upstream generator's `_pascal`: the component name a wire slot gets (`session.create` → `SessionCreate`). */
function pascal(name: string): string {
  return name.split(/[._-]/).filter(Boolean).map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('');
}

function propertiesOf(schema: JsonObject): JsonObject {
  return asObject(schema['properties'] ?? {}, 'properties');
}

function requiredOf(schema: JsonObject): string[] {
  return (schema['required'] ?? []) as string[];
}

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

function generate(shared: SharedSources, args: string[], env: Record<string, string> = {}): Promise<RunResult> {
  const argv = [GENERATOR, '--sources', shared.hermesContracts, '--seeds', shared.seeds, ...args];
  return new Promise((resolve) => {
    execFile(shared.python, argv, { cwd: REPO, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

function scratch(): string {
  return scratchDir('contract-gate-hermes-full');
}

test.describe('the committed documents are what the stored sources render', () => {
  // `--all --check` renders both in one run of the generator (one interpreter fewer than a run per document) and
  // compares each with the committed file byte for byte; the next test shows that it names a stale one.
  test(`${DOCUMENTS.map(({ path, sessions }) => `${path} (--sessions ${sessions})`).join(' and ')} are byte-identical to a fresh rendering`, async () => {
    const shared = requireSharedSources();
    const run = await generate(shared, ['--all', '--check']);
    expect(run.code, run.stderr).toBe(0);
    for (const { path } of DOCUMENTS) expect(run.stdout, run.stdout).toContain(`${path} is current`);
  });

  test('--check exits 1 and names the stale file', async () => {
    const shared = requireSharedSources();
    const dir = scratch();
    try {
      const stale = join(dir, 'stale.openrpc.json');
      writeFileSync(stale, readFileSync(join(REPO, DOCUMENTS[1].path), 'utf8').replace('"version": "1"', '"version": "0"'));
      const run = await generate(shared, ['--sessions', 'stored', '--out', stale, '--check']);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toContain(`stale: ${stale}`);
      expect(readFileSync(stale, 'utf8')).toContain('"version": "0"'); // --check writes nothing
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a pydantic other than the pinned one is a setup error (exit 2) that says so', async () => {
    const shared = requireSharedSources();
    const dir = scratch();
    try {
      mkdirSync(join(dir, 'pydantic'));
      writeFileSync(join(dir, 'pydantic', '__init__.py'), 'VERSION = "1.10.0"\n');
      const run = await generate(shared, ['--names'], { PYTHONPATH: dir });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('pydantic 2.13.4 is needed');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test.describe('the documents name what the imported registry holds', () => {
  for (const { sessions, path } of DOCUMENTS) {
    test(`${path}: methods, server→client requests and event types equal the registry's (--sessions ${sessions})`, async () => {
      const shared = requireSharedSources();
      const run = await generate(shared, ['--names', '--sessions', sessions]);
      expect(run.code, run.stderr).toBe(0);
      const registry = JSON.parse(run.stdout) as { methods: string[]; serverRequests: string[]; events: string[] };
      expect(registry.methods).toEqual(expect.arrayContaining(NAMED_ENTRIES.methods));
      expect(registry.serverRequests).toEqual(expect.arrayContaining(NAMED_ENTRIES.serverRequests));
      expect(registry.events).toEqual(expect.arrayContaining(NAMED_ENTRIES.events));
      const document = load(path);
      const names = (key: string, field: string) => (document[key] as JsonObject[]).map((entry) => entry[field] as string);
      expect(names('methods', 'name')).toEqual(registry.methods);
      expect(names('x-hermes-server-requests', 'name')).toEqual(registry.serverRequests);
      expect(names('x-hermes-event-types', 'type')).toEqual(registry.events);
      const notification = (document['x-hermes-notifications'] as JsonObject[])[0];
      const typeParam = (notification?.['params'] as JsonObject[]).find((param) => param['name'] === 'type');
      expect(asObject(typeParam?.['schema'])['enum']).toEqual(registry.events);
      for (const name of SEED_ONLY_METHODS) expect(registry.methods.includes(name), name).toBe(sessions === 'seed');
    });
  }
});

for (const { sessions, path, version } of DOCUMENTS) {
  test.describe(`${path}: the shape the harness relies on`, () => {
    const document = load(path);
    const schemas = schemasOf(document);
    const methods = document['methods'] as Entry[];
    const serverRequests = document['x-hermes-server-requests'] as Entry[];
    const eventTypes = document['x-hermes-event-types'] as JsonObject[];

    test('upstream layout: top-level keys, OpenRPC 1.3.2, sorted entries, info', () => {
      expect(Object.keys(document)).toEqual([
        'openrpc', 'info', 'methods', 'components', 'x-hermes-server-requests', 'x-hermes-notifications', 'x-hermes-event-types', 'x-hermes-client-notifications',
      ]);
      expect(document['openrpc']).toBe('1.3.2');
      expect(asObject(document['info'])['version']).toBe(version);
      const lists = { methods: methods.map((entry) => entry.name), serverRequests: serverRequests.map((entry) => entry.name), events: eventTypes.map((entry) => entry['type'] as string) };
      for (const [list, entries] of Object.entries(lists) as Array<[keyof typeof lists, string[]]>) {
        expect(entries, list).toEqual(expect.arrayContaining(NAMED_ENTRIES[list]));
        expect(entries).toEqual([...entries].sort());
      }
      expect(document['x-hermes-client-notifications']).toEqual([]);
      expect(readFileSync(join(REPO, path), 'utf8').endsWith('}\n')).toBe(true);
    });

    test('every $ref resolves inside the document', () => {
      const refs = refsIn(document);
      const text = readFileSync(join(REPO, path), 'utf8');
      expect(refs.length, 'every "$ref" of the text').toBe(text.split('"$ref":').length - 1);
      expect(refs, 'each method\'s result schema').toEqual(expect.arrayContaining(methods.map((entry) => String(asObject(asObject(entry['result'])['schema'])['$ref']))));
      expect(refs.filter((ref) => !ref.startsWith('#/') || resolvePointer(document, ref.slice(1)) === undefined)).toEqual([]);
    });

    test('by-name descriptors are the params model fields, with its required set; method params are closed', () => {
      // Each entry as it is and as its params model says it must be, compared in one assertion (one per entry costs more than the test).
      const entries = [...methods, ...serverRequests];
      const closed = (entry: (typeof entries)[number]): boolean => methods.includes(entry);
      const observed = entries.map((entry) => {
        const model = schemas[`${pascal(entry.name)}Params`];
        return { name: entry.name, paramStructure: entry.paramStructure, type: model?.['type'], ...(closed(entry) ? { additionalProperties: model?.['additionalProperties'] } : {}), params: entry.params };
      });
      const expected = entries.map((entry) => {
        const model = schemas[`${pascal(entry.name)}Params`];
        const params = model === undefined ? entry.params : Object.entries(propertiesOf(model)).map(([name, schema]) => ({ name, required: requiredOf(model).includes(name), schema }));
        // Client→server params are extra="forbid" (an unknown key answers 4000); server-request params are outbound and may be open.
        return { name: entry.name, paramStructure: 'by-name', type: 'object', ...(closed(entry) ? { additionalProperties: false } : {}), params };
      });
      expect(observed).toEqual(expected);
      const fieldless = methods.filter((entry) => entry.params.length === 0).map((entry) => entry.name);
      expect(fieldless).toContain('ping');
    });

    test('every method and server request has a result, every event type a payload that exists', () => {
      const withoutResult = [...methods, ...serverRequests].filter((entry) => !(refName(asObject(asObject(entry['result'], `${entry.name} result`)['schema'])['$ref']) in schemas));
      expect(withoutResult.map((entry) => entry.name), 'entries whose result component is missing').toEqual([]);
      expect(eventTypes.filter((entry) => entry['wireMethod'] !== 'event').map((entry) => entry['type']), 'event types not sent as "event"').toEqual([]);
      const payloads = eventTypes.map((entry) => asObject(entry['payload']));
      const inline = payloads.filter((payload) => payload['$ref'] === undefined);
      expect(inline, 'payloads without a component are the empty closed object').toEqual(inline.map(() => ({ type: 'object', additionalProperties: false })));
      const missing = eventTypes.filter((_, index) => payloads[index]?.['$ref'] !== undefined && !(refName(payloads[index]?.['$ref']) in schemas));
      expect(missing.map((entry) => entry['type']), 'event types whose payload component is missing').toEqual([]);
    });

    test('outbound models require every field, inbound ones only fields without a default; no object model is in both', () => {
      const outboundRoots = [
        ...methods.map((entry) => refName(asObject(asObject(entry['result'])['schema'])['$ref'])),
        ...serverRequests.map((entry) => `${pascal(entry.name)}Params`),
        ...eventTypes.flatMap((entry) => (asObject(entry['payload'])['$ref'] === undefined ? [] : [refName(asObject(entry['payload'])['$ref'])])),
      ];
      const inboundRoots = [
        ...methods.map((entry) => `${pascal(entry.name)}Params`),
        ...serverRequests.map((entry) => refName(asObject(asObject(entry['result'])['schema'])['$ref'])),
      ];
      const withFields = (names: Set<string>) => [...names].filter((name) => Object.keys(propertiesOf(schemas[name] ?? {})).length > 0);
      const outbound = withFields(reachable(schemas, outboundRoots));
      const inbound = withFields(reachable(schemas, inboundRoots));
      // Every root with fields, and the two directions of the models both reach (profiles/hermes/contracts/README.md).
      expect(outbound).toEqual(expect.arrayContaining([...withFields(new Set(outboundRoots)), 'SessionOwner', 'AccountOwner']));
      expect(inbound).toEqual(expect.arrayContaining([...withFields(new Set(inboundRoots)), 'SessionOwnerInput', 'AccountOwnerInput']));
      const modelOf = (name: string): JsonObject => schemas[name] as JsonObject;
      expect(outbound.map((name) => ({ name, required: requiredOf(modelOf(name)) })), 'outbound models require every field').toEqual(outbound.map((name) => ({ name, required: Object.keys(propertiesOf(modelOf(name))) })));
      const defaultedRequired = (name: string): string[] => {
        const defaulted = Object.entries(propertiesOf(modelOf(name))).filter(([, schema]) => asObject(schema)['default'] !== undefined).map(([key]) => key);
        return requiredOf(modelOf(name)).filter((key) => defaulted.includes(key));
      };
      expect(inbound.filter((name) => defaultedRequired(name).length > 0).map((name) => `${name} (inbound) requires ${defaultedRequired(name).join(', ')}, which have defaults`)).toEqual([]);
      expect(outbound.filter((name) => inbound.includes(name))).toEqual([]);
      expect(Object.keys(schemas)).toEqual(expect.arrayContaining(['SessionOwner', 'SessionOwnerInput']));
    });

    test('pydantic keywords survive (open models, constraints), discriminator is gone and each oneOf is tagged', () => {
      expect(schemas['SessionSaveResult']?.['additionalProperties']).toBe(true);
      expect(schemas['ApprovalParams']?.['additionalProperties']).toBe(true); // the approval request's open tool context
      expect(asObject(propertiesOf(schemas['ConnectorsConnectParams'] ?? {})['connectors'])['minItems']).toBe(1);
      expect(JSON.stringify(schemas)).not.toContain('"discriminator"');
      const unions: JsonObject[][] = [];
      const collect = (node: Json | undefined): void => {
        if (node === null || node === undefined || typeof node !== 'object') return;
        if (!Array.isArray(node) && Array.isArray(node['oneOf'])) unions.push(node['oneOf'] as JsonObject[]);
        (Array.isArray(node) ? node : Object.values(node)).forEach(collect);
      };
      collect(schemas);
      const unionNames = unions.map((members) => members.map((member) => refName(member['$ref'])).join(' | '));
      expect(unionNames).toEqual(expect.arrayContaining(['SessionOwner | AccountOwner', 'SessionOwnerInput | AccountOwnerInput']));
      for (const members of unions) {
        const models = members.map((member) => schemas[refName(member['$ref'])] as JsonObject);
        const tagValues = (model: JsonObject, key: string): Json[] | undefined => {
          const property = propertiesOf(model)[key];
          if (!requiredOf(model).includes(key) || property === undefined) return undefined;
          const schema = asObject(property);
          return schema['const'] !== undefined ? [schema['const']] : (schema['enum'] as Json[] | undefined);
        };
        const tag = Object.keys(propertiesOf(models[0] ?? {})).find((key) => {
          const values = models.map((model) => tagValues(model, key));
          const flat = values.flatMap((list) => list ?? []);
          return values.every((list) => list !== undefined) && new Set(flat.map((value) => JSON.stringify(value))).size === flat.length;
        });
        expect.soft(UNION_TAGS, `oneOf of ${members.map((member) => String(member['$ref'])).join(', ')} has a required tag`).toContain(tag);
      }
    });

    test(sessions === 'seed' ? 'the current sessions.py: cwd_explicit, session.branch_stored, session.branch_whole' : 'the older sessions.py: no cwd_explicit, no branch_stored/branch_whole', () => {
      const names = methods.map((entry) => entry.name);
      const create = methods.find((entry) => entry.name === 'session.create');
      const cwdExplicit = create?.params.find((param) => param['name'] === 'cwd_explicit');
      if (sessions === 'seed') {
        expect(names).toEqual(expect.arrayContaining(SEED_ONLY_METHODS));
        expect(cwdExplicit).toEqual({ name: 'cwd_explicit', required: false, schema: { anyOf: [{ type: 'boolean' }, { type: 'null' }], default: null, title: 'Cwd Explicit' } });
        expect(asObject(propertiesOf(schemas['SessionBranchStoredParams'] ?? {})['parent_session_id'])['minLength']).toBe(1);
      } else {
        expect(names.filter((name) => SEED_ONLY_METHODS.includes(name))).toEqual([]);
        expect(create?.name).toBe('session.create');
        expect(cwdExplicit).toBeUndefined();
        expect(propertiesOf(schemas['SessionCreateParams'] ?? {})).not.toHaveProperty('cwd_explicit');
      }
    });

    test('info.description lists the stand-ins and adaptations of profiles/hermes/contracts/README.md', () => {
      const description = String(asObject(document['info'])['description']).split('\n');
      const readme = readFileSync(join(REPO, 'profiles', 'hermes', 'contracts', 'README.md'), 'utf8').split('\n');
      const bullets = (lines: string[], heading: string, end: (line: string) => boolean): string[] => {
        const start = lines.indexOf(heading);
        expect(start, heading).toBeGreaterThan(-1);
        const rest = lines.slice(start + 1);
        const stop = rest.findIndex((line, index) => index > 0 && end(line));
        return rest.slice(0, stop === -1 ? undefined : stop).filter((line) => line.startsWith('- ')).map((line) => line.replaceAll('`', ''));
      };
      const described = {
        standIns: bullets(description, 'Stand-ins:', (line) => !line.startsWith('- ')),
        adaptations: bullets(description, 'Adaptations:', (line) => !line.startsWith('- ')),
      };
      expect(described.standIns).toHaveLength(2);
      expect(described.adaptations).toHaveLength(6);
      expect(bullets(readme, '### Stand-ins', (line) => line.startsWith('#'))).toEqual(described.standIns);
      expect(bullets(readme, '### Adaptations', (line) => line.startsWith('#'))).toEqual(described.adaptations);
    });
  });
}
