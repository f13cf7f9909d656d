/**
 * The JSON texts of values the gateway has serialised once and never changes afterwards (the list of events a
 * `session.events.since` replays, made of the texts the events were sent as), so that a frame carrying them again
 * is written around those texts instead of serialising every replayed event a second time.
 */
export class SerialisedTexts {
  private readonly texts = new WeakMap<object, string>();

  /** `text` must be `JSON.stringify(value)`, and `value` must not change from now on. */
  remember(value: object, text: string): void {
    this.texts.set(value, text);
  }

  /**
   * `JSON.stringify(frame)` for a JSON-RPC frame. Only a frame whose `result` has a remembered member is written by
   * hand (the result member by member, remembered ones by their texts); any other frame is serialised at once.
   */
  stringifyFrame(frame: Record<string, unknown>): string {
    const result = frame['result'];
    if (!this.carriesRemembered(result)) return JSON.stringify(frame);
    const members: string[] = [];
    for (const key of Object.keys(frame)) {
      const text = key === 'result' ? this.stringifyResult(result as Record<string, unknown>) : JSON.stringify(frame[key]);
      if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
    }
    return `{${members.join(',')}}`;
  }

  private carriesRemembered(result: unknown): boolean {
    if (!isPlainRecord(result)) return false;
    for (const key in result) {
      const value = result[key];
      if (typeof value === 'object' && value !== null && this.texts.has(value)) return true;
    }
    return false;
  }

  private stringifyResult(result: Record<string, unknown>): string {
    const members: string[] = [];
    for (const key of Object.keys(result)) {
      const value = result[key];
      const text = (typeof value === 'object' && value !== null ? this.texts.get(value) : undefined) ?? JSON.stringify(value);
      if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
    }
    return `{${members.join(',')}}`;
  }
}

/** An object JSON.stringify writes member by member (no toJSON, no boxed primitive, no class instance). */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
