import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { TargetDown } from './matrixTypes.js';

/**
 * The one record of a target that went down (or became too slow to judge) during a run. Workers write it, the
 * first one wins (exclusive create), and every cell not judged yet reads it; the matrix reporter copies it into
 * `matrix.json`.
 */
export function targetDownPath(reportDir: string): string {
  return join(reportDir, 'test-output', 'work', 'target-down.json');
}

export function readTargetDown(reportDir: string): TargetDown | undefined {
  const path = targetDownPath(reportDir);
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as TargetDown;
  } catch {
    // Being written by another worker right now: it exists, its content follows.
    return { subject: '?', check: '?', frame: '', at: new Date().toISOString() };
  }
}

/** Writes the record unless one exists; true when this call wrote it. */
export function writeTargetDownOnce(reportDir: string, record: TargetDown): boolean {
  const path = targetDownPath(reportDir);
  mkdirSync(dirname(path), { recursive: true });
  try {
    writeFileSync(path, JSON.stringify(record), { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** The reason every later cell carries. */
export function notRunReason(down: TargetDown): string {
  return `target ${down.kind === 'slow' ? 'slow' : 'down'} after ${down.subject} × ${down.check}`;
}
