import { builtinPlugin } from './builtinPlugins.js';
import { type GatewayPlugin, type HookMode, type HookRegistry, isHookMode } from './hookTypes.js';

/** A built-in plugin by name, optionally placed elsewhere: `priority` and `mode` override those of its handlers. */
export interface PluginConfig {
  readonly name: string;
  readonly arg?: string;
  readonly priority?: number;
  readonly mode?: HookMode;
}

/** `"NAME[:ARG]"`, a {@link PluginConfig}, or a plugin object of one's own. */
export type PluginSpec = string | PluginConfig | GatewayPlugin;

/** What `--plugins-config FILE` holds: a list of specs, or `{plugins, hookTimeoutMs?}`. */
export interface PluginsConfig {
  readonly plugins: PluginConfig[];
  readonly hookTimeoutMs?: number;
}

const isPlugin = (spec: PluginSpec): spec is GatewayPlugin => typeof spec === 'object' && typeof (spec as GatewayPlugin).install === 'function';

/** `rewrite-model:m2` → `{name: 'rewrite-model', arg: 'm2'}` (the argument is everything after the first colon). */
export function parsePluginArgument(text: string): PluginConfig {
  const colon = text.indexOf(':');
  const name = (colon < 0 ? text : text.slice(0, colon)).trim();
  if (name === '') throw new Error(`a plugin needs a name: "${text}"`);
  return colon < 0 ? { name } : { name, arg: text.slice(colon + 1) };
}

function configEntry(value: unknown, where: string): PluginConfig {
  if (typeof value === 'string') return parsePluginArgument(value);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${where}: expected "NAME[:ARG]" or {name, arg?, priority?, mode?}`);
  const entry = value as Record<string, unknown>;
  const unknown = Object.keys(entry).filter((key) => !['name', 'arg', 'priority', 'mode'].includes(key));
  if (unknown.length > 0) throw new Error(`${where}: unknown key ${unknown.join(', ')}`);
  const { name, arg, priority, mode } = entry;
  if (typeof name !== 'string' || name === '') throw new Error(`${where}: name must be a non-empty string`);
  if (arg !== undefined && typeof arg !== 'string' && typeof arg !== 'number') throw new Error(`${where}: arg must be a string`);
  if (priority !== undefined && !Number.isSafeInteger(priority)) throw new Error(`${where}: priority must be an integer`);
  if (mode !== undefined && !isHookMode(mode)) throw new Error(`${where}: mode must be sequential, transform, audit, concurrent or fire_and_forget`);
  return {
    name,
    ...(arg !== undefined ? { arg: String(arg) } : {}),
    ...(priority !== undefined ? { priority: priority as number } : {}),
    ...(mode !== undefined ? { mode } : {}),
  };
}

/** Reads the JSON of a plugins config file; throws with the place of the first problem. */
export function parsePluginsConfig(json: unknown, source = 'plugins config'): PluginsConfig {
  const root = Array.isArray(json) ? { plugins: json } : json;
  if (typeof root !== 'object' || root === null || !Array.isArray((root as Record<string, unknown>)['plugins'])) {
    throw new Error(`${source}: expected a list of plugins or {"plugins": [...], "hookTimeoutMs"?: n}`);
  }
  const { plugins, hookTimeoutMs, ...rest } = root as Record<string, unknown>;
  if (Object.keys(rest).length > 0) throw new Error(`${source}: unknown key ${Object.keys(rest).join(', ')}`);
  if (hookTimeoutMs !== undefined && (!Number.isSafeInteger(hookTimeoutMs) || (hookTimeoutMs as number) < 1)) {
    throw new Error(`${source}: hookTimeoutMs must be a positive integer`);
  }
  return {
    plugins: (plugins as unknown[]).map((entry, i) => configEntry(entry, `${source}: plugins[${i}]`)),
    ...(hookTimeoutMs !== undefined ? { hookTimeoutMs: hookTimeoutMs as number } : {}),
  };
}

/** Instantiates the plugins in order and installs each one on `registry` (with its overrides). */
export function installPlugins(specs: readonly PluginSpec[], registry: HookRegistry): GatewayPlugin[] {
  return specs.map((spec) => {
    const config = isPlugin(spec) ? undefined : typeof spec === 'string' ? parsePluginArgument(spec) : spec;
    const plugin = isPlugin(spec) ? spec : builtinPlugin(config?.name ?? '', config?.arg);
    plugin.install({
      on: (hook, handler, options = {}) =>
        registry.on(hook, handler, {
          name: plugin.name,
          ...options,
          ...(config?.priority !== undefined ? { priority: config.priority } : {}),
          ...(config?.mode !== undefined ? { mode: config.mode } : {}),
        }),
    });
    return plugin;
  });
}
