/**
 * The notes model against the reference gateway serving notes.openrpc.json. The reference gateway has no handlers
 * for this document, so it answers every call with a schema-valid value and keeps no state: the model finds that,
 * shrinks it, and writes a replay file. Run: npx tsx examples/stateful-notes/run.ts
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startGateway } from 'contract-gate/gateway';
import { describeStep, replayStateful, RpcClient, runStateful, type SystemFactory } from 'contract-gate/stateful';
import { notesModel, type NotesSystem } from './notesModel.js';

const here = dirname(fileURLToPath(import.meta.url));
const gateway = await startGateway({ contractPaths: [join(here, 'notes.openrpc.json')] });
const systems: { target: SystemFactory<NotesSystem> } = {
  target: {
    open: async () => ({ client: await RpcClient.connect({ url: gateway.url, readyTimeoutMs: 0 }), ids: new Set<string>() }),
    close: async (system) => void (await system.client.close()),
  },
};
try {
  const result = await runStateful(notesModel, systems, 'model', { seed: Number(process.env['SEED'] ?? 1), runs: 50, maxSteps: 20, referenceDirectives: false });
  if (result.ok) {
    process.stdout.write(`the notes model holds: ${result.timings.sequences} sequences, ${result.timings.commands} calls\n`);
  } else {
    process.stdout.write(`seed ${result.seed}: shrunk to ${result.steps.length} call(s)\n`);
    result.steps.forEach((step, index) => process.stdout.write(`${index + 1}. ${describeStep(notesModel, step)}\n`));
    process.stdout.write(`step ${result.failure?.index}: ${result.failure?.message}\n`);
    const again = await replayStateful(notesModel, systems, 'model', result.steps);
    process.stdout.write(`replayed: ${again.failure ? `fails again at step ${again.failure.index}` : 'holds now'}\n`);
  }
} finally {
  await gateway.close();
}
