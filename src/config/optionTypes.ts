/**
 * The vocabulary of the option table: what kind of value an option takes, and everything said about it once
 * (flag, help, default, environment variable, secrecy, commands, the run-configuration field it travels in).
 * Nothing here loads more than this file: `contract-gate --help` is built from it.
 */

export const COMMAND_NAMES = ['run', 'serve', 'replay', 'proxy', 'skew', 'merge', 'report', 'init', 'profiles'] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

export type ScalarKind =
  | { readonly kind: 'string'; readonly arg?: string }
  /**
   * A file (relative to the config file, or to the working directory on the command line), or one of `keywords`;
   * with `names`, a bare word (no slash, no dot) is a name rather than a path (a registered profile's).
   */
  | { readonly kind: 'path'; readonly arg?: string; readonly keywords?: readonly string[]; readonly url?: boolean; readonly names?: string }
  | { readonly kind: 'integer'; readonly arg?: string; readonly min?: number; readonly max?: number }
  /** Milliseconds: an integer, or a number with a unit (`500ms`, `5s`, `2m`, `1h`). */
  | { readonly kind: 'duration'; readonly arg?: string; readonly min?: number }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'choice'; readonly arg?: string; readonly values: readonly string[] }
  /** The NAME of an environment variable (the only way a secret reaches contract-gate). */
  | { readonly kind: 'envName'; readonly arg?: string }
  | { readonly kind: 'regex'; readonly arg?: string }
  /** `i/n`: shard i of n. */
  | { readonly kind: 'shard'; readonly arg?: string };

export type OptionKind = ScalarKind | { readonly kind: 'list'; readonly of: Exclude<ScalarKind, { kind: 'boolean' }> };

export const text = (arg?: string) => ({ kind: 'string', ...(arg ? { arg } : {}) }) as const;
export const path = <const K extends readonly string[] = []>(arg?: string, extra: { keywords?: K; url?: boolean; names?: string } = {}) => ({ kind: 'path', ...(arg ? { arg } : {}), ...extra }) as const;
export const integer = <const B extends { min?: number; max?: number }>(bounds: B, arg?: string) => ({ kind: 'integer', ...bounds, ...(arg ? { arg } : {}) }) as const;
export const duration = (min: number, arg = 'ms') => ({ kind: 'duration', min, arg }) as const;
export const flag = () => ({ kind: 'boolean' }) as const;
export const choice = <const V extends readonly string[]>(values: V, arg?: string) => ({ kind: 'choice', values, ...(arg ? { arg } : {}) }) as const;
export const envName = (arg = 'var') => ({ kind: 'envName', arg }) as const;
export const regex = () => ({ kind: 'regex', arg: 'regex' }) as const;
export const shard = () => ({ kind: 'shard', arg: 'i/n' }) as const;
/** A list is repeatable (`--contract a --contract b`), or variadic when its argument name ends in `...`. */
export const list = <const K extends Exclude<ScalarKind, { kind: 'boolean' }>>(of: K) => ({ kind: 'list', of }) as const;

/** A default no literal can state: the help says `text`; the resolver named by `by` fills it in. */
export interface ComputedDefault {
  readonly text: string;
  /**
   * `profile`: resolveProfileDefaults (src/config/profileDefaults.ts); `derived`: computed from the other settings
   * (src/config/runSettings.ts); `run`: decided by the command when it runs (the embedded target, a random seed);
   * `machine`: decided in each process from the machine (src/config/parallelism.ts), never written down;
   * `unset`: the option stays unset, and the text says what that means.
   */
  readonly by: 'profile' | 'derived' | 'run' | 'machine' | 'unset';
}

export interface OptionSpec {
  readonly type: OptionKind;
  readonly help: string;
  readonly commands: readonly CommandName[];
  /** The long flag without `--`, when it is not the kebab-case of the table key (two commands, two meanings). */
  readonly flag?: string;
  readonly short?: string;
  readonly default?: string | number | boolean | readonly string[];
  readonly defaultFrom?: ComputedDefault;
  /** An environment variable read when the flag is not given. */
  readonly env?: string;
  /** `literal`: the value is a secret, allowed on the command line only; `name`: it names the variable holding one. */
  readonly secret?: 'literal' | 'name';
  /** A boolean whose flag is `--no-<flag>` (the default is true). */
  readonly negate?: boolean;
  readonly required?: boolean;
  /** A run option the configuration file cannot hold (the file itself, the project picked from it). */
  readonly cliOnly?: boolean;
  /**
   * The run-configuration field that carries the value into the workers (run options only): the key itself when
   * absent, another name, or false for an option the command consumes (the target, auth, the config file).
   */
  readonly field?: string | false;
}

export type OptionTable = Readonly<Record<string, OptionSpec>>;

type ScalarValue<K> = K extends { kind: 'integer' | 'duration' }
  ? number
  : K extends { kind: 'boolean' }
    ? boolean
    : K extends { kind: 'choice'; values: readonly (infer V)[] }
      ? V
      : string;

/** The type of an option's value. */
export type ValueOf<K extends OptionKind> = K extends { kind: 'list'; of: infer E } ? readonly ScalarValue<E>[] : ScalarValue<K>;

type HasDefault<S> = S extends { default: unknown } ? true : false;
/** In the run configuration, computed defaults are filled in too, except the ones each process decides. */
type Resolved<S> = S extends { default: unknown } ? true : S extends { defaultFrom: { by: 'profile' | 'derived' | 'run' } } ? true : false;

/** The keys of the options a command takes. */
export type KeysOf<T extends OptionTable, C extends CommandName> = { [K in keyof T]: C extends T[K]['commands'][number] ? K : never }[keyof T];

/** What a command's options hold once every layer and default is applied: defaulted options are always there. */
export type SettingsOf<T extends OptionTable, C extends CommandName> = {
  readonly [K in KeysOf<T, C> as HasDefault<T[K]> extends true ? K : never]: ValueOf<T[K]['type']>;
} & {
  readonly [K in KeysOf<T, C> as HasDefault<T[K]> extends true ? never : K]?: ValueOf<T[K]['type']>;
};

type FieldName<K, S> = S extends { field: false } ? never : S extends { field: infer F extends string } ? F : K;

/** The run-configuration fields the table declares, under their field names. */
export type CarriedFields<T extends OptionTable> = {
  readonly [K in KeysOf<T, 'run'> as Resolved<T[K]> extends true ? FieldName<K, T[K]> : never]: ValueOf<T[K]['type']>;
} & {
  readonly [K in KeysOf<T, 'run'> as Resolved<T[K]> extends true ? never : FieldName<K, T[K]>]: ValueOf<T[K]['type']> | undefined;
};

/** `reportDir` → `report-dir`. */
export const kebabCase = (key: string): string => key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** The long flag of a table entry (without `--`). */
export const flagOf = (key: string, spec: OptionSpec): string => spec.flag ?? kebabCase(key);

/** The name a value is shown with in help: `<file>`, `<n>`. */
export function argOf(type: OptionKind): string | undefined {
  const scalar = type.kind === 'list' ? type.of : type;
  if (scalar.kind === 'boolean') return undefined;
  if (scalar.arg) return scalar.arg;
  return { string: 'text', path: 'file', integer: 'n', duration: 'ms', choice: 'value', envName: 'var', regex: 'regex', shard: 'i/n' }[scalar.kind];
}

/** The default as help shows it. */
export function defaultText(spec: OptionSpec): string | undefined {
  if (spec.defaultFrom) return spec.defaultFrom.text;
  const value = spec.default;
  if (value === undefined || spec.type.kind === 'boolean') return undefined;
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.join(', ');
  return String(value);
}
