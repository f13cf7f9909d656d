import { declareFamily } from '../fixtures/index.js';

// With --client-contract: every payload a client on that contract may send must be accepted by the target.
declareFamily('clientContract');
