#!/usr/bin/env node
// The CLI is written in TypeScript and run through tsx's loader, so no build step is needed.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
