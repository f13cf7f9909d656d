import { expect, test } from './helpers/test.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startGateway } from '../../gateway/index.js';
import { SESSION_LIFECYCLE_CONTRACT, SESSION_LIFECYCLE_PRE_CWD_EXPLICIT } from '../../profiles/hermes/paths.js';
import { CLI, REPO, runCli } from './helpers/cliRunner.js';
import { WsTestClient } from './helpers/gatewayWsClient.js';
import { scratchDir } from './helpers/scratchDir.js';

// `contract-gate proxy` as a CI job runs it: it prints where to point the client, one line per finding, writes the
// report folder when it is stopped (SIGINT) or when the upstream goes away, and exits 1 with --fail-on finding.

interface RunningCli {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number>;
}

function startProxyCli(args: string[]): Promise<RunningCli> {
  const child = spawn(process.execPath, [CLI, 'proxy', '--port', '0', ...args], { cwd: REPO, env: { ...process.env } });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line: ${out}`)), 15_000);
    child.stdout?.on('data', () => {
      const match = /listening on (ws:\/\/\S+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      resolve({ child, url: match[1] as string, output: () => out, exited });
    });
    void exited.then((code) => reject(new Error(`exited ${code} before listening: ${out}`)));
  });
}

test('--help says what is judged, where the report goes and what the exit codes are', async () => {
  const help = await runCli(['proxy', '--help']);
  expect(help.code).toBe(0);
  for (const text of ['--upstream', '--client-contract', '--fail-on', 'skew.client-contract', 'event.seq-monotonic', 'replay', 'Exit codes']) expect(help.stdout).toContain(text);
});

test('SIGINT writes the report; --fail-on finding exits 1 with the skew summary printed', async () => {
  const gateway = await startGateway({ contractPaths: [SESSION_LIFECYCLE_PRE_CWD_EXPLICIT], token: 'cli-proxy-token-42' });
  const reportDir = scratchDir('proxy-cli');
  try {
    const proxy = await startProxyCli(['--upstream', gateway.url, '--contract', SESSION_LIFECYCLE_PRE_CWD_EXPLICIT, '--client-contract', SESSION_LIFECYCLE_CONTRACT, '--report-dir', reportDir, '--fail-on', 'finding']);
    const client = await WsTestClient.open(`${proxy.url}?token=cli-proxy-token-42`);
    const answer = await client.request('session.create', { cwd: '/srv/project', cwd_explicit: true });
    expect((answer['error'] as { code?: number } | undefined)?.code).toBe(4000);
    client.close();
    await client.waitClosed();
    proxy.child.kill('SIGINT');
    expect(await proxy.exited).toBe(1);
    const out = proxy.output();
    expect(out).toMatch(/c1 session\.create skew\.client-contract cwd_explicit \{/);
    expect(out).toContain('stopped (SIGINT)');
    expect(out).toContain('client on Hermes TUI/Desktop gateway v2 vs server on Hermes TUI/Desktop gateway v1: session.create.cwd_explicit');
    expect(out).not.toContain('cli-proxy-token-42');
    for (const file of ['matrix.json', 'matrix.md', 'matrix.html', 'junit.xml', 'findings.json', 'summary.txt', 'transcripts/c1.txt']) expect(existsSync(join(reportDir, file)), file).toBe(true);
    const matrix = JSON.parse(readFileSync(join(reportDir, 'matrix.json'), 'utf8')) as { verdict: string; cells: Array<{ check: string; replay?: string }> };
    expect(matrix.verdict).toBe('fail');
    // The replay file the report links re-sends the desktop's create: the older backend still refuses it.
    const replay = matrix.cells.find((cell) => cell.check === 'skew.client-contract')?.replay ?? '';
    const replayed = await runCli(['replay', join(reportDir, replay), '--target', gateway.url, '--token-env', 'PROXY_TEST_TOKEN'], { PROXY_TEST_TOKEN: 'cli-proxy-token-42' });
    expect(replayed.code, replayed.stdout + replayed.stderr).toBe(1);
    expect(replayed.stdout).toContain('REPRODUCED');
  } finally {
    await gateway.close();
  }
});

test('the upstream going away stops the proxy, which writes its report and exits 0 without --fail-on', async () => {
  const gateway = await startGateway({ contractPaths: [SESSION_LIFECYCLE_CONTRACT] });
  const reportDir = scratchDir('proxy-cli');
  const proxy = await startProxyCli(['--upstream', gateway.url, '--contract', SESSION_LIFECYCLE_CONTRACT, '--report-dir', reportDir]);
  const client = await WsTestClient.open(proxy.url);
  await client.call('session.create', {});
  await gateway.close();
  expect(await proxy.exited).toBe(0);
  expect(proxy.output()).toContain('the upstream went away');
  expect(JSON.parse(readFileSync(join(reportDir, 'matrix.json'), 'utf8')).verdict).toBe('pass');
});

test('with --fail-on finding, a proxy nothing crossed exits 1 and says so: the client may never have gone through it', async () => {
  const gateway = await startGateway({ contractPaths: [SESSION_LIFECYCLE_CONTRACT] });
  try {
    const idle = await runCli(['proxy', '--upstream', gateway.url, '--contract', SESSION_LIFECYCLE_CONTRACT, '--port', '0', '--duration', '1', '--fail-on', 'finding', '--report-dir', scratchDir('proxy-cli')]);
    expect(idle.code, idle.stdout + idle.stderr).toBe(1);
    expect(idle.stdout).toContain('0 connection(s), 0 frame(s) relayed, 0 finding(s)');
    expect(idle.stderr).toMatch(/^contract-gate proxy: nothing was judged: no frame of a method, event or server request the contracts declare crossed the proxy \(was the client pointed at ws:\/\/127\.0\.0\.1:\d+\/api\/ws\?\); with --fail-on finding that fails the gate$/m);
    const observer = await runCli(['proxy', '--upstream', gateway.url, '--contract', SESSION_LIFECYCLE_CONTRACT, '--port', '0', '--duration', '1', '--report-dir', scratchDir('proxy-cli')]);
    expect(observer.code, 'without --fail-on the proxy only observes').toBe(0);
  } finally {
    await gateway.close();
  }
});

test('an unreachable upstream or a token in --upstream is a usage error (exit 2)', async () => {
  const gateway = await startGateway({ contractPaths: [SESSION_LIFECYCLE_CONTRACT] });
  const url = gateway.url;
  await gateway.close();
  const unreachable = await runCli(['proxy', '--upstream', url, '--port', '0']);
  expect(unreachable.code).toBe(2);
  expect(unreachable.stderr).toContain('unreachable');
  const withToken = await runCli(['proxy', '--upstream', 'ws://127.0.0.1:1/api/ws?token=abc', '--port', '0']);
  expect(withToken.code).toBe(2);
  expect(withToken.stderr).not.toContain('abc');
});
