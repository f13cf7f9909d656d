import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { REPO } from './cliRunner.js';

/**
 * A configuration file loaded as the CLI loads it: in a plain Node process running dist/ (a TypeScript one goes
 * through tsx's loader hooks, which a Playwright worker's own hooks would stand in front of).
 */
export function loadConfigInChild(path: string): { options: unknown; projects: unknown } {
  const module = pathToFileURL(join(REPO, 'dist', 'src', 'config', 'configFile.js')).href;
  const script = `const { loadConfigFile } = await import(${JSON.stringify(module)}); const c = await loadConfigFile(process.argv[1]); process.stdout.write(JSON.stringify({ options: c.options, projects: c.projects }));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script, path], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })) as { options: unknown; projects: unknown };
}
