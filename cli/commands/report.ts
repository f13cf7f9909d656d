import { join, resolve } from 'node:path';
import { renderAllureReport } from '../../reporters/allureReport.js';
import { EXIT } from '../exitCodes.js';

/** `contract-gate report [report-dir]`: the Allure HTML report of a run. */
export async function reportAction([reportDir = 'contract-gate-report']: string[], options: Record<string, unknown>): Promise<number> {
  const output = resolve((options['output'] as string | undefined) ?? join(reportDir, 'allure-report'));
  await renderAllureReport(join(reportDir, 'allure-results'), output);
  process.stdout.write(`contract-gate: Allure report written to ${join(output, 'index.html')}\n`);
  return EXIT.OK;
}
