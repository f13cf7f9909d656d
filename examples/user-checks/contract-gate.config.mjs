import { defineConfig } from 'contract-gate/config';

// No target: the checks run against the embedded reference gateway with the default profile's documents.
// Point them at your gateway with `target: 'ws://host:port/ws'` (and `tokenEnv: 'GATEWAY_TOKEN'`).
export default defineConfig({
  seed: 1,
  projects: {
    // CONTRACT_GATE_PROJECT=faulty npx playwright test: the embedded gateway answers session.undo with
    // `removed` as a string and sends session.resume_progress with `phase` as a number.
    faulty: { fault: ['result.wrong-type', 'event.payload-wrong-type'] },
  },
});
