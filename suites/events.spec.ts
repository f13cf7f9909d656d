import { declareFamily } from '../fixtures/index.js';

// Every declared event, judged on the events the setup project saw while driving the session lifecycle; seq is
// judged across all session events at once.
declareFamily('events');
