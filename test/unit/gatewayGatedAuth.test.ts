import { expect, test } from './helpers/test.js';
import { type RunningGateway, startGateway } from '../../gateway/index.js';
import { hostOriginRefusal } from '../../gateway/auth/hostOriginGuard.js';
import { DashboardLogin, fetchAuthStatus } from '../../profiles/hermes/auth/dashboardLogin.js';
import { probeUpgrade } from '../../src/client/upgradeProbe.js';
import { HERMES_CONTRACT } from './helpers/gatewayHarness.js';

const PASSWORD = 'pw-7c1d-gated';
const TOKEN = 'legacy-77aa-token';
const INTERNAL = 'internal-3b9e-credential';
const V1 = 'hermes-gateway-v1';
const TICKET = 'hermes-gateway-ticket.';

let gateway: RunningGateway;
let login: DashboardLogin;

test.beforeAll(async () => {
  gateway = await startGateway({
    contractPaths: [HERMES_CONTRACT],
    buildDelayMs: 5,
    token: TOKEN,
    auth: { basicUser: 'ci', basicPassword: PASSWORD, ticketTtlMs: 400, internalCredential: INTERNAL },
  });
  login = new DashboardLogin({ kind: 'basic', user: 'ci', password: PASSWORD });
});
test.afterAll(async () => gateway.close());

const base = (): string => `http://127.0.0.1:${gateway.port}`;
const mint = async (): Promise<string> => (await login.mint(gateway.url)).ticket;
const probe = (shape: Omit<Parameters<typeof probeUpgrade>[0], 'url' | 'secrets'>) => probeUpgrade({ url: gateway.url, secrets: [], settleMs: 300, ...shape });

test('/api/status says gated with the basic provider; a loopback gateway says auth_required: false', async () => {
  expect(await fetchAuthStatus(gateway.url)).toEqual({ authRequired: true, providers: ['basic'] });
  const loopback = await startGateway({ contractPaths: [HERMES_CONTRACT] });
  try {
    expect(await fetchAuthStatus(loopback.url)).toEqual({ authRequired: false, providers: [] });
    expect((await fetch(`http://127.0.0.1:${loopback.port}/api/auth/ws-ticket`, { method: 'POST' })).status).toBe(404);
  } finally {
    await loopback.close();
  }
});

test('the basic login: wrong password 401, another provider 400, a session cookie mints tickets; no cookie, no ticket', async () => {
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) => fetch(`${base()}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  expect((await post('/auth/password-login', { provider: 'basic', username: 'ci', password: 'nope', next: '/' })).status).toBe(401);
  expect((await post('/auth/password-login', { provider: 'github', username: 'ci', password: PASSWORD })).status).toBe(400);
  expect((await post('/api/auth/ws-ticket', {})).status).toBe(401);
  const wrong = new DashboardLogin({ kind: 'basic', user: 'ci', password: 'nope' });
  await expect(wrong.mint(gateway.url)).rejects.toThrow(/^\[AUTH_FAILED\] the basic login as ci \(POST http:\/\/127\.0\.0\.1:\d+\/auth\/password-login\) answered HTTP 401/);
  const cookie = new DashboardLogin({ kind: 'cookie', cookie: 'hermes_session=forged', variable: 'COOKIE' });
  await expect(cookie.mint(gateway.url)).rejects.toThrow(/answered HTTP 401/);
  const minted = await login.mint(gateway.url);
  expect(minted.ttlSeconds).toBe(0.4);
  expect(minted.ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
});

test('a ticket opens one connection, as ?ticket= or as the subprotocol pair (hermes-gateway-v1 selected); a second use is refused 4401', async () => {
  const ticket = await mint();
  const first = await probe({ query: { ticket } });
  expect(first).toMatchObject({ kind: 'open', selectedProtocol: '' });
  expect(await probe({ query: { ticket } })).toMatchObject({ kind: 'closed', code: 4401, frames: [] });
  const byProtocol = await mint();
  expect(await probe({ subprotocols: [V1, `${TICKET}${byProtocol}`] })).toMatchObject({ kind: 'open', selectedProtocol: V1 });
  expect(await probe({ subprotocols: [V1, `${TICKET}${byProtocol}`] })).toMatchObject({ kind: 'closed', code: 4401 });
});

test('the subprotocol rules: a ticket protocol without hermes-gateway-v1 is an HTTP 401, two ticket protocols close 4401, and neither consumes its ticket', async () => {
  const [a, b] = [await mint(), await mint()];
  expect(await probe({ subprotocols: [`${TICKET}${a}`] })).toMatchObject({ kind: 'handshake-refused', status: 401 });
  expect(await probe({ subprotocols: [V1, `${TICKET}${a}`, `${TICKET}${b}`] })).toMatchObject({ kind: 'closed', code: 4401, selectedProtocol: V1 });
  expect(await probe({ query: { ticket: a } })).toMatchObject({ kind: 'open' });
});

test('refused: no credential, an unknown or expired ticket, the legacy token, a wrong internal credential (4401); a foreign Origin (4403)', async () => {
  expect(await probe({})).toMatchObject({ kind: 'closed', code: 4401, reason: 'auth: no_credential' });
  expect(await probe({ query: { ticket: 'x'.repeat(43) } })).toMatchObject({ kind: 'closed', code: 4401, reason: 'auth: ticket_invalid unknown' });
  expect(await probe({ query: { token: TOKEN } })).toMatchObject({ kind: 'closed', code: 4401, reason: 'auth: legacy_token_refused' });
  expect(await probe({ query: { internal: 'wrong' } })).toMatchObject({ kind: 'closed', code: 4401 });
  expect(await probe({ query: { internal: INTERNAL } })).toMatchObject({ kind: 'open' });
  const expiring = await mint();
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(await probe({ query: { ticket: expiring } })).toMatchObject({ kind: 'closed', code: 4401, reason: 'auth: ticket_invalid expired' });
  expect(await probe({ query: { ticket: await mint() }, origin: 'https://evil.example' })).toMatchObject({ kind: 'closed', code: 4403 });
  expect(await probe({ query: { ticket: await mint() }, origin: base() })).toMatchObject({ kind: 'open' });
  const host = await probeUpgrade({ url: `ws://localhost:${gateway.port}/api/ws`, secrets: [], settleMs: 300, query: { ticket: await mint() } });
  expect(host).toMatchObject({ kind: 'open' });
});

test('HTTP /api/rpc takes the dashboard session, not the legacy token; the counters add up', async () => {
  const call = (headers: Record<string, string>) => fetch(`${base()}/api/rpc`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"jsonrpc":"2.0","id":1,"method":"session.list","params":{}}' });
  expect((await call({ authorization: `Bearer ${TOKEN}` })).status).toBe(401);
  expect((await call(await login.sessionHeaders(gateway.url))).status).toBe(200);
  const { counters } = gateway.auth!;
  expect(counters.ticketsMinted).toBe(gateway.auth!.issuedTickets.length);
  expect(counters.ticketsRedeemed).toBeLessThanOrEqual(counters.ticketsMinted);
  expect(counters.refused['no_credential']).toBeGreaterThanOrEqual(1);
  expect(counters.refused['origin_mismatch']).toBeGreaterThanOrEqual(1);
});

test('the Host/Origin guard: the bound host (loopback names alike) or an allowed origin; a wildcard bind takes any Host', () => {
  const bound = { host: '127.0.0.1', port: 9119 };
  expect(hostOriginRefusal({ host: '127.0.0.1:9119' }, bound, [])).toBeUndefined();
  expect(hostOriginRefusal({ host: 'localhost:9119', origin: 'http://localhost:9119' }, bound, [])).toBeUndefined();
  expect(hostOriginRefusal({ host: 'rebound.example:9119' }, bound, [])).toBe('host_mismatch host=rebound.example:9119');
  expect(hostOriginRefusal({ host: '127.0.0.1:9119', origin: 'http://127.0.0.1:9120' }, bound, [])).toBe('origin_mismatch origin=http://127.0.0.1:9120');
  expect(hostOriginRefusal({ host: 'staging.example', origin: 'https://staging.example' }, bound, ['https://staging.example'])).toBeUndefined();
  expect(hostOriginRefusal({ host: 'anything:1', origin: 'https://anything:1' }, { host: '0.0.0.0', port: 1 }, [])).toBeUndefined();
});
