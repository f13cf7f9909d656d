import { InvalidArgumentError } from 'commander';

/** Repeatable option collector: `--contract a --contract b` → ['a', 'b']. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function integerOption(name: string, min = Number.MIN_SAFE_INTEGER) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!Number.isSafeInteger(parsed) || parsed < min) throw new InvalidArgumentError(`${name} must be an integer${min > Number.MIN_SAFE_INTEGER ? ` ≥ ${min}` : ''}, got "${value}"`);
    return parsed;
  };
}

export function shardOption(value: string): string {
  const match = /^(\d+)\/(\d+)$/.exec(value);
  if (!match || Number(match[1]) < 1 || Number(match[1]) > Number(match[2])) throw new InvalidArgumentError(`--shard must be i/n with 1 ≤ i ≤ n, got "${value}"`);
  return value;
}

export function regexOption(value: string): string {
  try {
    new RegExp(value);
  } catch (error) {
    throw new InvalidArgumentError(`--grep is not a valid regular expression: ${(error as Error).message}`);
  }
  return value;
}

/** fast-check seeds are 32-bit integers. */
export function seedOption(value: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < -(2 ** 31) || parsed > 2 ** 32 - 1) {
    throw new InvalidArgumentError(`--seed must be a 32-bit integer (-2147483648 … 4294967295), got "${value}"`);
  }
  return parsed;
}
