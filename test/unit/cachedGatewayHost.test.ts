import { expect, test } from './helpers/test.js';
import { fork, type ChildProcess } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { HostReply, HostRequest } from '../../gateway/host/hostProtocol.js';
import { SESSION_LIFECYCLE_CONTRACT } from '../../profiles/hermes/paths.js';
import { DIST_ROOT } from '../../src/config/packagePaths.js';
import { WsTestClient } from './helpers/gatewayWsClient.js';
import { scratchDir } from './helpers/scratchDir.js';

const CACHED_HOST = join(DIST_ROOT, 'profiles', 'hermes', 'cachedGatewayHost.js');
const GATEWAY_HOST = join(DIST_ROOT, 'gateway', 'host', 'gatewayHostProcess.js');

/** Starts one gateway in a host process of `entry` with the validator cache in `cacheDir`, drives a turn, ends the host. */
async function turnInHost(entry: string, cacheDir: string): Promise<void> {
  const child: ChildProcess = fork(entry, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], env: { ...process.env, CONTRACT_GATE_CACHE_DIR: cacheDir, CONTRACT_GATE_CACHE: '' } });
  try {
    const reply = await new Promise<HostReply>((resolve, reject) => {
      child.once('message', (message: HostReply) => resolve(message));
      child.once('exit', (code) => reject(new Error(`the host exited (${code})`)));
      child.send({ id: 1, op: 'start', options: { contractPaths: [SESSION_LIFECYCLE_CONTRACT], buildDelayMs: 0 } } satisfies HostRequest);
    });
    if (!reply.ok || !reply.value) throw new Error(`the host did not start a gateway: ${JSON.stringify(reply)}`);
    const client = await WsTestClient.open(reply.value.url);
    // A create and a turn: the gateway checks the results and every event payload against the contract.
    const { session_id } = await client.call<{ session_id: string }>('session.create', {});
    await client.call('prompt.submit', { session_id, text: 'hello' });
    client.socket.close();
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.disconnect();
    await exited;
  }
}

test("a run's gateway host keeps the gateway's validators in the harness's cache, and the next host loads them; the gateway's own host keeps none", async () => {
  const cached = scratchDir('contract-gate-hostcache');
  const own = scratchDir('contract-gate-hostcache-own');
  try {
    await turnInHost(CACHED_HOST, cached);
    const written = readdirSync(cached).filter((name) => name.endsWith('.cjs'));
    await turnInHost(CACHED_HOST, cached);
    const afterSecond = readdirSync(cached).filter((name) => name.endsWith('.cjs'));
    await turnInHost(GATEWAY_HOST, own);
    expect({ written: written.length > 0, writtenAgain: afterSecond.length - written.length, ownHost: readdirSync(own).length }).toEqual({ written: true, writtenAgain: 0, ownHost: 0 });
  } finally {
    rmSync(cached, { recursive: true, force: true });
    rmSync(own, { recursive: true, force: true });
  }
});
