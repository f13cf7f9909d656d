import type { Contract } from '../contracts/index.js';
import { analyseSkew, sideOf } from './analyseSkew.js';
import { countFindings } from './renderSkew.js';
import type { SkewMatrix, SkewMatrixCell, SkewOptions } from './skewTypes.js';

/**
 * Every ordered pair (client × server) of the given versions, diagonal included (a document against itself is
 * always clean). Rows are clients, columns servers, as in Pact's can-i-deploy matrix.
 */
export function analyseSkewMatrix(contracts: readonly Contract[], options: SkewOptions = {}): SkewMatrix {
  const cells: SkewMatrixCell[] = [];
  contracts.forEach((client, clientIndex) => {
    contracts.forEach((server, serverIndex) => {
      const report = analyseSkew(client, server, options);
      cells.push({ client: clientIndex, server: serverIndex, breaking: report.breaking, counts: countFindings(report.findings), findings: report.findings });
    });
  });
  return { contracts: contracts.map(sideOf), cells, breaking: cells.some((cell) => cell.breaking) };
}
