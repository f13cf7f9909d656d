import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MatrixRuns } from './matrixTypes.js';

/**
 * One method run as its worker records it in test-output/work/method-runs-ledger/ (one file per method, rewritten
 * as the run goes): when it started, what its fixed cases cost, the runs a time budget granted it, the runs it made.
 * The workers read each other's entries to share a budget; the progress line reads them for its estimate; the
 * matrix reporter reads them to say what a budget cut.
 */
export interface MethodLedgerEntry {
  readonly method: string;
  /** Valid-phase runs asked for (`--runs`). */
  readonly asked: number;
  /** Epoch milliseconds. */
  readonly startedAt: number;
  /** Set once the fixed cases ran (budgeted runs measure them first). */
  readonly examples?: number;
  /** One valid case: measured on the examples, then on the generated cases as they run. */
  readonly perRunMs?: number;
  readonly fixedMs?: number;
  /** The fixed cases in valid cases' worth of time, as first measured (the examples' case cost). */
  readonly fixedCases?: number;
  /** The valid-phase runs the budget granted, and when. */
  readonly granted?: number;
  readonly grantedAt?: number;
  /**
   * While the run goes on: the valid-phase cases made so far, examples included, and when the last one ended (epoch
   * milliseconds). The progress estimate reads the run's pace from them (src/run/runEta.ts).
   */
  readonly validMade?: number;
  readonly validMadeAt?: number;
  /** Set when the run ended: the valid-phase runs made, examples included. */
  readonly made?: number;
  readonly elapsedMs?: number;
}

export function ledgerDir(workDir: string): string {
  return join(workDir, 'method-runs-ledger');
}

/** Every entry written so far (an entry being rewritten right now is skipped: it is read again next time). */
export function readLedger(workDir: string): MethodLedgerEntry[] {
  const dir = ledgerDir(workDir);
  if (!existsSync(dir)) return [];
  const entries: MethodLedgerEntry[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.json')) continue;
    try {
      entries.push(JSON.parse(readFileSync(join(dir, name), 'utf8')) as MethodLedgerEntry);
    } catch {
      // renamed away between the listing and the read
    }
  }
  return entries;
}

/** The runs per method the matrix reports: under a budget always, otherwise only when a method made fewer than asked. */
export function matrixRunsOf(entries: readonly MethodLedgerEntry[], budgetMs: number | undefined): MatrixRuns | undefined {
  const ended = entries.filter((entry) => entry.made !== undefined).sort((a, b) => a.method.localeCompare(b.method));
  if (ended.length === 0) return undefined;
  const methods = ended.map((entry) => ({ method: entry.method, asked: entry.asked, made: entry.made as number, ...(entry.perRunMs !== undefined ? { perRunMs: Math.round(entry.perRunMs) } : {}) }));
  const cut = methods.filter((method) => method.made < method.asked).length;
  if (budgetMs === undefined && cut === 0) return undefined;
  return { ...(budgetMs !== undefined ? { budgetMs } : {}), cut, methods };
}

