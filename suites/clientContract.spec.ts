import { cellTest, clientContractVerdict, runPlan, test } from '../fixtures/index.js';

// The skew gate: with --client-contract, every payload a client on that contract may send (every optional key
// populated at least once) must be accepted by the target. Without it, this file declares nothing.
test.describe.configure({ mode: 'parallel' });

const { clientContract } = runPlan();
for (const method of clientContract?.methods ?? []) {
  cellTest(method.name, 'skew.client-contract', async ({ plan, target }) => clientContractVerdict(plan, target, method));
}
