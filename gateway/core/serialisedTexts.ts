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
    return writeMembers(frame, (key, value) => (key === 'result' ? this.stringifyResult(result as Record<string, unknown>) : JSON.stringify(value)));
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
    return writeMembers(result, (_key, value) => (typeof value === 'object' && value !== null ? this.texts.get(value) : undefined) ?? JSON.stringify(value));
  }
}

/**
 * `{"key":text,…}` for the members whose text is defined (JSON.stringify leaves out undefined ones). Joined with `+`,
 * not an array's join: V8 then links the parts (a large remembered text included) instead of copying each of them
 * into a new string at every level, and the whole is copied once, when the socket writes it.
 */
function writeMembers(object: Record<string, unknown>, textOf: (key: string, value: unknown) => string | undefined): string {
  let written = '{';
  for (const key of Object.keys(object)) {
    const text = textOf(key, object[key]);
    if (text === undefined) continue;
    written += (written.length === 1 ? '' : ',') + JSON.stringify(key) + ':' + text;
  }
  return written + '}';
}

/** An object JSON.stringify writes member by member (no toJSON, no boxed primitive, no class instance). */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
