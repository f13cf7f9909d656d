/** Registers the module hooks of test/typescriptHooks.mjs in this process, once. */
export function registerTypescriptHooks(): void;
/** Removes the oldest compiled files of `dir` once it holds more than `max`, down to `keep`; returns how many went. */
export function pruneCompileCache(dir: string, max?: number, keep?: number): number;
