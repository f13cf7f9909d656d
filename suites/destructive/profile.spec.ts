import { declareProfileCells } from '../../fixtures/index.js';

// The profile's own cells that a fragile target may not survive (drops, restarts): after everything else, one at a time.
declareProfileCells('destructive');
