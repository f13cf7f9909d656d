import { fileURLToPath } from 'node:url';
import { cellTest, test } from '../../fixtures/index.js';
import { browserLaneCell } from '../../fixtures/scenarios/browserLane.js';

// The remote lane from a real browser: a static page opens the WebSocket from Chromium and sends the desktop's create.
test.describe.configure({ mode: 'parallel' });

const PAGE = fileURLToPath(new URL('./pages/remote-lane.html', import.meta.url));

cellTest('topology', 'scenario.browser-remote-lane', browserLaneCell(PAGE), { timeout: 30_000 });
