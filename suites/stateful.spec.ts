import { declareFamily } from '../fixtures/index.js';

// Random call sequences of the session model, judged by its postconditions and against a fresh reference gateway
// (fixtures/cellCatalogue.ts lists the cells, fixtures/statefulCells.ts runs them).
declareFamily('stateful');
