import { RUN_OPTIONS, AUTH_OPTIONS } from './options/runOptions.js';
import { SERVE_OPTIONS } from './options/serveOptions.js';
import { TOOL_OPTIONS } from './options/toolOptions.js';
import { type CommandName, flagOf, type OptionSpec, type SettingsOf } from './optionTypes.js';

/**
 * Every option of every command, declared once. The commander options (cli/lib/commanderOptions.ts), the
 * run-configuration decoder and its defaults (runConfig.ts), the configuration file's JSON Schema
 * (configSchema.ts) and docs/configuration.md (configDocs.ts) are all derived from it. Adding an option is one
 * entry here plus the code that uses it.
 */
export const OPTIONS = { ...RUN_OPTIONS, ...AUTH_OPTIONS, ...SERVE_OPTIONS, ...TOOL_OPTIONS } as const;
export type Options = typeof OPTIONS;
export type OptionKey = keyof Options;

/** What `run` acts on once the command line, the configuration file and the defaults are merged. */
export type RunSettings = SettingsOf<Options, 'run'>;

const ENTRIES = Object.entries(OPTIONS) as ReadonlyArray<[string, OptionSpec]>;

/** The options of a command, in table order. */
export function optionsOf(command: CommandName): ReadonlyArray<[string, OptionSpec]> {
  return ENTRIES.filter(([, spec]) => spec.commands.includes(command));
}

/** The keys a configuration file (and each of its projects) may hold: every option of `run` but the CLI's own. */
export function configFileOptions(): ReadonlyArray<[string, OptionSpec]> {
  return optionsOf('run').filter(([, spec]) => !spec.cliOnly);
}

/** The run-configuration field an option of `run` travels in, or undefined when the command consumes it. */
export function fieldOf(key: string, spec: OptionSpec): string | undefined {
  return spec.field === false ? undefined : (spec.field ?? key);
}

/** The table entry behind a command's `--flag`. */
export function optionByFlag(command: CommandName, flag: string): [string, OptionSpec] | undefined {
  return optionsOf(command).find(([key, spec]) => flagOf(key, spec) === flag);
}
