import { Option, type Command } from 'commander';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { loadBindingRules, NO_BINDINGS, type BindingRules } from '../../src/binding/bindingRules.js';
import { DEFAULT_PROFILE, PROFILES, resolveProfile } from '../../profiles/index.js';
import { Redactor } from '../../src/client/redact.js';
import { tokenInUrl } from '../../src/client/targetUrl.js';
import { loadContract, type Contract } from '../../src/contracts/index.js';
import { startProxy } from '../../src/proxy/index.js';
import { HarnessError } from '../../core/index.js';
import { EXIT } from '../exitCodes.js';
import { integerOption } from '../lib/options.js';
import type { Profile } from '../../src/profile/profile.js';

interface ProxyCommandOptions {
  upstream: string;
  contract: string;
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

export function registerProxyCommand(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('proxy')
    .description('Sit between a real client and a gateway: relay every frame unchanged and judge each one against the contracts as it passes.')
    .requiredOption('--upstream <url>', 'the gateway the client is meant to reach: ws(s)://host:port/api/ws')
    .option('--contract <file>', 'OpenRPC document of the gateway (the server contract)', DEFAULT_PROFILE.defaultContracts[0])
    .option('--client-contract <file>', "the client's own contract (what it may send): names the version skew and catches a client that breaks its own contract")
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <n>', 'port to listen on (0 = any free port)', integerOption('--port', 0), 8790)
    .option('--report-dir <dir>', 'report folder written on exit', 'contract-gate-proxy-report')
    .option('--duration <s>', 'stop after this many seconds (default: until SIGINT/SIGTERM or the upstream goes away)', integerOption('--duration', 1))
    .addOption(new Option('--fail-on <what>', 'exit 1 when anything was found ("finding"), or never because of findings').choices(['finding', 'never']).default('never'))
    .option('--bindings <file>', 'identifier binding rules, so that replay files re-create live ids on another target (default: bindings.json beside the contract; "none")')
    .addOption(new Option('--profile <name>', 'the gateway\'s profile (default: the first registered profile that recognises the contract)').choices(PROFILES.map((profile) => profile.name)))
    .option('--max-frame <bytes>', 'largest message relayed either way; a larger one closes that side with 1009 (default 100 MiB)', integerOption('--max-frame', 1024), 100 * 1024 * 1024)
    .option('--keep-running', 'keep listening when the upstream goes away (closes with 1001/1006/1012, or refuses connections)')
    .addHelpText(
      'after',
      `
Point the client at the printed address instead of the gateway; its query string (?token=…, ?ticket=…), its
subprotocols and its Origin, Authorization and Cookie headers are passed to the upstream as they are, and the
subprotocol the upstream picks is the one the client gets. Plain HTTP requests (a dashboard page, REST calls
beside the socket) are forwarded to the upstream's host unjudged. Frames are passed on before they are judged: a finding
never changes, delays or drops traffic. Non-JSON, binary and huge frames are relayed as they are (huge ones, over
8 MiB, are not judged); an abrupt close on one side is passed on to the other.

What is judged, with the check ids of \`run\`:
  client requests   against the server contract's params: a key a closed model forbids (params.unknown-key-rejected:
                    the gateway must refuse it, naming the path), wrong type or missing required
                    (params.invalid-not-accepted), conforming ones (params.valid-accepted); a refused request is
                    version skew (skew.client-contract); with --client-contract, also what the client may send
  answers           envelope.* (jsonrpc, id echo, result xor error, error shape), result.schema; an undeclared method
                    must get -32601 (envelope.unknown-method)
  events            event.envelope, event.payload-schema, event.seq-monotonic per session and connection
  server requests   server-request.envelope; the client's answers by envelope.* and result.schema

Each finding prints one line when first seen (time, connection, subject, check, offending path, frame excerpt with
secrets redacted); repeats are counted. On exit (SIGINT, --duration, the upstream going away) the report folder
gets matrix.json/.md/.html (a row per observed method, event and server request), junit.xml, findings.json,
summary.txt (with the skew summary "client on … vs server on …: method.path"), the transcripts of the connections
with findings and one replay file per finding (\`npx contract-gate replay <file> --target URL\`).

Exit codes: 0 stopped (findings or not, unless --fail-on finding); 1 something was found with --fail-on finding;
2 usage or harness error (upstream unreachable at start, contract invalid, port in use).

Examples:
  npx contract-gate proxy --upstream wss://staging.example.com/api/ws --port 8790 \\
      --contract gateway.openrpc.json --client-contract desktop-2.4.openrpc.json
  npx contract-gate proxy --upstream ws://127.0.0.1:8800/api/ws --duration 120 --fail-on finding`,
    )
    .action(async (options: ProxyCommandOptions) => {
      setExitCode(await proxyCommand(options));
    });
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
  const server = await loadContract(options.contract);
  const client = options.clientContract ? await loadContract(options.clientContract) : undefined;
  const profile = resolveProfile(options.profile, server);
  const bindings = bindingsFor(options.bindings, server, profile);
  await assertReachable(upstream, shown);
  const reportDir = resolve(options.reportDir);
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
  return options.failOn === 'finding' && report.findings.length > 0 ? EXIT.FAILED : EXIT.OK;
}
