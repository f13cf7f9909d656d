/**
 * The JSON texts of values the gateway has serialised once and never changes afterwards (the params of retained
 * events), so that a frame carrying them again (a `session.events.since` result) is written around those texts
 * instead of serialising every replayed event a second time.
 */
export class SerialisedTexts {
  private readonly texts = new WeakMap<object, string>();

  /** `text` must be `JSON.stringify(value)`, and `value` must not change from now on. */
  remember(value: object, text: string): void {
    this.texts.set(value, text);
  }

  /**
   * `JSON.stringify(frame)` for a JSON-RPC frame. Only a frame whose `result` has a member listing remembered values
   * is written by hand (the result's members, those values by their texts); any other frame is serialised at once.
   */
  stringifyFrame(frame: Record<string, unknown>): string {
    const result = frame['result'];
    if (!this.carriesRemembered(result)) return JSON.stringify(frame);
    const members: string[] = [];
    for (const key of Object.keys(frame)) {
      const value = frame[key];
      const text = key === 'result' ? this.stringifyResult(result as Record<string, unknown>) : JSON.stringify(value);
      if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
    }
    return `{${members.join(',')}}`;
  }

  private carriesRemembered(result: unknown): boolean {
    if (!isPlainRecord(result)) return false;
    for (const key in result) {
      const value = result[key];
      if (Array.isArray(value) && value.length > 0 && typeof value[0] === 'object' && value[0] !== null && this.texts.has(value[0] as object)) return true;
    }
    return false;
  }

  private stringifyResult(result: Record<string, unknown>): string {
    const members: string[] = [];
    for (const key of Object.keys(result)) {
      const value = result[key];
      const text = Array.isArray(value) ? this.stringifyList(value) : JSON.stringify(value);
      if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
    }
    return `{${members.join(',')}}`;
  }

  private stringifyList(list: readonly unknown[]): string {
    const items: string[] = [];
    for (const item of list) {
      const known = typeof item === 'object' && item !== null ? this.texts.get(item) : undefined;
      items.push(known ?? JSON.stringify(item) ?? 'null');
    }
    return `[${items.join(',')}]`;
  }
}

/** An object JSON.stringify writes member by member (no toJSON, no boxed primitive, no class instance). */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
