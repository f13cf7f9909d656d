/** What a prompt's text makes the fake agent do (`session-hooks.md` and the README's "Fake agent"). */
export type TurnScript =
  | { readonly kind: 'echo'; readonly reply: string }
  | { readonly kind: 'fail'; readonly message: string }
  /** `/request <method>`: ask the client that server request, then reply with the answer. */
  | { readonly kind: 'request'; readonly method: string }
  /** `/emit <event type>`: send one schema-valid event of that type. */
  | { readonly kind: 'emit'; readonly type: string };

export interface ScriptCatalogue {
  readonly serverRequest: (method: string) => boolean;
  readonly event: (type: string) => boolean;
}

/** The argument of a `/<command> ` prefix, or undefined when the text does not start with it. */
function argumentOf(text: string, command: string): string | undefined {
  if (text !== command && !text.startsWith(`${command} `)) return undefined;
  return text.slice(command.length).trim();
}

export function scriptOf(text: string, catalogue: ScriptCatalogue): TurnScript {
  const failed = argumentOf(text, '/fail');
  if (failed !== undefined) return { kind: 'fail', message: failed || 'turn failed' };
  const method = argumentOf(text, '/request');
  if (method !== undefined) {
    return catalogue.serverRequest(method) ? { kind: 'request', method } : { kind: 'fail', message: `no server request ${JSON.stringify(method)} is declared` };
  }
  const type = argumentOf(text, '/emit');
  if (type !== undefined) return catalogue.event(type) ? { kind: 'emit', type } : { kind: 'fail', message: `no event type ${JSON.stringify(type)} is declared` };
  return { kind: 'echo', reply: `echo: ${text}` };
}

/** `/slow <ms>` spreads the turn's steps over that many milliseconds (at most ten minutes). */
export function slowMs(text: string): number {
  const match = /^\/slow\s+(\d+)/.exec(text);
  return match ? Math.min(Number(match[1]), 600_000) : 0;
}
