import { hostGateways } from './hostLoop.js';

/**
 * The child process that hosts reference gateways for its parent (gateway/host/hostedGateway.ts), on the gateway's
 * own: no validator store. A parent that has one names an entry of its own that passes it to `hostGateways`.
 */
hostGateways();
