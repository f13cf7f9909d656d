import { declareFamily } from '../../fixtures/index.js';

// Reconnect with event replay (Hermes spec): drops at different points, ring overflow, watermark ahead, epoch, stats.
declareFamily('replay');
