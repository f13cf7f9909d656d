import { declarePreparations } from '../../fixtures/index.js';

// The setup project: each selected method's three phases run once, and the event sample is taken once, before
// the cells that judge them. These tests never fail: what went wrong is recorded for the cells to report.
declarePreparations();
