/** Runs `work` with the validator cache in `dir` (or off), bounded to `maxMb` when given, the environment restored after. */
export function withCache<T>(dir: string | 'off', work: () => T, maxMb?: number): T {
  const keys = ['CONTRACT_GATE_CACHE_DIR', 'CONTRACT_GATE_CACHE', 'CONTRACT_GATE_CACHE_MAX_MB'] as const;
  const saved = keys.map((key) => [key, process.env[key]] as const);
  if (dir === 'off') process.env['CONTRACT_GATE_CACHE'] = 'off';
  else {
    delete process.env['CONTRACT_GATE_CACHE'];
    process.env['CONTRACT_GATE_CACHE_DIR'] = dir;
  }
  if (maxMb !== undefined) process.env['CONTRACT_GATE_CACHE_MAX_MB'] = String(maxMb);
  try {
    return work();
  } finally {
    for (const [key, value] of saved) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}
