import { cellSelected, EVENTS_GROUP, METHOD_CHECKS, PREPARE_TAG, recordEventSample, recordMethodRun, runPlan, test } from '../../fixtures/index.js';

// The setup project: each method's three phases run once, and the event sample is taken once, before the cells
// that judge them. These tests never fail: what went wrong is recorded for the cells to report.
test.describe.configure({ mode: 'parallel' });

const plan = runPlan();

for (const contract of plan.contracts) {
  for (const method of contract.methods) {
    if (!METHOD_CHECKS.some((check) => cellSelected(plan, method.name, check))) continue;
    test(`run › ${method.name}`, { tag: PREPARE_TAG }, async ({ plan, targetAttempt }) => {
      test.setTimeout(180_000);
      await recordMethodRun(plan, targetAttempt, contract, method.name);
    });
  }
}

const eventCells = plan.contracts.flatMap((contract) => contract.events.map((event) => event.name));
const eventsSelected = [...eventCells, '(session events)'].some(
  (subject) => cellSelected(plan, subject, 'event.envelope', EVENTS_GROUP) || cellSelected(plan, subject, 'event.payload-schema', EVENTS_GROUP) || cellSelected(plan, subject, 'event.seq-monotonic', EVENTS_GROUP),
);
if (eventCells.length > 0 && eventsSelected) {
  test('events › sample', { tag: PREPARE_TAG }, async ({ plan, targetAttempt }) => {
    test.setTimeout(120_000);
    await recordEventSample(plan, targetAttempt);
  });
}
