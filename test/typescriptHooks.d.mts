/** Registers the module hooks of test/typescriptHooks.mjs in this process, once. */
export function registerTypescriptHooks(): void;
