import type { Command } from 'commander';
import { join, resolve } from 'node:path';
import { renderAllureReport } from '../../reporters/allureReport.js';
import { EXIT } from '../exitCodes.js';

export function registerReportCommand(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('report')
    .argument('[report-dir]', 'report folder of a run', 'contract-gate-report')
    .description('Render the Allure HTML report of a run (no Java needed): <report-dir>/allure-report/index.html.')
    .option('--output <dir>', 'where to write the HTML report (default <report-dir>/allure-report)')
    .action(async (reportDir: string, options: { output?: string }) => {
      const output = resolve(options.output ?? join(reportDir, 'allure-report'));
      await renderAllureReport(join(reportDir, 'allure-results'), output);
      process.stdout.write(`contract-gate: Allure report written to ${join(output, 'index.html')}\n`);
      setExitCode(EXIT.OK);
    });
}
