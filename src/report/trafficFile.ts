import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MatrixTraffic } from './matrixTypes.js';

/** What the workers sent, added up (each worker writes its own counts into test-output/work/traffic/ when it ends). */
export function readTraffic(reportDir: string): MatrixTraffic | undefined {
  const dir = join(reportDir, 'test-output', 'work', 'traffic');
  if (!existsSync(dir)) return undefined;
  const all = readdirSync(dir).map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as MatrixTraffic);
  return all.reduce((sum, one) => ({ requestsSent: sum.requestsSent + one.requestsSent, peakInFlight: Math.max(sum.peakInFlight, one.peakInFlight), timeouts: sum.timeouts + one.timeouts }), { requestsSent: 0, peakInFlight: 0, timeouts: 0 });
}
