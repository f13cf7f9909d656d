import { judgeCell, loadMethodRun, METHOD_CHECKS, methodCellVerdict, runPlan, test } from '../fixtures/index.js';

// Every method of every target contract gets the same battery of checks; each check is one matrix cell,
// judged on the one run of the valid, unknown-key and invalid phases the setup project recorded for that method.
test.describe.configure({ mode: 'parallel' });

for (const contract of runPlan().contracts) {
  for (const method of contract.methods) {
    for (const check of METHOD_CHECKS) {
      judgeCell(method.name, check, (plan) => methodCellVerdict(loadMethodRun(plan, contract, method.name), check, plan));
    }
  }
}
