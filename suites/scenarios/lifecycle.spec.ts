import { cellTest, test } from '../../fixtures/index.js';
import { closeResumeCell, deleteLiveCell } from '../../fixtures/scenarios/lifecycleCells.js';

// Session lifecycle rules that span several calls (Hermes spec §3.3–3.5).
test.describe.configure({ mode: 'parallel' });

const SUBJECT = 'lifecycle';

cellTest(SUBJECT, 'scenario.lifecycle-delete-live', deleteLiveCell, { timeout: 15_000 });
cellTest(SUBJECT, 'scenario.lifecycle-close-resume', closeResumeCell, { timeout: 15_000 });
