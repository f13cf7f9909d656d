import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { constants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { HarnessError } from '../../core/index.js';
import { clipText } from './clipText.js';
import { LineSplitter } from './lineSplitter.js';
import type { TransportClose } from './transport.js';

export interface StdioSpawnOptions {
  command: string;
  args: string[];
  /** The target as messages show it (redacted `stdio:<command line>`). */
  label: string;
  cwd?: string;
  /** Added to this process's environment. */
  env?: Record<string, string>;
  maxFrameBytes: number;
}

/** Who the child's output goes to: the connection it serves at the moment. */
export interface StdioChildListener {
  frame(text: string): void;
  note(text: string): void;
  close(info: TransportClose): void;
}

/** Stderr lines transcribed per connection; a chatty child is counted beyond this. */
const MAX_STDERR_LINES = 1_000;
const STDERR_LINE_CHARS = 4 * 1024;
/** Stderr lines quoted when the child ends before it could be used. */
const STDERR_TAIL_LINES = 5;
/** A child that exited but whose pipes stay open (a grandchild holds them) is closed after this. */
const PIPES_AFTER_EXIT_MS = 1_000;

function describeExit(code: number | null, signal: NodeJS.Signals | null): Pick<TransportClose, 'code' | 'reason' | 'description'> {
  if (signal) return { code: 128 + (constants.signals[signal] ?? 0), reason: `signal ${signal}`, description: `the process was killed by ${signal}` };
  return { code: code ?? -1, reason: `exit code ${code ?? 'unknown'}`, description: `the process exited with code ${code ?? 'unknown'}` };
}

/** True for a line that is a notification (an event): the only thing a child may send while no connection holds it. */
function isNotification(line: string): boolean {
  try {
    const frame: unknown = JSON.parse(line);
    return typeof frame === 'object' && frame !== null && !Array.isArray(frame) && typeof (frame as Record<string, unknown>)['method'] === 'string' && !('id' in frame);
  } catch {
    return false;
  }
}

type Pipe = (Readable | Writable) & { ref?: () => void; unref?: () => void };

/**
 * A spawned target speaking newline-delimited JSON-RPC: its stdout lines are frames, its stderr lines notes, its
 * exit the end. It serves one connection at a time (the listener); between connections it may wait unattached,
 * and then anything but an event from it means it is still answering an earlier connection (`disturbed`).
 */
export class StdioChild {
  readonly label: string;
  /** Resolves once the child is running; rejects with GATEWAY_UNREACHABLE when it cannot be started. */
  readonly opened: Promise<void>;
  /** Resolves once the child has ended and its pipes are closed. */
  readonly ended: Promise<void>;
  /** How the child ended, once it has. */
  endedWith: TransportClose | undefined;
  /** Why the child may not serve another connection (it sent an answer or a request while none held it). */
  disturbed: string | undefined;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly stderrTail: string[] = [];
  private stderrLines = 0;
  private running = false;
  private stdinEnded = false;
  private localFault: string | undefined;
  private listener: StdioChildListener | undefined;
  private markEnded!: () => void;

  constructor(options: StdioSpawnOptions) {
    this.label = options.label;
    this.ended = new Promise((resolve) => (this.markEnded = resolve));
    const child = spawn(options.command, options.args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: 'pipe', windowsHide: true });
    this.child = child;
    const stdout = new LineSplitter((line) => this.onStdoutLine(line), options.maxFrameBytes, () => {
      this.localFault = `the target sent a line longer than the client's limit of ${options.maxFrameBytes} bytes`;
      this.kill();
    });
    const stderr = new LineSplitter((line) => this.onStderrLine(line));
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stdout.on('end', () => stdout.end());
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.stderr.on('end', () => stderr.end());
    // Writing to a child that already exited fails with EPIPE; the exit itself is what the caller learns.
    child.stdin.on('error', (error) => this.listener?.note(`stdin error: ${error.message}`));
    this.opened = new Promise<void>((resolve, reject) => {
      child.once('spawn', () => {
        this.running = true;
        resolve();
      });
      child.once('error', (error) => {
        if (this.running) this.listener?.note(`process error: ${error.message}`);
        else {
          reject(new HarnessError('GATEWAY_UNREACHABLE', `cannot start ${this.label}: ${error.message}; check the command line and that the program is installed`, { cause: error }));
          this.finish(null, null, 'the process could not be started');
        }
      });
    });
    this.opened.catch(() => undefined);
    child.once('exit', () => {
      const timer = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        this.finish(child.exitCode, child.signalCode);
      }, PIPES_AFTER_EXIT_MS);
      timer.unref();
    });
    child.once('close', (code, signal) => this.finish(code, signal));
  }

  /** Running, its stdin open, and not ended. */
  get isRunning(): boolean {
    return this.running && !this.stdinEnded && this.endedWith === undefined;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The connection the child serves from now on; an ended child tells it so at once. */
  attach(listener: StdioChildListener): void {
    this.listener = listener;
    this.stderrLines = 0;
    this.setRef(true);
    if (this.endedWith) listener.close(this.endedWith);
  }

  /** No connection holds the child any more: it no longer keeps this process alive, and its output is only watched. */
  detach(): void {
    this.listener = undefined;
    this.setRef(false);
  }

  send(text: string): void {
    if (this.isRunning) this.child.stdin.write(`${text}\n`);
  }

  /** Ends stdin and waits for the exit: SIGTERM after `graceMs`, SIGKILL after twice that. */
  async close(graceMs: number): Promise<void> {
    if (this.endedWith) return;
    this.stdinEnded = true;
    this.child.stdin.end();
    const term = setTimeout(() => this.child.kill('SIGTERM'), graceMs);
    const kill = setTimeout(() => this.child.kill('SIGKILL'), 2 * graceMs);
    await this.ended;
    clearTimeout(term);
    clearTimeout(kill);
  }

  /** Abnormal end: the child is killed. */
  kill(): void {
    if (this.endedWith) return;
    this.stdinEnded = true;
    this.child.stdin.destroy();
    this.child.kill('SIGKILL');
  }

  /** Asks the child to stop (SIGTERM) without waiting: for a process that is itself exiting. */
  stop(): void {
    if (this.endedWith === undefined) this.child.kill('SIGTERM');
  }

  /** A child nobody holds must not keep this process running: its pipes and the child itself are unreferenced. */
  private setRef(ref: boolean): void {
    for (const pipe of [this.child.stdin, this.child.stdout, this.child.stderr] as Pipe[]) (ref ? pipe.ref : pipe.unref)?.call(pipe);
    if (ref) this.child.ref();
    else this.child.unref();
  }

  private onStdoutLine(line: string): void {
    if (line.trim().length === 0) return;
    if (this.listener) this.listener.frame(line);
    else if (this.disturbed === undefined && !isNotification(line)) this.disturbed = `it sent ${clipText(line, 200)} while no connection held it`;
  }

  private onStderrLine(line: string): void {
    const kept = clipText(line, STDERR_LINE_CHARS);
    this.stderrTail.push(kept);
    if (this.stderrTail.length > STDERR_TAIL_LINES) this.stderrTail.shift();
    if (this.listener && ++this.stderrLines <= MAX_STDERR_LINES) this.listener.note(`stderr: ${kept}`);
  }

  private finish(code: number | null, signal: NodeJS.Signals | null, why?: string): void {
    if (this.endedWith) return;
    if (this.stderrLines > MAX_STDERR_LINES) this.listener?.note(`${this.stderrLines - MAX_STDERR_LINES} further stderr lines, not transcribed`);
    const detail = this.stderrTail.length > 0 ? `its last stderr lines: ${this.stderrTail.join(' | ')}` : undefined;
    this.endedWith = { ...describeExit(code, signal), ...(why ? { description: why } : {}), ...(this.localFault ? { localFault: this.localFault } : {}), ...(detail ? { detail } : {}) };
    this.listener?.close(this.endedWith);
    this.markEnded();
  }
}
