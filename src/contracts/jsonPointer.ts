/** RFC 6901 helpers. */
export function escapePointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointerOf(path: ReadonlyArray<string | number>): string {
  return path.length === 0 ? '' : `/${path.map(escapePointerToken).join('/')}`;
}

/** Resolves a local reference (`#/a/b`) inside `root`; undefined when any step is missing. */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  const fragment = decodeURIComponent(ref.slice(1));
  if (fragment === '') return root;
  if (!fragment.startsWith('/')) return undefined;
  let node: unknown = root;
  for (const raw of fragment.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !Object.prototype.hasOwnProperty.call(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}
