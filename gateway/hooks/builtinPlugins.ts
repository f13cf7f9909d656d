import { HOOK_NAMES, type GatewayPlugin, type HookPayload, type HookRegistry } from './hookTypes.js';

/** Keeps a copy of every payload it saw (audit mode, after the payload-changing handlers), in order. */
export class RecordPlugin implements GatewayPlugin {
  readonly name = 'record';
  readonly payloads: HookPayload[] = [];

  install(hooks: HookRegistry): void {
    for (const hook of HOOK_NAMES) {
      hooks.on(hook, (payload) => void this.payloads.push(structuredClone(payload)), { mode: 'audit', name: this.name });
    }
  }
}

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms).unref();
  });

interface BuiltinPlugin {
  /** How it is named on the command line. */
  readonly usage: string;
  readonly summary: string;
  /** `required`: the plugin needs `:ARG`. */
  readonly arg: 'none' | 'optional' | 'required';
  create(arg: string | undefined): GatewayPlugin;
}

function positiveInteger(name: string, arg: string | undefined): number {
  const value = Number(arg);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`plugin ${name} needs a whole number of milliseconds, got "${arg ?? ''}"`);
  return value;
}

/** The plugins `GatewayOptions.plugins` and `contract-gate serve --plugin` know by name (meant for tests). */
export const BUILTIN_PLUGINS: Readonly<Record<string, BuiltinPlugin>> = {
  'rewrite-model': {
    usage: 'rewrite-model:<id>',
    summary: 'session_pre_init, sequential: the session uses model <id>',
    arg: 'required',
    create: (arg) => ({
      name: 'rewrite-model',
      install: (hooks) => hooks.on('session_pre_init', (payload) => ({ ...payload, model_id: arg ?? payload.model_id }), { name: 'rewrite-model' }),
    }),
  },
  'throw-in-cleanup': {
    usage: 'throw-in-cleanup[:<message>]',
    summary: 'session_cleanup, sequential: throws',
    arg: 'optional',
    create: (arg) => ({
      name: 'throw-in-cleanup',
      install: (hooks) =>
        hooks.on(
          'session_cleanup',
          () => {
            throw new Error(arg ?? 'throw-in-cleanup plugin failed on purpose');
          },
          { name: 'throw-in-cleanup' },
        ),
    }),
  },
  'sleep-in-cleanup': {
    usage: 'sleep-in-cleanup:<ms>',
    summary: 'session_cleanup, sequential: waits <ms> before returning',
    arg: 'required',
    create: (arg) => {
      const ms = positiveInteger('sleep-in-cleanup', arg);
      return { name: 'sleep-in-cleanup', install: (hooks) => hooks.on('session_cleanup', () => sleep(ms), { name: 'sleep-in-cleanup' }) };
    },
  },
  record: {
    usage: 'record',
    summary: 'every hook, audit: keeps each payload (gateway.core.hooks.recorded())',
    arg: 'none',
    create: () => new RecordPlugin(),
  },
};

/** Instantiates a built-in plugin; throws naming the known plugins when `name` is unknown or its argument is wrong. */
export function builtinPlugin(name: string, arg: string | undefined): GatewayPlugin {
  const builtin = BUILTIN_PLUGINS[name];
  if (!builtin) throw new Error(`unknown plugin "${name}"; built-in plugins: ${Object.keys(BUILTIN_PLUGINS).join(', ')}`);
  if (builtin.arg === 'required' && (arg === undefined || arg === '')) throw new Error(`plugin ${name} needs an argument: ${builtin.usage}`);
  if (builtin.arg === 'none' && arg !== undefined) throw new Error(`plugin ${name} takes no argument`);
  return builtin.create(arg);
}
