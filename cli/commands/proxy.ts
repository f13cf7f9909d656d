import { connect } from 'node:net';
import { loadBindingRules, NO_BINDINGS, type BindingRules } from '../../src/binding/bindingRules.js';
import { Redactor } from '../../src/client/redact.js';
import { tokenInUrl } from '../../src/client/targetUrl.js';
import { loadContract, type Contract } from '../../src/contracts/index.js';
import { startProxy } from '../../src/proxy/index.js';
import { HarnessError } from '../../core/index.js';
import { EXIT } from '../exitCodes.js';
import { makeOutputFolder } from '../lib/reportFolder.js';
import { resolveProfileDefaults } from '../../profiles/profileDefaults.js';
import type { Profile } from '../../src/profile/profile.js';

interface ProxyCommandOptions {
  upstream: string;
  contract?: string;
  clientContract?: string;
  host: string;
  port: number;
  reportDir: string;
  duration?: number;
  failOn: 'finding' | 'never';
  bindings?: string;
  profile?: string;
  maxFrame: number;
  keepRunning?: boolean;
}

/** `contract-gate proxy`. */
export async function proxyAction(_positionals: string[], options: Record<string, unknown>): Promise<number> {
  return proxyCommand(options as unknown as ProxyCommandOptions);
}

function bindingsFor(option: string | undefined, contract: Contract, profile: Profile): BindingRules {
  if (option === 'none') return NO_BINDINGS;
  if (option) return loadBindingRules(option);
  return profile.bindingsFor(contract);
}

/** A TCP connect to the upstream's host and port: fails fast when nothing listens, without opening a gateway connection. */
async function assertReachable(upstream: URL, shown: string): Promise<void> {
  const port = Number(upstream.port || (upstream.protocol === 'wss:' ? 443 : 80));
  await new Promise<void>((resolveReach, reject) => {
    const socket = connect({ host: upstream.hostname.replace(/^\[|\]$/g, ''), port, timeout: 10_000 });
    socket.once('connect', () => {
      socket.destroy();
      resolveReach();
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(new HarnessError('GATEWAY_UNREACHABLE', `upstream ${shown} did not accept a TCP connection within 10 s`));
    });
    socket.once('error', (error) => reject(new HarnessError('GATEWAY_UNREACHABLE', `upstream ${shown} is unreachable: ${error.message}`)));
  });
}

/**
 * One connection ending abnormally is not the gateway going away: the proxy stops only when, a moment later, the
 * upstream no longer accepts TCP connections.
 */
async function stopIfGone(upstream: URL, shown: string, why: string, stop: (reason: string) => void): Promise<void> {
  await new Promise((resolveWait) => setTimeout(resolveWait, 300));
  await assertReachable(upstream, shown).catch((error: unknown) => stop(`the upstream went away (${why}; ${(error as Error).message})`));
}

export async function proxyCommand(options: ProxyCommandOptions): Promise<number> {
  let upstream: URL;
  try {
    upstream = new URL(options.upstream);
  } catch {
    throw new HarnessError('USAGE', `--upstream must be a ws:// or wss:// URL, got "${options.upstream}"`);
  }
  if (upstream.protocol !== 'ws:' && upstream.protocol !== 'wss:') throw new HarnessError('USAGE', `--upstream must be a ws:// or wss:// URL, got "${options.upstream}"`);
  if (tokenInUrl(options.upstream)) {
    throw new HarnessError('USAGE', '--upstream carries a token in its URL: the proxy passes the client\'s own ?token= (or ticket, subprotocol, Authorization) through, so give the URL without it');
  }
  const shown = new Redactor([]).redactUrl(options.upstream);
  const { contracts, resolved: profile } = await resolveProfileDefaults({ contract: options.contract ? [options.contract] : undefined, profile: options.profile }, loadContract);
  const server = await loadContract(contracts[0] as string);
  const client = options.clientContract ? await loadContract(options.clientContract) : undefined;
  const bindings = bindingsFor(options.bindings, server, profile);
  await assertReachable(upstream, shown);
  // Found out now, not when the proxy stops hours later with what it saw.
  const reportDir = makeOutputFolder(options.reportDir, '--report-dir');
  let stopWith: (reason: string) => void = () => undefined;
  const stopped = new Promise<string>((resolveStop) => {
    stopWith = resolveStop;
  });
  const proxy = await startProxy({
    upstream: options.upstream,
    server,
    ...(client ? { client } : {}),
    profile,
    host: options.host,
    port: options.port,
    maxPayload: options.maxFrame,
    bindings,
    live: (line) => process.stdout.write(`${line}\n`),
    ...(options.keepRunning ? {} : { upstreamGone: (why: string) => void stopIfGone(upstream, shown, why, stopWith) }),
  }).catch((error: unknown) => {
    throw new HarnessError('USAGE', `cannot listen on ${options.host}:${options.port}: ${(error as Error).message}`, { cause: error });
  });
  process.stdout.write(`contract-gate proxy listening on ${proxy.url} → ${shown} (server contract ${server.title} ${server.version}${client ? `, client contract ${client.title} ${client.version}` : ''})\n`);
  const onSignal = (signal: string) => () => stopWith(signal);
  const onInt = onSignal('SIGINT');
  const onTerm = onSignal('SIGTERM');
  process.once('SIGINT', onInt);
  process.once('SIGTERM', onTerm);
  const timer = options.duration ? setTimeout(() => stopWith(`--duration ${options.duration}`), options.duration * 1000) : undefined;
  const reason = await stopped;
  if (timer) clearTimeout(timer);
  process.off('SIGINT', onInt);
  process.off('SIGTERM', onTerm);
  const report = await proxy.stop(reportDir, reason);
  process.stdout.write(`${report.summary}\n`);
  if (options.failOn !== 'finding') return EXIT.OK;
  // A gate that judged nothing has not passed: the client may not have gone through the proxy at all.
  if (report.matrix.cells.length === 0) {
    process.stderr.write(`contract-gate proxy: nothing was judged: no frame of a method, event or server request the contracts declare crossed the proxy (was the client pointed at ${proxy.url}?); with --fail-on finding that fails the gate\n`);
    return EXIT.FAILED;
  }
  return report.findings.length > 0 ? EXIT.FAILED : EXIT.OK;
}
