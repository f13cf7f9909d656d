/**
 * A shard as `--shard` takes it and a shard's matrix records it, "i/n" with 1 ≤ i ≤ n; undefined for any other text.
 * The one reader of that form: the option's check, the run configuration and the merge.
 */
export function parseShard(text: string): { readonly index: number; readonly total: number } | undefined {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  if (!match) return undefined;
  const index = Number(match[1]);
  const total = Number(match[2]);
  return index >= 1 && index <= total ? { index, total } : undefined;
}
