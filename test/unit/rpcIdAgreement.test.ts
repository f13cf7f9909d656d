import { expect, test } from './helpers/test.js';
import { expectEqual, expectIs } from './helpers/fastExpect.js';
import * as fc from 'fast-check';
import { matchRpcIds, rpcIdKey, type RpcId } from '../../core/index.js';
import { HERMES_DIALECT } from '../../profiles/hermes/dialect.js';
import { SESSION_LIFECYCLE_CONTRACT } from '../../profiles/hermes/paths.js';
import { loadContractSync } from '../../src/contracts/index.js';
import { FrameStreamJudge } from '../../src/proxy/index.js';
import { HERMES_CODES } from './helpers/profiles.js';
import { protocolRig, settle } from './helpers/protocolFakes.js';

// The client (correlating its own requests) and the proxy (correlating a watched client's) must attribute every
// answer alike: the same request, exactly or loosely, or none; and a repeated answer as a repeat. Ids are written
// as JSON text, so that 1.0, 1e0 and integers beyond 2^53 reach both sides as the same text.

const CONTRACT = loadContractSync(SESSION_LIFECYCLE_CONTRACT);
const METHOD = 'session.list';
/** A second open request, so that an answer matching nothing has no sole open request to fall to. */
const OTHER_ID = 'other-open-request';

type Attribution = 'exact' | 'loose' | 'none';
interface Verdict {
  first: Attribution;
  /** The same answer sent once more: a repeat of an answered request, the answer of the other open one, or neither. */
  again: 'repeat' | 'other' | 'unattributed';
}

const answerText = (idText: string | undefined): string => `{"jsonrpc":"2.0",${idText === undefined ? '' : `"id":${idText},`}"result":{"sessions":[]}}`;

async function clientVerdict(requestId: RpcId, answerIdText: string | undefined): Promise<{ verdict: Verdict; sent: string[] }> {
  const { protocol, transport } = protocolRig();
  let settled: Attribution | undefined;
  const first = protocol.call(METHOD, {}, { id: requestId }).then((exchange) => {
    settled = exchange.correlation === 'exact' ? 'exact' : exchange.correlation === 'loose' ? 'loose' : 'none';
    return exchange;
  });
  let otherSettled = false;
  void protocol.call(METHOD, {}, { id: OTHER_ID }).then(() => (otherSettled = true));
  transport.receive(answerText(answerIdText));
  await settle();
  const strayBefore = protocol.strayFrames.length;
  transport.receive(answerText(answerIdText));
  await settle();
  const exchange = settled === undefined ? undefined : await first;
  const repeat = exchange?.duplicateAnswers?.length === 1;
  const again = repeat ? 'repeat' : otherSettled ? 'other' : 'unattributed';
  // A repeat or an unattributed answer is kept aside as a stray frame.
  expectIs(protocol.strayFrames.length, strayBefore + (again === 'other' ? 0 : 1));
  return { verdict: { first: settled ?? 'none', again }, sent: transport.sent.map((s) => s.text) };
}

function proxyVerdict(sent: readonly string[], answerIdText: string | undefined): Verdict {
  const judge = new FrameStreamJudge({ server: CONTRACT, profile: HERMES_CODES, dialect: HERMES_DIALECT });
  judge.open('c1');
  for (const text of sent) judge.frame('c1', 'client', text, 0);
  const judged = (): number => judge.cells.find((cell) => cell.subject === METHOD && cell.check === 'envelope.id-echo')?.judged ?? 0;
  const findings = judge.frame('c1', 'server', answerText(answerIdText), 1);
  const attributed = judged() === 1;
  const idEcho = findings.some((f) => f.check === 'envelope.id-echo');
  const first: Attribution = !attributed ? 'none' : idEcho ? 'loose' : 'exact';
  const unattributedBefore = judge.unjudged.unattributedAnswers;
  const judgedBefore = judged();
  const second = judge.frame('c1', 'server', answerText(answerIdText), 2);
  const repeat = second.some((f) => f.check === 'envelope.id-echo' && f.message.includes('answered again'));
  const again = repeat ? 'repeat' : judged() > judgedBefore ? 'other' : 'unattributed';
  if (again === 'unattributed') expect(judge.unjudged.unattributedAnswers).toBe(unattributedBefore + 1);
  return { first, again };
}

const integerText = fc.integer({ min: -1000, max: 1000 }).chain((n) => fc.constantFrom(`${n}`, `${n}.0`, `${n}e0`));
// Neighbours beyond 2^53: distinct texts that JSON.parse reads as one number.
const bigText = fc.bigInt({ min: 0n, max: 4n }).map((offset) => `${9007199254740992n + offset}`);
const doubleText = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)), fc.constant('-0'));
const stringText = fc.oneof(fc.constantFrom('1', '1.0', '-0', 'null', 'true', '9007199254740993', ''), fc.string({ maxLength: 3 })).map((s) => JSON.stringify(s));
/** Ids a request may carry (string, number, null), as JSON text. */
const requestIdText = fc.oneof(integerText, bigText, doubleText, stringText, fc.constant('null'));
/** Ids an answer may carry: any JSON value, or none. */
const answerIdText = fc.oneof(
  requestIdText,
  fc.constantFrom('true', 'false', '{}', '[]', '[1,2]', '["1","2"]', '{"a":1,"b":2}', '{"b":2,"a":1}'),
  fc.constant(undefined),
);

/** The answer's id: independent of the request's, the same, the same as a string, or the same as a number. */
const idPair = fc.tuple(requestIdText, answerIdText, fc.nat(3)).map(([request, answer, how]): [string, string | undefined] => {
  const value = JSON.parse(request) as RpcId;
  if (how === 1) return [request, request];
  if (how === 2) return [request, JSON.stringify(String(value))];
  if (how === 3 && Number.isFinite(Number(value)) && value !== null && value !== '') return [request, JSON.stringify(Number(value))];
  return [request, answer];
});

test('the client and the proxy attribute every answer id to the same request, and a repeated answer alike', async () => {
  await fc.assert(
    fc.asyncProperty(idPair, async ([requestText, answerIdText]) => {
      const requestId = JSON.parse(requestText) as RpcId;
      fc.pre(requestId !== OTHER_ID && answerIdText !== JSON.stringify(OTHER_ID));
      const { verdict, sent } = await clientVerdict(requestId, answerIdText);
      expectEqual(proxyVerdict(sent, answerIdText), verdict);
    }),
    { numRuns: 300 },
  );
});

test('the rule: same JSON value is exact, same text is loose, a null or missing id never matches loosely', () => {
  expect(matchRpcIds(1, JSON.parse('1.0'))).toBe('exact');
  expect(matchRpcIds(JSON.parse('9007199254740993'), JSON.parse('9007199254740992'))).toBe('exact');
  expect(matchRpcIds(-0, 0)).toBe('exact');
  expect(matchRpcIds({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe('exact');
  expect(matchRpcIds(7, '7')).toBe('loose');
  expect(matchRpcIds('1.0', 1)).toBe('none');
  expect(matchRpcIds(null, 'null')).toBe('none');
  expect(matchRpcIds('undefined', undefined)).toBe('none');
  expect(matchRpcIds([1, 2], ['1', '2'])).toBe('none');
  expect(matchRpcIds(true, 'true')).toBe('none');
  expect(new Set(['1', 1, null, 'null', true, 'true', [1], '[1]'].map((id) => rpcIdKey(id))).size).toBe(8);
});
