import { declareFamily } from '../../fixtures/index.js';

// Session lifecycle hooks (the session-hooks extension), observed from a second connection subscribed to them.
declareFamily('hooks');
