import { HarnessError } from '../../core/index.js';

/** Reads the token from the variable named by --token-env; the value itself never appears on a command line. */
export function tokenFromEnv(variable: string | undefined): string | undefined {
  if (!variable) return undefined;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) {
    throw new HarnessError('USAGE', `--token-env takes the NAME of an environment variable (e.g. GATEWAY_TOKEN), got "${variable}"`);
  }
  const value = process.env[variable];
  if (!value) throw new HarnessError('USAGE', `--token-env ${variable}: the environment variable ${variable} is not set or empty`);
  return value;
}
