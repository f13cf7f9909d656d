import { startGateway, type GatewayOptions, type RunningGateway } from '../index.js';
import type { ValidatorStore } from '../core/contract/schemaValidators.js';
import type { HostReply, HostRequest } from './hostProtocol.js';

/** What the process that runs the host loop gives every gateway it starts, beside the options that travel as JSON. */
export interface HostLoopOptions {
  /** Where compiled validators are kept between processes (none: each gateway compiles what it checks). */
  readonly validatorStore?: ValidatorStore;
}

/**
 * The loop of a child process that hosts reference gateways for its parent (gateway/host/hostedGateway.ts): each
 * `start` is one more gateway instance with its own port, core and data folder. It ends with its parent (the IPC
 * channel closes).
 */
export function hostGateways(loop: HostLoopOptions = {}): void {
  const running = new Map<number, RunningGateway>();
  let nextHandle = 1;

  async function handle(request: HostRequest): Promise<HostReply> {
    if (request.op === 'start') {
      const options: GatewayOptions = { ...request.options, ...(loop.validatorStore ? { validatorStore: loop.validatorStore } : {}) };
      const gateway = await startGateway(options);
      const handle = nextHandle++;
      running.set(handle, gateway);
      return { id: request.id, ok: true, value: { handle, url: gateway.url, httpUrl: gateway.httpUrl } };
    }
    const gateway = running.get(request.handle);
    if (!gateway) return { id: request.id, ok: false, error: `no hosted gateway ${request.handle}` };
    if (request.op === 'restart') await gateway.restart();
    else {
      running.delete(request.handle);
      await gateway.close();
    }
    return { id: request.id, ok: true };
  }

  process.on('message', (request: HostRequest) => {
    void handle(request)
      .catch((error: unknown): HostReply => ({ id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) }))
      .then((reply) => process.send?.(reply));
  });

  process.on('disconnect', () => {
    void Promise.allSettled([...running.values()].map((gateway) => gateway.close())).finally(() => process.exit(0));
  });
}
