/**
 * Where an embedded reference gateway's start-up goes: reading the documents, registering them with ajv, the rest
 * of `startGateway` (the HTTP/WebSocket server, the core), a second start in the same process (which shares the
 * compiled contracts), and the ajv compiles that happen later, lazily, the first time a schema checks a value (a
 * run reaches every method, so it pays for all of them). Each part is timed in this run and given as a share of
 * the cold start; nothing here is compared with a fixed time.
 *
 * BENCH_GATEWAY_BASELINE=<checkout> measures another build (its dist/) the same way, after this one.
 *
 * Run: npx tsx bench/gatewayStartup.ts
 */
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as GatewayIndex from '../dist/gateway/index.js';
import type * as ContractSetFile from '../dist/gateway/core/contract/contractSet.js';
import type * as ValidatorsFile from '../dist/gateway/core/contract/schemaValidators.js';

type GatewayModule = typeof GatewayIndex;
type ContractSetModule = typeof ContractSetFile;
type ValidatorsModule = typeof ValidatorsFile;

const REPO = fileURLToPath(new URL('..', import.meta.url));

export interface StartupShares {
  readonly coldStartMs: number;
  readonly warmStartMs: number;
  readonly loadDocumentsMs: number;
  readonly registerWithAjvMs: number;
  /** Compiling every schema a run can reach (method params and results, event payloads, server requests). */
  readonly compileEverySchemaMs: number;
  readonly schemas: number;
}

const since = (started: number): number => performance.now() - started;

/** The start-up of the gateway built in `checkout` (default: this one), on its default (full Hermes) document. */
export async function gatewayStartup(checkout = REPO): Promise<StartupShares> {
  const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(resolve(checkout), 'dist', 'gateway', path)).href)) as T;
  const { startGateway, DEFAULT_CONTRACT_PATH: contract } = await load<GatewayModule>('index.js');
  const { loadContractSet } = await load<ContractSetModule>('core/contract/contractSet.js');
  const { SchemaValidators } = await load<ValidatorsModule>('core/contract/schemaValidators.js');
  let started = performance.now();
  const cold = await startGateway({ contractPaths: [contract] });
  const coldStartMs = since(started);
  await cold.close();
  started = performance.now();
  const warm = await startGateway({ contractPaths: [contract] });
  const warmStartMs = since(started);
  await warm.close();

  // The same steps on their own, outside the gateway's cache (the JIT is warm by now, so these are lower bounds).
  started = performance.now();
  const contracts = loadContractSet([contract]);
  const loadDocumentsMs = since(started);
  started = performance.now();
  const validators = new SchemaValidators(contracts, () => undefined);
  const registerWithAjvMs = since(started);
  const locations = [
    ...[...contracts.methods.values(), ...contracts.serverRequests.values()].flatMap((method) => [...method.params.map((param) => param.schema), ...(method.result ? [method.result] : [])]),
    ...[...contracts.notifications.values()].flatMap((event) => (event.payload ? [event.payload] : [])),
  ];
  started = performance.now();
  for (const at of locations) validators.check(at, undefined);
  const compileEverySchemaMs = since(started);
  return { coldStartMs, warmStartMs, loadDocumentsMs, registerWithAjvMs, compileEverySchemaMs, schemas: locations.length };
}

function print(label: string, shares: StartupShares): void {
  const share = (ms: number): string => `${((ms / shares.coldStartMs) * 100).toFixed(0)}%`;
  console.log(`\n| embedded gateway start-up, full Hermes document, ${label} | ms | share of a cold start |`);
  console.log('|---|--:|--:|');
  console.log(`| cold start (first in the process) | ${shares.coldStartMs.toFixed(0)} | 100% |`);
  console.log(`| of which: reading the documents (measured again on its own) | ${shares.loadDocumentsMs.toFixed(0)} | ${share(shares.loadDocumentsMs)} |`);
  console.log(`| of which: registering them with ajv (ajv, ajv-formats) | ${shares.registerWithAjvMs.toFixed(0)} | ${share(shares.registerWithAjvMs)} |`);
  console.log(`| a second start in the same process (contracts shared) | ${shares.warmStartMs.toFixed(0)} | ${share(shares.warmStartMs)} |`);
  console.log(`| later, lazily: compiling all ${shares.schemas} schemas a run can reach | ${shares.compileEverySchemaMs.toFixed(0)} | ${share(shares.compileEverySchemaMs)} |`);
}

async function main(): Promise<void> {
  const current = await gatewayStartup();
  const baselineCheckout = process.env['BENCH_GATEWAY_BASELINE'];
  const baseline = baselineCheckout ? await gatewayStartup(baselineCheckout) : undefined;
  print('this build', current);
  if (baseline) {
    print(`baseline build (${baselineCheckout})`, baseline);
    console.log(`\ncompiling every schema: this build / baseline = ${(current.compileEverySchemaMs / baseline.compileEverySchemaMs).toFixed(2)}×`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
