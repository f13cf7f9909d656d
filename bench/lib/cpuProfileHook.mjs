// Preloaded with NODE_OPTIONS="--import <this file>" (Node 20 refuses --cpu-prof there): profiles the whole process
// with the inspector and writes <CPU_PROFILE_DIR>/<role>-<pid>.cpuprofile when it exits, so the CLI, the Playwright
// runner and every worker each leave their own profile.
import { writeFileSync, mkdirSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const dir = process.env.CPU_PROFILE_DIR;
if (dir) {
  mkdirSync(dir, { recursive: true });
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  session.post('Profiler.start');
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    session.post('Profiler.stop', (error, result) => {
      if (error) return;
      const role = process.env.TEST_WORKER_INDEX !== undefined ? `worker${process.env.TEST_WORKER_INDEX}` : process.argv.slice(1, 3).map((a) => a.split('/').pop()).join('-');
      writeFileSync(join(dir, `${role}-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  };
  process.on('beforeExit', write);
  process.on('exit', write);
  for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => { write(); process.exit(130); });
  // Playwright ends workers with process.exit from an IPC message; 'exit' still runs synchronously.
}
