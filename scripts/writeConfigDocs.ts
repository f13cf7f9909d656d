// `npm run docs`: writes docs/configuration.md and docs/config.schema.json from the option table.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderConfigurationDocs } from '../src/config/configDocs.js';
import { configFileSchema } from '../src/config/configSchema.js';

const docs = join(import.meta.dirname, '..', 'docs');
writeFileSync(join(docs, 'configuration.md'), renderConfigurationDocs());
writeFileSync(join(docs, 'config.schema.json'), `${JSON.stringify(configFileSchema(), null, 2)}\n`);
process.stdout.write('wrote docs/configuration.md and docs/config.schema.json\n');
