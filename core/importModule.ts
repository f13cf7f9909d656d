/** What loads an ES module by its specifier: `import()` itself, unless the process's entry hands over its own. */
export type ModuleImporter = (specifier: string) => Promise<unknown>;

let importer: ModuleImporter = (specifier) => import(specifier);

/**
 * Makes `importModule` go through `importer`. The command line runs as one script compiled through V8's code cache
 * (cli/codeCache.ts), and in Node 20 a function read from that cache cannot call `import()` itself ("A dynamic
 * import callback was not specified"): its entry, an ES module, lends its own.
 */
export function setModuleImporter(next: ModuleImporter): void {
  importer = next;
}

/**
 * `import()` of what lies outside the bundled command line: a configuration file, a package left out of the bundle
 * (Playwright, tsx's loader). Every such import goes through here; scripts/bundleCli.mjs refuses a bundle with
 * another.
 */
export function importModule<T>(specifier: string): Promise<T> {
  return importer(specifier) as Promise<T>;
}
