import { expect, test } from './helpers/test.js';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseRunOptions, runConfigFor } from '../../cli/commands/run.js';
import { runInProcess } from '../../fixtures/inProcessRun.js';
import { allChecks } from '../../profiles/index.js';
import { checksDocs } from '../../scripts/checksDocs.js';
import { parseMatrixJson } from '../../src/report/renderJson.js';
import { scratchDir } from './helpers/scratchDir.js';

const REPO = join(import.meta.dirname, '..', '..');
const readDocs = (): string => readFileSync(join(REPO, 'docs', 'checks.md'), 'utf8');
/** The ids docs/checks.md documents: one `### \`id\`` heading each. */
const documentedIds = (text: string): string[] => [...text.matchAll(/^### `([^`]+)`$/gm)].map((match) => match[1]!);

test('docs/checks.md is what `npm run docs:checks` writes from the check catalogue', () => {
  expect(readDocs(), 'stale: run `npm run docs:checks` and commit the result').toBe(checksDocs());
});

test('every check of the catalogue says what it sends and when it is n/a', () => {
  const thin = allChecks().checks.filter((check) => check.sends.trim().length < 10 || check.notApplicableWhen.trim().length < 5).map((check) => check.id);
  expect(thin).toEqual([]);
  expect(documentedIds(readDocs())).toEqual(allChecks().ids);
});

test('every check id a run of the embedded gateway reports is documented in docs/checks.md', async () => {
  // One real run that declares a cell of every check: the full document (server requests), a gated embedded
  // gateway (the auth row) and a client contract; one subject of each per-method, per-event and per-request family.
  test.setTimeout(300_000);
  const reportDir = scratchDir('cg-checks-docs');
  try {
    const subjects = '^(\\((connection|session events|auth|stateful)\\)|topology|replay|lifecycle|hooks|session\\.create|message\\.delta|approval) ›';
    const args = ['--seed', '1', '--runs', '1', '--stateful-runs', '1', '--stateful-steps', '3', '--embedded-auth', 'gated', '--report-dir', reportDir, '--grep', subjects];
    const config = await runConfigFor(parseRunOptions([...args, '--client-contract', join(REPO, 'profiles/hermes/contracts/session-lifecycle.openrpc.json')]));
    await runInProcess(config);
    const matrixPath = join(reportDir, 'matrix.json');
    const reported = [...new Set(parseMatrixJson(readFileSync(matrixPath, 'utf8'), matrixPath).cells.map((cell) => cell.check))];
    const documented = new Set(documentedIds(readDocs()));
    expect(reported.filter((id) => !documented.has(id)), 'reported by the run, missing from docs/checks.md').toEqual([]);
    // The run reports the whole catalogue, so documenting the catalogue documents what runs report.
    expect(reported.sort()).toEqual([...allChecks().ids].sort());
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
});
