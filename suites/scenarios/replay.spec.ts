import { cellTest, test } from '../../fixtures/index.js';
import { dropReplayCell, epochCell, overflowCell, statsCell, watermarkAheadCell } from '../../fixtures/scenarios/replayCells.js';

// Reconnect replay (Hermes spec §4): drops of three kinds, ring overflow, stale watermarks, epochs and ring stats.
test.describe.configure({ mode: 'parallel' });

const SUBJECT = 'replay';

cellTest(SUBJECT, 'scenario.replay-clean-close', dropReplayCell('clean-close'), { timeout: 15_000 });
cellTest(SUBJECT, 'scenario.replay-abnormal-drop', dropReplayCell('abnormal-drop'), { timeout: 15_000 });
cellTest(SUBJECT, 'scenario.replay-mid-stream', dropReplayCell('mid-stream'), { timeout: 15_000 });
cellTest(SUBJECT, 'scenario.replay-overflow', overflowCell, { timeout: 30_000 });
cellTest(SUBJECT, 'scenario.replay-watermark-ahead', watermarkAheadCell, { timeout: 15_000 });
cellTest(SUBJECT, 'scenario.replay-epoch', epochCell, { timeout: 15_000 });
cellTest(SUBJECT, 'scenario.replay-stats', statsCell, { timeout: 15_000 });
