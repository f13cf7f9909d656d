import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './helpers/test.js';
import { scratchDir } from './helpers/scratchDir.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'contract-gate.js');
const fixture = (name: string): string => join(root, 'test', 'skewFixtures', name);
const hermesCurrent = join(root, 'profiles', 'hermes', 'contracts', 'session-lifecycle.openrpc.json');
const hermesPrevious = join(root, 'profiles', 'hermes', 'contracts', 'session-lifecycle.pre-cwd-explicit.openrpc.json');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, 'skew', ...args], { cwd: root, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error && typeof error.code === 'number' ? error.code : error ? -1 : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

test('exit 1 and a JSON SkewReport when the client breaks the server', async () => {
  const result = await run(['--client', fixture('worked-example-v2.openrpc.json'), '--server', fixture('worked-example-v1.openrpc.json'), '--format', 'json']);
  expect(result.code).toBe(1);
  const report = JSON.parse(result.stdout) as { client: object; server: object; breaking: boolean; findings: Array<Record<string, string>> };
  expect(Object.keys(report)).toEqual(['client', 'server', 'breaking', 'findings']);
  expect(report.client).toEqual({ title: 'Worked example (anchors §7.4)', version: '2', path: fixture('worked-example-v2.openrpc.json') });
  expect(report.breaking).toBe(true);
  expect(report.findings.map((f) => [f['method'], f['path'], f['kind'], f['severity']])).toEqual([['session.create', 'tags', 'param-unknown-to-server', 'breaking']]);
});

test('exit 0 when nothing breaks (info findings do not fail)', async () => {
  const result = await run(['--client', fixture('worked-example-v1-tolerant.openrpc.json'), '--server', fixture('worked-example-v2.openrpc.json')]);
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('INFO session.create tags:');
  expect(result.stdout).toContain('verdict: compatible');
});

test('--matrix writes the grid to --output and exits 1 when a pair breaks', async () => {
  const dir = scratchDir('skew-cli');
  try {
    const output = join(dir, 'matrix.md');
    const files = ['worked-example-v1.openrpc.json', 'worked-example-v2.openrpc.json'].map(fixture);
    const result = await run(['--matrix', ...files, '--format', 'md', '--output', output]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(readFileSync(output, 'utf8')).toContain('| **v2** | ✗ 1 breaking | ✓ |');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('exit 2 for usage errors and invalid contracts, with the reason on stderr', async () => {
  const missing = await run(['--client', fixture('does-not-exist.openrpc.json'), '--server', fixture('worked-example-v1.openrpc.json')]);
  expect(missing.code).toBe(2);
  expect(missing.stderr).toContain('[CONTRACT_NOT_FOUND]');
  const invalid = await run(['--client', fixture('invalid.openrpc.json'), '--server', fixture('worked-example-v1.openrpc.json')]);
  expect(invalid.code).toBe(2);
  expect(invalid.stderr).toContain('[CONTRACT_INVALID]');
  expect(invalid.stderr).toContain('OpenRPC meta-schema');
  const noServer = await run(['--client', fixture('worked-example-v1.openrpc.json')]);
  expect(noServer.code).toBe(2);
  expect(noServer.stderr).toContain('[USAGE]');
  const both = await run(['--client', 'a', '--server', 'b', '--matrix', 'c', 'd']);
  expect(both.code).toBe(2);
  const badFormat = await run(['--client', 'a', '--server', 'b', '--format', 'xml']);
  expect(badFormat.code).toBe(2);
});

test('--help explains the direction, the exit codes and the difference from oasdiff', async () => {
  const result = await run(['--help']);
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('The client is the side that SENDS params');
  expect(result.stdout).toContain('oasdiff');
  expect(result.stdout).toContain('additionalProperties: false');
  expect(result.stdout).toMatch(/0 {2}nothing breaking/);
  expect(result.stdout).toMatch(/2 {2}usage error or invalid contract/);
});

test.describe('the Hermes documents through the CLI', () => {
  test('newer client, older server: exit 1 naming session.create cwd_explicit', async () => {
    const result = await run(['--client', hermesCurrent, '--server', hermesPrevious]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('BREAKING session.create cwd_explicit: clients on v2 send "cwd_explicit"; the server model SessionCreateParams is closed (additionalProperties: false), so it answers 4000');
  });

  test('older client, newer server: exit 0 with the info finding; a document against itself: no findings', async () => {
    const reverse = await run(['--client', hermesPrevious, '--server', hermesCurrent, '--format', 'json']);
    expect(reverse.code).toBe(0);
    const findings = (JSON.parse(reverse.stdout) as { findings: Array<Record<string, string>> }).findings;
    expect(findings.map((f) => [f['severity'], f['method'], f['path'], f['kind']])).toEqual([['info', 'session.create', 'cwd_explicit', 'param-added-optional']]);
    const self = await run(['--client', hermesCurrent, '--server', hermesCurrent, '--format', 'json']);
    expect(self.code).toBe(0);
    expect((JSON.parse(self.stdout) as { findings: unknown[] }).findings).toEqual([]);
  });
});
