import { expect, test } from './helpers/test.js';
import { resolveEmbeddedAuth, resolveExternalAuth } from '../../src/config/resolveAuth.js';
import { startGateway } from '../../gateway/index.js';
import { connectionAuthFrom, describeAuth } from '../../src/client/authSettings.js';
import { decodeRunConfig, encodeRunConfig, type RunConfig, targetIsGated } from '../../src/config/runConfig.js';
import { HERMES_CONTRACT } from './helpers/gatewayHarness.js';
import { runConfigWith } from './helpers/runConfigs.js';
import { HERMES_PROFILE } from './helpers/profiles.js';

test('the run configuration carries the auth settings by variable name and reads them back; a bad one names its field', () => {
  const config: RunConfig = runConfigWith({
    auth: { mode: 'ticket', login: { kind: 'basic', user: 'ci', passwordEnv: 'PW' }, via: 'subprotocol' },
    embeddedAuth: 'gated',
    authChecks: true,
  });
  const decoded = decodeRunConfig(encodeRunConfig(config), 'test');
  expect(decoded).toEqual(config);
  expect(targetIsGated(decoded)).toBe(true);
  expect(targetIsGated(runConfigWith())).toBe(false);
  const broken = JSON.parse(encodeRunConfig(config)) as Record<string, unknown>;
  broken['auth'] = { mode: 'ticket', login: { kind: 'basic', user: 'ci', passwordEnv: 'PW' }, via: 'header' };
  expect(() => decodeRunConfig(JSON.stringify(broken), 'test')).toThrow('run configuration test (auth): via must be "query" or "subprotocol", got "header"');
  expect(describeAuth(config.auth!)).toBe('fresh ticket per connection (basic login as ci, presented as subprotocol)');
});

test('auth options: one way to obtain tickets, its secret set in the environment; internal needs its variable', async () => {
  process.env['AUTH_SETTINGS_PW'] = 'x';
  const target = 'ws://127.0.0.1:9/api/ws';
  await expect(resolveExternalAuth(target, HERMES_PROFILE, { login: 'basic', user: 'ci' }, () => undefined)).rejects.toThrow('--login basic needs --user USER and --password-env VAR');
  await expect(resolveExternalAuth(target, HERMES_PROFILE, { login: 'basic', user: 'ci', passwordEnv: 'AUTH_SETTINGS_PW', cookieEnv: 'C' }, () => undefined)).rejects.toThrow('pass one way to obtain tickets');
  await expect(resolveExternalAuth(target, HERMES_PROFILE, { auth: 'ticket' }, () => undefined)).rejects.toThrow('--auth ticket needs a way to obtain tickets');
  await expect(resolveExternalAuth(target, HERMES_PROFILE, { auth: 'internal', credentialEnv: 'AUTH_SETTINGS_UNSET' }, () => undefined)).rejects.toThrow('the environment variable AUTH_SETTINGS_UNSET is not set or empty');
  expect(await resolveExternalAuth(target, HERMES_PROFILE, { login: 'basic', user: 'ci', passwordEnv: 'AUTH_SETTINGS_PW' }, () => undefined)).toEqual({
    mode: 'ticket',
    login: { kind: 'basic', user: 'ci', passwordEnv: 'AUTH_SETTINGS_PW' },
    via: 'query',
  });
  expect(connectionAuthFrom({ mode: 'internal', credentialEnv: 'AUTH_SETTINGS_PW' }, undefined, HERMES_PROFILE).kind).toBe('internal');
});

test('discovery: a loopback dashboard keeps the token and says why; an embedded gated gateway gets a login made up for the run', async () => {
  const loopback = await startGateway({ contractPaths: [HERMES_CONTRACT] });
  try {
    const said: string[] = [];
    expect(await resolveExternalAuth(loopback.url, HERMES_PROFILE, { tokenEnv: 'T' }, (line) => said.push(line))).toEqual({ mode: 'token' });
    expect(said).toEqual(["auth: the target's /api/status says auth_required: false, so the legacy token (?token=)"]);
    // A stdio target is a process the run starts: nothing is discovered, and there is no credential to speak of.
    said.length = 0;
    expect(await resolveExternalAuth('stdio:node gateway.js', HERMES_PROFILE, {}, (line) => said.push(line))).toEqual({ mode: 'token' });
    expect(said).toEqual([]);
  } finally {
    await loopback.close();
  }
  const embedded = resolveEmbeddedAuth(true, { ticketVia: 'subprotocol' });
  // Each run's made-up credentials live in variables of its own (runs may share a process).
  const passwordEnv = embedded.settings?.mode === 'ticket' && embedded.settings.login.kind === 'basic' ? embedded.settings.login.passwordEnv : '';
  expect(embedded.settings).toEqual({ mode: 'ticket', login: { kind: 'basic', user: 'contract-gate', passwordEnv }, via: 'subprotocol' });
  expect(passwordEnv).toMatch(/^EMBEDDED_GATEWAY_PASSWORD_[0-9a-f]{12}$/);
  expect(embedded.tokenEnv).toMatch(/^EMBEDDED_GATEWAY_TOKEN_[0-9a-f]{12}$/);
  expect(Object.keys(embedded.env).sort()).toEqual([passwordEnv, embedded.tokenEnv].sort());
  expect(resolveEmbeddedAuth(true, {}).tokenEnv).not.toBe(embedded.tokenEnv);
  expect(() => resolveEmbeddedAuth(true, { auth: 'token' })).toThrow(/the embedded gateway \(--embedded-auth gated\) is gated: it refuses --auth token/);
  expect(() => resolveEmbeddedAuth(false, { auth: 'ticket', ticketCommand: 'echo t' })).toThrow('--auth ticket needs a gated target');
});
