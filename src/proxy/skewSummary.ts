import type { Contract } from '../contracts/contractModel.js';
import { analyseSkew, type SkewOptions } from '../skew/index.js';
import type { SkewObservation } from './frameJudge.js';

const side = (contract: Contract): string => `${contract.title} v${contract.version}`;

/**
 * One line per key (or method) the watched client sent that the server contract forbids:
 * `client on <client contract> vs server on <server contract>: <method>.<path>`, with the gateway's answer and
 * whether `contract-gate skew` predicts it for the two documents. Keys the client's own contract does not allow
 * either are a client defect, not skew, and are left out.
 */
export function skewSummary(observations: Iterable<SkewObservation>, server: Contract, client: Contract | undefined, serverCodes?: SkewOptions['serverCodes']): string[] {
  const predicted = client ? analyseSkew(client, server, serverCodes ? { serverCodes } : {}).findings.filter((f) => f.direction === 'request' || f.direction === 'method') : [];
  const clientSide = client ? side(client) : 'an unknown contract (pass --client-contract to name it)';
  const lines: string[] = [];
  for (const seen of observations) {
    if (seen.clientAllows === false) continue;
    const where = seen.path === '' ? seen.method : `${seen.method}.${seen.path}`;
    const match = predicted.find((f) => f.method === seen.method && (f.path === seen.path || (seen.path === '' && f.kind === 'method-missing')));
    const prediction = client ? (match ? `; predicted by contract-gate skew (${match.kind}, ${match.severity})` : '; not predicted by contract-gate skew for these two documents') : '';
    lines.push(`client on ${clientSide} vs server on ${side(server)}: ${where} (the gateway answered ${seen.answer})${prediction}`);
  }
  return lines.sort();
}
