import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { startGateway, type RunningGateway } from '../../gateway/index.js';
import { type AuthSettings, connectionAuthFrom, describeAuth } from '../../src/client/authSettings.js';
import type { ConnectionAuth } from '../../src/client/connectionAuth.js';
import { connectTarget } from '../../src/client/connectTarget.js';
import { RpcClient } from '../../src/client/rpcClient.js';
import { Redactor } from '../../src/client/redact.js';
import { tokenInUrl } from '../../src/client/targetUrl.js';
import { loadContract } from '../../src/contracts/loadContract.js';
import { isFrameReplay, runFrameReplay, type FrameReplayFile } from '../../src/proxy/index.js';
import type { Contract } from '../../src/contracts/index.js';
import { readReplayFile, type ReplayFile } from '../../src/replay/replayFile.js';
import { isFramesReplay, parseFramesReplay } from '../../src/replay/framesReplay.js';
import { acceptsConnections } from '../../fixtures/targetHealth.js';
import { readFileSync } from 'node:fs';
import { runReplay } from '../../src/replay/replayRunner.js';
import { readStatefulReplayFile, replayKindOf, STATEFUL_REPLAY_KIND } from '../../src/replay/statefulReplayFile.js';
import { PROFILES, resolveProfile } from '../../profiles/index.js';
import type { Profile } from '../../src/profile/profile.js';
import { HarnessError } from '../../core/index.js';
import { EXIT } from '../exitCodes.js';
import { type AuthOptions, EMBEDDED_USER, resolveExternalAuth } from '../../src/config/resolveAuth.js';
import { tokenFromEnv } from '../lib/tokens.js';

/** The external target a replay file recorded; one whose URL had a token in it needs --target and --token-env. */
function recordedTarget(recorded: string): string {
  if (recorded.includes('***')) throw new HarnessError('USAGE', `the recorded target ${recorded} had a token; pass --target with the URL and --token-env`);
  return recorded;
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined; // readReplayFile reports it
  }
}

interface ReplayOptions extends AuthOptions {
  target?: string;
  timeout: number;
}

/** Where a replay writes what it sends, receives and concludes: standard output on the command line. */
export type ReplayOutput = (text: string) => void;

const STDOUT: ReplayOutput = (text) => void process.stdout.write(text);

/** `contract-gate replay <file>`; `out` receives the output (standard output unless given). */
export async function replayAction([file]: string[], options: Record<string, unknown>, out: ReplayOutput = STDOUT): Promise<number> {
  return replayCommand(file as string, options as unknown as ReplayOptions, out);
}

/** Sends the frames a target did not survive to a (fresh) target: exit 1 when it goes down again, 0 when it survives. */
async function framesReplayCommand(path: string, data: unknown, options: ReplayOptions, out: ReplayOutput): Promise<number> {
  const file = parseFramesReplay(data, path);
  const url = options.target ?? recordedTarget(file.target);
  const token = tokenFromEnv(options.tokenEnv);
  const redactor = new Redactor([token, tokenInUrl(url)]);
  out(`contract-gate replay: ${file.frames.length} frame(s) sent last by ${file.subject} × ${file.check} against ${redactor.redactUrl(url)}\n`);
  const client = await RpcClient.connect({ url, token, readyTimeoutMs: 0, connectTimeoutMs: 5_000 });
  for (const frame of file.frames) {
    if (!client.isOpen) break;
    out(`>> ${redactor.redact(frame).slice(0, 200)}\n`);
    const answer = client.nextStrayFrame(Math.min(options.timeout, 2_000));
    client.sendRaw(frame);
    const text = await answer;
    out(`<< ${text === undefined ? `(nothing${client.closeState ? `; closed ${client.closeState.code}` : ''})` : redactor.redact(text).slice(0, 200)}\n`);
  }
  await client.close().catch(() => undefined);
  const target = { url, token };
  if (await acceptsConnections(target)) {
    out('NOT REPRODUCED: the target still accepts connections\n');
    return EXIT.OK;
  }
  out('REPRODUCED: the target no longer accepts connections\n');
  return EXIT.FAILED;
}

/** What a replay file (a single-exchange or a stateful one) recorded about the gateway it ran against and its auth. */
type RecordedRun = Pick<ReplayFile, 'contracts' | 'gateway' | 'auth'>;

/** A recorded embedded gated run replays against a new gated gateway, with a login made up for it. */
async function embeddedGateway(file: RecordedRun, profile: Profile, token: string | undefined, options: ReplayOptions): Promise<{ gateway: RunningGateway; auth: ConnectionAuth | undefined }> {
  const gated = file.gateway?.gated === true;
  const password = randomBytes(18).toString('base64url');
  const gateway = await startGateway({
    contractPaths: file.gateway?.contracts ?? file.contracts,
    legacyMessages: file.gateway?.legacyMessages ?? false,
    ...(token ? { token } : {}),
    faults: file.gateway?.faults ?? [],
    ...(gated ? { auth: { basicUser: EMBEDDED_USER, basicPassword: password } } : {}),
  });
  if (!gated) return { gateway, auth: undefined };
  if (!profile.auth) throw new HarnessError('REPLAY_FILE_INVALID', `the replay was recorded against a gated gateway, but the ${profile.name} profile has no ticket login`);
  const via = options.ticketVia ?? (file.auth?.mode === 'ticket' ? file.auth.via : 'query');
  const passwordEnv = 'CONTRACT_GATE_REPLAY_PASSWORD';
  const tickets = profile.auth.ticketSource({ kind: 'basic', user: EMBEDDED_USER, passwordEnv }, { [passwordEnv]: password });
  return { gateway, auth: profile.auth.ticketAuth(tickets, via) };
}

/** Explicit options first, then what the run recorded, then discovery (the legacy token fails fast on a gated target). */
async function externalAuth(url: string, file: RecordedRun, profile: Profile, options: ReplayOptions): Promise<AuthSettings> {
  const explicit = options.auth !== undefined || options.login !== undefined || options.cookieEnv !== undefined || options.ticketCommand !== undefined || options.credentialEnv !== undefined;
  if (!explicit && file.auth && file.auth.mode !== 'token') return file.auth;
  return resolveExternalAuth(url, profile, options, () => undefined);
}

async function replayCommand(path: string, options: ReplayOptions, out: ReplayOutput): Promise<number> {
  if (replayKindOf(resolve(path)) === STATEFUL_REPLAY_KIND) return statefulReplayCommand(path, options, out);
  const raw = readJson(resolve(path));
  if (isFramesReplay(raw)) return framesReplayCommand(path, raw, options, out);
  const file = readReplayFile(resolve(path));
  const contract = await loadContract(file.contracts[0] ?? '');
  const profile = resolveProfile(file.profile, contract);
  const token = tokenFromEnv(options.tokenEnv);
  let gateway: RunningGateway | undefined;
  let auth: ConnectionAuth | undefined;
  let url = options.target;
  if (!url) {
    if (!file.embedded) {
      url = recordedTarget(file.target);
    } else {
      ({ gateway, auth } = await embeddedGateway(file, profile, token, options));
      url = gateway.url;
    }
  }
  if (!auth) {
    const settings = await externalAuth(url, file, profile, options);
    if (settings.mode !== 'token') out(`contract-gate replay: auth: ${describeAuth(settings)}\n`);
    auth = connectionAuthFrom(settings, token, profile);
  }
  const redactor = new Redactor([token, tokenInUrl(url)]);
  out(`contract-gate replay: ${file.method} × ${file.check} (seed ${file.seed}) against ${gateway ? 'a new embedded reference gateway' : redactor.redactUrl(url)}\n`);
  if (isFrameReplay(file)) {
    try {
      return await frameReplayCommand(file, contract, profile, url, token, options.timeout, redactor, out);
    } finally {
      await gateway?.close();
    }
  }
  const client = await connectTarget({ target: url, auth, dialect: profile.wire.dialect, readyTimeoutMs: profile.wire.readyTimeoutMs, requestTimeoutMs: options.timeout });
  try {
    const outcome = await runReplay(file, contract, profile.codes, client, options.timeout);
    for (const exchange of outcome.exchanges) {
      out(`>> ${redactor.redact(exchange.requestText)}\n<< ${exchange.responseText !== undefined ? redactor.redact(exchange.responseText) : (exchange.failure?.message ?? '(nothing)')}\n`);
    }
    if (outcome.reproduced) {
      out(`REPRODUCED: ${outcome.violations.map((v) => redactor.redact(v.message)).join('\n  ')}\n`);
      return EXIT.FAILED;
    }
    out(`NOT REPRODUCED: ${file.check} holds for this exchange now (recorded: ${redactor.redact(file.violation)})\n`);
    return EXIT.OK;
  } finally {
    await client.close();
    await gateway?.close();
  }
}

/**
 * A stateful replay: the whole recorded call sequence again, on the recorded target (an embedded run starts the
 * reference gateway again with its contracts and faults, gated when it ran gated) and, for a differential file,
 * beside a fresh reference. Against a gated target every connection of the sequence presents a fresh ticket.
 */
async function statefulReplayCommand(path: string, options: ReplayOptions, out: ReplayOutput): Promise<number> {
  const file = readStatefulReplayFile(resolve(path));
  const profile = PROFILES.find((candidate) => candidate.statefulReplay?.models.includes(file.model));
  if (!profile?.statefulReplay) throw new HarnessError('REPLAY_FILE_INVALID', `stateful replay of model ${file.model} is not supported by the command line; run it through the library (contract-gate/stateful)`);
  const token = tokenFromEnv(options.tokenEnv);
  const started: RunningGateway[] = [];
  try {
    let url = options.target;
    let auth: ConnectionAuth | undefined;
    if (!url) {
      if (!file.embedded) {
        url = recordedTarget(file.target);
      } else {
        const embedded = await embeddedGateway(file, profile, token, options);
        started.push(embedded.gateway);
        ({ auth } = embedded);
        url = embedded.gateway.url;
      }
    }
    if (!auth) {
      const settings = await externalAuth(url, file, profile, options);
      if (settings.mode !== 'token') out(`contract-gate replay: auth: ${describeAuth(settings)}\n`);
      auth = connectionAuthFrom(settings, token, profile);
    }
    let reference: string | undefined;
    if (file.mode === 'differential') {
      const gateway = await startGateway({ contractPaths: file.contracts });
      started.push(gateway);
      reference = gateway.url;
    }
    const redactor = new Redactor([token, tokenInUrl(url)]);
    out(`contract-gate replay: ${file.check}, ${file.steps.length} call(s) (seed ${file.seed}) against ${file.embedded && !options.target ? 'a new embedded reference gateway' : redactor.redactUrl(url)}${reference ? ' and a fresh reference gateway' : ''}\n`);
    const { dialect, readyTimeoutMs } = profile.wire;
    const connect = (to: string, connectionAuth: ConnectionAuth | undefined) => (client: { name: string }) =>
      RpcClient.connect({ url: to, dialect, readyTimeoutMs, requestTimeoutMs: options.timeout, ...(connectionAuth ? { auth: connectionAuth } : {}), ...client });
    const outcome = await profile.statefulReplay.replay(file, { target: connect(url, auth), ...(reference ? { reference: connect(reference, undefined) } : {}) }, options.timeout);
    for (const line of outcome.calls) out(`${line}\n`);
    if (outcome.failure) {
      out(`REPRODUCED at step ${outcome.failure.index}: ${redactor.redact(outcome.failure.message)}\n`);
      if (outcome.failure.target) out(`  target:    ${redactor.redact(outcome.failure.target.answer)}\n`);
      if (outcome.failure.reference) out(`  reference: ${redactor.redact(outcome.failure.reference.answer)}\n`);
      return EXIT.FAILED;
    }
    out(`NOT REPRODUCED: the sequence holds now (recorded at step ${file.failure.index}: ${redactor.redact(file.failure.message)})\n`);
    return EXIT.OK;
  } finally {
    for (const gateway of started) await gateway.close();
  }
}

/** A replay written by `contract-gate proxy` for an event or server-request finding: the client's frames of one connection, re-sent in order. */
async function frameReplayCommand(file: FrameReplayFile, contract: Contract, profile: Profile, url: string, token: string | undefined, timeoutMs: number, redactor: Redactor, out: ReplayOutput): Promise<number> {
  const target = new URL(url);
  if (token) target.searchParams.set('token', token);
  const outcome = await runFrameReplay(file, contract, profile, target.href, timeoutMs);
  for (const line of outcome.lines) out(`${redactor.redact(line).slice(0, 2_000)}\n`);
  if (outcome.reproduced) {
    out(`REPRODUCED: ${outcome.violations.map((v) => redactor.redact(v.message)).join('\n  ')}\n`);
    return EXIT.FAILED;
  }
  out(`NOT REPRODUCED: ${file.expect.subject} × ${file.check} holds for these frames now (recorded: ${redactor.redact(file.violation)})\n`);
  return EXIT.OK;
}
