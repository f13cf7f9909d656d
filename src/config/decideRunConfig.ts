import { existsSync } from 'node:fs';
import { HarnessError } from '../../core/index.js';
import { type AuthSettings, connectionAuthFrom, describeAuth, secretFromEnv } from '../client/authSettings.js';
import type { ConnectionAuth } from '../client/connectionAuth.js';
import { connectTarget } from '../client/connectTarget.js';
import { HttpRpcClient } from '../client/httpClient.js';
import { Redactor } from '../client/redact.js';
import { isHttpTarget, tokenInUrl } from '../client/targetUrl.js';
import { GENERIC_CATALOGUE } from '../checks/checkCatalogue.js';
import type { Contract } from '../contracts/index.js';
import { loadContract } from '../contracts/loadContract.js';
import type { Profile } from '../profile/profile.js';
import { loadBaseline } from '../report/baseline.js';
import type { RunSettings } from './optionTable.js';
import type { ProfileChoice, ProfileDefaults } from './profileDefaults.js';
import { resolveEmbeddedAuth, resolveExternalAuth } from './resolveAuth.js';
import type { RunConfig } from './runConfig.js';
import { buildRunConfig } from './runSettings.js';

/** The registry's `resolveProfileDefaults` (profiles/profileDefaults.ts), passed in: src/ never imports a profile. */
export type ProfileDefaultsResolver = (choice: ProfileChoice, load: (path: string) => Promise<Contract>) => Promise<ProfileDefaults & { readonly resolved: Profile }>;

async function preflight(target: string, profile: Profile, auth: ConnectionAuth, redactor: Redactor): Promise<void> {
  if (isHttpTarget(target)) {
    const exchange = await new HttpRpcClient({ url: target, auth, requestTimeoutMs: 5_000 }).call('rpc.discover', []);
    if (exchange.failure && exchange.failure.code !== 'UNPARSEABLE_FRAME') {
      throw new HarnessError('GATEWAY_UNREACHABLE', `target ${redactor.redactUrl(target)} does not answer JSON-RPC over HTTP: ${exchange.failure.message}`);
    }
    return;
  }
  const client = await connectTarget({ target, auth, dialect: profile.wire.dialect, readyTimeoutMs: Math.min(1_000, profile.wire.readyTimeoutMs), connectTimeoutMs: 10_000 });
  await client.close();
}

/**
 * Checks the settings and decides the run configuration of `contract-gate run` and of the `contract-gate/test`
 * fixtures: contracts loaded and validated, the profile resolved, the auth decided (discovered for an external
 * target, made up for a gated embedded one) and an external target reached once. `say` hears what was decided.
 */
export async function decideRunConfig(settings: RunSettings, resolveDefaults: ProfileDefaultsResolver, say: (line: string) => void): Promise<RunConfig> {
  const startedAt = Date.now();
  const token = settings.tokenEnv ? secretFromEnv(settings.tokenEnv, '--token-env') : undefined;
  if (settings.target && tokenInUrl(settings.target)) {
    throw new HarnessError('USAGE', '--target carries a token in its URL, where process lists and reports would show it: pass the URL without it and name the variable that holds it with --token-env');
  }
  const unset = settings.secretEnv.filter((name) => !process.env[name]);
  if (unset.length > 0) throw new HarnessError('USAGE', `--secret-env ${unset.join(', ')}: not set in the environment (name the variables that hold the secrets)`);
  const redactor = new Redactor([token]);
  if (settings.target && settings.fault.length) throw new HarnessError('USAGE', '--fault switches the embedded gateway; it cannot be combined with --target');
  const loaded = new Map<string, Promise<Contract>>();
  const load = (path: string): Promise<Contract> => {
    if (!loaded.has(path)) loaded.set(path, loadContract(path));
    return loaded.get(path) as Promise<Contract>;
  };
  const { resolved, ...profile } = await resolveDefaults(settings, load);
  if (!settings.target) {
    if (!resolved.referenceGateway) throw new HarnessError('USAGE', `the ${resolved.name} profile embeds no reference gateway: pass --target`);
    resolved.referenceGateway.assertFaults(settings.fault);
  }
  const contracts = await Promise.all(profile.contracts.map(load));
  await Promise.all([...profile.extensions, ...(settings.clientContract ? [settings.clientContract] : [])].map(load));
  const checks = GENERIC_CATALOGUE.with(resolved.checks);
  if (settings.baseline) loadBaseline(settings.baseline, (id) => checks.has(id));
  if (settings.bindings && settings.bindings !== 'none' && settings.bindings !== 'auto' && !existsSync(settings.bindings)) throw new HarnessError('USAGE', `--bindings ${settings.bindings}: no such file`);
  if (settings.target && settings.embeddedAuth === 'gated') throw new HarnessError('USAGE', '--embedded-auth sets the mode of the embedded gateway; it cannot be combined with --target');
  let auth: AuthSettings | undefined;
  let tokenEnv = settings.tokenEnv;
  let runEnv: Record<string, string> = {};
  if (settings.target) auth = await resolveExternalAuth(settings.target, resolved, settings, say);
  else ({ settings: auth, env: runEnv, tokenEnv } = resolveEmbeddedAuth(settings.embeddedAuth === 'gated', settings));
  if (auth && auth.mode !== 'token') say(`auth: ${describeAuth(auth)}`);
  if (settings.target) await preflight(settings.target, resolved, connectionAuthFrom(auth ?? { mode: 'token' }, token, resolved), redactor);
  // Credentials made up for the embedded gateway reach the workers (and an in-process run) by environment, never by argument.
  Object.assign(process.env, runEnv);

  const label = settings.target ?? `embedded reference gateway (${contracts.map((c) => `${c.title} ${c.version}`).join(', ')})`;
  return buildRunConfig(settings, {
    target: settings.target ? { kind: 'external', url: settings.target, label } : { kind: 'embedded', label },
    profile,
    seed: settings.seed ?? Math.floor(Math.random() * 2 ** 31),
    tokenEnv,
    auth,
    startedAt,
  });
}
