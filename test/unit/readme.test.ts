import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allChecks } from '../../profiles/index.js';

const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

test('the README opens with the two commands: install and run, then the tests', () => {
  const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const commands = firstBlock.split('\n').map((line) => line.replace(/#.*$/, '').trim()).filter(Boolean);
  expect(commands).toEqual(['npm ci && npx contract-gate run', 'npm test']);
});

test('the README documents every public check id', () => {
  const missing = allChecks().ids.filter((id) => !readme.includes(`\`${id}\``));
  expect(missing).toEqual([]);
});
