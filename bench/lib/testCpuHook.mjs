// Preloaded into every Node process of a run of the harness's tests (NODE_OPTIONS="--import <this file>", set by
// bench/testCpu.ts). Writes into TEST_CPU_DIR, one file per process, so that concurrent writers never interleave:
// - at exit, the process's own CPU (user, system) and what its reaped children used, with its command line;
// - in a Playwright worker, the CPU of each test: the worker's own and its reaped children's (CLI runs, servers,
//   nested Playwright runs), read from /proc/self/stat when the worker reports the test's start and its end.
// Playwright's worker reports tests through process.send ({ method: '__dispatch__', params: { method: 'testBegin' |
// 'testEnd', params: { testId } } }), an internal message: if it changes, no test is recorded and the driver says so.
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.TEST_CPU_DIR;
/** USER_HZ: the kernel counts process CPU in hundredths of a second. */
const TICK_S = 0.01;

/** [own user+system, reaped children's user+system] in seconds, from /proc/self/stat (Linux). */
function cpuNow() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return [(Number(fields[11]) + Number(fields[12])) * TICK_S, (Number(fields[13]) + Number(fields[14])) * TICK_S];
}

function record(kind, entry) {
  try {
    appendFileSync(join(dir, `${kind}-${process.pid}.jsonl`), `${JSON.stringify(entry)}\n`);
  } catch {
    // A lost record is a gap in the table, never a failure of the process being measured.
  }
}

if (dir) {
  process.on('exit', () => {
    const usage = process.cpuUsage();
    let reaped = 0;
    try {
      reaped = cpuNow()[1];
    } catch {}
    record('process', { pid: process.pid, ppid: process.ppid, argv: process.argv.slice(1).join(' ').slice(0, 400), user: usage.user / 1e6, system: usage.system / 1e6, reaped });
  });

  if (typeof process.send === 'function' && process.argv.some((arg) => arg.includes('workerProcessEntry'))) {
    const send = process.send.bind(process);
    const begun = new Map();
    process.send = (message, ...rest) => {
      try {
        const event = message && message.method === '__dispatch__' ? message.params : undefined;
        const testId = event && event.params && event.params.testId;
        if (event && event.method === 'testBegin') begun.set(testId, cpuNow());
        else if (event && event.method === 'testEnd' && begun.has(testId)) {
          const [own, reaped] = cpuNow();
          const [ownBefore, reapedBefore] = begun.get(testId);
          begun.delete(testId);
          record('test', { testId, own: own - ownBefore, withChildren: own - ownBefore + reaped - reapedBefore, durationMs: event.params.duration });
        }
      } catch {}
      return send(message, ...rest);
    };
  }
}
