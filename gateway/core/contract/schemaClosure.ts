import { getAt, parseLocalRef } from './jsonPointer.js';

/**
 * A document for a schema generator that holds only what one schema needs: the node at `pointer` and every node it
 * reaches through local `$ref`s, each at its own path, with `$ref: '#<pointer>'` at the top. The nodes are the
 * document's own (shared, never copied or changed); the containers on their paths are new.
 *
 * json-schema-faker copies the members of the document it is given on every call: given a whole OpenRPC document, it
 * copies every method and every component to make one value.
 */
export function schemaClosure(document: unknown, pointer: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  const placed: string[][] = [];
  const pending: string[][] = [];
  const start = parseLocalRef(`#${pointer}`);
  if (start) pending.push(start);
  while (pending.length > 0) {
    const segments = pending.pop() as string[];
    // A node inside one already placed is there already, with everything it reaches.
    if (placed.some((outer) => isPrefix(outer, segments))) continue;
    const node = getAt(document, segments);
    if (node === undefined) continue;
    place(root, document, segments, node);
    placed.push(segments);
    collectRefs(node, pending);
  }
  root['$ref'] = `#${pointer}`;
  return root;
}

function isPrefix(outer: readonly string[], inner: readonly string[]): boolean {
  return outer.length <= inner.length && outer.every((segment, i) => segment === inner[i]);
}

/** Puts `node` at `segments` under `root`, making the containers on the way as the document has them (arrays or objects). */
function place(root: Record<string, unknown>, document: unknown, segments: readonly string[], node: unknown): void {
  let target: Record<string, unknown> = root;
  let source: unknown = document;
  for (let i = 0; i < segments.length - 1; i++) {
    const segment = segments[i] as string;
    source = getAt(source, [segment]);
    let next = target[segment] as Record<string, unknown> | undefined;
    if (next === undefined) {
      next = (Array.isArray(source) ? [] : {}) as Record<string, unknown>;
      target[segment] = next;
    }
    target = next;
  }
  if (segments.length === 0) Object.assign(root, node);
  else target[segments[segments.length - 1] as string] = node;
}

function collectRefs(node: unknown, into: string[][], seen = new Set<object>()): void {
  if (typeof node !== 'object' || node === null || seen.has(node)) return;
  seen.add(node);
  if (Array.isArray(node)) {
    for (const item of node) collectRefs(item, into, seen);
    return;
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') {
      const segments = parseLocalRef(value);
      if (segments) into.push(segments);
    } else collectRefs(value, into, seen);
  }
}
