import { HarnessError } from '../../core/index.js';
import type { AuthSettings } from '../client/authSettings.js';
import { decodeAuthSettings } from './authSettingsCodec.js';

/**
 * Everything one run of the conformance suites needs, decided once by the CLI and written as a file into the
 * report folder. Fixtures read it through a worker option, reporters through `config.metadata`, spec files at
 * collection time through the one environment variable that points at the file. It never holds a secret: only
 * the names of the environment variables that do.
 */
export interface RunConfig {
  readonly version: 1;
  readonly target: RunTarget;
  /** Target contracts: absolute paths or http(s) URLs; the first one decides the profile. */
  readonly contracts: readonly string[];
  /** Extension documents served beside the contracts (the session hooks). */
  readonly extensions: readonly string[];
  /** The contract of the clients in the field (`--client-contract`). */
  readonly clientContract: string | undefined;
  /** A registered profile's name (profiles/index.ts), `auto`, or the absolute path of a profile file (`--profile FILE`). */
  readonly profile: string;
  /** Identifier binding rules: a file, `none`, or `auto` (the profile's, e.g. bindings.json beside its document). */
  readonly bindings: string;
  readonly seed: number;
  /** Generated valid payloads per method, on top of the fixed examples. */
  readonly runs: number;
  /** Name of the environment variable holding the target token. */
  readonly tokenEnv: string | undefined;
  /** Faults of the embedded reference gateway (self-test). */
  readonly faults: readonly string[];
  readonly legacyMessages: boolean;
  readonly reportDir: string;
  readonly baseline: string | undefined;
  /** Only cells whose title or tags match (the CLI's `--grep`). */
  readonly grep: string | undefined;
  readonly shard: Shard | undefined;
  readonly workers: number | undefined;
  readonly requestTimeoutMs: number;
  /** Requests outstanding at once over the whole run (`--max-in-flight`, default 4), split over the workers. */
  readonly maxInFlight?: number;
  /** Requests per second over the whole run (`--rate`). */
  readonly ratePerSecond?: number;
  /** How long a timed-out target may take to answer a probe again before it counts as slow (`--drain-limit`). */
  readonly drainLimitMs?: number;
  /** Names of environment variables whose values no answer may carry (`--secret-env`); redacted like the token. */
  readonly secretEnv?: readonly string[];
  /** Random call sequences per stateful check (`--stateful-runs`). */
  readonly statefulRuns: number;
  /** At most this many calls per sequence (`--stateful-steps`). */
  readonly statefulSteps: number;
  /** Sequences may use the reference-only directives (`/slow`, `/request`) on an external target too. */
  readonly statefulDirectives: boolean;
  /** How every connection authenticates (`--auth`); absent: the legacy token of `tokenEnv` (loopback mode). */
  readonly auth?: AuthSettings;
  /** The embedded reference gateway runs in gated mode (`--embedded-auth gated`); absent: loopback. */
  readonly embeddedAuth?: 'gated';
  /** The `(auth)` row runs even when the target is not gated (`--auth-checks`). */
  readonly authChecks?: boolean;
}

export type RunTarget =
  | { readonly kind: 'embedded'; readonly label: string }
  /** `url` carries no credential; `label` is what reports show. */
  | { readonly kind: 'external'; readonly url: string; readonly label: string };

export interface Shard {
  /** 1-based. */
  readonly index: number;
  readonly total: number;
}

export const DEFAULT_RUNS = 100;
export const DEFAULT_REQUEST_TIMEOUT_MS = 5_000;
/** A cell's time limit unless it declares its own (both runners: Playwright's `timeout`, the in-process runner). */
export const CELL_TIMEOUT_MS = 120_000;
/** Chosen so that both stateful cells stay within about 20 s on the session-lifecycle contract. */
export const DEFAULT_STATEFUL_RUNS = 25;
export const DEFAULT_STATEFUL_STEPS = 40;

type Raw = Record<string, unknown>;

class Reader {
  constructor(
    private readonly raw: Raw,
    private readonly origin: string,
  ) {}

  fail(field: string, expected: string): never {
    throw new HarnessError('USAGE', `run configuration ${this.origin}: ${field} must be ${expected}, got ${JSON.stringify(this.raw[field]) ?? 'nothing'}`);
  }

  string(field: string): string {
    const value = this.raw[field];
    return typeof value === 'string' && value !== '' ? value : this.fail(field, 'a non-empty string');
  }

  optionalString(field: string): string | undefined {
    return this.raw[field] === undefined || this.raw[field] === null ? undefined : this.string(field);
  }

  integer(field: string, min = Number.MIN_SAFE_INTEGER): number {
    const value = this.raw[field];
    return typeof value === 'number' && Number.isSafeInteger(value) && value >= min ? value : this.fail(field, `an integer ≥ ${min}`);
  }

  optionalInteger(field: string, min?: number): number | undefined {
    return this.raw[field] === undefined || this.raw[field] === null ? undefined : this.integer(field, min);
  }

  boolean(field: string): boolean {
    const value = this.raw[field];
    return typeof value === 'boolean' ? value : this.fail(field, 'true or false');
  }

  strings(field: string): string[] {
    const value = this.raw[field];
    return Array.isArray(value) && value.every((item) => typeof item === 'string') ? [...(value as string[])] : this.fail(field, 'an array of strings');
  }

  object(field: string): Raw {
    const value = this.raw[field];
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Raw) : this.fail(field, 'an object');
  }
}

function targetOf(raw: Raw, origin: string): RunTarget {
  const read = new Reader(raw, `${origin} (target)`);
  const kind = raw['kind'];
  if (kind === 'embedded') return { kind, label: read.string('label') };
  if (kind === 'external') return { kind, url: read.string('url'), label: read.string('label') };
  return read.fail('kind', '"embedded" or "external"');
}

function shardOf(raw: Raw | undefined, origin: string): Shard | undefined {
  if (raw === undefined) return undefined;
  const read = new Reader(raw, `${origin} (shard)`);
  const shard = { index: read.integer('index', 1), total: read.integer('total', 1) };
  if (shard.index > shard.total) read.fail('index', `at most total (${shard.total})`);
  return shard;
}

function optionalIntegers(read: Reader, raw: Raw, fields: ReadonlyArray<'maxInFlight' | 'ratePerSecond' | 'drainLimitMs'>): Partial<RunConfig> {
  const out: Record<string, number> = {};
  for (const field of fields) {
    const value = read.optionalInteger(field, 1);
    if (value !== undefined && raw[field] !== undefined) out[field] = value;
  }
  return out;
}

function authFields(raw: Raw, read: Reader, origin: string): Pick<RunConfig, 'auth' | 'embeddedAuth' | 'authChecks'> {
  const auth = decodeAuthSettings(raw['auth'], origin);
  const embeddedAuth = raw['embeddedAuth'];
  if (embeddedAuth !== undefined && embeddedAuth !== 'gated') read.fail('embeddedAuth', '"gated" or absent');
  const authChecks = raw['authChecks'] === undefined ? undefined : read.boolean('authChecks');
  return { ...(auth ? { auth } : {}), ...(embeddedAuth ? { embeddedAuth } : {}), ...(authChecks !== undefined ? { authChecks } : {}) };
}

/** Whether the run's target is gated: the harness authenticates with tickets or the internal credential. */
export function targetIsGated(config: RunConfig): boolean {
  return config.auth !== undefined && config.auth.mode !== 'token';
}

/** The configuration as text (the file the CLI writes). */
export function encodeRunConfig(config: RunConfig): string {
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** Parses and checks a run configuration; every fault names its field. */
export function decodeRunConfig(text: string, origin: string): RunConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new HarnessError('USAGE', `run configuration ${origin} is not JSON: ${(error as Error).message}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new HarnessError('USAGE', `run configuration ${origin} must be a JSON object`);
  const read = new Reader(raw as Raw, origin);
  if ((raw as Raw)['version'] !== 1) read.fail('version', '1 (written by this version of contract-gate)');
  const profile = (raw as Raw)['profile'];
  if (typeof profile !== 'string' || profile === '') read.fail('profile', "a registered profile's name, auto, or the path of a profile file");
  const grep = read.optionalString('grep');
  if (grep !== undefined) {
    try {
      new RegExp(grep);
    } catch {
      read.fail('grep', 'a regular expression');
    }
  }
  return {
    version: 1,
    target: targetOf(read.object('target'), origin),
    contracts: read.strings('contracts'),
    extensions: read.strings('extensions'),
    clientContract: read.optionalString('clientContract'),
    profile: profile as RunConfig['profile'],
    bindings: read.string('bindings'),
    seed: read.integer('seed', -(2 ** 31)),
    runs: read.integer('runs', 1),
    tokenEnv: read.optionalString('tokenEnv'),
    faults: read.strings('faults'),
    legacyMessages: read.boolean('legacyMessages'),
    reportDir: read.string('reportDir'),
    baseline: read.optionalString('baseline'),
    grep,
    shard: shardOf((raw as Raw)['shard'] === undefined ? undefined : read.object('shard'), origin),
    workers: read.optionalInteger('workers', 1),
    requestTimeoutMs: read.integer('requestTimeoutMs', 1),
    ...((raw as Raw)['secretEnv'] === undefined ? {} : { secretEnv: read.strings('secretEnv') }),
    ...optionalIntegers(read, raw as Raw, ['maxInFlight', 'ratePerSecond', 'drainLimitMs']),
    statefulRuns: read.optionalInteger('statefulRuns', 1) ?? DEFAULT_STATEFUL_RUNS,
    statefulSteps: read.optionalInteger('statefulSteps', 1) ?? DEFAULT_STATEFUL_STEPS,
    statefulDirectives: (raw as Raw)['statefulDirectives'] === undefined ? false : read.boolean('statefulDirectives'),
    ...authFields(raw as Raw, read, origin),
  };
}
