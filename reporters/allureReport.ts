import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { HarnessError } from '../core/index.js';

/** The range of the `allure` package the report is rendered with (package.json's optional peer dependency). */
export const ALLURE_RANGE = '^3.18.0';

/**
 * The Allure 3 command line. The `allure` package's main module runs its CLI on import, so it is started as a
 * child process (pure Node, no Java) instead of being imported. It is an optional peer dependency: the package and
 * its 150-odd dependencies are installed by those who render the HTML report, not by every project that runs the gate.
 */
function allureCli(): string {
  let main: string;
  try {
    main = createRequire(import.meta.url).resolve('allure');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    throw new HarnessError('USAGE', `the HTML report is rendered by the allure package (Allure 3, pure Node), which is not installed: npm i -D allure@${ALLURE_RANGE}`);
  }
  return join(dirname(main), '..', 'cli.js');
}

/**
 * Renders allure-playwright results into a static Allure 3 report (`allure generate <results> --output <dir>`).
 * An allurerc file in the working directory, if any, configures the report.
 */
export async function renderAllureReport(resultsDir: string, outputDir: string): Promise<void> {
  const results = resolve(resultsDir);
  const entries = await readdir(results).catch(() => undefined);
  if (!entries?.some((name) => name.endsWith('-result.json'))) {
    throw new HarnessError('USAGE', `no Allure results in ${results}: run the suites with the allure-playwright reporter first`);
  }
  const output = resolve(outputDir);
  const stderr: Buffer[] = [];
  const code = await new Promise<number>((done, fail) => {
    const child = spawn(process.execPath, [allureCli(), 'generate', results, '--output', output], { stdio: ['ignore', 'inherit', 'pipe'] });
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', fail);
    child.on('close', (exitCode) => done(exitCode ?? 1));
  });
  if (code !== 0) {
    throw new Error(`allure generate failed for ${results} (exit code ${code}): ${Buffer.concat(stderr).toString('utf8').trim()}`);
  }
}
