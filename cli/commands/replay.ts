import type { Command } from 'commander';
import { resolve } from 'node:path';
import { startGateway, type RunningGateway } from '../../gateway/index.js';
import { Redactor } from '../../src/client/redact.js';
import { RpcClient } from '../../src/client/rpcClient.js';
import { tokenInUrl } from '../../src/client/targetUrl.js';
import { loadContract } from '../../src/contracts/loadContract.js';
import { isFrameReplay, runFrameReplay, type FrameReplayFile } from '../../src/proxy/index.js';
import type { Contract } from '../../src/contracts/index.js';
import { readReplayFile } from '../../src/replay/replayFile.js';
import { runReplay } from '../../src/replay/replayRunner.js';
import { HarnessError } from '../../core/index.js';
import { EXIT } from '../exitCodes.js';
import { integerOption } from '../lib/options.js';
import { tokenFromEnv } from '../lib/tokens.js';

interface ReplayOptions {
  target?: string;
  tokenEnv?: string;
  timeout: number;
}

export function registerReplayCommand(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('replay')
    .argument('<file>', 'replay file from a report folder (replays/<method>--<check>.json)')
    .description('Re-send a recorded failing exchange and judge it again: exit 1 when the failure reproduces, 0 when it does not.')
    .option('--target <url>', 'gateway to send it to (default: the recorded target; an embedded run starts the reference gateway again with the recorded contracts and faults)')
    .option('--token-env <var>', 'name of the environment variable holding the gateway token')
    .option('--timeout <ms>', 'per-request timeout', integerOption('--timeout', 100), 5_000)
    .addHelpText('after', '\nLive ids (session ids, stored keys, paths) are created again on the target from the recorded binding rules, so the replay works on a fresh gateway.')
    .action(async (file: string, options: ReplayOptions) => {
      setExitCode(await replayCommand(file, options));
    });
}

export async function replayCommand(path: string, options: ReplayOptions): Promise<number> {
  const file = readReplayFile(resolve(path));
  const contract = await loadContract(file.contracts[0] ?? '');
  const token = tokenFromEnv(options.tokenEnv);
  let gateway: RunningGateway | undefined;
  let url = options.target;
  if (!url) {
    if (!file.embedded) {
      if (file.target.includes('***')) throw new HarnessError('USAGE', `the recorded target ${file.target} had a token; pass --target with the URL and --token-env`);
      url = file.target;
    } else {
      gateway = await startGateway({ contractPaths: file.gateway?.contracts ?? file.contracts, legacyMessages: file.gateway?.legacyMessages ?? false, ...(token ? { token } : {}), faults: file.gateway?.faults ?? [] });
      url = gateway.url;
    }
  }
  const redactor = new Redactor([token, tokenInUrl(url)]);
  process.stdout.write(`contract-gate replay: ${file.method} × ${file.check} (seed ${file.seed}) against ${gateway ? 'a new embedded reference gateway' : redactor.redactUrl(url)}\n`);
  if (isFrameReplay(file)) {
    try {
      return await frameReplayCommand(file, contract, url, token, options.timeout, redactor);
    } finally {
      await gateway?.close();
    }
  }
  const client = await RpcClient.connect({ url, token, readyTimeoutMs: file.profile === 'hermes' ? 2_000 : 0, requestTimeoutMs: options.timeout });
  try {
    const outcome = await runReplay(file, contract, client, options.timeout);
    for (const exchange of outcome.exchanges) {
      process.stdout.write(`>> ${redactor.redact(exchange.requestText)}\n<< ${exchange.responseText !== undefined ? redactor.redact(exchange.responseText) : (exchange.failure?.message ?? '(nothing)')}\n`);
    }
    if (outcome.reproduced) {
      process.stdout.write(`REPRODUCED: ${outcome.violations.map((v) => redactor.redact(v.message)).join('\n  ')}\n`);
      return EXIT.FAILED;
    }
    process.stdout.write(`NOT REPRODUCED: ${file.check} holds for this exchange now (recorded: ${redactor.redact(file.violation)})\n`);
    return EXIT.OK;
  } finally {
    await client.close();
    await gateway?.close();
  }
}

/** A replay written by `contract-gate proxy` for an event or server-request finding: the client's frames of one connection, re-sent in order. */
async function frameReplayCommand(file: FrameReplayFile, contract: Contract, url: string, token: string | undefined, timeoutMs: number, redactor: Redactor): Promise<number> {
  const target = new URL(url);
  if (token) target.searchParams.set('token', token);
  const outcome = await runFrameReplay(file, contract, target.href, timeoutMs);
  for (const line of outcome.lines) process.stdout.write(`${redactor.redact(line).slice(0, 2_000)}\n`);
  if (outcome.reproduced) {
    process.stdout.write(`REPRODUCED: ${outcome.violations.map((v) => redactor.redact(v.message)).join('\n  ')}\n`);
    return EXIT.FAILED;
  }
  process.stdout.write(`NOT REPRODUCED: ${file.expect.subject} × ${file.check} holds for these frames now (recorded: ${redactor.redact(file.violation)})\n`);
  return EXIT.OK;
}
