import { type JsonSchema } from '../../core/index.js';
import { expect, test } from './helpers/test.js';
import type { Contract } from '../../src/contracts/index.js';
import { analyseSkew, SKEW_KINDS, type SkewFinding } from '../../src/skew/index.js';
import { closed, open, paramsContract, resultContract, skewContract } from '../skewFixtures/skewDoc.js';
import { HERMES_CODES } from './helpers/profiles.js';

type Row = [kind: string, severity: string, path: string, direction: string];

interface Case {
  title: string;
  client: Contract;
  server: Contract;
  expected: Row[];
}

const str = { type: 'string' };
const int = { type: 'integer' };
const nullableInt = { anyOf: [{ type: 'integer' }, { type: 'null' }] };

function eventContract(version: string, events: Array<{ name: string; payload: JsonSchema }>): Contract {
  return skewContract({ version, events });
}

const cases: Case[] = [
  {
    title: 'a method the client calls and the server lacks, and one only the server has',
    client: skewContract({ version: '2', methods: [{ name: 'a' }, { name: 'b' }] }),
    server: skewContract({ version: '1', methods: [{ name: 'a' }, { name: 'c' }] }),
    expected: [
      ['method-missing', 'breaking', '', 'method'],
      ['method-added', 'info', '', 'method'],
    ],
  },
  {
    title: 'by-position client against a by-name server',
    client: skewContract({ version: '2', methods: [{ name: 'm', byPosition: [{ name: 'x', schema: str, required: true }] }] }),
    server: skewContract({ version: '1', methods: [{ name: 'm', byName: [{ name: 'x', schema: str, required: true }] }] }),
    expected: [['param-structure-changed', 'breaking', '', 'request']],
  },
  {
    title: 'a key the client sends that a closed server model lacks',
    client: paramsContract(closed({ a: str, b: str }), '2'),
    server: paramsContract(closed({ a: str }), '1'),
    expected: [['param-unknown-to-server', 'breaking', 'b', 'request']],
  },
  {
    title: 'a key the client sends that an open server model lacks',
    client: paramsContract(closed({ a: str, b: str }), '2'),
    server: paramsContract(open({ a: str }), '1'),
    expected: [['param-ignored-by-server', 'warning', 'b', 'request']],
  },
  {
    title: 'a param the server requires that the client never sends',
    client: paramsContract(closed({ a: str }), '1'),
    server: paramsContract(closed({ a: str, b: str }, ['b']), '2'),
    expected: [['param-required-by-server', 'breaking', 'b', 'request']],
  },
  {
    title: 'a param the server requires that the client may omit',
    client: paramsContract(closed({ a: str }), '1'),
    server: paramsContract(closed({ a: str }, ['a']), '2'),
    expected: [['param-required-by-server', 'warning', 'a', 'request']],
  },
  {
    title: 'an optional param the server added',
    client: paramsContract(closed({ a: str }), '1'),
    server: paramsContract(closed({ a: str, b: str }), '2'),
    expected: [['param-added-optional', 'info', 'b', 'request']],
  },
  {
    title: 'int|null on the client, int on the server',
    client: paramsContract(closed({ n: nullableInt }), '2'),
    server: paramsContract(closed({ n: int }), '1'),
    expected: [['param-type-narrowed', 'breaking', 'n', 'request']],
  },
  {
    title: 'an enum value the server no longer accepts',
    client: paramsContract(closed({ mode: { $ref: '#/components/schemas/Mode' } }), '1', { Mode: { enum: ['a', 'b', 'c'], type: 'string' } }),
    server: paramsContract(closed({ mode: { $ref: '#/components/schemas/Mode' } }), '2', { Mode: { enum: ['a', 'b'], type: 'string' } }),
    expected: [['param-enum-narrowed', 'breaking', 'mode', 'request']],
  },
  {
    title: 'a numeric bound the server tightened',
    client: paramsContract(closed({ cols: { type: 'integer', minimum: 1, maximum: 500 } }), '1'),
    server: paramsContract(closed({ cols: { type: 'integer', minimum: 1, maximum: 200 } }), '2'),
    expected: [['param-constraint-tightened', 'breaking', 'cols', 'request']],
  },
  {
    title: 'a result key a closed client model does not know',
    client: resultContract(closed({ a: str }), '1'),
    server: resultContract(closed({ a: str, b: str }), '2'),
    expected: [['result-unknown-to-client', 'breaking', 'result.b', 'response']],
  },
  {
    title: 'a result key an open client model does not know',
    client: resultContract(open({ a: str }), '1'),
    server: resultContract(closed({ a: str, b: str }), '2'),
    expected: [['result-key-added-open', 'info', 'result.b', 'response']],
  },
  {
    title: 'a result key the client requires and the server dropped',
    client: resultContract(closed({ a: str, b: str }, ['a', 'b']), '1'),
    server: resultContract(closed({ a: str }, ['a']), '2'),
    expected: [['result-required-missing', 'breaking', 'result.b', 'response']],
  },
  {
    title: 'a result type the server widened',
    client: resultContract(closed({ info: closed({ cwd: str }) }), '1'),
    server: resultContract(closed({ info: closed({ cwd: { anyOf: [str, { type: 'null' }] } }) }), '2'),
    expected: [['result-type-widened', 'breaking', 'result.info.cwd', 'response']],
  },
  {
    title: 'a result enum the server widened',
    client: resultContract(closed({ state: { enum: ['idle', 'busy'] } }), '1'),
    server: resultContract(closed({ state: { enum: ['idle', 'busy', 'draining'] } }), '2'),
    expected: [['result-enum-widened', 'breaking', 'result.state', 'response']],
  },
  {
    title: 'a result bound the server loosened',
    client: resultContract(closed({ title: { type: 'string', maxLength: 80 } }), '1'),
    server: resultContract(closed({ title: { type: 'string', maxLength: 200 } }), '2'),
    expected: [['result-constraint-loosened', 'breaking', 'result.title', 'response']],
  },
  {
    title: 'an event the client does not declare, and one the server does not emit',
    client: eventContract('1', [{ name: 'old.event', payload: closed({}) }]),
    server: eventContract('2', [{ name: 'new.event', payload: closed({}) }]),
    expected: [
      ['event-undeclared-by-client', 'warning', '', 'event'],
      ['event-not-emitted', 'info', '', 'event'],
    ],
  },
  {
    title: 'a payload key a closed client payload model does not know',
    client: eventContract('1', [{ name: 'e', payload: closed({ a: str }) }]),
    server: eventContract('2', [{ name: 'e', payload: closed({ a: str, b: str }) }]),
    expected: [['event-unknown-to-client', 'breaking', 'payload.b', 'event']],
  },
  {
    title: 'a payload key an open client payload model does not know',
    client: eventContract('1', [{ name: 'e', payload: open({ a: str }) }]),
    server: eventContract('2', [{ name: 'e', payload: closed({ a: str, b: str }) }]),
    expected: [['event-key-added-open', 'info', 'payload.b', 'event']],
  },
  {
    title: 'a payload key the client requires and the server may omit',
    client: eventContract('1', [{ name: 'e', payload: closed({ a: str }, ['a']) }]),
    server: eventContract('2', [{ name: 'e', payload: closed({ a: str }) }]),
    expected: [['event-required-missing', 'breaking', 'payload.a', 'event']],
  },
  {
    title: 'a payload type the server widened',
    client: eventContract('1', [{ name: 'e', payload: closed({ seq: int }) }]),
    server: eventContract('2', [{ name: 'e', payload: closed({ seq: { type: 'number' } }) }]),
    expected: [['event-type-widened', 'breaking', 'payload.seq', 'event']],
  },
  {
    title: 'a payload const the server changed',
    client: eventContract('1', [{ name: 'e', payload: closed({ kind: { const: 'a', type: 'string' } }) }]),
    server: eventContract('2', [{ name: 'e', payload: closed({ kind: { enum: ['a', 'b'], type: 'string' } }) }]),
    expected: [['event-enum-widened', 'breaking', 'payload.kind', 'event']],
  },
  {
    title: 'a payload bound the server loosened',
    client: eventContract('1', [{ name: 'e', payload: closed({ items: { type: 'array', items: str, maxItems: 10 } }) }]),
    server: eventContract('2', [{ name: 'e', payload: closed({ items: { type: 'array', items: str } }) }]),
    expected: [['event-constraint-loosened', 'breaking', 'payload.items', 'event']],
  },
];

function rows(findings: readonly SkewFinding[]): Row[] {
  return findings.map((f) => [f.kind, f.severity, f.path, f.direction]);
}

for (const c of cases) {
  test(`skew kind: ${c.title}`, () => {
    const report = analyseSkew(c.client, c.server);
    expect(rows(report.findings)).toEqual(c.expected);
    expect(report.breaking).toBe(c.expected.some(([, severity]) => severity === 'breaking'));
    // The document on each side against itself never yields anything.
    expect(analyseSkew(c.client, c.client).findings).toEqual([]);
    expect(analyseSkew(c.server, c.server).findings).toEqual([]);
  });
}

test('every finding kind is exercised by a minimal fixture pair above', () => {
  const covered = new Set(cases.flatMap((c) => c.expected.map(([kind]) => kind)));
  expect(SKEW_KINDS.filter((kind) => !covered.has(kind))).toEqual([]);
});

test('unknown keys are found in nested objects, array items and anyOf branches, at their Pydantic-style path', () => {
  const seed = (extra: boolean) => closed({ role: str, ...(extra ? { foo: str } : {}) });
  const client = paramsContract(
    closed({
      messages: { anyOf: [{ type: 'array', items: { $ref: '#/components/schemas/SeedMessage' } }, { type: 'null' }] },
      options: { anyOf: [closed({ fast: { type: 'boolean' }, tier: str }), { type: 'null' }] },
      nested: closed({ inner: closed({ x: int, y: int }) }),
    }),
    '2',
    { SeedMessage: seed(true) },
  );
  const server = paramsContract(
    closed({
      messages: { anyOf: [{ type: 'array', items: { $ref: '#/components/schemas/SeedMessage' } }, { type: 'null' }] },
      options: { anyOf: [closed({ fast: { type: 'boolean' } }), { type: 'null' }] },
      nested: closed({ inner: closed({ x: int }) }),
    }),
    '1',
    { SeedMessage: seed(false) },
  );
  const report = analyseSkew(client, server, { serverCodes: HERMES_CODES });
  expect(rows(report.findings)).toEqual([
    ['param-unknown-to-server', 'breaking', 'messages.0.foo', 'request'],
    ['param-unknown-to-server', 'breaking', 'nested.inner.y', 'request'],
    ['param-unknown-to-server', 'breaking', 'options.tier', 'request'],
  ]);
  expect(report.findings[0]?.message).toContain('the server model SeedMessage is closed (additionalProperties: false)');
  expect(report.findings[0]?.message).toContain('4000 "invalid params for m: messages.0.foo: Extra inputs are not permitted"');
});

test('anyOf branches are matched by shape: each client branch against the server branch that fits it best', () => {
  const cat = (extra: boolean) => closed({ kind: { const: 'cat' }, lives: int, ...(extra ? { name: str } : {}) });
  const dog = closed({ kind: { const: 'dog' }, bark: { type: 'boolean' } });
  const client = paramsContract(closed({ pet: { anyOf: [dog, cat(true)] } }), '2');
  const server = paramsContract(closed({ pet: { anyOf: [cat(false), dog] } }), '1');
  expect(rows(analyseSkew(client, server).findings)).toEqual([['param-unknown-to-server', 'breaking', 'pet.name', 'request']]);
  expect(analyseSkew(server, client).findings.map((f) => f.kind)).toEqual(['param-added-optional']);
});

test('by-name params: unknown names follow the --by-name-unknown policy, required flags come from the descriptors', () => {
  const client = skewContract({ version: '2', methods: [{ name: 'm', byName: [{ name: 'a', schema: str, required: true }, { name: 'b', schema: str }] }] });
  const server = skewContract({ version: '1', methods: [{ name: 'm', byName: [{ name: 'a', schema: str, required: true }, { name: 'c', schema: str, required: true }] }] });
  expect(rows(analyseSkew(client, server).findings)).toEqual([
    ['param-unknown-to-server', 'breaking', 'b', 'request'],
    ['param-required-by-server', 'breaking', 'c', 'request'],
  ]);
  expect(analyseSkew(client, server).findings[0]?.message).toContain('-32602');
  expect(rows(analyseSkew(client, server, { unknownByNameParams: 'ignored' }).findings)).toEqual([
    ['param-ignored-by-server', 'warning', 'b', 'request'],
    ['param-required-by-server', 'breaking', 'c', 'request'],
  ]);
});

test('by-position params are compared position by position', () => {
  const client = skewContract({ version: '2', methods: [{ name: 'm', byPosition: [{ name: 'a', schema: nullableInt, required: true }, { name: 'b', schema: str }] }] });
  const server = skewContract({ version: '1', methods: [{ name: 'm', byPosition: [{ name: 'x', schema: int, required: true }] }] });
  expect(rows(analyseSkew(client, server).findings)).toEqual([
    ['param-type-narrowed', 'breaking', '0', 'request'],
    ['param-unknown-to-server', 'breaking', '1', 'request'],
  ]);
  expect(rows(analyseSkew(server, client).findings)).toEqual([['param-added-optional', 'info', '1', 'request']]);
});

test('$ref cycles terminate: a recursive model against itself is clean, and a change inside it is reported once', () => {
  const tree = (extra: boolean) => ({
    Node: closed({
      value: int,
      children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
      parent: { anyOf: [{ $ref: '#/components/schemas/Node' }, { type: 'null' }] },
      link: { $ref: '#/components/schemas/Link' },
      ...(extra ? { label: str } : {}),
    }),
    Link: { anyOf: [closed({ to: { $ref: '#/components/schemas/Node' } }), { type: 'null' }] },
  });
  const params = closed({ tree: { $ref: '#/components/schemas/Node' } });
  const v1 = paramsContract(params, '1', tree(false));
  const v2 = paramsContract(params, '2', tree(true));
  expect(analyseSkew(v1, v1).findings).toEqual([]);
  expect(analyseSkew(v2, paramsContract(params, '2', tree(true))).findings).toEqual([]);
  expect(rows(analyseSkew(v2, v1).findings)).toEqual([['param-unknown-to-server', 'breaking', 'tree.label', 'request']]);
});

test('the report is deterministic and sorted by method, then path', () => {
  const client = skewContract({
    version: '2',
    methods: [
      { name: 'z', params: closed({ b: str, a: str }) },
      { name: 'a', params: closed({ y: str, x: str }) },
    ],
  });
  const server = skewContract({ version: '1', methods: [{ name: 'z', params: closed({}) }, { name: 'a', params: closed({}) }] });
  const report = analyseSkew(client, server);
  expect(report.findings.map((f) => `${f.method} ${f.path}`)).toEqual(['a x', 'a y', 'z a', 'z b']);
  expect(JSON.stringify(analyseSkew(client, server))).toBe(JSON.stringify(report));
  expect(report.client).toEqual({ title: 'skew fixture', version: '2', path: 'fixture-v2.openrpc.json' });
});
