import { expect, test } from './helpers/test.js';
import { execFile, spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { servePlugins } from '../../cli/commands/serve.js';
import { type GatewayOptions, type GatewayPlugin, type MemoryClient, parsePluginArgument, parsePluginsConfig } from '../../gateway/index.js';
import { type CoreHarness, coreHarness, createReady, HERMES_CONTRACT, rpcError, turn } from './helpers/gatewayHarness.js';
import { WsTestClient } from './helpers/gatewayWsClient.js';
import { scratchDir } from './helpers/scratchDir.js';

const HOOKS_EXTENSION = join(process.cwd(), 'profiles', 'hermes', 'contracts', 'session-hooks.openrpc.json');
type Hook = Record<string, unknown> & { hook: string; session_id: string };

const hookHarness = (options: Partial<GatewayOptions> = {}): CoreHarness => coreHarness({ contractPaths: [HERMES_CONTRACT, HOOKS_EXTENSION], ...options });

async function observer(harness: CoreHarness): Promise<MemoryClient> {
  const client = harness.client();
  await client.call('hooks.subscribe', {});
  return client;
}

const hooksOf = (client: MemoryClient, sessionId: string): Hook[] =>
  client
    .events(sessionId)
    .filter((params) => params['type'] === 'session.hook')
    .map((params) => params['payload'] as Hook);

/** What clients can see of one session's end: answers and the cleanup payload, without ids and times. */
async function observeEnds(harness: CoreHarness): Promise<{ observed: unknown; closeMs: number }> {
  const watch = await observer(harness);
  const owner = harness.client();
  const { session_id: id } = await createReady(owner, { close_on_disconnect: true });
  await turn(owner, id, 'one');
  await turn(owner, id, 'two');
  await turn(owner, id, '/fail boom');
  const started = Date.now();
  const closed = await owner.call('session.close', { session_id: id });
  const closeMs = Date.now() - started;
  const again = await owner.call('session.close', { session_id: id });
  const afterwards = await rpcError(owner.call('session.history', { session_id: id }));
  const dropper = harness.client();
  const dropped = await createReady(dropper, { close_on_disconnect: true });
  await turn(dropper, dropped.session_id, 'x');
  dropper.close(1006, '');
  await watch.waitForEvent('session.hook', dropped.session_id, (params) => (params['payload'] as Hook).hook === 'session_cleanup');
  const strip = (payloads: Hook[]) => payloads.map(({ session_id: _id, timestamp: _at, ...rest }) => rest);
  return { observed: { closed, again, afterwards, hooks: strip(hooksOf(watch, id)), dropped: strip(hooksOf(watch, dropped.session_id)) }, closeMs };
}

test('rewrite-model: the session runs the new model, post_init reports it, observers see the effective pre_init; backend_name stays', async () => {
  const meddler: GatewayPlugin = {
    name: 'meddler',
    install: (hooks) => hooks.on('session_pre_init', (payload) => ({ ...payload, backend_name: 'other', model_options: { reasoning_effort: 'high' } }), { mode: 'transform' }),
  };
  const harness = hookHarness({ plugins: ['rewrite-model:m2', meddler] });
  const watch = await observer(harness);
  const created = await createReady(watch, { model: 'echo' });
  const info = watch.events(created.session_id).find((params) => params['type'] === 'session.info')?.['payload'] as Record<string, unknown>;
  expect(info).toMatchObject({ model: 'm2', reasoning_effort: 'high' });
  const [pre, post] = hooksOf(watch, created.session_id);
  expect(pre).toMatchObject({ backend_name: 'reference', model_id: 'm2', model_options: { reasoning_effort: 'high' } });
  expect(post).toMatchObject({ hook: 'session_post_init', model_id: 'm2' });
  expect(harness.logs.join('\n')).toContain('hook session_pre_init: handler meddler changed backend_name, which it may not; dropped');
  harness.close();
});

test('a cleanup plugin that throws or outlasts the time limit changes nothing a client sees, and teardown completes', async () => {
  const runs = [];
  for (const plugins of [['record'], ['throw-in-cleanup', 'record'], ['sleep-in-cleanup:1000', 'record']]) {
    const harness = hookHarness({ plugins, hookTimeoutMs: 60 });
    runs.push({ plugins, ...(await observeEnds(harness)), logs: harness.logs, recorded: harness.core.hooks.recorded().map((payload) => payload.hook) });
    harness.close();
  }
  const [clean, throwing, sleeping] = runs;
  expect(clean?.observed).toMatchObject({ closed: { closed: true }, again: { closed: false }, afterwards: { code: 4001 } });
  expect(throwing?.observed).toEqual(clean?.observed);
  expect(sleeping?.observed).toEqual(clean?.observed);
  // The close did not wait for the plugin's 1,000 ms sleep (its 60 ms limit cut it; the margin absorbs a loaded machine).
  expect(sleeping?.closeMs).toBeLessThan(1_000);
  expect(throwing?.logs).toContain('hook session_cleanup: sequential handler throw-in-cleanup failed: throw-in-cleanup plugin failed on purpose; skipped');
  expect(sleeping?.logs).toContain('hook session_cleanup: sequential handler sleep-in-cleanup exceeded 60 ms; skipped');
  // The audit recorder runs after the failing sequential handler all the same.
  for (const run of runs) expect(run.recorded.filter((hook) => hook === 'session_cleanup')).toHaveLength(2);
  expect(clean?.recorded.slice(0, 2)).toEqual(['session_pre_init', 'session_post_init']);
});

test('a throwing cleanup plugin never replaces the original error of a failed build', async () => {
  const harness = hookHarness({ plugins: ['throw-in-cleanup:masking attempt'] });
  const watch = await observer(harness);
  const created = await watch.call<{ session_id: string }>('session.create', { model: 'fail-build-masked' });
  const error = await watch.waitForEvent('error', created.session_id);
  const text = (error['payload'] as Record<string, unknown>)['message'];
  const cleanup = await watch.waitForEvent('session.hook', created.session_id, (params) => (params['payload'] as Hook).hook === 'session_cleanup');
  expect(text).toBe('agent init failed: model fail-build-masked could not be built');
  expect((cleanup['payload'] as Hook)['exception']).toEqual({ type: 'AgentBuildError', message: text });
  expect(await rpcError(watch.call('prompt.submit', { session_id: created.session_id, text: 'x' }))).toEqual({ code: 5032, message: text });
  expect(harness.logs.some((line) => line.includes('masking attempt'))).toBe(true);
  harness.close();
});

test('plugin specs: NAME[:ARG] strings and config entries whose priority and mode override the plugin’s own', async () => {
  expect(parsePluginArgument('rewrite-model:org/model:7b')).toEqual({ name: 'rewrite-model', arg: 'org/model:7b' });
  expect(parsePluginArgument('record')).toEqual({ name: 'record' });
  expect(parsePluginsConfig(['record', { name: 'sleep-in-cleanup', arg: 5, priority: 10, mode: 'audit' }])).toEqual({
    plugins: [{ name: 'record' }, { name: 'sleep-in-cleanup', arg: '5', priority: 10, mode: 'audit' }],
  });
  expect(parsePluginsConfig({ plugins: [], hookTimeoutMs: 100 })).toEqual({ plugins: [], hookTimeoutMs: 100 });
  expect(() => parsePluginsConfig({ plugins: [{ name: 'record', when: 'now' }] })).toThrow('plugins config: plugins[0]: unknown key when');
  expect(() => parsePluginsConfig({ plugins: [{ name: 'record', mode: 'eventually' }] })).toThrow(/mode must be sequential/);
  expect(() => parsePluginsConfig({ list: [] })).toThrow(/expected a list of plugins/);
  expect(() => hookHarness({ plugins: ['no-such-plugin'] })).toThrow('unknown plugin "no-such-plugin"; built-in plugins: rewrite-model, throw-in-cleanup, sleep-in-cleanup, record');
  expect(() => hookHarness({ plugins: ['rewrite-model'] })).toThrow('plugin rewrite-model needs an argument: rewrite-model:<id>');
  expect(() => hookHarness({ plugins: ['sleep-in-cleanup:soon'] })).toThrow(/whole number of milliseconds/);

  // Installed in order, the later rewrite would win; its priority override makes it run first instead.
  const harness = hookHarness({ plugins: [{ name: 'rewrite-model', arg: 'late' }, { name: 'rewrite-model', arg: 'early', priority: 10 }] });
  const client = harness.client();
  const created = await createReady(client);
  expect(harness.core.live.get(created.session_id)?.model).toBe('late');
  harness.close();
});

test('serve: --plugins-config entries come first, then --plugin; --hook-timeout wins over the file; bad files are usage errors', () => {
  const dir = scratchDir('hooks-plugins');
  try {
    const file = join(dir, 'plugins.json');
    writeFileSync(file, JSON.stringify({ plugins: ['record', { name: 'throw-in-cleanup', mode: 'audit' }], hookTimeoutMs: 250 }));
    expect(servePlugins({ pluginsConfig: file, plugin: ['rewrite-model:m2'] })).toEqual({
      plugins: [{ name: 'record' }, { name: 'throw-in-cleanup', mode: 'audit' }, { name: 'rewrite-model', arg: 'm2' }],
      hookTimeoutMs: 250,
    });
    expect(servePlugins({ pluginsConfig: file, hookTimeout: 10 }).hookTimeoutMs).toBe(10);
    writeFileSync(file, '{"plugins": [');
    expect(() => servePlugins({ pluginsConfig: file })).toThrow(/is not readable JSON/);
    expect(() => servePlugins({ plugin: [':x'] })).toThrow('a plugin needs a name: ":x"');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('contract-gate serve --help lists the built-in plugins; serve --plugin installs them', async () => {
  const help = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, ['bin/contract-gate.js', 'serve', '--help'], (error, stdout) => (error ? reject(error) : resolve(stdout))),
  );
  for (const usage of ['--plugin <NAME[:ARG]>', '--plugins-config <file>', '--hook-timeout <ms>', 'rewrite-model:<id>', 'throw-in-cleanup[:<message>]', 'sleep-in-cleanup:<ms>', 'record ']) {
    expect(help).toContain(usage);
  }
  const child = spawn(process.execPath, ['bin/contract-gate.js', 'serve', '--port', '0', '--build-delay', '1', '--plugin', 'rewrite-model:m9'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (data: Buffer) => {
        const match = /listening on (\S+)/.exec(data.toString());
        if (match?.[1]) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
    });
    const client = await WsTestClient.open(url);
    await client.call('hooks.subscribe', {});
    const created = await client.call<{ session_id: string }>('session.create', { model: 'echo' });
    const post = await client.waitFor((frame) => (frame['params'] as Record<string, Record<string, unknown>> | undefined)?.['payload']?.['hook'] === 'session_post_init');
    expect((post['params'] as Record<string, unknown>)['session_id']).toBe(created.session_id);
    expect((post['params'] as Record<string, Record<string, unknown>>)['payload']?.['model_id']).toBe('m9');
    client.close();
  } finally {
    child.kill('SIGTERM');
  }
});
