#!/usr/bin/env node
// The `idv` command: TypeScript sources run through tsx's loader, no build step.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import(new URL('../src/server/cli/main.ts', import.meta.url).href);
process.exitCode = await runCli(process.argv.slice(2));
