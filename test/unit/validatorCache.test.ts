import { expect, test } from './helpers/test.js';
import fc from 'fast-check';
import { mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseContract, SchemaValidators } from '../../src/contracts/index.js';
import { openRpcMetaValidator, validateOpenRpcDocument } from '../../src/contracts/metaSchema.js';
import { readFileSync } from 'node:fs';
import type { Contract } from '../../src/contracts/index.js';
import { asciiSource, cachedValidator, packValidatorSeed, pruneValidatorCache, validatorCacheDir, validatorCacheLimit, validatorSeedDir } from '../../core/validatorCache.js';
import { runConfigSchema } from '../../src/config/configSchema.js';
import { schemaCheckFor } from '../../fuzz/schemaCheck.js';
import type { JsonSchema } from '../../core/index.js';
import { runCli } from './helpers/cliRunner.js';
import { scratchDir } from './helpers/scratchDir.js';
import { withCache } from './helpers/cacheEnv.js';

const ROOT = join(import.meta.dirname, '..', '..');
const DOCUMENTS = [join(ROOT, 'node_modules/@metamask/api-specs/dist/build/openrpc.json'), join(ROOT, 'profiles/hermes/contracts/session-lifecycle.openrpc.json')];

// Each process validates documents with one meta-schema validator, made at its first use: made here, with the cache
// off, it writes no entry into the folders of the tests below, which count what their schemas wrote.
withCache('off', () => validateOpenRpcDocument({}));

/**
 * The contract at `path`, built anew. A contract's compiled schemas take the cache of the environment they are
 * first compiled in, and a process loads each unchanged file once (`loadContractSync`); these tests move one process
 * from cache to cache, so each step builds its contract as a new process would.
 */
function freshContract(path: string): Contract {
  return parseContract(JSON.parse(readFileSync(path, 'utf8')), path);
}

/** Runs `work` with a new cache folder of its own, removed after. */
function inScratchCache(work: (dir: string) => void): void {
  const dir = scratchDir('contract-gate-vcache');
  try {
    work(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An entry that refuses every value: a check that reports its keyword read the file rather than compiling again. */
const REFUSING_ENTRY = 'function v(){v.errors=[{instancePath:"",keyword:"planted",params:{},message:"from the cache"}];return false}\nmodule.exports=v;module.exports.default=v;';

/** Replaces the folder's only entry with the refusing one; returns its file name. */
function plantRefusingEntry(dir: string): string {
  const [entry, ...others] = readdirSync(dir);
  expect(others, 'one entry written').toEqual([]);
  writeFileSync(join(dir, entry as string), REFUSING_ENTRY);
  return entry as string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const KB = 1024;

/** Writes `name` with `size` bytes, last modified `ageMs` ago. */
function plant(dir: string, name: string, size: number, ageMs: number): void {
  writeFileSync(join(dir, name), 'x'.repeat(size));
  const when = new Date(Date.now() - ageMs);
  utimesSync(join(dir, name), when, when);
}

const schemasOf = (contract: Contract): JsonSchema[] => contract.methods.flatMap((method) => [method.paramsSchema, ...(method.resultSchema === undefined ? [] : [method.resultSchema])]);

test('where the cache lives: CONTRACT_GATE_CACHE_DIR, else the user cache folder; CONTRACT_GATE_CACHE=off turns it off', () => {
  expect(validatorCacheDir({ CONTRACT_GATE_CACHE_DIR: '/x/y' })).toBe('/x/y');
  expect(validatorCacheDir({ XDG_CACHE_HOME: '/c' })).toBe(join('/c', 'contract-gate', 'validators'));
  expect(validatorCacheDir({ CONTRACT_GATE_CACHE: 'off', CONTRACT_GATE_CACHE_DIR: '/x/y' })).toBeUndefined();
});

test('where the seed lives: CONTRACT_GATE_SEED_DIR, else beside the dist/ of an installed package; a checkout has none', () => {
  expect(validatorSeedDir({ CONTRACT_GATE_SEED_DIR: '/s' })).toBe('/s');
  const installed = join('/p', 'node_modules', 'contract-gate');
  expect(validatorSeedDir({}, pathToFileURL(join(installed, 'dist', 'cli', 'bundle', 'chunk-A.js')).href)).toBe(join(installed, 'validator-seed'));
  expect(validatorSeedDir({}, pathToFileURL(join(installed, 'dist', 'core', 'validatorCache.js')).href)).toBe(join(installed, 'validator-seed'));
  expect(validatorSeedDir({}, pathToFileURL(join('/repo', 'dist', 'core', 'validatorCache.js')).href)).toBeUndefined();
  expect(validatorSeedDir({}, pathToFileURL(join('/repo', 'core', 'validatorCache.ts')).href)).toBeUndefined();
  // This checkout's own runs and tests compile as a machine's first run does.
  expect(validatorSeedDir({})).toBeUndefined();
});

test('a seed answers where the cache misses, and what it answers is not written to the cache; a schema it lacks is compiled and kept', () => {
  const root = scratchDir('contract-gate-vseed');
  const [filled, seed, empty] = ['filled', 'seed', 'empty'].map((name) => join(root, name)) as [string, string, string];
  const path = DOCUMENTS[1] as string;
  const schema = { type: 'object', required: ['session_id'], properties: { session_id: { type: 'string' } } };
  const valid = { session_id: 's1' };
  const short = { type: 'string', maxLength: 2 };
  withCache(filled, () => {
    const validators = new SchemaValidators(freshContract(path));
    validators.validator(schema);
    validators.validator(short);
  });
  // The seed holds entries that refuse everything, each with a keyword of its own: a check that reports one read it
  // from the seed, at its own place in the seed's one file.
  const entries = readdirSync(filled);
  expect(entries).toHaveLength(2);
  for (const entry of entries) {
    const keyword = readFileSync(join(filled, entry), 'utf8').includes('maxLength') ? 'planted-short' : 'planted';
    writeFileSync(join(filled, entry), REFUSING_ENTRY.replace('"planted"', JSON.stringify(keyword)));
  }
  expect(packValidatorSeed(filled, seed)).toBe(2);
  mkdirSync(empty);
  const withSeed = <T>(seedDir: string, work: () => T): T => {
    process.env['CONTRACT_GATE_SEED_DIR'] = seedDir;
    try {
      return withCache(empty, work);
    } finally {
      delete process.env['CONTRACT_GATE_SEED_DIR'];
    }
  };
  expect(withSeed(seed, () => new SchemaValidators(freshContract(path)).check(schema, valid)).map((v) => v.keyword)).toEqual(['planted']);
  expect(withSeed(seed, () => new SchemaValidators(freshContract(path)).check(short, 'ab')).map((v) => v.keyword)).toEqual(['planted-short']);
  expect(readdirSync(empty), 'nothing written for what the seed holds').toEqual([]);
  const other = { type: 'integer', minimum: 3 };
  expect(withSeed(seed, () => new SchemaValidators(freshContract(path)).check(other, 2)).map((v) => v.keyword)).toEqual(['minimum']);
  expect(readdirSync(empty), 'what the seed lacks is compiled and kept').toHaveLength(1);
  // A seed that cannot be read is no seed: the schema is compiled.
  rmSync(empty, { recursive: true });
  const broken = join(root, 'broken');
  mkdirSync(broken);
  writeFileSync(join(broken, 'index.json'), '{ not JSON');
  expect(withSeed(broken, () => new SchemaValidators(freshContract(path)).check(schema, valid))).toEqual([]);
});

test('property: a validator loaded from the cache gives the verdict and the errors of one compiled afresh, on third-party and Hermes schemas', () => {
  inScratchCache((dir) => {
    for (const path of DOCUMENTS) {
      // Each load gives a new document object, so each SchemaValidators below starts with nothing in memory.
      const cold = withCache(dir, () => new SchemaValidators(freshContract(path)));
      const contract = freshContract(path);
      const schemas = schemasOf(contract);
      for (const schema of schemas) withCache(dir, () => cold.validator(schema));
      expect(readdirSync(dir).length, `${path}: validators written`).toBeGreaterThan(0);
      const warm = withCache(dir, () => new SchemaValidators(contract));
      const fresh = withCache('off', () => new SchemaValidators(freshContract(path)));
      // Every disagreement collected and asserted once per document: an expect per value costs more than the checks.
      const values = fc.sample(fc.oneof(fc.jsonValue(), fc.object()), { numRuns: 8, seed: 7 });
      const disagreements = schemas.flatMap((schema) =>
        values.flatMap((value) => {
          const [cached, compiled] = [withCache(dir, () => warm.check(schema, value)), fresh.check(schema, value)];
          return JSON.stringify(cached) === JSON.stringify(compiled) ? [] : [{ schema, value, cached, compiled }];
        }),
      );
      expect(disagreements, `${path}: cached and fresh validators disagree`).toEqual([]);
    }
  });
});

test('property: an entry is ASCII, and its validator admits what the compiled one does, for text in any script (descriptions, enums, patterns)', () => {
  const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  const options = { allErrors: false, validateSchema: false, code: { optimize: false } } as const;
  fc.assert(
    fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }), (text) => {
      inScratchCache((dir) => {
        const schema = { description: `${text} → ${text}`, anyOf: [{ enum: [text, 'plain'] }, { type: 'string', pattern: `^${escapeRegex(text)}[0-9]$` }] };
        const make = () => cachedValidator('ascii-test', options, schema);
        const compiled = withCache(dir, make);
        const loaded = withCache(dir, make);
        const entries = readdirSync(dir);
        const stored = entries.map((name) => readFileSync(join(dir, name), 'utf8'));
        const values = [text, `${text}7`, `${text}x`, `x${text}`, 'plain', text.slice(1)];
        const differing = values.filter((value) => compiled(value) !== loaded(value));
        if (loaded.source !== undefined || stored.some((code) => /[^\x00-\x7f]/.test(code)) || differing.length > 0) {
          expect({ loadedFromCache: loaded.source === undefined, entries: stored.length, ascii: stored.map((code) => !/[^\x00-\x7f]/.test(code)), differing }).toEqual({
            loadedFromCache: true,
            entries: 1,
            ascii: [true],
            differing: [],
          });
        }
      });
    }),
    { numRuns: 40, seed: 29 },
  );
  // A character that follows a backslash would change meaning when escaped: such code is kept whole.
  expect(asciiSource('const s = "\\é"; // →')).toBe('const s = "\\é"; // →');
  expect(asciiSource('const s = "é😀"; /[→]/u')).toBe('const s = "\\u00e9\\ud83d\\ude00"; /[\\u2192]/u');
});

test('the OpenRPC meta-schema validator comes from the cache after the first run, with the verdicts and errors of one compiled afresh', () => {
  inScratchCache((dir) => {
    const cold = withCache(dir, openRpcMetaValidator);
    expect(readdirSync(dir).filter((name) => name.endsWith('.cjs')), 'the first run stores it').toHaveLength(1);
    const warm = withCache(dir, openRpcMetaValidator);
    const fresh = withCache('off', openRpcMetaValidator);
    // With the cache on, a compiled validator keeps its source (ajv's code.source, for the file); a loaded one has none.
    expect([cold, warm].map((validate) => validate.source === undefined), 'compiled, then loaded').toEqual([false, true]);
    const documents = DOCUMENTS.map((path) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>);
    const broken = documents.flatMap((document) => [
      { ...document, openrpc: 7 },
      { ...document, methods: [{ name: 'x' }] },
      { ...document, info: { title: 'no version' } },
      { ...document, methods: [{ name: 'x', params: [{ name: 'p', schema: { type: 'nope' } }], result: { name: 'r', schema: {} } }] },
    ]);
    const verdict = (validate: typeof cold, document: unknown) => (validate(document) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.keyword} ${error.message ?? ''}`));
    for (const document of [...documents, ...broken]) expect(verdict(warm, document)).toEqual(verdict(fresh, document));
    expect(documents.map((document) => verdict(warm, document))).toEqual([[], []]);
    expect(broken.every((document) => verdict(warm, document).length > 0), 'each broken document is refused').toBe(true);
  });
});

test('the command line keeps what it compiles, schemas with formats too, and says so; a second run finds every validator in the cache and says nothing', async () => {
  const dir = scratchDir('contract-gate-vcache-cli');
  const run = () => runCli(['run', '--contract', DOCUMENTS[1] as string, '--grep', '@method:session\\.list(?=\\s|$)', '--seed', '1', '--report-dir', join(dir, 'report')], { CONTRACT_GATE_CACHE_DIR: join(dir, 'cache') });
  const first = await run();
  expect(first.code, first.stdout + first.stderr).toBe(0);
  const entries = () => readdirSync(join(dir, 'cache')).filter((name) => name.endsWith('.cjs')).sort();
  const stored = entries();
  // The OpenRPC meta-schema declares formats (uri): its entry is the one that needs ajv-formats in the standalone code.
  expect(stored.filter((name) => readFileSync(join(dir, 'cache', name), 'utf8').includes('"$id":"https://meta.open-rpc.org/"')), 'the meta-schema validator').toHaveLength(1);
  // The run's own process wrote all of them (its gateways run beside it on a run this small).
  expect(first.stdout).toContain(`contract-gate: validator cache: ${stored.length} validators compiled and kept in ${join(dir, 'cache')} (0 loaded from it)`);
  const second = await run();
  expect(second.code, second.stdout + second.stderr).toBe(0);
  expect(entries(), 'the second run compiled nothing new').toEqual(stored);
  expect(second.stdout).not.toContain('validator cache');
});

test('property: the run configuration validator from the cache fills the defaults and finds the errors of one compiled afresh', () => {
  inScratchCache((dir) => {
    const options = { useDefaults: true, allErrors: false, validateSchema: false, code: { optimize: false } } as const;
    const make = () => cachedValidator('run-config-test', options, runConfigSchema());
    const cold = withCache(dir, make);
    const warm = withCache(dir, make);
    const fresh = withCache('off', make);
    expect([cold, warm].map((validate) => validate.source === undefined), 'compiled, then loaded').toEqual([false, true]);
    // A configuration as `contract-gate run` writes it; the cases drop some of its fields (those with a default come
    // back filled in) and give others values of any kind.
    const written = { version: 1, target: { kind: 'embedded', label: 'embedded reference gateway' }, startedAt: 1, contracts: ['a.json'], extensions: [], profile: 'hermes', bindings: 'auto', seed: 7, runs: 100, retries: 0, failOnFlaky: false, reportDir: '/tmp/r', runner: 'in-process', maxInFlight: 4, requestTimeoutMs: 5000, drainLimitMs: 30000, statefulRuns: 25, statefulSteps: 40, statefulDirectives: false, faults: [], legacyMessages: false, secretEnv: [], embeddedAuth: 'loopback', authChecks: false };
    expect(warm(structuredClone(written)), 'the written configuration is valid').toBe(true);
    const keys = Object.keys(written);
    const anyValue = fc.oneof(fc.integer({ min: -2, max: 50 }), fc.string({ maxLength: 4 }), fc.boolean(), fc.constant(null), fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }));
    const cases = fc.record({ dropped: fc.subarray(keys, { maxLength: 4 }), changed: fc.dictionary(fc.constantFrom(...keys, 'unknownKey'), anyValue, { maxKeys: 2 }) });
    let valid = 0;
    fc.assert(
      fc.property(cases, ({ dropped, changed }) => {
        const value: Record<string, unknown> = { ...structuredClone(written), ...changed };
        for (const key of dropped) delete value[key];
        const [a, b] = [structuredClone(value), structuredClone(value)];
        const [okWarm, okFresh] = [warm(a), fresh(b)];
        if (okWarm) valid++;
        expect(okWarm).toBe(okFresh);
        expect(a, 'the same defaults filled in').toEqual(b);
        expect(warm.errors ?? null).toEqual(fresh.errors ?? null);
      }),
      { numRuns: 300, seed: 29 },
    );
    expect(valid, 'cases on both sides of the schema').toBeGreaterThan(20);
  });
});

test('the cache is what a later run uses, and an entry that does not load is compiled again', () => {
  inScratchCache((dir) => {
    const path = DOCUMENTS[1] as string;
    const schema = { type: 'object', required: ['session_id'], properties: { session_id: { type: 'string' } } };
    withCache(dir, () => new SchemaValidators(freshContract(path)).validator(schema));
    const valid = { session_id: 's1' };
    const entry = plantRefusingEntry(dir);
    expect(withCache(dir, () => new SchemaValidators(freshContract(path)).check(schema, valid)).map((v) => v.keyword)).toEqual(['planted']);
    writeFileSync(join(dir, entry), 'this is not JavaScript (');
    expect(withCache(dir, () => new SchemaValidators(freshContract(path)).check(schema, valid))).toEqual([]);
    expect(withCache(dir, () => new SchemaValidators(freshContract(path)).check(schema, { session_id: 1 })).map((v) => v.instancePath)).toEqual(['/session_id']);
  });
});

test('an unwritable cache folder costs nothing but the cache: validators are compiled as without one', () => {
  const file = join(scratchDir('contract-gate-vcache'), 'a-file');
  writeFileSync(file, '');
  const validators = withCache(join(file, 'below-a-file'), () => new SchemaValidators(freshContract(DOCUMENTS[1] as string)));
  const schema = { type: 'integer', minimum: 3 };
  expect(withCache(join(file, 'below-a-file'), () => validators.check(schema, 2)).map((v) => v.keyword)).toEqual(['minimum']);
  expect(validators.check(schema, 3)).toEqual([]);
});

test('the cache folder is bounded: over the bound, the entries used least recently go first, down to three quarters; dead writers\' partial files go', () => {
  expect(validatorCacheLimit({})).toBe(256 * 1024 * 1024);
  expect(validatorCacheLimit({ CONTRACT_GATE_CACHE_MAX_MB: '2' })).toBe(2 * 1024 * 1024);
  expect(validatorCacheLimit({ CONTRACT_GATE_CACHE_MAX_MB: 'lots' })).toBe(256 * 1024 * 1024);
  inScratchCache((dir) => {
    for (let index = 0; index < 10; index++) plant(dir, `entry-${index}.cjs`, 100 * KB, (10 - index) * DAY_MS);
    plant(dir, 'entry-9.cjs.111.partial', 50 * KB, 2 * 60 * 60 * 1000);
    plant(dir, 'entry-8.cjs.222.partial', 50 * KB, 1_000);
    expect(pruneValidatorCache(dir, 500 * KB)).toEqual({ removed: 7, bytes: 300 * KB });
    expect(readdirSync(dir).sort()).toEqual(['entry-7.cjs', 'entry-8.cjs', 'entry-8.cjs.222.partial', 'entry-9.cjs']);
    expect(pruneValidatorCache(dir, 500 * KB), 'within the bound nothing goes').toEqual({ removed: 0, bytes: 300 * KB });
    expect(pruneValidatorCache(join(dir, 'missing'), 1)).toEqual({ removed: 0, bytes: 0 });
  });
});

test('a run that writes to a cache over its bound prunes it, keeping what it wrote; a load on a later day marks the entry used', () => {
  const path = DOCUMENTS[1] as string;
  const schema = { type: 'object', required: ['title'], properties: { title: { type: 'string' } } };
  inScratchCache((dir) => {
    for (let index = 0; index < 20; index++) plant(dir, `old-${index}.cjs`, 100 * KB, 2 * DAY_MS + index);
    withCache(dir, () => new SchemaValidators(freshContract(path)).validator(schema), 1);
    const names = readdirSync(dir);
    const written = names.filter((name) => !name.startsWith('old-'));
    expect(written).toHaveLength(1);
    const bytes = names.reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
    expect(bytes).toBeLessThanOrEqual(0.75 * 1024 * KB);
    expect(names.length).toBeGreaterThan(1);

    const entry = join(dir, written[0] as string);
    const recently = new Date(Date.now() - 60 * 60 * 1000);
    utimesSync(entry, recently, recently);
    withCache(dir, () => new SchemaValidators(freshContract(path)).check(schema, { title: 't' }));
    expect(Math.abs(statSync(entry).mtimeMs - recently.getTime()), 'a load the same day writes nothing').toBeLessThan(1);
    const longAgo = new Date(Date.now() - 3 * DAY_MS);
    utimesSync(entry, longAgo, longAgo);
    expect(withCache(dir, () => new SchemaValidators(freshContract(path)).check(schema, { title: 1 })).map((v) => v.instancePath)).toEqual(['/title']);
    expect(Date.now() - statSync(entry).mtimeMs, 'a load on a later day marks the entry used').toBeLessThan(60_000);
  });
});

test("the generators' own validators are cached too, per document: loaded ones judge as fresh ones; a resolver without a digest is never cached", () => {
  inScratchCache((dir) => {
    for (const path of DOCUMENTS) {
      const schemas = schemasOf(freshContract(path));
      const values = fc.sample(fc.oneof(fc.jsonValue(), fc.object()), { numRuns: 6, seed: 11 });
      // Each load gives a new resolver, so each check below starts with nothing in memory.
      const outcomes = (cache: string) =>
        withCache(cache, () => {
          const check = schemaCheckFor(freshContract(path).resolver);
          return schemas.map((schema) => values.map((value) => check.errors(schema as never, value as never)));
        });
      const fresh = outcomes('off');
      expect(outcomes(dir)).toEqual(fresh);
      expect(readdirSync(dir).length, `${path}: validators written`).toBeGreaterThan(0);
      expect(outcomes(dir), `${path}: loaded from the cache`).toEqual(fresh);
    }
    // A document without a digest (a resolver made by hand) is never cached.
    const before = readdirSync(dir).length;
    withCache(dir, () => schemaCheckFor({ resolve: () => undefined }).errors({ type: 'string', minLength: 3 }, 'ab'));
    expect(readdirSync(dir).length).toBe(before);
  });
});

test("a planted entry is what the generators' check uses: the cache is read, not only written", () => {
  inScratchCache((dir) => {
    const path = DOCUMENTS[1] as string;
    const schema = { type: 'object', required: ['cols'], properties: { cols: { type: 'integer' } } };
    withCache(dir, () => schemaCheckFor(freshContract(path).resolver).accepts(schema, { cols: 80 }));
    plantRefusingEntry(dir);
    expect(withCache(dir, () => schemaCheckFor(freshContract(path).resolver).errors(schema, { cols: 80 })).map((error) => error.keyword)).toEqual(['planted']);
  });
});
