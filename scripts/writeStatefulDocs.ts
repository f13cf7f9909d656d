// `npm run docs:stateful`: writes docs/stateful.md from the Hermes session model and its exclusion table.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderStatefulDocs } from '../profiles/hermes/stateful/statefulDocs.js';

writeFileSync(join(import.meta.dirname, '..', 'docs', 'stateful.md'), renderStatefulDocs());
process.stdout.write('wrote docs/stateful.md\n');
