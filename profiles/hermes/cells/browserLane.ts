import type { Browser, BrowserContext, Page } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, join } from 'node:path';
import { PACKAGE_ROOT } from '../../../src/config/packagePaths.js';
import { violation, type Violation } from '../../../src/checks/violation.js';
import type { TicketPresentation, TicketSource } from '../../../src/client/connectionAuth.js';
import { dashboardBase } from '../auth/dashboardLogin.js';
import { Redactor } from '../../../src/client/redact.js';
import type { Contract } from '../../../src/contracts/index.js';
import { judgeRemoteLanePage, pageExpectation, type PageReadout } from '../scenarios/remoteLanePage.js';
import { DESKTOP_CWD } from '../scenarios/topologyScenarios.js';
import { analyseSkew } from '../../../src/skew/index.js';
import type { CellBody, CellEvidence, CellVerdict } from '../../../src/run/cellTypes.js';
import type { RunPlan } from '../../../src/run/runPlan.js';
import { acquireBrowser, CHROMIUM_PATH } from './sharedBrowser.js';
import { cwdExplicitDesktopContract, preCwdExplicitContract, preCwdExplicitOptions, targetContract, unsupported, withSiblingGateway } from './scenarioSetup.js';

export { CHROMIUM_PATH } from './sharedBrowser.js';
/** The static page that plays the desktop (served from the package, not from dist/). */
export const REMOTE_LANE_PAGE = join(PACKAGE_ROOT, 'profiles', 'hermes', 'cells', 'remote-lane.html');
const SETTLE_TIMEOUT_MS = 10_000;

interface Lane {
  label: string;
  url: string;
  token: string | undefined;
  /** Gated mode: the page gets a fresh ticket and is served from the gateway's own origin (the Origin guard). */
  tickets: { source: TicketSource; via: TicketPresentation } | undefined;
  contract: Contract;
}

/** Where the page is loaded from in gated mode: a path of the dashboard's origin, answered by the browser itself. */
const GATED_PAGE_PATH = '/__contract-gate/remote-lane.html';

/** Serves the one static page on 127.0.0.1 (port 0); everything else is 404. */
async function servePage(pagePath: string): Promise<{ server: Server; pageUrl: string }> {
  const html = readFileSync(pagePath);
  const name = `/${basename(pagePath)}`;
  const server = createServer((request, response) => {
    if ((request.url ?? '').split('?')[0] === name) response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, pageUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}${name}` };
}

/**
 * Runs in the page (Playwright serialises it: it must not refer to anything outside itself). Waits until the page
 * has left `connecting` (or `timeoutMs` passed) and reads it in one evaluation: seven locator calls cost about a
 * quarter more CPU per page, in Chromium and here, and read the same. Visible as Playwright's `isVisible` means it:
 * a non-empty box and no `visibility: hidden`.
 */
function readSettledPage(timeoutMs: number): Promise<PageReadout> {
  const text = (selector: string): string => document.querySelector(selector)?.textContent ?? '';
  const visible = (selector: string): boolean => {
    const element = document.querySelector(selector);
    if (!element) return false;
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
  };
  const read = (): PageReadout => ({
    state: document.body.getAttribute('data-state') ?? '',
    draftVisible: visible('#draft'),
    sessionId: text('#session-id').trim(),
    bannerVisible: visible('#banner'),
    bannerText: text('#banner').replace(/\s+/g, ' ').trim(),
    bannerMessage: text('#banner-message').trim(),
    errorText: text('#error').trim(),
  });
  const settled = (): boolean => document.body.getAttribute('data-state') !== 'connecting';
  return new Promise((resolve) => {
    if (settled()) return resolve(read());
    const observer = new MutationObserver(() => {
      if (!settled()) return;
      observer.disconnect();
      clearTimeout(timer);
      resolve(read());
    });
    const timer = setTimeout(() => {
      observer.disconnect();
      resolve(read());
    }, timeoutMs);
    observer.observe(document.documentElement, { attributes: true, subtree: true, attributeFilter: ['data-state'] });
  });
}

/**
 * The cell's one page, in a browser context of its own: each lane navigates it anew instead of opening a context
 * and page of its own, which starts no renderer process (ten cells of two lanes: 6.0 -> 4.0 s of CPU, Chromium's
 * included). A page that could not be driven is closed, so the next lane starts on a fresh one.
 */
class LanePage {
  private opened: Promise<{ context: BrowserContext; page: Page }> | undefined;
  private routed = false;

  constructor(private readonly browser: Browser) {}

  async page(): Promise<Page> {
    this.opened ??= this.browser.newContext().then(async (context) => ({ context, page: await context.newPage() }));
    return (await this.opened).page;
  }

  /** In gated mode the page comes from the gateway's own origin, answered by the browser itself (once per page). */
  async routeGatedPage(html: Buffer): Promise<void> {
    if (this.routed) return;
    await (await this.page()).route((requested) => requested.pathname === GATED_PAGE_PATH, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
    this.routed = true;
  }

  async close(): Promise<void> {
    const opened = this.opened;
    this.opened = undefined;
    this.routed = false;
    await opened?.then(({ context }) => context.close(), () => undefined);
  }
}

/**
 * Loads the page for one lane, reads it once it settled and judges the readout while the page is still open: a lane
 * that breaks a rule leaves a screenshot of the page beside the verdict (a passing one's readout is its record).
 */
async function readPage(
  lanePage: LanePage,
  pageUrl: string,
  pagePath: string,
  lane: Lane,
  testInfo: CellEvidence,
  redactor: Redactor,
  judge: (readout: PageReadout) => string[],
): Promise<{ readout: PageReadout; problems: string[] }> {
  const page = await lanePage.page();
  const query = new URLSearchParams({ gateway: lane.url, cwd: DESKTOP_CWD });
  let url = pageUrl;
  if (lane.tickets) {
    const { ticket } = await lane.tickets.source.mint(lane.url);
    redactor.add([ticket]);
    query.set('ticket', ticket);
    query.set('via', lane.tickets.via);
    // Same origin as the gateway, as the dashboard's own SPA: the upgrade's Origin passes the Host/Origin guard.
    url = `${dashboardBase(lane.url)}${GATED_PAGE_PATH}`;
    await lanePage.routeGatedPage(readFileSync(pagePath));
  } else if (lane.token) {
    query.set('token', lane.token);
  }
  await page.goto(`${url}?${query.toString()}`);
  const readout = await page.evaluate(readSettledPage, SETTLE_TIMEOUT_MS);
  const problems = judge(readout);
  if (problems.length > 0) await testInfo.attach(`remote-lane-${lane.label.replace(/[^a-z0-9]+/gi, '-')}.png`, { body: await page.screenshot(), contentType: 'image/png' });
  return { readout, problems };
}

async function judgeLanes(plan: RunPlan, lanes: Lane[], pagePath: string, testInfo: CellEvidence): Promise<CellVerdict> {
  const check = 'scenario.browser-remote-lane';
  const redactor = new Redactor(lanes.map((lane) => lane.token));
  const { server, pageUrl } = await servePage(pagePath);
  const lease = acquireBrowser();
  const violations: Violation[] = [];
  const shown: string[] = [];
  let lanePage: LanePage | undefined;
  try {
    lanePage = new LanePage(await lease.browser);
    for (const lane of lanes) {
      const expected = pageExpectation(analyseSkew(cwdExplicitDesktopContract(plan), lane.contract, { serverCodes: plan.profile.codes }));
      const judge = (readout: PageReadout): string[] => judgeRemoteLanePage(readout, expected, plan.profile.codes);
      const read = await readPage(lanePage, pageUrl, pagePath, lane, testInfo, redactor, judge).catch(async (error: unknown) => {
        await lanePage?.close();
        violations.push(violation(check, `${lane.label}: the page could not be driven: ${redactor.redact(error instanceof Error ? error.message : String(error))}`));
        return undefined;
      });
      if (!read) continue;
      const { readout, problems } = read;
      for (const problem of problems) violations.push(violation(check, `${lane.label}: ${redactor.redact(problem)}`));
      const what = readout.state === 'accepted' ? `"draft accepted" (session ${readout.sessionId})` : readout.state === 'out-of-sync' ? `the out-of-sync banner ("${readout.bannerMessage.split(':').slice(0, 2).join(':')}")` : `state ${readout.state}`;
      const predicted = expected.rejectedPaths.length > 0 ? `the banner naming ${expected.rejectedPaths.join(' or ')}` : 'an accepted draft';
      shown.push(`${lane.label} (${expected.sides}) shows ${redactor.redact(what)}; predicted ${predicted}`);
    }
  } finally {
    await lanePage?.close();
    await lease.release();
    await new Promise((resolve) => server.close(resolve));
  }
  const external = lanes.length === 1 ? '; the pre-cwd_explicit sibling runs only beside an embedded target' : '';
  // Each page read is the page's own answer to its session.create: the frames went from Chromium, not this cell.
  const evidence = { answersJudged: shown.length };
  if (violations.length === 0) return { status: 'pass', detail: `Chromium on the remote lane: ${shown.join(' | ')}${external}`, violations, evidence };
  return { status: 'fail', detail: `${violations[0]?.message ?? ''}${violations.length > 1 ? ` (+${violations.length - 1} more)` : ''}`, violations, context: shown, evidence };
}

/**
 * A real browser on the remote lane: the static page opens the WebSocket from Chromium, sends the desktop's create
 * and shows the accepted draft or the out-of-sync banner. Judged against the analyser's prediction for the target
 * and, beside an embedded target, for a sibling reference gateway on the pre-`cwd_explicit` document.
 */
export function browserLaneCell(pagePath: string): CellBody {
  return async ({ plan, target }, testInfo) => {
    if (!existsSync(CHROMIUM_PATH)) return { status: 'n/a', detail: `no Chromium at ${CHROMIUM_PATH}: the browser lane uses the system Chromium and never downloads one`, violations: [] };
    const skipped = unsupported(plan, target, ['session.create']);
    if (skipped) return skipped;
    const contract = targetContract(plan);
    if (!contract) return { status: 'n/a', detail: 'no target contract', violations: [] };
    const via = plan.config.auth?.mode === 'ticket' ? plan.config.auth.via : 'query';
    const tickets = target.tickets ? { source: target.tickets, via } : undefined;
    if (target.gated && !tickets) return { status: 'n/a', detail: 'the page on a gated target needs a fresh ticket: run with --auth ticket', violations: [] };
    const own: Lane = { label: target.kind === 'embedded' ? 'embedded gateway' : 'target', url: target.url, token: target.token, tickets, contract };
    if (target.kind !== 'embedded') return judgeLanes(plan, [own], pagePath, testInfo);
    return withSiblingGateway(plan, preCwdExplicitOptions(plan), (sibling) =>
      judgeLanes(plan, [own, { label: 'pre-cwd_explicit gateway', url: sibling.url, token: target.token, tickets, contract: preCwdExplicitContract(plan) }], pagePath, testInfo),
    );
  };
}
