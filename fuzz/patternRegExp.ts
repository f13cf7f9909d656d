const regexCache = new Map<string, RegExp | undefined>();

/** The regex ajv compiles for `pattern` (unicode flag); undefined when the pattern is not a valid unicode regex. */
export function patternRegExp(pattern: string): RegExp | undefined {
  if (!regexCache.has(pattern)) {
    let regex: RegExp | undefined;
    try {
      regex = new RegExp(pattern, 'u');
    } catch {
      regex = undefined;
    }
    regexCache.set(pattern, regex);
  }
  return regexCache.get(pattern);
}

/** Length as ajv's minLength/maxLength count it: in code points, not UTF-16 units. */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
