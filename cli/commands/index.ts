import type { Command } from 'commander';
import { registerMergeCommand } from './merge.js';
import { registerProxyCommand } from './proxy.js';
import { registerReplayCommand } from './replay.js';
import { registerReportCommand } from './report.js';
import { registerRunCommand } from './run.js';
import { registerServeCommand } from './serve.js';
import { registerSkewCommand } from './skew.js';

/** Every command registers itself here; each receives `setExitCode` and never calls process.exit. */
export function registerCommands(program: Command, setExitCode: (code: number) => void): void {
  registerRunCommand(program, setExitCode);
  registerServeCommand(program, setExitCode);
  registerReplayCommand(program, setExitCode);
  registerReportCommand(program, setExitCode);
  registerMergeCommand(program, setExitCode);
  registerSkewCommand(program, setExitCode);
  registerProxyCommand(program, setExitCode);
}
