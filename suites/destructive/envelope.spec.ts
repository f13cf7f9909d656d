import { batchVerdict, cellTest, invalidRequestVerdict, oversizedVerdict, parseErrorVerdict, test } from '../../fixtures/index.js';

// Frames a fragile target may not survive (non-JSON, malformed requests, batches, an oversized frame): they run
// after every other cell of the run. Each rule also checks that the connection survives.
test.describe.configure({ mode: 'parallel' });

const SUBJECT = '(connection)';

cellTest(SUBJECT, 'envelope.parse-error', async ({ connect, plan }) => parseErrorVerdict(await connect(), plan));
cellTest(SUBJECT, 'envelope.invalid-request', async ({ connect, plan }) => invalidRequestVerdict(await connect(), plan));
cellTest(SUBJECT, 'envelope.batch', async ({ connect, plan }) => batchVerdict(await connect(), plan));
cellTest(SUBJECT, 'envelope.oversized-frame', async ({ connect, plan }) => oversizedVerdict(await connect(), plan));
