import { cellTest, idTypesVerdict, test, unknownMethodVerdict } from '../fixtures/index.js';

// Connection-level JSON-RPC rules that send only well-formed frames. The junk, batch and oversized frames run
// last, in suites/destructive/, because a target may not survive them.
test.describe.configure({ mode: 'parallel' });

const SUBJECT = '(connection)';

cellTest(SUBJECT, 'envelope.id-types', async ({ connect, plan }) => idTypesVerdict(await connect(), plan));
cellTest(SUBJECT, 'envelope.unknown-method', async ({ connect, plan }) => unknownMethodVerdict(await connect(), plan));
