import { HarnessError } from '../../core/index.js';

export type TargetKind = 'ws' | 'http' | 'stdio';

const STDIO_PREFIX = 'stdio:';

function parseUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    throw new HarnessError('USAGE', `target "${url}" is not a URL; pass ws://host:port/api/ws or http(s)://host:port/api/rpc`, { cause: error });
  }
  if (!['ws:', 'wss:', 'http:', 'https:'].includes(parsed.protocol)) {
    throw new HarnessError('USAGE', `target "${url}" must use ws:, wss:, http: or https:`);
  }
  return parsed;
}

/** Adds query parameters to a gateway URL; a parameter the URL already carries is kept as it is. */
export function withQuery(url: string, query: Readonly<Record<string, string>> = {}): string {
  const parsed = parseUrl(url);
  for (const [key, value] of Object.entries(query)) if (!parsed.searchParams.has(key)) parsed.searchParams.set(key, value);
  return parsed.toString();
}

/** Adds `token=<token>` to a gateway URL unless the URL already carries a token or ticket. */
export function withToken(url: string, token: string | undefined): string {
  const parsed = parseUrl(url);
  if (token && !parsed.searchParams.has('token') && !parsed.searchParams.has('ticket')) {
    parsed.searchParams.set('token', token);
  }
  return parsed.toString();
}

/** The token already present in a target URL (`?token=`), if any. */
export function tokenInUrl(url: string): string | undefined {
  try {
    return new URL(url).searchParams.get('token') ?? undefined;
  } catch {
    return undefined;
  }
}

export function isHttpTarget(url: string): boolean {
  return /^https?:/i.test(url);
}

export function isStdioTarget(target: string): boolean {
  return target.startsWith(STDIO_PREFIX);
}

/** The command line of a `stdio:<command line>` target. */
export function stdioCommandLine(target: string): string {
  return target.slice(STDIO_PREFIX.length).trim();
}

/** Which transport a target string asks for: `ws(s)://`, `http(s)://` or `stdio:`. */
export function targetKind(target: string): TargetKind {
  if (isStdioTarget(target)) return 'stdio';
  if (isHttpTarget(target)) return 'http';
  if (/^wss?:/i.test(target)) return 'ws';
  try {
    new URL(target);
  } catch (error) {
    throw new HarnessError('USAGE', `target "${target}" is not a URL; pass ws://host:port/api/ws, http(s)://host:port/api/rpc or stdio:<command line>`, { cause: error });
  }
  throw new HarnessError('USAGE', `target "${target}" must use ws:, wss:, http:, https: or stdio:`);
}
