import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type BindingRules, methodBindingOf } from '../binding/bindingRules.js';
import type { CaseRecord, Counterexample } from '../conformance/methodRunTypes.js';
import { HarnessError, type JsonValue } from '../../core/index.js';
import type { AuthSettings } from '../client/authSettings.js';
import type { Redactor } from '../client/redact.js';

export const REPLAY_KIND = 'contract-gate.replay';

/** Everything needed to re-send one failing exchange to a target and judge it again. */
export interface ReplayFile {
  kind: typeof REPLAY_KIND;
  version: 1;
  createdAt: string;
  /** Target as recorded (token redacted); `embedded` replays start the reference gateway with `gateway`. */
  target: string;
  embedded: boolean;
  /** `gated`: the embedded gateway ran in gated mode; a replay starts it gated with a login made up for it. */
  gateway?: { contracts: string[]; faults: string[]; legacyMessages: boolean; gated?: boolean };
  /** How the run authenticated (variable names only, never a secret); a replay mints its own fresh ticket. */
  auth?: AuthSettings;
  contracts: string[];
  /** The profile the run judged with (a registered profile's name, or a profile file's own name). */
  profile: string;
  method: string;
  check: string;
  seed: number;
  /** fast-check path of the shrunk case, for `fc.check(…, { seed, path })`. */
  path?: string;
  shrinks: number;
  phase: CaseRecord['phase'];
  /** The payload as the generator produced it (before identifier binding). */
  generated: JsonValue;
  /** The payload as sent. */
  payload: JsonValue;
  /** Fields replaced by live ids, with the template that produced them; replay re-binds them on the target. */
  substitutions: Record<string, string>;
  bindings: Pick<BindingRules, 'resources' | 'methods'>;
  probe?: { dottedPath: string; policy: 'closed' | 'open'; key: string };
  mutation?: { kind: string; dottedPath: string; description: string };
  /** The exchange as observed (raw frames, redacted). */
  observed: { request: string; response?: string; failure?: string };
  violation: string;
}

export function buildReplayFile(input: {
  target: string;
  embedded: boolean;
  gateway?: ReplayFile['gateway'];
  auth?: AuthSettings;
  contracts: string[];
  profile: ReplayFile['profile'];
  check: string;
  counterexample: Counterexample;
  bindings: BindingRules;
  violation: string;
  redactor: Redactor;
}): ReplayFile {
  const { record } = input.counterexample;
  const usedResources = Object.fromEntries(Object.entries(input.bindings.resources));
  const methodBinding = methodBindingOf(input.bindings, record.exchange.method);
  return {
    kind: REPLAY_KIND,
    version: 1,
    createdAt: new Date().toISOString(),
    target: input.redactor.redactUrl(input.target),
    embedded: input.embedded,
    ...(input.gateway ? { gateway: input.gateway } : {}),
    ...(input.auth ? { auth: input.auth } : {}),
    contracts: input.contracts,
    profile: input.profile,
    method: record.exchange.method,
    check: input.check,
    seed: input.counterexample.seed,
    ...(input.counterexample.path ? { path: input.counterexample.path } : {}),
    shrinks: input.counterexample.shrinks,
    phase: record.phase,
    generated: record.generated,
    payload: record.payload,
    substitutions: record.substitutions,
    bindings: { resources: usedResources, methods: methodBinding ? { [record.exchange.method]: methodBinding } : {} },
    ...(record.probe ? { probe: { dottedPath: record.probe.dottedPath, policy: record.probe.policy, key: record.probe.key } } : {}),
    ...(record.mutation ? { mutation: record.mutation } : {}),
    observed: {
      request: input.redactor.redact(record.exchange.requestText),
      ...(record.exchange.responseText !== undefined ? { response: input.redactor.redact(record.exchange.responseText) } : {}),
      ...(record.exchange.failure ? { failure: input.redactor.redact(record.exchange.failure.message) } : {}),
    },
    violation: input.redactor.redact(input.violation),
  };
}

export function writeReplayFile(path: string, file: ReplayFile): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`);
}

export function readReplayFile(path: string): ReplayFile {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new HarnessError('REPLAY_FILE_INVALID', `cannot read replay file ${path}: ${(error as Error).message}`, { cause: error });
  }
  const file = data as Partial<ReplayFile>;
  if (file?.kind !== REPLAY_KIND || file.version !== 1 || typeof file.method !== 'string' || typeof file.check !== 'string') {
    throw new HarnessError('REPLAY_FILE_INVALID', `${path} is not a contract-gate replay file (kind ${REPLAY_KIND}, version 1); use a file from the report's replays/ folder`);
  }
  return file as ReplayFile;
}

export function replayCommandLine(path: string): string {
  return `npx contract-gate replay ${path}`;
}
