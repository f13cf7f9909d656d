import { join } from 'node:path';
import { coverageShortfall, nothingJudged, nothingJudgedText, shortfallText } from './coverageGate.js';
import { unreachedSentence } from './coverageText.js';
import type { Matrix } from './matrixTypes.js';
import { runsSentence } from './runsText.js';

/*
 * What `run` and `merge` print about a matrix, a line each (the caller adds its prefix): the facts of the run first,
 * then the verdict and why. Both commands end on the same words for the same matrix.
 */

/** The target going down, the traffic and the runs a budget made: before the verdict. */
export function factLines(matrix: Matrix, reportDir: string): string[] {
  const lines: string[] = [];
  const down = matrix.targetDown;
  if (down) {
    lines.push(`${down.kind === 'slow' ? 'TARGET SLOW' : 'TARGET DOWN'} after ${down.subject} × ${down.check}: ${down.frame}`);
    if (down.replay) lines.push(`replay: npx contract-gate replay ${join(reportDir, down.replay)} --target URL`);
  }
  if (matrix.traffic) {
    const { requestsSent, peakInFlight, timeouts } = matrix.traffic;
    lines.push(`traffic — ${requestsSent} requests sent, peak ${peakInFlight} in flight per worker, ${timeouts} timed out`);
  }
  if (matrix.runs) lines.push(runsSentence(matrix.runs));
  return lines;
}

/** The verdict line with its counts and coverage, then what fails the gate beyond a cell, and what was not reached. */
export function gateLines(matrix: Matrix, reportDir: string): string[] {
  const { summary, coverage } = matrix;
  // Cells that never ran leave the gate without an answer: that is never a pass.
  const word = matrix.verdict === 'fail' ? 'FAIL' : summary.notRun > 0 ? 'INCOMPLETE' : 'PASS';
  const kinds = [
    `${coverage.reached.length}/${coverage.methods} methods`,
    ...(coverage.events?.total ? [`${coverage.events.seen.length}/${coverage.events.total} events`] : []),
    ...(coverage.serverRequests?.total ? [`${coverage.serverRequests.seen.length}/${coverage.serverRequests.total} server requests`] : []),
  ];
  const lines = [
    `${word} — ${summary.pass} pass (${summary.passWithoutEvidence ?? 0} with no evidence), ${summary.fail} fail, ${summary.flaky ?? 0} flaky, ${summary.knownFail} known, ${summary.stale} stale, ${summary.na} n/a, ${summary.notRun} not run; ` +
      `coverage ${kinds.join(', ')}; matrix ${join(reportDir, 'matrix.md')}`,
  ];
  const shortfall = coverageShortfall(matrix);
  if (shortfall) lines.push(`coverage fails the gate: ${shortfallText(shortfall)}`);
  if (nothingJudged(matrix)) lines.push(`the gate fails: ${nothingJudgedText(matrix)}`);
  else if (matrix.shard !== undefined && matrix.minCoverage) {
    lines.push(`--min-coverage ${matrix.minCoverage}% is for the whole run: \`contract-gate merge\` holds the merged matrix to it, not this shard`);
  }
  const unreached = unreachedSentence(matrix);
  if (unreached) lines.push(unreached);
  for (const cell of matrix.cells.filter((c) => c.status === 'flaky')) {
    lines.push(`flaky after ${cell.attempts ?? '?'} attempts: ${cell.method} × ${cell.check}${matrix.failOnFlaky ? ' (fails the gate: --fail-on-flaky)' : ''}`);
  }
  return lines;
}
