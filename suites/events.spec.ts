import { EVENTS_GROUP, eventEnvelopeVerdict, eventPayloadVerdict, judgeCell, loadEventSample, runPlan, seqVerdict, test, validatorsFor } from '../fixtures/index.js';

// Every event the contracts declare, judged on the events the setup project saw while driving the session
// lifecycle; seq is judged across all session events at once.
test.describe.configure({ mode: 'parallel' });

const plan = runPlan();
const options = { group: EVENTS_GROUP };
for (const contract of plan.contracts) {
  for (const event of contract.events) {
    judgeCell(event.name, 'event.envelope', (p) => eventEnvelopeVerdict(event, loadEventSample(p)), options);
    judgeCell(event.name, 'event.payload-schema', (p) => eventPayloadVerdict(event, loadEventSample(p), validatorsFor(contract)), options);
  }
}
if (plan.contracts.some((contract) => contract.events.length > 0)) {
  judgeCell('(session events)', 'event.seq-monotonic', (p) => seqVerdict(loadEventSample(p)), options);
}
