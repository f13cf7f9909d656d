import { declareFamily } from '../../fixtures/index.js';

// Session lifecycle: deleting a live session, and close → resume keeping what was stored.
declareFamily('lifecycle');
