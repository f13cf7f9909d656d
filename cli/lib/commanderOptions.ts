import { type Command, InvalidArgumentError, Option } from 'commander';
import { HarnessError } from '../../core/harnessError.js';
import { optionsOf } from '../../src/config/optionTable.js';
import { argOf, type CommandName, defaultText, flagOf, type OptionSpec } from '../../src/config/optionTypes.js';
import { OptionValueError, parseArgument } from '../../src/config/optionValues.js';

/** `report-dir` → `reportDir`: the key commander gives an option's value. */
export const camelCase = (flag: string): string => flag.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());

/** An option's help line: the table's help, whether it repeats, its default (never restated elsewhere). */
export function helpOf(spec: OptionSpec): string {
  const fallback = defaultText(spec);
  const repeatable = spec.type.kind === 'list' && !argOf(spec.type)?.endsWith('...') && !/repeatable/.test(spec.help) ? ' (repeatable)' : '';
  return `${spec.help}${repeatable}${fallback === undefined ? '' : ` (default: ${fallback})`}`;
}

function parserOf(spec: OptionSpec, label: string): (raw: string, previous: unknown) => unknown {
  const kind = spec.type.kind === 'list' ? spec.type.of : spec.type;
  const parse = (raw: string): unknown => {
    try {
      return parseArgument(kind, raw, label);
    } catch (error) {
      if (!(error instanceof OptionValueError)) throw error;
      // Commander repeats a refused value in its message; a variable name's value may be the secret itself.
      if (kind.kind === 'envName') throw new HarnessError('USAGE', error.message);
      throw new InvalidArgumentError(error.message);
    }
  };
  if (spec.type.kind !== 'list') return parse;
  // Repeated (`--contract a --contract b`) and variadic (`--matrix a b`) values arrive one call each.
  return (raw, previous) => [...(Array.isArray(previous) ? (previous as unknown[]) : []), parse(raw)];
}

/** The commander option of a table entry. Defaults are not given to commander: the table's apply after merging. */
export function commanderOption(key: string, spec: OptionSpec): Option {
  const flag = flagOf(key, spec);
  const arg = argOf(spec.type);
  const long = spec.type.kind === 'boolean' ? `--${spec.negate ? 'no-' : ''}${flag}` : `--${flag} <${arg}>`;
  const option = new Option(spec.short ? `-${spec.short}, ${long}` : long, helpOf(spec));
  if (spec.type.kind === 'choice') option.choices(spec.type.values);
  else if (spec.type.kind !== 'boolean') option.argParser(parserOf(spec, `--${flag}`));
  if (spec.env) option.env(spec.env);
  if (spec.required) option.makeOptionMandatory();
  return option;
}

/** Adds a command's options, in table order. */
export function addTableOptions(command: Command, name: CommandName): Command {
  for (const [key, spec] of optionsOf(name)) command.addOption(commanderOption(key, spec));
  return command;
}

/** The values given on the command line or by an option's environment variable (not commander's implied defaults). */
export function givenOptions(command: Command): Record<string, unknown> {
  const opts = command.opts();
  return Object.fromEntries(Object.entries(opts).filter(([key]) => {
    const source = command.getOptionValueSource(key);
    return source === 'cli' || source === 'env';
  }));
}

/** A command's options with the table's literal defaults filled in (commands without a configuration file). */
export function withDefaults(name: CommandName, given: Record<string, unknown>): Record<string, unknown> {
  const values = { ...given };
  for (const [key, spec] of optionsOf(name)) {
    const attribute = camelCase(flagOf(key, spec));
    if (values[attribute] === undefined && spec.default !== undefined) values[attribute] = spec.default;
  }
  return values;
}
