import type { Clock, TimerHandle } from '../../../src/client/clock.js';
import { RpcProtocol } from '../../../src/client/rpcProtocol.js';
import type { ProtocolOptions } from '../../../src/client/rpcClientOptions.js';
import { Redactor } from '../../../src/client/redact.js';
import { Transcript } from '../../../src/client/transcript.js';
import type { Transport, TransportClose } from '../../../src/client/transport.js';
import { TransportEvents } from '../../../src/client/transportEvents.js';
import { HERMES_DIALECT } from '../../../profiles/hermes/dialect.js';

interface FakeTimer {
  at: number;
  callback: () => void;
}

/** A clock that only moves when a test says so; due timers fire in order of their due time. */
export class FakeClock implements Clock {
  private time = 1_000;
  private readonly timers = new Set<FakeTimer>();

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const timer = { at: this.time + Math.max(0, ms), callback };
    this.timers.add(timer);
    return timer;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers.delete(handle as FakeTimer);
  }

  get pendingTimers(): number {
    return this.timers.size;
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way (and those they set). */
  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const due = [...this.timers].filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers.delete(due);
      this.time = due.at;
      due.callback();
    }
    this.time = until;
  }
}

/** A transport a test plays the target of: it sees what was sent and pushes what the target answers. */
export class FakeTransport extends TransportEvents implements Transport {
  readonly kind: Transport['kind'];
  readonly label = 'fake://target';
  selectedProtocol: string | undefined = undefined;
  readonly sent: Array<{ text: string; replyTo: number | undefined }> = [];
  readonly cancelled: number[] = [];
  private open = true;

  constructor(kind: Transport['kind'] = 'ws') {
    super();
    this.kind = kind;
  }

  get isOpen(): boolean {
    return this.open;
  }

  /** The parsed frames sent so far. */
  get frames(): Array<Record<string, unknown>> {
    return this.sent.map((s) => JSON.parse(s.text) as Record<string, unknown>);
  }

  send(text: string, replyTo?: number): void {
    this.sent.push({ text, replyTo });
  }

  cancel(replyTo: number): void {
    this.cancelled.push(replyTo);
  }

  close(code = 1000, reason = ''): Promise<void> {
    this.drop({ code, reason });
    return Promise.resolve();
  }

  terminate(): void {
    this.drop({ code: 1006, reason: '' });
  }

  /** The target sends a frame (a string as is, anything else as JSON). */
  receive(frame: unknown, replyTo?: number): void {
    const text = typeof frame === 'string' ? frame : JSON.stringify(frame);
    this.emitFrame(replyTo === undefined ? { text } : { text, replyTo });
  }

  undeliverable(replyTo: number, reason: string): void {
    this.emitFrame({ replyTo, undelivered: reason });
  }

  note(text: string): void {
    this.emitNote(text);
  }

  drop(info: TransportClose): void {
    this.open = false;
    this.emitClose(info);
  }
}

export interface ProtocolRig {
  clock: FakeClock;
  transport: FakeTransport;
  protocol: RpcProtocol;
  transcript: Transcript;
}

/** A protocol over a fake transport and a fake clock. */
export function protocolRig(options: ProtocolOptions & { kind?: Transport['kind']; secrets?: string[] } = {}): ProtocolRig {
  const clock = new FakeClock();
  const transport = new FakeTransport(options.kind);
  const redactor = new Redactor(options.secrets ?? []);
  const transcript = new Transcript(redactor, 20_000, 64 * 1024 * 1024, { now: () => clock.now() });
  const protocol = new RpcProtocol(transport, transcript, redactor, { clock, dialect: HERMES_DIALECT, ...options });
  return { clock, transport, protocol, transcript };
}

/** Lets promise callbacks run (the protocol resolves exchanges and handler answers through promises). */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}
