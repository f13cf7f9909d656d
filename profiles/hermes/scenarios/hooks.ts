export { HookPayloadCheck, HOOK_EVENT } from './hookPayloadCheck.js';
export { HOOK_WAIT_MS, HookObserver, NO_DOCUMENT, NOT_DECLARED, type HookClient, type SeenHook } from './hookObserver.js';
export { onceVerdict } from './onceVerdict.js';
export { type HookScenarioContext } from './runHookScenario.js';
export { buildFailureVerdict, cleanupExceptionVerdict, normalCloseVerdict, resetVerdict } from './hookScenarios.js';
export { type HookVerdict } from './hookVerdict.js';
export { pluginFailureVerdict, REFERENCE_ONLY, type SiblingGateway, type StartSibling } from './pluginFailureVerdict.js';
