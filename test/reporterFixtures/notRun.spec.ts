import { expect, test } from '@playwright/test';

// Run with --max-failures=1 --workers=1: the first failure stops the run, so the later cells never run.
const cell = (method: string, check: string) => ({ tag: [`@method:${method}`, `@check:${check}`] });

test('stops the run', cell('gateway.ping', 'result.schema'), () => {
  expect('stop').toBe('go');
});

test('never runs', cell('gateway.ping', 'params.valid-accepted'), () => {});

test('never runs either', cell('session.create', 'event.envelope'), () => {});
