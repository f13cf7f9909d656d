import { cellTest, METHOD_CHECKS, methodCellVerdict, runPlan, test } from '../fixtures/index.js';

// Every method of every target contract gets the same battery of checks; each check is one matrix cell,
// judged on one shared run of the valid, unknown-key and invalid phases for that method.
test.describe.configure({ mode: 'parallel' });

for (const contract of runPlan().contracts) {
  for (const method of contract.methods) {
    for (const check of METHOD_CHECKS) {
      cellTest(method.name, check, async ({ plan, target, methodRuns }) => methodCellVerdict(await methodRuns.get(contract, method.name), check, plan, target), { timeout: 180_000 });
    }
  }
}
