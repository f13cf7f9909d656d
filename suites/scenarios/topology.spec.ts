import { cellTest, test } from '../../fixtures/index.js';
import { localLaneCell, remoteLaneCell, skewCell, tolerantClientCell } from '../../fixtures/scenarios/topologyCells.js';

// Local vs remote topology (Hermes spec §6): a client on the server's contract, a desktop on the newer contract, the
// desktop's tolerant retry, and the skew analyser's prediction for (desktop contract → target contract) checked live.
test.describe.configure({ mode: 'parallel' });

const SUBJECT = 'topology';

cellTest(SUBJECT, 'scenario.topology-local', localLaneCell, { timeout: 15_000 });
cellTest(SUBJECT, 'scenario.topology-remote', remoteLaneCell, { timeout: 15_000 });
cellTest(SUBJECT, 'scenario.tolerant-client', tolerantClientCell, { timeout: 15_000 });
cellTest(SUBJECT, 'skew.predicted-observed', skewCell, { timeout: 15_000 });
