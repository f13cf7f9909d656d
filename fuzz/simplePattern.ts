import * as fc from 'fast-check';

/**
 * The anchored patterns most contracts use for identifiers and encodings (`^0x[0-9a-f]{64}$`,
 * `^[a-z0-9][a-z0-9_-]*$`): a sequence of literal characters and character classes, each with an optional
 * quantifier. fast-check's `stringMatching` builds every character of such a string through a union of mapped
 * ranges (about 12 µs for 64 hex digits); a string of one class's characters costs a third of that, and these
 * patterns are what the hottest fields of many documents carry.
 */
interface Piece {
  /** The characters one position may take, in the order the pattern lists them (shrinking goes to the first). */
  readonly chars: readonly string[];
  readonly min: number;
  /** Undefined: unbounded. */
  readonly max: number | undefined;
}

/** Larger classes go to `stringMatching`: a `constantFrom` over thousands of characters buys nothing. */
const MAX_CLASS_SIZE = 256;
const META = new Set(['.', '(', ')', '|', '*', '+', '?', '{', '}', '[', ']', '\\', '^', '$']);
const DIGITS = range('0', '9');
const WORD = [...range('A', 'Z'), ...range('a', 'z'), ...DIGITS, '_'];

function range(from: string, to: string): string[] {
  const out: string[] = [];
  for (let code = from.charCodeAt(0); code <= to.charCodeAt(0); code++) out.push(String.fromCharCode(code));
  return out;
}

/** The pieces of `pattern`, or undefined when it is not an anchored sequence of literals and classes. */
export function simplePatternPieces(pattern: string): Piece[] | undefined {
  if (!pattern.startsWith('^') || !pattern.endsWith('$') || pattern.endsWith('\\$') || !validUnicodePattern(pattern)) return undefined;
  const body = pattern.slice(1, -1);
  const pieces: Piece[] = [];
  let at = 0;
  while (at < body.length) {
    const atom = readAtom(body, at);
    if (!atom) return undefined;
    const quantifier = readQuantifier(body, atom.end);
    if (!quantifier) return undefined;
    pieces.push({ chars: atom.chars, ...quantifier.bounds });
    at = quantifier.end;
  }
  return pieces;
}

function readAtom(body: string, at: number): { chars: string[]; end: number } | undefined {
  const char = body[at] as string;
  if (char === '[') return readClass(body, at + 1);
  if (char === '\\') {
    const escaped = readEscape(body, at + 1, false);
    return escaped && { chars: escaped.chars, end: escaped.end };
  }
  if (META.has(char) || isSurrogate(char)) return undefined;
  return { chars: [char], end: at + 1 };
}

/** `\d`, `\w` or an escaped punctuation character; anything else (`\s`, `\b`, `\u…`, back-references) is not simple. */
function readEscape(body: string, at: number, inClass: boolean): { chars: string[]; end: number } | undefined {
  const char = body[at];
  if (char === undefined) return undefined;
  if (char === 'd') return { chars: DIGITS, end: at + 1 };
  if (char === 'w') return { chars: WORD, end: at + 1 };
  // Under the `u` flag only syntax characters and `/` may be escaped this way, and `-` inside a class.
  if (META.has(char) || char === '/' || (inClass && char === '-')) return { chars: [char], end: at + 1 };
  return undefined;
}

function readClass(body: string, at: number): { chars: string[]; end: number } | undefined {
  if (body[at] === '^' || body[at] === ']') return undefined;
  const chars: string[] = [];
  let i = at;
  while (i < body.length && body[i] !== ']') {
    let first: string[];
    if (body[i] === '\\') {
      const escaped = readEscape(body, i + 1, true);
      if (!escaped) return undefined;
      first = escaped.chars;
      i = escaped.end;
    } else {
      if (body[i] === '[' || isSurrogate(body[i] as string)) return undefined;
      first = [body[i] as string];
      i += 1;
    }
    // A range `a-z`: both ends single characters; a `-` first, last or after a class escape is a literal.
    if (body[i] === '-' && i + 1 < body.length && body[i + 1] !== ']' && first.length === 1) {
      let last = body[i + 1] as string;
      let next = i + 2;
      if (last === '\\') {
        const escaped = readEscape(body, i + 2, true);
        if (!escaped || escaped.chars.length !== 1) return undefined;
        last = escaped.chars[0] as string;
        next = escaped.end;
      } else if (last === '[' || isSurrogate(last)) return undefined;
      if (last.charCodeAt(0) < (first[0] as string).charCodeAt(0)) return undefined;
      if (last.charCodeAt(0) - (first[0] as string).charCodeAt(0) >= MAX_CLASS_SIZE) return undefined;
      first = range(first[0] as string, last);
      i = next;
    }
    chars.push(...first);
    if (chars.length > MAX_CLASS_SIZE) return undefined;
  }
  if (body[i] !== ']') return undefined;
  const unique = [...new Set(chars)];
  return unique.length === 0 ? undefined : { chars: unique, end: i + 1 };
}

function readQuantifier(body: string, at: number): { bounds: { min: number; max: number | undefined }; end: number } | undefined {
  const char = body[at];
  let result: { bounds: { min: number; max: number | undefined }; end: number };
  if (char === '*') result = { bounds: { min: 0, max: undefined }, end: at + 1 };
  else if (char === '+') result = { bounds: { min: 1, max: undefined }, end: at + 1 };
  else if (char === '?') result = { bounds: { min: 0, max: 1 }, end: at + 1 };
  else if (char === '{') {
    const match = /^\{(\d{1,4})(,(\d{0,4}))?\}/.exec(body.slice(at));
    if (!match) return undefined;
    const min = Number(match[1]);
    const max = match[2] === undefined ? min : match[3] === '' ? undefined : Number(match[3]);
    if (max !== undefined && max < min) return undefined;
    result = { bounds: { min, max }, end: at + match[0].length };
  } else return { bounds: { min: 1, max: 1 }, end: at };
  // A lazy or possessive-looking suffix changes nothing to what matches, but it is not worth reading: not simple.
  return body[result.end] === '?' || body[result.end] === '+' ? undefined : result;
}

function validUnicodePattern(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

const isSurrogate = (char: string): boolean => {
  const code = char.charCodeAt(0);
  return code >= 0xd800 && code <= 0xdfff;
};

/**
 * Strings matching an anchored sequence of literals and classes, at most `maxLength` characters long when given;
 * undefined for any other pattern, or when even its shortest match is longer.
 */
export function simplePatternArbitrary(pattern: string, maxLength: number | undefined): fc.Arbitrary<string> | undefined {
  const pieces = simplePatternPieces(pattern);
  if (!pieces) return undefined;
  // The room a length limit leaves above the pieces' minimum is shared by the pieces that can grow, so that no
  // drawn string can exceed it (a filter on the total would reject most strings of a pattern with several).
  const slack = maxLength === undefined ? Number.POSITIVE_INFINITY : maxLength - pieces.reduce((sum, piece) => sum + piece.min, 0);
  if (slack < 0) return undefined;
  const growable = pieces.filter((piece) => piece.max !== piece.min).length;
  const share = Number.isFinite(slack) ? Math.floor(slack / Math.max(1, growable)) : slack;
  let remainder = Number.isFinite(slack) ? slack - share * growable : 0;
  const bounded = pieces.map((piece) => {
    if (piece.max === piece.min) return { ...piece, max: piece.min };
    const room = share + remainder;
    remainder = 0;
    return { ...piece, max: Math.min(piece.max ?? Number.POSITIVE_INFINITY, piece.min + room) };
  });
  const parts = bounded.map((piece) => {
    if (piece.chars.length === 1 && piece.min === piece.max) return fc.constant((piece.chars[0] as string).repeat(piece.min));
    const unit = piece.chars.length === 1 ? fc.constant(piece.chars[0] as string) : fc.constantFrom(...piece.chars);
    return fc.string({ unit, minLength: piece.min, ...(Number.isFinite(piece.max) ? { maxLength: piece.max } : {}) });
  });
  return parts.length === 1 ? parts[0] : fc.tuple(...parts).map((texts) => texts.join(''));
}
