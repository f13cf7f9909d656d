import { expect, test } from './helpers/test.js';
import fc from 'fast-check';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Ajv, ValidateFunction } from 'ajv';
import { validatorStore } from '../../core/validatorCache.js';
import { loadContractSet, type ContractSet, type SchemaAt } from '../../gateway/core/contract/contractSet.js';
import { SchemaValidators, type ValidatorStore } from '../../gateway/core/contract/schemaValidators.js';
import { runCli } from './helpers/cliRunner.js';
import { scratchDir } from './helpers/scratchDir.js';
import { withCache } from './helpers/cacheEnv.js';

/*
 * The reference gateway compiles its validators with its own Ajv; whoever starts it may pass a store that keeps them
 * between processes (the harness passes its validator cache). A stored validator must admit and refuse what a
 * compiled one does, with the same first issue, and a later gateway must take it from the store instead of compiling.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const DOCUMENTS = [
  [join(ROOT, 'profiles/hermes/contracts/gateway.openrpc.json')],
  // Formats (`uri`, `date-time`...) live in third-party documents: their stored code loads them from ajv-formats.
  [join(ROOT, 'node_modules/@metamask/api-specs/dist/build/openrpc.json')],
];

/** Every schema location of the set the gateway checks: params, results, server requests and notification payloads. */
function locations(contracts: ContractSet): SchemaAt[] {
  const entries = [...contracts.methods.values(), ...contracts.serverRequests.values()];
  return [
    ...entries.flatMap((entry) => [...entry.params.map((param) => param.schema), ...(entry.result ? [entry.result] : [])]),
    ...[...contracts.notifications.values()].flatMap((notification) => (notification.payload ? [notification.payload] : [])),
  ];
}

/** The harness's store, with the scope of every shelf it opened and how often each shelf loaded and stored. */
function countingStore(): { store: ValidatorStore; counts: { hits: number; misses: number; stored: number } } {
  const counts = { hits: 0, misses: 0, stored: 0 };
  const store: ValidatorStore = {
    code: validatorStore.code,
    open(scope) {
      const shelf = validatorStore.open(scope);
      if (!shelf) return undefined;
      return {
        load(key: string): ValidateFunction | undefined {
          const loaded = shelf.load(key);
          if (loaded) counts.hits++;
          else counts.misses++;
          return loaded;
        },
        store(key: string, ajv: Ajv, validate: ValidateFunction): void {
          counts.stored++;
          shelf.store(key, ajv, validate);
        },
      };
    },
  };
  return { store, counts };
}

for (const paths of DOCUMENTS) {
  test(`stored validators of the reference gateway judge as compiled ones, and a later gateway loads every one: ${paths.map((path) => path.slice(ROOT.length + 1)).join(', ')}`, () => {
    const dir = scratchDir('contract-gate-gateway-store');
    try {
      const contracts = loadContractSet(paths);
      const at = locations(contracts);
      expect(at.length).toBeGreaterThan(20);
      const values = fc.sample(fc.oneof(fc.jsonValue(), fc.object(), fc.dictionary(fc.constantFrom('session_id', 'cwd', 'type', 'id', 'address', 'blockHash'), fc.jsonValue())), { numRuns: 12, seed: 29 });
      const verdicts = (validators: SchemaValidators) => at.map((location) => values.map((value) => validators.check(location, value) ?? null));

      const fresh = verdicts(new SchemaValidators(contracts, () => undefined));
      const first = countingStore();
      const stored = withCache(dir, () => verdicts(new SchemaValidators(contracts, () => undefined, first.store)));
      expect(first.counts.hits, 'an empty store has nothing to load').toBe(0);
      expect(first.counts.stored, 'each schema compiled is stored').toBe(first.counts.misses);
      expect(readdirSync(dir).length, 'the entries written').toBe(first.counts.stored);

      const later = countingStore();
      const loaded = withCache(dir, () => verdicts(new SchemaValidators(contracts, () => undefined, later.store)));
      expect([later.counts.hits, later.counts.misses, later.counts.stored], 'the later gateway loads every validator and compiles none').toEqual([first.counts.stored, 0, 0]);
      expect(stored, 'the storing gateway judges as one without a store').toEqual(fresh);
      expect(loaded, 'the loading gateway judges as one without a store').toEqual(fresh);
      expect(fresh.flat().filter((issue) => issue === null).length, 'some values are admitted').toBeGreaterThan(0);
      expect(fresh.flat().filter((issue) => issue !== null).length, 'some values are refused').toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('a store that is off (no shelf) leaves the gateway compiling as without one', () => {
  const contracts = loadContractSet([join(ROOT, 'profiles/hermes/contracts/session-lifecycle.openrpc.json')]);
  const off: ValidatorStore = { code: validatorStore.code, open: () => undefined };
  const at = locations(contracts);
  const value = { session_id: 1 };
  const withOff = new SchemaValidators(contracts, () => undefined, off);
  const without = new SchemaValidators(contracts, () => undefined);
  expect(at.map((location) => withOff.check(location, value) ?? null)).toEqual(at.map((location) => without.check(location, value) ?? null));
});

test("the embedded gateway of a run keeps its validators in the harness's cache: a second run's gateway compiles none", async () => {
  const dir = scratchDir('contract-gate-gateway-store-cli');
  const cache = join(dir, 'cache');
  // The gateway's entries are the ones whose code names its documents (the harness registers its own under other ids).
  const gatewayEntries = (): Map<string, number> =>
    new Map(
      readdirSync(cache)
        .filter((name) => name.endsWith('.cjs') && readFileSync(join(cache, name), 'utf8').includes('urn:contract-gate:gateway:document:'))
        .map((name) => [name, statSync(join(cache, name)).ino]),
    );
  try {
    const args = ['run', '--contract', 'profiles/hermes/contracts/session-lifecycle.openrpc.json', '--grep', '@method:session\\.create', '--report-dir', join(dir, 'report')];
    const first = await runCli(args, { CONTRACT_GATE_CACHE_DIR: cache });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const written = gatewayEntries();
    expect(written.size, 'the first run stored the gateway validators it compiled').toBeGreaterThan(0);
    const second = await runCli(args, { CONTRACT_GATE_CACHE_DIR: cache });
    expect(second.code, second.stdout + second.stderr).toBe(0);
    // A validator compiled again would be stored again: a new file renamed over the old one, with another inode.
    expect(gatewayEntries(), 'the second run loaded every gateway validator and rewrote none').toEqual(written);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a store that throws costs its entries, never a validator: the gateway compiles and judges as without one', () => {
  const contracts = loadContractSet([join(ROOT, 'profiles/hermes/contracts/session-lifecycle.openrpc.json')]);
  const failing: ValidatorStore = {
    code: validatorStore.code,
    open: () => ({
      load: () => {
        throw new Error('unreadable');
      },
      store: () => {
        throw new Error('unwritable');
      },
    }),
  };
  const at = locations(contracts);
  const values = [{ session_id: 1 }, {}, { session_id: 'abc' }, 'text'];
  const judge = (validators: SchemaValidators) => at.map((location) => values.map((value) => validators.check(location, value) ?? null));
  const logged: string[] = [];
  expect(judge(new SchemaValidators(contracts, (line) => logged.push(line), failing))).toEqual(judge(new SchemaValidators(contracts, () => undefined)));
  expect(logged, 'nothing is reported as not compilable').toEqual([]);
});
