/** JSON Pointer helpers (RFC 6901) for `#/...` references inside one contract document. */

export function escapeSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function unescapeSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** `["components", "schemas", "A/B"]` → `/components/schemas/A~1B`. */
export function toPointer(segments: readonly (string | number)[]): string {
  return segments.map((segment) => `/${escapeSegment(String(segment))}`).join('');
}

/** Splits the fragment of a local reference (`#/a/b`) into raw segments; undefined for non-local references. */
export function parseLocalRef(ref: string): string[] | undefined {
  if (!ref.startsWith('#')) return undefined;
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (fragment === '') return [];
  if (!fragment.startsWith('/')) return undefined;
  return fragment.slice(1).split('/').map(unescapeSegment);
}

export function getAt(root: unknown, segments: readonly string[]): unknown {
  let node: unknown = root;
  for (const segment of segments) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(segment)) return undefined;
      node = node[Number(segment)];
    } else if (typeof node === 'object' && node !== null && Object.hasOwn(node, segment)) {
      node = (node as Record<string, unknown>)[segment];
    } else {
      return undefined;
    }
  }
  return node;
}
