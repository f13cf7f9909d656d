import { expect, test } from './helpers/test.js';
import { HarnessError } from '../../core/index.js';
import { type RunningGateway, startGateway } from '../../gateway/index.js';
import { internalAuth } from '../../src/client/connectionAuth.js';
import { ticketAuth } from '../../profiles/hermes/auth/ticketAuth.js';
import { connectTarget } from '../../src/client/connectTarget.js';
import { commandTicketSource, DashboardLogin } from '../../profiles/hermes/auth/dashboardLogin.js';
import { Redactor } from '../../src/client/redact.js';
import { HERMES_CONTRACT } from './helpers/gatewayHarness.js';
import { HERMES_DIALECT } from '../../profiles/hermes/dialect.js';

const PASSWORD = 'pw-91f0-client';
const basic = (): DashboardLogin => new DashboardLogin({ kind: 'basic', user: 'ci', password: PASSWORD });

async function gated(faults: string[] = []): Promise<RunningGateway> {
  return startGateway({ contractPaths: [HERMES_CONTRACT], buildDelayMs: 5, faults, auth: { basicUser: 'ci', basicPassword: PASSWORD } });
}

for (const via of ['query', 'subprotocol'] as const) {
  test(`ticket auth (${via}): a fresh ticket per connection, one login, nothing of it in the transcript`, async () => {
    const gateway = await gated();
    try {
      const auth = ticketAuth(basic(), via);
      const first = await connectTarget({ dialect: HERMES_DIALECT, target: gateway.url, auth });
      const second = await connectTarget({ dialect: HERMES_DIALECT, target: gateway.url, auth });
      expect(first.selectedProtocol).toBe(via === 'subprotocol' ? 'hermes-gateway-v1' : '');
      expect((await first.call('session.list', {})).failure).toBeUndefined();
      expect(auth.minted()).toBe(2);
      const counters = gateway.auth!.counters;
      expect(counters).toMatchObject({ logins: 1, ticketsMinted: 2, ticketsRedeemed: 2, connectionsOpened: 2 });
      const text = first.transcript.render() + second.transcript.render();
      for (const secret of [PASSWORD, ...gateway.auth!.issuedTickets]) expect(text).not.toContain(secret);
      await first.close();
      await second.close();
    } finally {
      await gateway.close();
    }
  });
}

test('a gateway that echoes the ticket-bearing subprotocol is refused by the client; the message shows no ticket', async () => {
  const gateway = await gated(['auth.ticket-protocol-echoed']);
  try {
    const error = await connectTarget({ dialect: HERMES_DIALECT, target: gateway.url, auth: ticketAuth(basic(), 'subprotocol') }).catch((e: unknown) => e);
    expect(HarnessError.is(error) && error.code).toBe('GATEWAY_UNREACHABLE');
    expect((error as Error).message).toContain('selected subprotocol "hermes-gateway-ticket.***", not hermes-gateway-v1');
    expect((error as Error).message).not.toContain(gateway.auth!.issuedTickets[0] as string);
  } finally {
    await gateway.close();
  }
});

test('a ticket command: one ticket per call with the gateway URL in GATEWAY_TARGET_URL; a failing or silent command is AUTH_FAILED', async () => {
  const source = commandTicketSource('printf "t-%s\\n" "$GATEWAY_TARGET_URL"');
  expect(await source.mint('ws://h:1/api/ws')).toEqual({ ticket: 't-ws://h:1/api/ws', ttlSeconds: undefined });
  await expect(commandTicketSource('echo nope >&2; exit 3').mint('ws://h/')).rejects.toThrow('[AUTH_FAILED] the ticket command failed (3): nope');
  await expect(commandTicketSource('true').mint('ws://h/')).rejects.toThrow('[AUTH_FAILED] the ticket command printed no ticket');
});

test('the internal credential travels as ?internal= and is redacted; so are ticket subprotocols and ?ticket=', async () => {
  expect(await internalAuth('int-1').present({ transport: 'ws', target: 'ws://h/api/ws' })).toEqual({ query: { internal: 'int-1' }, secrets: ['int-1'] });
  const redactor = new Redactor([]);
  expect(redactor.redact('ws://h/api/ws?internal=abc&ticket=def offered hermes-gateway-v1,hermes-gateway-ticket.ghi')).toBe('ws://h/api/ws?internal=***&ticket=*** offered hermes-gateway-v1,hermes-gateway-ticket.***');
});

test('an HTTP target in gated mode is called with the login session; a ticket command has none', async () => {
  const gateway = await gated();
  try {
    const client = await connectTarget({ dialect: HERMES_DIALECT, target: gateway.httpUrl, auth: ticketAuth(basic(), 'query') });
    expect((await client.call('session.list', {})).failure).toBeUndefined();
    await client.close();
    await expect(ticketAuth(commandTicketSource('echo t'), 'query').present({ transport: 'http', target: gateway.httpUrl })).rejects.toThrow(/use --login basic or --cookie-env/);
  } finally {
    await gateway.close();
  }
});
