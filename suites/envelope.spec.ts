import { batchVerdict, cellTest, idTypesVerdict, invalidRequestVerdict, oversizedVerdict, parseErrorVerdict, test, unknownMethodVerdict } from '../fixtures/index.js';

// Connection-level JSON-RPC rules: frames no method owns. Each rule also checks that the connection survives.
test.describe.configure({ mode: 'parallel' });

const SUBJECT = '(connection)';

cellTest(SUBJECT, 'envelope.parse-error', async ({ connect, plan }) => parseErrorVerdict(await connect(), plan));
cellTest(SUBJECT, 'envelope.invalid-request', async ({ connect, plan }) => invalidRequestVerdict(await connect(), plan));
cellTest(SUBJECT, 'envelope.batch', async ({ connect, plan }) => batchVerdict(await connect(), plan));
cellTest(SUBJECT, 'envelope.oversized-frame', async ({ connect, plan }) => oversizedVerdict(await connect(), plan));
cellTest(SUBJECT, 'envelope.id-types', async ({ connect, plan }) => idTypesVerdict(await connect(), plan));
cellTest(SUBJECT, 'envelope.unknown-method', async ({ connect, plan }) => unknownMethodVerdict(await connect(), plan));
