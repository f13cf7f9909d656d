import { serverRequestProblems } from '../checks/serverRequestChecks.js';
import { REACHED_PREFIX } from '../checks/tags.js';
import { violation } from '../checks/violation.js';
import type { ServerRequestRecord } from '../client/serverRequests.js';
import type { RpcClient } from '../client/rpcClient.js';
import type { ContractMethod } from '../contracts/contractModel.js';
import type { SchemaValidators } from '../contracts/schemaValidators.js';
import type { CellVerdict } from './cellTypes.js';

/** A server→client request a run's connection received while doing something else (a method run), as judged later. */
export interface ObservedServerRequest {
  readonly frame: Record<string, unknown>;
  /** What the harness did with it: `answered` unless its answer could not be made or sent. */
  readonly status: ServerRequestRecord['status'];
  readonly sent: boolean;
  /** Sessions the connection heard events of: a request's session_id must be one of them. */
  readonly liveSessions: readonly string[];
}

/** Every server request a connection received, with the sessions it heard of, for judging after the run. */
export function observedOn(client: RpcClient): ObservedServerRequest[] {
  const liveSessions = [...new Set(client.events.recorded.map((event) => event.params.session_id).filter((id): id is string => typeof id === 'string'))];
  return client.serverRequests.map((record) => ({ frame: record.frame, status: record.status, sent: record.sent !== false, liveSessions }));
}

/**
 * `server-request.envelope` on what a run observed by chance (an external target asks when it decides to): each
 * request of `request.name` must have been answered and must be the frame its contract declares. n/a with `why`
 * when none arrived: nothing was seen, so nothing passes.
 */
export function observedEnvelopeVerdict(request: ContractMethod, validators: SchemaValidators, observed: readonly ObservedServerRequest[], why: string): CellVerdict {
  const mine = observed.filter((seen) => seen.frame['method'] === request.name);
  if (mine.length === 0) return { status: 'n/a', detail: `no ${request.name} request was observed during the run: ${why}`, violations: [] };
  const check = 'server-request.envelope';
  const violations = mine.flatMap((seen) => {
    const label = `${request.name} (id ${JSON.stringify(seen.frame['id'])})`;
    const problems = serverRequestProblems(seen.frame, { request, validators }, new Set(seen.liveSessions)).map((problem) => `${label}: ${problem}`);
    if (seen.status !== 'answered' || !seen.sent) problems.push(`${label}: the harness could not answer it (${seen.status}${seen.sent ? '' : ', connection closed'})`);
    return problems.map((message) => violation(check, message));
  });
  const answered = mine.filter((seen) => seen.status === 'answered' && seen.sent).length;
  const evidence = { serverRequestsAnswered: answered };
  const reached = [`${REACHED_PREFIX.serverRequest}${request.name}`];
  if (violations.length === 0) return { status: 'pass', detail: `${mine.length} ${request.name} request(s) observed during the run, each answered and as declared`, violations, evidence, reached };
  return { status: 'fail', detail: `${violations[0]?.message ?? ''}${violations.length > 1 ? ` (+${violations.length - 1} more)` : ''}`, violations, evidence, reached };
}
