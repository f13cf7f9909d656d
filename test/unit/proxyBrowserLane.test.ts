import type { Browser } from '@playwright/test';
import { expect, test } from './helpers/test.js';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { REMOTE_LANE_PAGE } from '../../profiles/hermes/cells/browserLane.js';
import { acquireBrowser, type BrowserLease } from '../../profiles/hermes/cells/sharedBrowser.js';
import { startGateway, type RunningGateway } from '../../gateway/index.js';
import { loadBindingRules } from '../../src/binding/bindingRules.js';
import { RpcClient } from '../../src/client/rpcClient.js';
import { HERMES_BINDINGS, SESSION_LIFECYCLE_CONTRACT, SESSION_LIFECYCLE_PRE_CWD_EXPLICIT } from '../../profiles/hermes/paths.js';
import { loadContractSync } from '../../src/contracts/index.js';
import { readReplayFile } from '../../src/replay/replayFile.js';
import { runReplay } from '../../src/replay/replayRunner.js';
import { startWatchedProxy, type WatchedProxy } from './helpers/proxyHarness.js';
import { HERMES_CODES } from './helpers/profiles.js';
import { HERMES_DIALECT } from '../../profiles/hermes/dialect.js';
import { scratchDir } from './helpers/scratchDir.js';

// The browser lane through the proxy: Chromium plays the newer desktop (session.create with cwd + cwd_explicit)
// against a reference gateway started as the older backend (the pre-cwd_explicit document). The proxy must report
// the break as version skew, and the page must see exactly what it sees without the proxy.

const OLDER = loadContractSync(SESSION_LIFECYCLE_PRE_CWD_EXPLICIT);
const NEWER = loadContractSync(SESSION_LIFECYCLE_CONTRACT);
const TOKEN = 'browser-lane-token-0123456789';

interface PageView {
  state: string;
  bannerMessage: string;
  received: string[];
  sent: string[];
}

async function servePage(): Promise<{ server: Server; pageUrl: string }> {
  const html = readFileSync(REMOTE_LANE_PAGE);
  const server = createServer((request, response) => {
    if ((request.url ?? '').startsWith('/remote-lane.html')) response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, pageUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/remote-lane.html` };
}

async function viewThrough(browser: Browser, pageUrl: string, gateway: string): Promise<PageView> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const received: string[] = [];
  const sent: string[] = [];
  page.on('websocket', (socket) => {
    socket.on('framereceived', (frame) => received.push(String(frame.payload)));
    socket.on('framesent', (frame) => sent.push(String(frame.payload)));
  });
  try {
    await page.goto(`${pageUrl}?${new URLSearchParams({ gateway, token: TOKEN, cwd: '/srv/project' }).toString()}`);
    await page.waitForSelector('body:not([data-state="connecting"])', { timeout: 10_000 });
    return {
      state: (await page.locator('body').getAttribute('data-state')) ?? '',
      bannerMessage: (await page.locator('#banner-message').textContent()) ?? '',
      received,
      sent,
    };
  } finally {
    await context.close();
  }
}

let gateway: RunningGateway;
let proxy: WatchedProxy;
// The worker's shared Chromium (helpers/test.ts holds it), as the browser lane's runs use it.
let lease: BrowserLease<Browser> | undefined;
let browser: Browser;
let page: { server: Server; pageUrl: string };

test.beforeAll(async () => {
  gateway = await startGateway({ contractPaths: [SESSION_LIFECYCLE_PRE_CWD_EXPLICIT], token: TOKEN });
  proxy = await startWatchedProxy({ upstream: gateway.url, server: OLDER, client: NEWER, bindings: loadBindingRules(HERMES_BINDINGS) });
  lease = acquireBrowser();
  browser = await lease.browser;
  page = await servePage();
});

test.afterAll(async () => {
  await lease?.release();
  await new Promise((resolve) => page?.server.close(resolve));
  await proxy?.close();
  await gateway?.close();
});

test('the newer desktop page through the proxy: cwd_explicit reported as skew, the page sees what it sees without the proxy', async () => {
  const direct = await viewThrough(browser, page.pageUrl, gateway.url);
  const proxied = await viewThrough(browser, page.pageUrl, proxy.url);
  const reportDir = scratchDir('proxy-lane');
  const report = await proxy.stop(reportDir);

  // The page: the out-of-sync banner naming cwd_explicit, identical with and without the proxy, frame for frame.
  expect(direct.state).toBe('out-of-sync');
  expect(direct.bannerMessage).toContain('cwd_explicit');
  expect(proxied.state).toBe(direct.state);
  expect(proxied.bannerMessage).toBe(direct.bannerMessage);
  expect(proxied.sent).toEqual(direct.sent);
  expect(proxied.received).toEqual(direct.received);
  // And byte for byte what crossed the proxy in each direction.
  expect(proxy.watch.crossed.filter((f) => f.from === 'server').map((f) => f.text)).toEqual(proxied.received);
  expect(proxy.watch.crossed.filter((f) => f.from === 'client').map((f) => f.text)).toEqual(proxied.sent);

  // The proxy: one finding, the skew check on the desktop's create, at cwd_explicit, and the skew summary.
  expect(report.findings.map((r) => [r.first.subject, r.first.check, r.first.path])).toEqual([['session.create', 'skew.client-contract', 'cwd_explicit']]);
  expect(report.findings[0]?.first.message).toContain('clients on Hermes TUI/Desktop gateway 2 would break: session.create.cwd_explicit (error 4000');
  expect(report.skew).toHaveLength(1);
  expect(report.skew[0]).toMatch(/^client on Hermes TUI\/Desktop gateway v2 vs server on Hermes TUI\/Desktop gateway v1: session\.create\.cwd_explicit \(the gateway answered error 4000 .*predicted by contract-gate skew \(param-unknown-to-server, breaking\)$/);
  expect(proxy.watch.live).toHaveLength(1);
  expect(proxy.watch.live[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} c1 session\.create skew\.client-contract cwd_explicit \{"jsonrpc":"2\.0","id":"r1","method":"session\.create"/);
  // The gateway refused the unknown key as the contract requires: no other cell fails.
  const matrix = JSON.parse(readFileSync(join(reportDir, 'matrix.json'), 'utf8')) as { cells: Array<{ method: string; check: string; status: string; replay?: string }> };
  expect(matrix.cells.filter((cell) => cell.status === 'fail').map((cell) => `${cell.method} × ${cell.check}`)).toEqual(['session.create × skew.client-contract']);
  expect(matrix.cells.find((cell) => cell.method === 'session.create' && cell.check === 'params.unknown-key-rejected')?.status).toBe('pass');
  expect(matrix.cells.some((cell) => cell.method === 'gateway.ready' && cell.check === 'event.payload-schema')).toBe(true);
  expect(readFileSync(join(reportDir, 'summary.txt'), 'utf8')).toContain('client on Hermes TUI/Desktop gateway v2 vs server on Hermes TUI/Desktop gateway v1: session.create.cwd_explicit');
  expect(readFileSync(join(reportDir, 'junit.xml'), 'utf8')).toContain('<testcase name="session.create › skew.client-contract"');
  // No secret leaves the process.
  for (const file of ['matrix.json', 'matrix.md', 'matrix.html', 'junit.xml', 'findings.json', 'summary.txt', ...readdirSync(join(reportDir, 'transcripts')).map((f) => `transcripts/${f}`)]) {
    expect(readFileSync(join(reportDir, file), 'utf8'), file).not.toContain(TOKEN);
  }
  expect(proxy.watch.live.join('\n')).not.toContain(TOKEN);

  // The replay file re-sends the desktop's create and reproduces the break on an older backend, not on a current one.
  const replay = readReplayFile(join(reportDir, matrix.cells.find((cell) => cell.check === 'skew.client-contract')?.replay ?? ''));
  expect(replay.payload).toEqual({ cwd: '/srv/project', cwd_explicit: true });
  const older = await RpcClient.connect({ dialect: HERMES_DIALECT, url: gateway.url, token: TOKEN });
  const current = await startGateway({ contractPaths: [SESSION_LIFECYCLE_CONTRACT] });
  const newer = await RpcClient.connect({ dialect: HERMES_DIALECT, url: current.url });
  try {
    expect((await runReplay(replay, OLDER, HERMES_CODES, older, 5_000)).reproduced).toBe(true);
    expect((await runReplay(replay, NEWER, HERMES_CODES, newer, 5_000)).reproduced).toBe(false);
  } finally {
    await older.close();
    await newer.close();
    await current.close();
  }
});
