import { declareFamily } from '../fixtures/index.js';

// The auth boundary of a gated target: refused credentials, the subprotocol rules, the Origin guard.
declareFamily('auth');
