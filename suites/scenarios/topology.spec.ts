import { declareFamily } from '../../fixtures/index.js';

// Local vs remote topology (Hermes spec §6): a client on the server's contract, a desktop on the newer contract, the
// desktop's tolerant retry, and the skew analyser's prediction checked live.
declareFamily('topology');
