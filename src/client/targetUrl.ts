import { HarnessError } from '../../core/index.js';

/** Adds `token=<token>` to a gateway URL unless the URL already carries a token or ticket. */
export function withToken(url: string, token: string | undefined): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    throw new HarnessError('USAGE', `target "${url}" is not a URL; pass ws://host:port/api/ws or http(s)://host:port/api/rpc`, { cause: error });
  }
  if (!['ws:', 'wss:', 'http:', 'https:'].includes(parsed.protocol)) {
    throw new HarnessError('USAGE', `target "${url}" must use ws:, wss:, http: or https:`);
  }
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
