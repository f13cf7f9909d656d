import type { CommandName } from '../../src/config/optionTypes.js';
import { MERGE_HELP, PROXY_HELP, REPLAY_HELP, RUN_HELP, serveHelp, SKEW_HELP } from './helpTexts.js';

/**
 * What a command does with its arguments: the positional ones, and its options as commander parsed them (for
 * `run`, only what was given; the others get the table's defaults). Resolves with the exit code.
 */
export type CommandAction = (positionals: string[], options: Record<string, unknown>) => Promise<number>;

export interface CommandDeclaration {
  readonly name: CommandName;
  readonly description: string;
  readonly arguments?: ReadonlyArray<{ readonly name: string; readonly description: string; readonly default?: string }>;
  readonly helpAfter?: string | (() => string);
  /** The command's module, imported only when the command runs: `--help` loads none of them. */
  readonly load: () => Promise<CommandAction>;
}

/** Every command, in the order help lists them. Their options come from the option table (src/config/optionTable.ts). */
export const COMMANDS: readonly CommandDeclaration[] = [
  {
    name: 'run',
    description: 'Run the conformance suites against a target gateway (default: the embedded reference gateway).',
    helpAfter: RUN_HELP,
    load: async () => (await import('./run.js')).runAction,
  },
  {
    name: 'init',
    description: 'Write a starter contract-gate.config file (finding the OpenRPC documents of the repository) and a GitHub Actions workflow.',
    load: async () => (await import('./init.js')).initAction,
  },
  {
    name: 'serve',
    description: 'Serve the reference gateway (its WebSocket and HTTP wire: /api/ws and /api/rpc) until SIGINT/SIGTERM.',
    helpAfter: serveHelp,
    load: async () => (await import('./serve.js')).serveAction,
  },
  {
    name: 'replay',
    description: 'Re-send a recorded failing exchange and judge it again: exit 1 when the failure reproduces, 0 when it does not.',
    arguments: [{ name: '<file>', description: 'replay file from a report folder (replays/<method>--<check>.json)' }],
    helpAfter: REPLAY_HELP,
    load: async () => (await import('./replay.js')).replayAction,
  },
  {
    name: 'report',
    description: 'Render the Allure HTML report of a run (no Java needed): <report-dir>/allure-report/index.html. Needs the allure package (npm i -D allure@^3.18.0).',
    arguments: [{ name: '[report-dir]', description: 'report folder of a run', default: 'contract-gate-report' }],
    load: async () => (await import('./report.js')).reportAction,
  },
  {
    name: 'merge',
    description: 'Merge the reports of `run --shard i/n` runs into one report folder with one matrix.',
    arguments: [{ name: '<blob-dirs...>', description: 'report folders of the shards (each holds blob/report-*.zip and its partial matrix.json)' }],
    helpAfter: MERGE_HELP,
    load: async () => (await import('./merge.js')).mergeAction,
  },
  {
    name: 'skew',
    description: 'Predict client/server version skew from two OpenRPC documents (which calls, results and events break)',
    helpAfter: SKEW_HELP,
    load: async () => (await import('./skew.js')).skewAction,
  },
  {
    name: 'profiles',
    description: 'List the registered profiles: what each recognises, the checks it adds, whether it embeds a reference gateway.',
    load: async () => (await import('./profiles.js')).profilesAction,
  },
  {
    name: 'proxy',
    description: 'Sit between a real client and a gateway: relay every frame unchanged and judge each one against the contracts as it passes.',
    helpAfter: PROXY_HELP,
    load: async () => (await import('./proxy.js')).proxyAction,
  },
];
