import { declareFamily } from '../fixtures/index.js';

// Every method of every target contract gets the same battery of checks, judged on the one run of its valid,
// unknown-key and invalid phases that the setup project recorded (fixtures/cellCatalogue.ts lists the cells).
declareFamily('methods');
