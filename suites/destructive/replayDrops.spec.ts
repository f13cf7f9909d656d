import { declareFamily } from '../../fixtures/index.js';

// Replay after an abnormal drop, a drop mid-stream and a gateway restart: after every other cell, one at a time.
declareFamily('replayDrops');
