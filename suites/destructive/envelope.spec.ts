import { declareFamily } from '../../fixtures/index.js';

// Frames a fragile target may not survive (non-JSON, malformed requests, batches, an oversized frame): this project
// runs after every other cell. Each rule also checks that the connection survives.
declareFamily('destructive');
