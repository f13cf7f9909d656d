// The package.json that `npm pack` puts in the tarball has no `prepare` script. In a clone, `prepare` builds dist/ on
// `npm ci`; the tarball ships dist/ built, and npm never runs a tarball's `prepare` when installing it. npm 11 still
// lists it on every install ("1 package has install scripts not yet covered by allowScripts"), which asks each new
// user to review a script that does nothing for them. So `prepack` strips it from package.json, keeping the file as
// it was beside it, and `postpack` puts that file back.
//
//   node scripts/packManifest.mjs strip|restore [path/to/package.json]
//
// A pack that fails between the two leaves package.json stripped and the original beside it: the next `strip` finds
// nothing to strip, and the next `restore` puts the original back.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const [mode, manifestArg] = process.argv.slice(2);
const manifestPath = resolve(manifestArg ?? fileURLToPath(new URL('../package.json', import.meta.url)));
const kept = join(dirname(manifestPath), '.package.json.before-pack');

if (mode === 'strip') {
  const text = readFileSync(manifestPath, 'utf8');
  const manifest = JSON.parse(text);
  if (manifest.scripts?.prepare !== undefined) {
    writeFileSync(kept, text);
    delete manifest.scripts.prepare;
    writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  }
} else if (mode === 'restore') {
  if (existsSync(kept)) renameSync(kept, manifestPath);
} else {
  process.stderr.write('usage: node scripts/packManifest.mjs strip|restore [path/to/package.json]\n');
  process.exit(2);
}
