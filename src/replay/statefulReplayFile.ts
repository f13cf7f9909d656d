import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { HarnessError } from '../../core/index.js';
import type { AuthSettings } from '../client/authSettings.js';
import type { StatefulMode, StatefulResult, Step } from '../stateful/engine/statefulTypes.js';

export const STATEFUL_REPLAY_KIND = 'contract-gate.stateful-replay';

/** A failing call sequence of a stateful run: the whole shrunk sequence, enough to run it again on a fresh gateway. */
export interface StatefulReplayFile {
  kind: typeof STATEFUL_REPLAY_KIND;
  version: 1;
  createdAt: string;
  /** Target as recorded (token redacted); `embedded` replays start the reference gateway with `gateway`. */
  target: string;
  embedded: boolean;
  /** `gated`: the embedded gateway ran in gated mode; a replay starts it gated with a login made up for it. */
  gateway?: { contracts: string[]; faults: string[]; legacyMessages: boolean; gated?: boolean };
  /** How the run authenticated (variable names only, never a secret); a replay mints a fresh ticket per connection. */
  auth?: AuthSettings;
  contracts: string[];
  check: string;
  mode: StatefulMode;
  /** The model the sequence belongs to (a profile's `StatefulReplayer.models` names it). */
  model: string;
  seed: number;
  serverRequests: string[];
  /** The sequence, every executed call in order. */
  steps: Step[];
  /** The same calls, numbered, as the report prints them. */
  calls: string[];
  failure: { index: number; message: string; target?: string; reference?: string };
  /** Length of the first failing sequence, before shrinking. */
  originalLength?: number;
}

export function buildStatefulReplayFile(input: Omit<StatefulReplayFile, 'kind' | 'version' | 'createdAt' | 'steps' | 'failure' | 'originalLength' | 'seed' | 'mode'> & { result: StatefulResult }): StatefulReplayFile {
  const { result, ...rest } = input;
  const failure = result.failure;
  return {
    kind: STATEFUL_REPLAY_KIND,
    version: 1,
    createdAt: new Date().toISOString(),
    ...rest,
    mode: result.mode,
    seed: result.seed,
    steps: [...result.steps],
    failure: {
      index: failure?.index ?? 0,
      message: failure?.message ?? '',
      ...(failure?.target ? { target: failure.target.answer } : {}),
      ...(failure?.reference ? { reference: failure.reference.answer } : {}),
    },
    ...(result.originalLength !== undefined ? { originalLength: result.originalLength } : {}),
  };
}

export function writeStatefulReplayFile(path: string, file: StatefulReplayFile): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`);
}

/** Whether a parsed replay file is a stateful one (the replay command dispatches on it). */
export function isStatefulReplay(data: unknown): data is StatefulReplayFile {
  return typeof data === 'object' && data !== null && (data as { kind?: unknown }).kind === STATEFUL_REPLAY_KIND;
}

export function readStatefulReplayFile(path: string): StatefulReplayFile {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new HarnessError('REPLAY_FILE_INVALID', `cannot read replay file ${path}: ${(error as Error).message}`, { cause: error });
  }
  const file = data as Partial<StatefulReplayFile>;
  if (!isStatefulReplay(data) || file.version !== 1 || !Array.isArray(file.steps) || (file.mode !== 'model' && file.mode !== 'differential')) {
    throw new HarnessError('REPLAY_FILE_INVALID', `${path} is not a contract-gate stateful replay file (kind ${STATEFUL_REPLAY_KIND}, version 1)`);
  }
  return data;
}

/** Reads only the kind of a replay file, to choose the replay that understands it. */
export function replayKindOf(path: string): string | undefined {
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as { kind?: unknown };
    return typeof data.kind === 'string' ? data.kind : undefined;
  } catch {
    return undefined;
  }
}
