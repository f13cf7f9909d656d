import { expect, test } from './helpers/test.js';
import { type ContractViolation, startGateway } from '../../gateway/index.js';
import { WsTestClient } from './helpers/gatewayWsClient.js';

const CONNECTIONS = 50;
const CALLS = 200;

test(`${CONNECTIONS} connections × ${CALLS} calls at once: no error, no lost event`, async () => {
  test.setTimeout(60_000);
  const violations: ContractViolation[] = [];
  const gateway = await startGateway({ buildDelayMs: 5, strict: (violation) => violations.push(violation) });
  try {
    const clients = await Promise.all(Array.from({ length: CONNECTIONS }, () => WsTestClient.open(gateway.url)));
    const sessions = await Promise.all(clients.map((client) => client.call<{ session_id: string }>('session.create', {})));
    const answers = await Promise.all(
      clients.flatMap((client, c) => {
        const sessionId = sessions[c]!.session_id;
        return Array.from({ length: CALLS }, (_, i) => {
          switch (i % 4) {
            case 0:
              return client.request('prompt.submit', { session_id: sessionId, text: `c${c} p${i}` });
            case 1:
              return client.request('session.history', { session_id: sessionId });
            case 2:
              return client.request('gateway.ping');
            default:
              return client.request('session.events.since', { session_id: sessionId, last_seen: 0 });
          }
        });
      }),
    );
    expect(answers.filter((frame) => 'error' in frame)).toEqual([]);
    const prompts = CALLS / 4;
    // Queued prompts run in order: the last prompt's completion ends each session's stream.
    const lastText = (c: number) => `echo: c${c} p${CALLS - 4}`;
    await Promise.all(
      clients.map((client, c) =>
        client.waitFor((frame) => {
          const params = frame['params'] as { type?: string; payload?: { text?: string } } | undefined;
          return params?.type === 'message.complete' && params.payload?.text === lastText(c);
        }, 30_000),
      ),
    );
    for (const [c, client] of clients.entries()) {
      const sessionId = sessions[c]!.session_id;
      const events = client.events().filter((event) => event['session_id'] === sessionId);
      // session.info, then per prompt (full document): start, tool.start, tool.complete, 3 deltas, complete; every seq exactly once, in order.
      expect(events.map((event) => event['seq'])).toEqual(Array.from({ length: 1 + prompts * 7 }, (_, i) => i + 1));
      const replay = await client.call<{ latest_seq: number; count: number; truncated: boolean }>('session.events.since', { session_id: sessionId, last_seen: 0 });
      expect(replay).toMatchObject({ latest_seq: events.length, count: events.length, truncated: false });
      const history = await client.call<{ count: number }>('session.history', { session_id: sessionId });
      expect(history.count).toBe(prompts * 2);
    }
    for (const client of clients) client.close();
  } finally {
    await gateway.close();
  }
  expect(violations).toEqual([]);
});
