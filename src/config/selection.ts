import type { RunConfig, Shard } from './runConfig.js';

/**
 * Which cells a run declares. The CLI's `--grep` and `--shard` are applied here, when the spec files generate
 * their tests, rather than by Playwright: the method runs that feed the cells are setup work Playwright would
 * otherwise repeat in full on every shard and for every filter.
 */
export interface CellSelector {
  /** The cell's title (`subject › check`) and tags, as Playwright would match them. */
  (title: string, tags: readonly string[]): boolean;
}

export function cellSelector(config: Pick<RunConfig, 'grep'>): CellSelector {
  if (config.grep === undefined) return () => true;
  const grep = new RegExp(config.grep);
  return (title, tags) => grep.test(`${title} ${tags.join(' ')}`);
}

/** FNV-1a: a stable, well-spread hash of a subject name, the same on every machine. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * Whether a group of cells (a method with all its checks, a scenario family, the connection rules, the events)
 * belongs to this shard. Groups never split, so each method runs on exactly one shard.
 */
export function inShard(shard: Shard | undefined, group: string): boolean {
  return shard === undefined || fnv1a(group) % shard.total === shard.index - 1;
}
