import { declareProfileCells } from '../fixtures/index.js';

// The profile's own families (its scenarios, stateful runs, auth boundary): see the profile's `cells`.
declareProfileCells('cells');
