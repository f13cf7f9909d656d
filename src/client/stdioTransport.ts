import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { constants } from 'node:os';
import { HarnessError } from '../../core/index.js';
import { clipText } from './clipText.js';
import { LineSplitter } from './lineSplitter.js';
import type { Transport, TransportClose } from './transport.js';
import { TransportEvents } from './transportEvents.js';

export interface StdioTransportOptions {
  command: string;
  args: string[];
  /** The target as messages show it (redacted `stdio:<command line>`). */
  label: string;
  cwd?: string;
  /** Added to this process's environment. */
  env?: Record<string, string>;
  maxFrameBytes: number;
  /** After stdin ends, how long the child may take to exit before SIGTERM (and as long again before SIGKILL). */
  closeGraceMs: number;
}

export const DEFAULT_CLOSE_GRACE_MS = 2_000;
/** Stderr lines transcribed per child; a chatty one is counted beyond this. */
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

/**
 * Newline-delimited JSON-RPC with a child process, both ways, as a terminal client speaks to the gateway it spawns:
 * frames on stdin and stdout, stderr lines as transcript notes; the child exiting is the connection closing.
 */
export class StdioTransport extends TransportEvents implements Transport {
  readonly kind = 'stdio';
  readonly label: string;
  readonly selectedProtocol = undefined;
  /** Resolves once the child is running; rejects with GATEWAY_UNREACHABLE when it cannot be started. */
  readonly opened: Promise<void>;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly stderrTail: string[] = [];
  private stderrLines = 0;
  private running = false;
  private stdinEnded = false;
  private localFault: string | undefined;
  private readonly ended: Promise<void>;
  private markEnded!: () => void;

  constructor(private readonly options: StdioTransportOptions) {
    super();
    this.label = options.label;
    this.ended = new Promise((resolve) => (this.markEnded = resolve));
    const child = spawn(options.command, options.args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: 'pipe', windowsHide: true });
    this.child = child;
    const stdout = new LineSplitter((line) => this.onStdoutLine(line), options.maxFrameBytes, () => {
      this.localFault = `the target sent a line longer than the client's limit of ${options.maxFrameBytes} bytes`;
      this.terminate();
    });
    const stderr = new LineSplitter((line) => this.onStderrLine(line));
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stdout.on('end', () => stdout.end());
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.stderr.on('end', () => stderr.end());
    // Writing to a child that already exited fails with EPIPE; the exit itself is what the caller learns.
    child.stdin.on('error', (error) => this.emitNote(`stdin error: ${error.message}`));
    this.opened = new Promise<void>((resolve, reject) => {
      child.once('spawn', () => {
        this.running = true;
        resolve();
      });
      child.once('error', (error) => {
        if (this.running) this.emitNote(`process error: ${error.message}`);
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

  get isOpen(): boolean {
    return this.running && !this.stdinEnded && this.closedWith === undefined;
  }

  /** The process id of the child, while it runs. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  send(text: string): void {
    if (!this.isOpen) return;
    this.child.stdin.write(`${text}\n`);
  }

  async close(): Promise<void> {
    if (this.closedWith) return;
    this.stdinEnded = true;
    this.child.stdin.end();
    const grace = this.options.closeGraceMs;
    const term = setTimeout(() => this.child.kill('SIGTERM'), grace);
    const kill = setTimeout(() => this.child.kill('SIGKILL'), 2 * grace);
    await this.ended;
    clearTimeout(term);
    clearTimeout(kill);
  }

  terminate(): void {
    if (this.closedWith) return;
    this.stdinEnded = true;
    this.child.stdin.destroy();
    this.child.kill('SIGKILL');
  }

  private onStdoutLine(line: string): void {
    if (line.trim().length > 0) this.emitFrame({ text: line });
  }

  private onStderrLine(line: string): void {
    const kept = clipText(line, STDERR_LINE_CHARS);
    this.stderrTail.push(kept);
    if (this.stderrTail.length > STDERR_TAIL_LINES) this.stderrTail.shift();
    if (++this.stderrLines <= MAX_STDERR_LINES) this.emitNote(`stderr: ${kept}`);
  }

  private finish(code: number | null, signal: NodeJS.Signals | null, why?: string): void {
    if (this.closedWith) return;
    if (this.stderrLines > MAX_STDERR_LINES) this.emitNote(`${this.stderrLines - MAX_STDERR_LINES} further stderr lines, not transcribed`);
    const detail = this.stderrTail.length > 0 ? `its last stderr lines: ${this.stderrTail.join(' | ')}` : undefined;
    this.emitClose({ ...describeExit(code, signal), ...(why ? { description: why } : {}), ...(this.localFault ? { localFault: this.localFault } : {}), ...(detail ? { detail } : {}) });
    this.markEnded();
  }
}
