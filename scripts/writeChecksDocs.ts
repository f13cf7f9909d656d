// `npm run docs:checks`: writes docs/checks.md from the check catalogue (the generic checks and each profile's).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checksDocs } from './checksDocs.js';

writeFileSync(join(import.meta.dirname, '..', 'docs', 'checks.md'), checksDocs());
process.stdout.write('wrote docs/checks.md\n');
