import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { HarnessError } from '../../core/index.js';

export const FRAMES_REPLAY_KIND = 'contract-gate.frames-replay';

/**
 * The frames a cell sent last before the target stopped accepting connections. Replaying sends them, in order,
 * on one connection to a fresh target and then checks whether it still accepts connections.
 */
export interface FramesReplayFile {
  kind: typeof FRAMES_REPLAY_KIND;
  version: 1;
  createdAt: string;
  /** Target as recorded (token redacted). */
  target: string;
  subject: string;
  check: string;
  /** Redacted frame texts, in the order they were sent. */
  frames: string[];
}

export function writeFramesReplay(path: string, file: Omit<FramesReplayFile, 'kind' | 'version' | 'createdAt'>): void {
  mkdirSync(dirname(path), { recursive: true });
  const full: FramesReplayFile = { kind: FRAMES_REPLAY_KIND, version: 1, createdAt: new Date().toISOString(), ...file };
  writeFileSync(path, `${JSON.stringify(full, null, 2)}\n`);
}

export function isFramesReplay(data: unknown): data is FramesReplayFile {
  return typeof data === 'object' && data !== null && (data as Record<string, unknown>)['kind'] === FRAMES_REPLAY_KIND;
}

export function parseFramesReplay(data: unknown, path: string): FramesReplayFile {
  const file = data as Partial<FramesReplayFile>;
  if (!isFramesReplay(data) || !Array.isArray(file.frames) || !file.frames.every((frame) => typeof frame === 'string') || typeof file.target !== 'string') {
    throw new HarnessError('USAGE', `${path} is not a frames replay file ({kind: "${FRAMES_REPLAY_KIND}", target, frames: [string]})`);
  }
  return data;
}
