import { cellTest, eventEnvelopeVerdict, eventPayloadVerdict, runPlan, seqVerdict, test } from '../fixtures/index.js';

// Every event the contracts declare (x-notifications), judged on the events seen while driving the session
// lifecycle; seq is judged across all session events at once.
test.describe.configure({ mode: 'parallel' });

const plan = runPlan();
for (const contract of plan.contracts) {
  for (const event of contract.events) {
    cellTest(event.name, 'event.envelope', async ({ eventSample }) => eventEnvelopeVerdict(event, await eventSample()));
    cellTest(event.name, 'event.payload-schema', async ({ eventSample, methodRuns }) => eventPayloadVerdict(event, await eventSample(), methodRuns.validatorsFor(contract)));
  }
}
if (plan.contracts.some((contract) => contract.events.length > 0)) {
  cellTest('(session events)', 'event.seq-monotonic', async ({ eventSample }) => seqVerdict(await eventSample()));
}
