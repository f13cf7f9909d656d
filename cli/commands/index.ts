import type { Command } from 'commander';
import { registerSkewCommand } from './skew.js';

/** Every command registers itself here; each receives `setExitCode` and never calls process.exit. */
export function registerCommands(program: Command, setExitCode: (code: number) => void): void {
  void program;
  void setExitCode;
  registerSkewCommand(program, setExitCode);
}
