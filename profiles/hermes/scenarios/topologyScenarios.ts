import { derefSchema, describeOutcome, type JsonObject, type Outcome, outcomeOf } from '../../../core/index.js';
import { requires } from '../../../src/run/requirements.js';
import type { CodeProfile } from '../../../src/checks/codeProfile.js';
import type { RpcClient } from '../../../src/client/rpcClient.js';
import { type Contract } from '../../../src/contracts/index.js';
import type { SkewFinding, SkewReport } from '../../../src/skew/index.js';
import { aborted, Findings, type Connect, type ScenarioVerdict } from '../../../src/run/scenarioVerdict.js';
import { closeQuietly, sessionCwd, type CreatedSession } from './sessionDriver.js';
import { createTolerantly } from './tolerantClient.js';

/** A directory that exists on any gateway host: the remote lane's deliberate workspace pick. */
export const DESKTOP_CWD = '/';

/** What the desktop sends for a new chat in a picked workspace (spec §6.2): `cwd` plus its provenance flag. */
export function desktopCreateParams(cwd = DESKTOP_CWD): JsonObject {
  return { cwd, cwd_explicit: true };
}

/** Breaking `param-unknown-to-server` findings of `method` whose top-level key is one of `sentKeys` (all when omitted). */
export function predictedUnknownKeys(report: SkewReport, method: string, sentKeys?: readonly string[]): SkewFinding[] {
  return report.findings.filter(
    (f) => f.method === method && f.kind === 'param-unknown-to-server' && f.severity === 'breaking' && (sentKeys === undefined || sentKeys.includes(f.path.split('.')[0] ?? '')),
  );
}

/** Whether the target's params model of `method` is closed (an unknown key must be rejected). */
export function closedParams(contract: Contract, method: string): boolean {
  const found = contract.method(method);
  if (!found) return false;
  const schema = derefSchema(found.paramsSchema, contract.resolver);
  return typeof schema === 'object' && schema.additionalProperties === false;
}

const sides = (report: SkewReport): string => `client v${report.client.version} → server v${report.server.version}`;

function namesPath(outcome: Outcome, profile: CodeProfile, method: string, path: string): boolean {
  return outcome.kind === 'error' && outcome.code === profile.unknownKeyCode && profile.unknownKeyMessageMatches(method, path, outcome.message, outcome.data);
}

function createdFrom(outcome: Outcome): CreatedSession | undefined {
  if (outcome.kind !== 'result' || typeof outcome.result !== 'object' || outcome.result === null || Array.isArray(outcome.result)) return undefined;
  const result = outcome.result;
  return typeof result['session_id'] === 'string' ? { sessionId: result['session_id'], storedId: String(result['stored_session_id'] ?? ''), result } : undefined;
}

/** Local lane: a client on the server's own contract creates a bare session (no cwd), like a new chat. */
export async function localLaneVerdict(connect: Connect): Promise<ScenarioVerdict> {
  const findings = new Findings('scenario.topology-local');
  let client: RpcClient | undefined;
  try {
    client = await connect({ name: 'local' });
    const outcome = outcomeOf(await client.call('session.create', {}));
    const created = createdFrom(outcome);
    if (!created) {
      findings.fail(`a bare session.create {} (no cwd) answered ${describeOutcome(outcome)}, not a session`);
      return findings.verdict('');
    }
    const cwd = await sessionCwd(client, created);
    await closeQuietly(client, created.sessionId);
    return findings.verdict(`bare create (no cwd) accepted: session ${created.sessionId}, cwd ${JSON.stringify(cwd)}`);
  } catch (error) {
    return aborted('scenario.topology-local', 'local lane', error);
  } finally {
    await client?.close().catch(() => undefined);
  }
}

/**
 * Remote lane: a desktop on the newer contract sends `cwd` + `cwd_explicit: true`. The outcome must be the one the
 * skew analyser predicts for (desktop contract → target contract): a rejection naming the predicted key ("version
 * skew reproduced"), or a session whose cwd is the sent cwd.
 */
export async function remoteLaneVerdict(connect: Connect, options: { report: SkewReport; profile: CodeProfile; cwd?: string }): Promise<ScenarioVerdict> {
  const findings = new Findings('scenario.topology-remote');
  const sent = desktopCreateParams(options.cwd);
  const predicted = predictedUnknownKeys(options.report, 'session.create', Object.keys(sent));
  let client: RpcClient | undefined;
  try {
    client = await connect({ name: 'remote' });
    const outcome = outcomeOf(await client.call('session.create', sent));
    const created = createdFrom(outcome);
    if (created) await closeQuietly(client, created.sessionId);
    const paths = predicted.map((f) => f.path);
    if (predicted.length > 0) {
      const named = paths.find((path) => namesPath(outcome, options.profile, 'session.create', path));
      findings.expect(
        named !== undefined,
        `analyseSkew predicts that session.create ${JSON.stringify(sent)} is rejected naming ${paths.join(' or ')} (${sides(options.report)}), but the gateway answered ${describeOutcome(outcome)}${created ? ' (the target accepts the newer key: its contract document is older than the gateway)' : ''}`,
      );
      return findings.verdict(`version skew reproduced: session.create ${JSON.stringify(sent)} rejected with ${outcome.kind === 'error' ? `${outcome.code} naming ${named}` : ''}, as analyseSkew predicts for ${sides(options.report)}`);
    }
    if (!created) {
      const skewed = outcome.kind === 'error' && outcome.code === options.profile.unknownKeyCode;
      findings.fail(`analyseSkew predicts that session.create ${JSON.stringify(sent)} is accepted (${sides(options.report)}), but the gateway answered ${describeOutcome(outcome)}${skewed ? ' — unpredicted version skew: the gateway runs an older contract than the one given for it' : ''}`);
      return findings.verdict('');
    }
    const cwd = await sessionCwd(client, created);
    findings.expect(cwd === sent['cwd'], `the remote create was accepted but the session cwd is ${JSON.stringify(cwd)}, not the sent ${JSON.stringify(sent['cwd'])} (cwd_explicit: true must keep the picked workspace)`);
    return findings.verdict(`remote create (cwd ${JSON.stringify(sent['cwd'])}, cwd_explicit: true) accepted as predicted for ${sides(options.report)}: session ${created.sessionId}, cwd ${JSON.stringify(cwd)}`);
  } catch (error) {
    return aborted('scenario.topology-remote', 'remote lane', error);
  } finally {
    await client?.close().catch(() => undefined);
  }
}

/** An extra key no Hermes version declares: its rejection must never be retried. */
export const FOREIGN_CREATE_KEY = 'service_tier_x';

/**
 * The desktop's tolerant create (spec §2.5): against a backend that rejects `cwd_explicit` it resends once without
 * it and keeps `cwd`; against one that accepts it, one attempt; a rejection naming any other key is never retried.
 */
export async function tolerantClientVerdict(
  connect: Connect,
  options: { report: SkewReport; profile: CodeProfile; targetCreateClosed: boolean; cwd?: string },
): Promise<ScenarioVerdict> {
  const findings = new Findings('scenario.tolerant-client');
  const sent = desktopCreateParams(options.cwd);
  const skewed = predictedUnknownKeys(options.report, 'session.create', ['cwd_explicit']).length > 0;
  let client: RpcClient | undefined;
  try {
    client = await connect({ name: 'desktop' });
    const first = await createTolerantly(client, sent);
    const trail = first.attempts.map((attempt) => `${JSON.stringify(attempt.params)} → ${describeOutcome(attempt.outcome)}`).join('; ');
    const created = createdFrom(first.outcome);
    // Judged on what the backend answered: whether that matches the prediction is scenario.topology-remote's rule.
    const retried = first.attempts.length > 1;
    if (retried) {
      findings.expect(first.attempts.length === 2 && first.dropped.join() === 'cwd_explicit', `after the exact rejection of cwd_explicit the tolerant client must resend once without only that field; it went: ${trail}`);
      const retry = first.attempts[1]?.params;
      findings.expect(retry !== undefined && retry['cwd'] === sent['cwd'] && !('cwd_explicit' in retry), `the resend must keep cwd and drop only cwd_explicit; it sent ${JSON.stringify(retry)}`);
    }
    findings.expect(created !== undefined, `the tolerant create did not end with a session: ${trail}`);
    let cwd: string | undefined;
    if (created) {
      cwd = await sessionCwd(client, created);
      // A first create that succeeds is scenario.topology-remote's case (its cwd rule included); here only the resend is judged.
      if (retried) findings.expect(cwd === sent['cwd'], `the tolerant resend's session cwd is ${JSON.stringify(cwd)}, not the sent ${JSON.stringify(sent['cwd'])}: the resend must keep the workspace`);
      await closeQuietly(client, created.sessionId);
    }
    const matches = retried === skewed ? 'as predicted' : `although analyseSkew predicts ${skewed ? 'a rejection' : 'no rejection'} of cwd_explicit for ${sides(options.report)}`;
    const firstPart = retried ? `resent once without cwd_explicit after the exact 4000 (${matches}), session cwd ${JSON.stringify(cwd)}` : `not needed: the first create succeeded (${matches}), cwd ${JSON.stringify(cwd)}`;
    if (!options.targetCreateClosed) {
      findings.note(`the target's session.create params are open, so a rejection of ${FOREIGN_CREATE_KEY} cannot be provoked: the never-retry half was not judged`);
      return findings.verdict(`tolerant create ${firstPart}; never-retry half not applicable (open params model)`);
    }
    const foreign = await createTolerantly(client, { cwd: sent['cwd'] ?? DESKTOP_CWD, [FOREIGN_CREATE_KEY]: 'ultrafast' });
    const foreignTrail = foreign.attempts.map((attempt) => describeOutcome(attempt.outcome)).join('; ');
    const accepted = createdFrom(foreign.outcome);
    if (accepted) await closeQuietly(client, accepted.sessionId);
    findings.expect(namesPath(foreign.attempts[0]?.outcome ?? foreign.outcome, options.profile, 'session.create', FOREIGN_CREATE_KEY), `session.create with ${FOREIGN_CREATE_KEY} (undeclared, closed model) should be rejected naming it; it answered ${describeOutcome(foreign.attempts[0]?.outcome ?? foreign.outcome)}`);
    findings.expect(foreign.attempts.length === 1, `a rejection naming ${FOREIGN_CREATE_KEY} must never be retried; the tolerant client sent ${foreign.attempts.length} times (${foreignTrail})`);
    return findings.verdict(`tolerant create ${firstPart}; a rejection naming ${FOREIGN_CREATE_KEY} was not retried (1 attempt)`);
  } catch (error) {
    return aborted('scenario.tolerant-client', 'tolerant create', error, findings.violations.map((v) => v.message));
  } finally {
    await client?.close().catch(() => undefined);
  }
}

/** Every topology lane creates a session, the remote one with a working directory. */
export const TOPOLOGY_REQUIREMENTS = requires(['session.create'], { params: ['session.create.cwd'] });
