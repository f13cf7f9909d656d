import { cellTest, test } from '../../fixtures/index.js';
import {
  hookBuildFailureCell,
  hookCleanupExceptionCell,
  hookNormalCloseCell,
  hookOnceCell,
  hookPluginFailureCell,
  hookResetCell,
} from '../../fixtures/hookScenarios.js';

// Session lifecycle hooks (the session-hooks extension), observed from a second connection subscribed to them.
// A target that does not declare hooks.subscribe gets every cell reported as not applicable.
test.describe.configure({ mode: 'parallel' });

const SUBJECT = 'hooks';

cellTest(SUBJECT, 'scenario.hooks-cleanup-exception', hookCleanupExceptionCell);
cellTest(SUBJECT, 'scenario.hooks-normal-close', hookNormalCloseCell);
cellTest(SUBJECT, 'scenario.hooks-reset', hookResetCell);
cellTest(SUBJECT, 'scenario.hooks-build-failure', hookBuildFailureCell);
cellTest(SUBJECT, 'scenario.hooks-once', hookOnceCell);
cellTest(SUBJECT, 'scenario.hooks-plugin-failure', hookPluginFailureCell);
