import type { IncomingHttpHeaders } from 'node:http';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
const WILDCARD = new Set(['0.0.0.0', '::', '[::]']);

export interface BoundAddress {
  readonly host: string;
  readonly port: number;
}

function hostsOf(bound: BoundAddress, allowedOrigins: readonly string[]): Set<string> | 'any' {
  if (WILDCARD.has(bound.host)) return 'any';
  const names = LOOPBACK.has(bound.host) ? [...LOOPBACK] : [bound.host.includes(':') && !bound.host.startsWith('[') ? `[${bound.host}]` : bound.host];
  const hosts = new Set(names.map((name) => `${name}:${bound.port}`));
  for (const origin of allowedOrigins) {
    try {
      hosts.add(new URL(origin).host);
    } catch {
      // Not a URL: it can only match an Origin header verbatim.
    }
  }
  return hosts;
}

/**
 * The dashboard's DNS-rebinding guard on an upgrade: the Host header must name the bound host (or a host of an
 * allowed public origin), and an Origin header, when sent, must be that same host or one of the allowed origins.
 * Returns why the request is refused, or undefined.
 */
export function hostOriginRefusal(headers: IncomingHttpHeaders, bound: BoundAddress, allowedOrigins: readonly string[]): string | undefined {
  const host = headers.host ?? '';
  const hosts = hostsOf(bound, allowedOrigins);
  if (hosts !== 'any' && !hosts.has(host.toLowerCase())) return `host_mismatch host=${host || '?'}`;
  const origin = headers.origin;
  if (origin === undefined || allowedOrigins.includes(origin)) return undefined;
  if (origin === `http://${host}` || origin === `https://${host}`) return undefined;
  return `origin_mismatch origin=${origin.slice(0, 80)}`;
}
