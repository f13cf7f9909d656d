import { validatorStore } from '../../core/validatorCache.js';
import { hostGateways } from '../../gateway/host/hostLoop.js';

/**
 * The child process that hosts a run's embedded gateways (placement `child-process`): the gateway's host loop with
 * the harness's validator cache, as every embedded gateway in the run's own process has it. Without it each run's
 * host compiled every validator its gateways checked (about 1 s of CPU on the full Hermes document).
 */
hostGateways({ validatorStore });
