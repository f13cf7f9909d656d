import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GATEWAY_PACKAGE_ROOT } from '../packageRoot.js';
import type { HostCommand, HostedGatewayFacts, HostedOptions, HostReply, HostRequest } from './hostProtocol.js';

/**
 * Reference gateways in one child process (gateway/host/gatewayHostProcess.ts, or an entry of the caller's that runs
 * `hostGateways` with what cannot travel as JSON, such as a validator store), started on first use and shared by
 * every gateway this process hosts on that entry: their frames are handled on another core than the harness's, and
 * their heap is not the harness's. The child is unreferenced: it never keeps this process alive, and ends with it.
 */
export interface HostedGateway {
  readonly url: string;
  readonly httpUrl: string;
  /** Same port and stored rows, a new replay epoch, all sockets closed. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

type Pending = { resolve: (reply: HostReply) => void; reject: (error: Error) => void };

class GatewayHost {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(
    private readonly child: ChildProcess,
    entry: string,
  ) {
    child.on('message', (reply: HostReply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      this.settle();
      waiting.resolve(reply);
    });
    child.on('exit', (code, signal) => {
      if (hosts.get(entry) === this) hosts.delete(entry);
      const error = new Error(`the reference gateway host exited (${signal ?? `code ${code}`})`);
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    });
    child.unref();
    this.settle();
  }

  async request(request: HostCommand): Promise<HostedGatewayFacts | undefined> {
    const id = this.nextId++;
    const reply = await new Promise<HostReply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.settle();
      this.child.send({ ...request, id } satisfies HostRequest, (error) => {
        if (!error) return;
        this.pending.delete(id);
        this.settle();
        reject(error);
      });
    });
    if (!reply.ok) throw new Error(reply.error);
    return reply.value;
  }

  /** The channel holds this process open only while an answer is awaited. */
  private settle(): void {
    const channel = this.child.channel as { ref(): void; unref(): void } | undefined;
    if (this.pending.size > 0) channel?.ref();
    else channel?.unref();
  }
}

const hosts = new Map<string, GatewayHost>();

/** The gateway's own host entry: beside this module when it is compiled, else the compiled package's. */
function defaultHostEntry(): string {
  const beside = fileURLToPath(new URL('./gatewayHostProcess.js', import.meta.url));
  return existsSync(beside) ? beside : join(GATEWAY_PACKAGE_ROOT, 'dist', 'gateway', 'host', 'gatewayHostProcess.js');
}

function gatewayHost(entry: string): GatewayHost {
  let host = hosts.get(entry);
  if (!host) {
    host = new GatewayHost(fork(entry, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }), entry);
    hosts.set(entry, host);
  }
  return host;
}

/**
 * Starts a reference gateway in this process's gateway host: the child that runs `entry` (a script that calls
 * `hostGateways`; default: the gateway's own, gateway/host/gatewayHostProcess.ts).
 */
export async function startHostedGateway(options: HostedOptions, entry = defaultHostEntry()): Promise<HostedGateway> {
  const owner = gatewayHost(entry);
  const facts = (await owner.request({ op: 'start', options })) as HostedGatewayFacts;
  let closed = false;
  return {
    url: facts.url,
    httpUrl: facts.httpUrl,
    restart: async () => {
      await owner.request({ op: 'restart', handle: facts.handle });
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await owner.request({ op: 'close', handle: facts.handle }).catch(() => undefined);
    },
  };
}
