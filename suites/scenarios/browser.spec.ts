import { cellTest, test } from '../../fixtures/index.js';
import { browserLaneCell, REMOTE_LANE_PAGE } from '../../fixtures/scenarios/browserLane.js';

// The remote lane from a real browser: a static page opens the WebSocket from Chromium and sends the desktop's create.
test.describe.configure({ mode: 'parallel' });

cellTest('topology', 'scenario.browser-remote-lane', browserLaneCell(REMOTE_LANE_PAGE), { timeout: 30_000 });
