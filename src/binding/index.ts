export { Binder, resolveTemplates, type RpcCaller } from './binder.js';
export { loadBindingRules, methodBindingOf, NO_BINDINGS, parseBindingRules, type BindingRules, type BindingStep, type MethodBinding, type ResourceRule } from './bindingRules.js';
