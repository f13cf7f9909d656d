import { declareFamily } from '../../fixtures/index.js';

// Server→client requests: each one the contracts declare is provoked with the reference gateway's /request turn,
// answered, left unanswered until its session closes, and left open across a dropped connection.
declareFamily('serverRequests');
