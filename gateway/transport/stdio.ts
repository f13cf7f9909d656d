import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { GatewayConnection } from '../core/gatewayConnection.js';
import type { GatewayCore } from '../core/gatewayCore.js';

/** Close code the core is told when stdin ends (the stdio peer went away; there is no WebSocket close frame). */
export const STDIN_CLOSED_CODE = 1000;

export interface StdioLink {
  /** Resolves once stdin has ended and every frame read before it has been handled. */
  readonly ended: Promise<void>;
  readonly connection: GatewayConnection;
}

/**
 * Newline-delimited JSON-RPC over a pair of streams, as `tui_gateway/entry.py` speaks it to the Ink TUI: one JSON
 * value per line in both directions, `gateway.ready` as the first line written, events interleaved with responses
 * and server→client requests on the same output. One connection lives as long as the input: at its end the core
 * sees that connection drop (close code 1000, reason "stdin closed").
 */
export function attachStdio(core: GatewayCore, input: Readable, output: Writable, log: (line: string) => void): StdioLink {
  let writable = true;
  const lines = createInterface({ input, crlfDelay: Infinity });
  const connection = core.connect({
    kind: 'stdio',
    send: (text) => {
      // JSON.stringify escapes every line break inside strings, so a frame is always exactly one line.
      if (writable) output.write(`${text}\n`);
    },
    close: () => {
      writable = false;
      lines.close();
    },
  });
  const handling = new Set<Promise<void>>();
  lines.on('line', (line) => {
    const task = core.receive(connection, line).catch((error: unknown) => log(`frame handling failed: ${String(error)}`));
    handling.add(task);
    void task.finally(() => handling.delete(task));
  });
  const ended = new Promise<void>((resolve) => {
    lines.once('close', () => {
      void Promise.all([...handling]).then(() => {
        core.disconnect(connection, STDIN_CLOSED_CODE, 'stdin closed');
        resolve();
      });
    });
  });
  return { ended, connection };
}
