import type { JsonPath } from './json.js';

/**
 * JSON Pointer (RFC 6901) and its URI-fragment form (`#/a/b`, RFC 6901 §6). Lookups follow own properties only,
 * so `constructor` or `__proto__` never resolve through a prototype, and malformed input is a result, not an
 * exception.
 */
export type PointerParse = { ok: true; tokens: string[] } | { ok: false; error: string };

export type PointerLookup = { found: true; value: unknown } | { found: false; error: string };

export function escapeToken(token: string | number): string {
  const text = String(token);
  // Most tokens (keys, indexes) have neither character: no pattern needs to run over them.
  if (!text.includes('~') && !text.includes('/')) return text;
  return text.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** `["components", "schemas", "A/B"]` → `/components/schemas/A~1B`; the root is "". */
export function formatPointer(path: JsonPath): string {
  return path.map((step) => `/${escapeToken(step)}`).join('');
}

/** `#/components/schemas/A~1B` for a path. */
export function formatFragment(path: JsonPath): string {
  return `#${formatPointer(path).replace(/[%"<>\\^`{|} ]/g, (c) => encodeURIComponent(c))}`;
}

/** Splits a pointer into reference tokens; `~` must be followed by `0` or `1`. */
export function parsePointer(pointer: string): PointerParse {
  if (pointer === '') return { ok: true, tokens: [] };
  if (!pointer.startsWith('/')) return { ok: false, error: `a JSON pointer starts with "/" (got ${JSON.stringify(pointer)})` };
  const tokens: string[] = [];
  for (const raw of pointer.slice(1).split('/')) {
    if (/~(?![01])/.test(raw)) return { ok: false, error: `"~" must be followed by 0 or 1 in ${JSON.stringify(pointer)}` };
    tokens.push(raw.replace(/~1/g, '/').replace(/~0/g, '~'));
  }
  return { ok: true, tokens };
}

/** Parses a URI fragment reference (`#…`): percent-decoding first, then the pointer. */
export function parseFragment(ref: string): PointerParse {
  if (!ref.startsWith('#')) return { ok: false, error: `only document-local references ("#/…") are supported, got ${JSON.stringify(ref)}` };
  let decoded: string;
  try {
    decoded = decodeURIComponent(ref.slice(1));
  } catch {
    return { ok: false, error: `${JSON.stringify(ref)} has a malformed percent-escape` };
  }
  return parsePointer(decoded);
}

const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;

/** The pointer of the first `depth + 1` tokens, for failure messages (formatted only when one is made). */
function pointerTo(tokens: readonly string[], depth: number): string {
  return formatPointer(tokens.slice(0, depth + 1));
}

/** Follows tokens from `root`: own object members, array indexes without leading zeros ("-" never resolves). */
export function lookupTokens(root: unknown, tokens: readonly string[]): PointerLookup {
  let node: unknown = root;
  for (const [depth, token] of tokens.entries()) {
    if (Array.isArray(node)) {
      if (!ARRAY_INDEX.test(token) || Number(token) >= node.length) return { found: false, error: `${pointerTo(tokens, depth)}: no array item ${JSON.stringify(token)}` };
      node = node[Number(token)];
    } else if (typeof node === 'object' && node !== null) {
      if (!Object.hasOwn(node, token)) return { found: false, error: `${pointerTo(tokens, depth)}: no member ${JSON.stringify(token)}` };
      node = (node as Record<string, unknown>)[token];
    } else {
      return { found: false, error: `${pointerTo(tokens, depth)}: ${JSON.stringify(token)} steps into a ${node === null ? 'null' : typeof node}` };
    }
  }
  return { found: true, value: node };
}

export function resolvePointer(root: unknown, pointer: string): PointerLookup {
  const parsed = parsePointer(pointer);
  return parsed.ok ? lookupTokens(root, parsed.tokens) : { found: false, error: parsed.error };
}

export function resolveFragment(root: unknown, ref: string): PointerLookup {
  const parsed = parseFragment(ref);
  return parsed.ok ? lookupTokens(root, parsed.tokens) : { found: false, error: parsed.error };
}

/** The target of a document-local `$ref`, or undefined when it is malformed or does not resolve. */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  const lookup = resolveFragment(root, ref);
  return lookup.found ? lookup.value : undefined;
}
